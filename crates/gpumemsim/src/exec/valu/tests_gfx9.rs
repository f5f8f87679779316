//! gfx942's VALU instructions that run as they are (`crate::target::gfx9::runs_as_is`), pinned
//! where the documents leave a choice: `v_lshl_add_u64`'s 3-bit shift, the packed-f32
//! operations' dword selects and constants, `v_pk_mov_b32`'s sources.

use rdna3_isa::{Field, Instruction};

use crate::target::gfx9::gfx940_opcode;
use crate::wave::Wave;

fn inst(name: &str) -> Instruction {
    Instruction::new(gfx940_opcode(name).unwrap_or_else(|| panic!("{name} in the gfx942 table")))
}

fn wave() -> Wave {
    let mut w = Wave::new(0, 64);
    w.set_exec(u64::MAX);
    w
}

fn pair(w: &mut Wave, reg: u32, v: u64) {
    for l in 0..64 {
        w.set_vgpr(reg, l, v as u32);
        w.set_vgpr(reg + 1, l, (v >> 32) as u32);
    }
}

fn read_pair(w: &Wave, reg: u32) -> u64 {
    w.vgpr(reg, 0) as u64 | (w.vgpr(reg + 1, 0) as u64) << 32
}

/// D = (S0 << S1[2:0]) + S2, 64-bit: a shift of 9 shifts by 1.
#[test]
fn lshl_add_u64_shifts_by_three_bits_of_s1() {
    let mut w = wave();
    pair(&mut w, 2, 0x1_0000_0003);
    pair(&mut w, 4, 0x10);
    let mut i = inst("v_lshl_add_u64");
    i.set(Field::Vdst, 0);
    i.set(Field::Src0, 256 + 2);
    i.set(Field::Src1, 128 + 9); // the inline constant 9
    i.set(Field::Src2, 256 + 4);
    super::execute(&i, &mut w)
        .map_err(|_| "unimplemented")
        .expect("runs");
    assert_eq!(read_pair(&w, 0), (0x1_0000_0003u64 << 1) + 0x10);
}

/// The low result reads dword op_sel[i] of each source, the high one dword op_sel_hi[i];
/// a constant is its 32 bits in both dwords.
#[test]
fn packed_f32_selects_dwords_and_reads_constants_in_both() {
    let mut w = wave();
    pair(
        &mut w,
        2,
        (3.0f32.to_bits() as u64) << 32 | 1.0f32.to_bits() as u64,
    );
    let mut i = inst("v_pk_add_f32");
    i.set(Field::Vdst, 0);
    i.set(Field::Src0, 256 + 2);
    i.set(Field::Src1, 242); // the inline constant 1.0
    i.set(Field::OpSel, 0);
    i.set(Field::OpSelHi, 0b11);
    super::execute_vop3p(&i, &mut w)
        .map_err(|_| "unimplemented")
        .expect("runs");
    let (lo, hi) = (w.vgpr(0, 0), w.vgpr(1, 0));
    assert_eq!((f32::from_bits(lo), f32::from_bits(hi)), (2.0, 4.0));
    // op_sel[0] = 1: the low result reads the high dword of source 0 too.
    i.set(Field::OpSel, 1);
    super::execute_vop3p(&i, &mut w)
        .map_err(|_| "unimplemented")
        .expect("runs");
    assert_eq!(f32::from_bits(w.vgpr(0, 0)), 4.0);
}

/// `v_pk_mov_b32`: the low dword from source 0 (op_sel[0] picks which), the high one from
/// source 1 (op_sel[1]).
#[test]
fn pk_mov_b32_takes_one_dword_of_each_source() {
    let mut w = wave();
    pair(&mut w, 2, 0x2222_2222_1111_1111);
    pair(&mut w, 4, 0x4444_4444_3333_3333);
    let mut i = inst("v_pk_mov_b32");
    i.set(Field::Vdst, 0);
    i.set(Field::Src0, 256 + 2);
    i.set(Field::Src1, 256 + 4);
    i.set(Field::OpSel, 0b10);
    super::execute_vop3p(&i, &mut w)
        .map_err(|_| "unimplemented")
        .expect("runs");
    assert_eq!(read_pair(&w, 0), 0x4444_4444_1111_1111);
    i.set(Field::OpSel, 0b01);
    super::execute_vop3p(&i, &mut w)
        .map_err(|_| "unimplemented")
        .expect("runs");
    assert_eq!(read_pair(&w, 0), 0x3333_3333_2222_2222);
}
