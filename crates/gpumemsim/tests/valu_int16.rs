//! 16-bit integer instructions end to end: the pseudocode's results on register halves, the
//! other half of the destination kept, halves chosen by VOP3 `op_sel` or by bit 7 of an e32
//! VGPR number, f16 inline constants, `v_cndmask_b16`'s float modifiers, `v_sat_pk_u8_i16`.
//! Expected values are the pseudocode's formulas written with Rust's u16/i16 arithmetic.

mod common;

use common::*;
use gpumemsim::exec::RunConfig;
use gpumemsim::isa::Field;

const A: u32 = 0xaaaa_8003; // low half -32765 / 0x8003, high half 0xaaaa
const B: u32 = 0x5555_0005; // low half 5, high half 0x5555
const KEEP: u32 = 0x1234_0000; // what the destinations hold before

/// The expected 16-bit result from (S0, S1).
type Op16 = fn(u16, u16) -> u16;

fn lo(x: u32) -> u16 {
    x as u16
}

#[test]
fn vop3_16_bit_ops_compute_on_low_halves_and_keep_the_high_half() {
    let cases: &[(&str, Op16)] = &[
        ("v_mul_lo_u16 v10, v1, v2", |a, b| a.wrapping_mul(b)),
        ("v_max_u16 v10, v1, v2", |a, b| a.max(b)),
        ("v_max_i16 v10, v1, v2", |a, b| {
            (a as i16).max(b as i16) as u16
        }),
        ("v_min_u16 v10, v1, v2", |a, b| a.min(b)),
        ("v_min_i16 v10, v1, v2", |a, b| {
            (a as i16).min(b as i16) as u16
        }),
        // Shift counts are S0[3:0]: 5 and, for the data in S1, the other operand.
        ("v_lshlrev_b16 v10, v2, v1", |a, b| b << (a & 15)),
        ("v_lshrrev_b16 v10, v2, v1", |a, b| b >> (a & 15)),
        ("v_ashrrev_i16 v10, v2, v1", |a, b| {
            ((b as i16) >> (a & 15)) as u16
        }),
        ("v_and_b16 v10, v1, v2", |a, b| a & b),
        ("v_or_b16 v10, v1, v2", |a, b| a | b),
        ("v_xor_b16 v10, v1, v2", |a, b| a ^ b),
        ("v_not_b16_e64 v10, v1", |a, _| !a),
    ];
    for (text, want) in cases {
        let dev = run(&format!("{text}\ns_endpgm"), |d| {
            set_lanes(d, [1, 2, 10], |l| [A.wrapping_add(l), B + 19 * l, KEEP]);
        });
        let w = dev.wave(0);
        for l in 0..32 {
            let (a, b) = (A.wrapping_add(l), B + 19 * l);
            // The operand order in the text is (src0, src1); the closures take (S0, S1).
            let (s0, s1) = if text.contains("v2, v1") {
                (b, a)
            } else {
                (a, b)
            };
            let r = want(lo(s0), lo(s1));
            assert_eq!(w.vgpr(10, l), KEEP | r as u32, "{text} lane {l}");
        }
    }
}

#[test]
fn op_sel_selects_source_and_destination_halves() {
    // op_sel bits: 0 src0, 1 src1, 3 dst (the assembler writes 0: set them in the word).
    for (op_sel, want_hi) in [(0b1011u32, true), (0b0011, false), (0b1000, true)] {
        let (dev, r) = run_edit(
            "v_max_u16 v10, v1, v2\ns_endpgm",
            &RunConfig::default(),
            |d| set_lanes(d, [1, 2, 10], |_| [A, B, KEEP | 0x7777]),
            |lines| lines[0].inst.set(Field::OpSel, op_sel),
        );
        r.expect("runs");
        let (a, b) = if op_sel & 3 == 3 {
            (0xaaaau32, 0x5555)
        } else {
            (A & 0xffff, B & 0xffff)
        };
        let m = a.max(b);
        let got = dev.wave(0).vgpr(10, 0);
        let want = if want_hi { m << 16 | 0x7777 } else { KEEP | m };
        assert_eq!(got, want, "op_sel {op_sel:#b}");
    }
}

#[test]
fn e32_register_numbers_past_127_name_high_halves() {
    // v_not_b16_e32 v(2 + 128), v(1 + 128): v2.h = ~v1.h.
    let (dev, r) = run_edit(
        "v_not_b16_e32 v2, v1\nv_cvt_i32_i16_e32 v3, v4\nv_mov_b16 v5.h, v1.l\nv_mov_b16 v6.l, v1.h\ns_endpgm",
        &RunConfig::default(),
        |d| set_lanes(d, [1, 2, 4, 5, 6], |_| [A, KEEP | 0x00ff, 0x8001_0002, 0x1111_2222, 0x3333_4444]),
        |lines| {
            lines[0].inst.set(Field::Vdst, 2 | 0x80);
            lines[0].inst.set(Field::Src0, 256 + (1 | 0x80));
            lines[1].inst.set(Field::Src0, 256 + (4 | 0x80));
        },
    );
    r.expect("runs");
    let w = dev.wave(0);
    assert_eq!(
        w.vgpr(2, 0),
        (!0xaaaau32 & 0xffff) << 16 | 0x00ff,
        "high half written"
    );
    assert_eq!(w.vgpr(3, 0), 0xffff_8001, "v4.h sign-extended");
    assert_eq!(w.vgpr(5, 0), 0x8003_2222, "v5.h = v1.l");
    assert_eq!(w.vgpr(6, 0), 0x3333_aaaa, "v6.l = v1.h");
}

