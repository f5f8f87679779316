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

/// A gfx942 SDWA instruction written as text, run on `w` through its lowering.
fn run_sdwa(text: &str, w: &mut Wave) {
    let sdwa = rdna3_isa::gfx9::parse::parse_instruction(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .inst;
    assert!(sdwa.sdwa(), "{text}");
    let lowered = crate::target::gfx9::lower(&sdwa, &Default::default()).expect("lowers");
    super::execute_sdwa(&lowered, &sdwa, w)
        .map_err(|_| "unimplemented")
        .expect("runs");
}

fn fill(w: &mut Wave, reg: u32, v: u32) {
    for l in 0..64 {
        w.set_vgpr(reg, l, v);
    }
}

/// A 16-bit operation reads the low half of each selected source; its result, zero above 16
/// bits, goes where `dst_sel` says.
#[test]
fn sdwa_16_bit_operations_read_selected_halves_and_place_their_result() {
    let (one, two, three) = (0x3c00u32, 0x4000u32, 0x4200u32); // 1.0, 2.0, 3.0 as f16
    let mut w = wave();
    fill(&mut w, 1, one << 16 | 0x7777); // v1.hi = 1.0
    fill(&mut w, 2, 0x5555 << 16 | two); // v2.lo = 2.0
    fill(&mut w, 0, 0xaaaa_bbbb);
    run_sdwa(
        "v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_1 src1_sel:WORD_0",
        &mut w,
    );
    assert_eq!(
        w.vgpr(0, 5),
        three << 16 | 0xbbbb,
        "3.0 in the high half, the low kept"
    );
    run_sdwa(
        "v_add_f16_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:WORD_0",
        &mut w,
    );
    assert_eq!(
        w.vgpr(0, 5),
        three,
        "dst_sel:DWORD: zero above the 16-bit result"
    );
    // A byte select of a 16-bit integer source, sign-extended: -1 + 5 = 4.
    fill(&mut w, 3, 0x00ff_0000);
    fill(&mut w, 4, 5);
    run_sdwa(
        "v_add_u16_sdwa v0, sext(v3), v4 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:BYTE_2 src1_sel:DWORD",
        &mut w,
    );
    assert_eq!(w.vgpr(0, 7), 4);
    // A 16-bit source, a 32-bit result: f16 → f32 of the high half.
    run_sdwa(
        "v_cvt_f32_f16_sdwa v0, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1",
        &mut w,
    );
    assert_eq!(w.vgpr(0, 9), 1.0f32.to_bits());
}