#[test]
fn constants_in_16_bit_sources() {
    // An inline float in a 16-bit integer source is its f16 bits (1.0 → 0x3c00); an inline
    // integer is its low 16 bits (-1 → 0xffff); a literal is 16 bits (llvm-mc-19 rejects
    // wider ones here).
    let dev = run(
        "v_max_u16 v10, 1.0, v1\nv_min_u16 v11, -1, v1\nv_or_b16 v12, 0x5678, v1\ns_endpgm",
        |d| set_lanes(d, [1, 10, 11, 12], |_| [0x0000_0100, 0, 0, 0]),
    );
    let w = dev.wave(0);
    assert_eq!(w.vgpr(10, 0), 0x3c00);
    assert_eq!(w.vgpr(11, 0), 0x0100);
    assert_eq!(w.vgpr(12, 0), 0x5778);
}

#[test]
fn cndmask_b16_selects_by_the_mask_with_float_modifiers() {
    let dev = run(
        "s_mov_b32 s0, 0x0000ff00\nv_cndmask_b16 v10, -v1, |v2|, s0\ns_endpgm",
        |d| set_lanes(d, [1, 2, 10], |l| [0x0000_3c00 + l, 0x0000_c000 + l, KEEP]),
    );
    let w = dev.wave(0);
    for l in 0..32u32 {
        // neg flips bit 15 of S0's half, abs clears bit 15 of S1's.
        let want = if (8..16).contains(&l) {
            0x4000 + l
        } else {
            0xbc00 + l
        };
        assert_eq!(w.vgpr(10, l), KEEP | want, "lane {l}");
    }
}

#[test]
fn sat_pk_u8_i16_saturates_each_half() {
    // SAT8 of each signed half: <= 0 → 0, >= 255 → 255.
    let cases = [
        (0x7fff_8000u32, 0xff00u32),
        (0x0080_00ffu32, 0x80ff),
        (0xffff_0001u32, 0x0001),
        (0x0100_00feu32, 0xfffe),
    ];
    let dev = run("v_sat_pk_u8_i16 v10, v1\ns_endpgm", |d| {
        set_lanes(d, [1, 10], |l| [cases[l as usize % 4].0, KEEP]);
    });
    for (l, (_, want)) in cases.iter().enumerate() {
        assert_eq!(dev.wave(0).vgpr(10, l as u32), KEEP | want);
    }
}

#[test]
fn cvt_between_16_and_32_bit_integers() {
    let dev = run(
        "v_cvt_i32_i16 v10, v1\nv_cvt_u32_u16 v11, v1\ns_endpgm",
        |d| set_lanes(d, [1], |_| [A]),
    );
    let w = dev.wave(0);
    assert_eq!(w.vgpr(10, 0), 0x8003u16 as i16 as i32 as u32);
    assert_eq!(w.vgpr(11, 0), 0x8003);
}

#[test]
fn v_mov_b16_e64_moves_the_half_op_sel_names() {
    // VOP3 412 (llvm-mc-19 has no text for it; Triton's LLVM emits it): op_sel [src0, dst].
    // v5.h = v1.l, then v6.l = v1.h, each keeping the destination's other half.
    use gpumemsim::isa::Instruction;
    let word = |b: [u8; 8]| {
        Instruction::decode_hw(&b)
            .expect("the hardware decodes it")
            .0
    };
    let dst_hi = word([0x05, 0x40, 0x9c, 0xd5, 0x01, 0x01, 0x00, 0x00]);
    let src_hi = word([0x06, 0x08, 0x9c, 0xd5, 0x01, 0x01, 0x00, 0x00]);
    let (dev, r) = run_edit(
        "v_nop\nv_nop\ns_endpgm",
        &RunConfig::default(),
        |d| set_lanes(d, [1, 5, 6], |_| [A, 0x1111_2222, 0x3333_4444]),
        |lines| {
            lines[0].inst = dst_hi;
            lines[1].inst = src_hi;
        },
    );
    r.expect("runs");
    let w = dev.wave(0);
    assert_eq!(w.vgpr(5, 0), 0x8003_2222, "v5.h = v1.l");
    assert_eq!(w.vgpr(6, 0), 0x3333_aaaa, "v6.l = v1.h");
}
