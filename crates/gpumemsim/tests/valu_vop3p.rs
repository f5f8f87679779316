//! VOP3P end to end: packed 16-bit integer and f16 math with op_sel/op_sel_hi/neg_lo/neg_hi
//! and clamp, the dot products (signedness bits, clamp), v_fma_mix*, and the VOP3P DPP
//! forms. Every expected value is worked out by hand from the pseudocode (`=== VOP3P n`);
//! the comments show the arithmetic.

mod common;

use common::*;

const KEEP: u32 = 0xabcd_0000;

fn bf(x: f32) -> u32 {
    x.to_bits() >> 16
}

/// Runs `src` in wave32 with the registers `regs` set to `vals` in every lane; returns the
/// wave's lane-5 value of each register in `out`.
fn lane5<const N: usize, const M: usize>(
    src: &str,
    regs: [u32; N],
    vals: [u32; N],
    out: [u32; M],
) -> [u32; M] {
    let dev = run(&format!("{src}\ns_endpgm"), |d| {
        set_lanes(d, regs, |_| vals)
    });
    out.map(|r| dev.wave(0).vgpr(r, 5))
}

#[test]
fn packed_integer_ops_with_op_sel_and_clamp() {
    // v1 = (hi 3, lo -2), v2 = (hi 5, lo 7), v3 = (1, 1).
    let got = lane5(
        "v_pk_add_u16 v10, v1, v2\n\
         v_pk_add_u16 v11, v1, v2 clamp\n\
         v_pk_add_i16 v12, v1, v2\n\
         v_pk_sub_i16 v13, v1, v2 op_sel:[1,0]\n\
         v_pk_mad_i16 v14, v1, v2, v3\n\
         v_pk_lshlrev_b16 v15, v2, v1\n\
         v_pk_ashrrev_i16 v16, 1, v1\n\
         v_pk_max_i16 v17, v1, v2\n\
         v_pk_max_u16 v18, v1, v2\n\
         v_pk_mul_lo_u16 v19, v1, v2 op_sel_hi:[0,1]\n\
         v_pk_sub_u16 v20, v2, v1 clamp\n\
         v_pk_min_i16 v21, v1, v2\n\
         v_pk_lshrrev_b16 v22, v2, v1\n\
         v_pk_mad_u16 v23, v1, v2, v3 clamp",
        [1, 2, 3],
        [0x0003_fffe, 0x0005_0007, 0x0001_0001],
        [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23],
    );
    let want = [
        0x0008_0005, // 0xfffe + 7 wraps to 5; 3 + 5
        0x0008_ffff, // saturates at 0xffff
        0x0008_0005, // -2 + 7, 3 + 5
        0xfffe_fffc, // lo: v1.hi 3 - 7 = -4; hi: 3 - 5 = -2
        0x0010_fff3, // -2×7 + 1 = -13; 3×5 + 1 = 16
        0x0060_ff00, // 0xfffe << 7 = 0x7fff00 → 0xff00; 3 << 5 = 96
        0x0003_ffff, // -2 >> 1 = -1; hi: the constant 1's high half is 0 → 3 >> 0
        0x0005_0007, // max(-2, 7), max(3, 5)
        0x0005_fffe, // max(0xfffe, 7), max(3, 5)
        0xfff6_fff2, // lo 0xfffe×7 = 0x6fff2; hi (op_sel_hi[0]=0: v1.lo) 0xfffe×5 = 0x4fff6
        0x0002_0000, // 7 - 0xfffe < 0 → 0; 5 - 3
        0x0003_fffe, // min(-2, 7), min(3, 5)
        0x0000_01ff, // 0xfffe >> 7 = 0x1ff; 3 >> 5 = 0
        0x0010_ffff, // 0xfffe×7 + 1 saturates; 3×5 + 1
    ];
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(*g, w, "v{} = {g:#010x}, want {w:#010x}", 10 + i);
    }
}

#[test]
fn packed_f16_ops_with_selects_negation_and_clamp() {
    let v4 = h(-2.0) << 16 | h(1.5);
    let v5 = h(0.5) << 16 | h(4.0);
    let v6 = h(1.0) << 16 | h(0.25);
    let got = lane5(
        "v_pk_fma_f16 v21, v4, v5, v6\n\
         v_pk_add_f16 v22, v4, v5 neg_lo:[1,0] neg_hi:[0,1]\n\
         v_pk_mul_f16 v23, v4, v5 op_sel:[1,1] op_sel_hi:[0,0]\n\
         v_pk_max_f16 v24, v4, v5 clamp\n\
         v_pk_min_f16 v25, v4, v5\n\
         v_pk_add_f16 v26, v4, 1.0",
        [4, 5, 6],
        [v4, v5, v6],
        [21, 22, 23, 24, 25, 26],
    );
    let want = [
        h(0.0) << 16 | h(6.25), // -2×0.5 + 1 = +0; 1.5×4 + 0.25
        h(-2.5) << 16 | h(2.5), // -2 + -0.5; -1.5 + 4
        h(6.0) << 16 | h(-1.0), // lo: hi×hi = -2×0.5; hi: lo×lo = 1.5×4
        h(0.5) << 16 | h(1.0),  // max(-2, 0.5); max(1.5, 4) = 4 clamped to 1
        h(-2.0) << 16 | h(1.5), // min
        h(-2.0) << 16 | h(2.5), // the f16 1.0 sits in the low half only
    ];
    assert_eq!(got, want);
}

#[test]
fn dot_products_follow_signedness_bits_and_clamp() {
    let got = lane5(
        "v_dot2_f32_f16 v10, v4, v5, v7\n\
         v_dot2_f32_f16 v11, v4, v5, v7 neg_lo:[0,0,1]\n\
         v_dot2_f32_f16 v12, v4, v5, v7 neg_lo:[1,0,0] neg_hi:[0,1,0]\n\
         v_dot2_f32_bf16 v13, v8, v9, v7\n\
         v_dot4_u32_u8 v14, v30, v31, v32\n\
         v_dot4_i32_iu8 v15, v30, v31, v32 neg_lo:[1,1,0]\n\
         v_dot4_i32_iu8 v16, v30, v31, v32 neg_lo:[1,0,0]\n\
         v_dot8_u32_u4 v17, v35, v36, 0\n\
         v_dot8_i32_iu4 v18, v35, v36, 0 neg_lo:[1,1,0]\n\
         v_dot4_u32_u8 v19, v30, v31, -1\n\
         v_dot4_u32_u8 v20, v30, v31, -1 clamp\n\
         v_dot4_i32_iu8 v21, v37, v37, v38 neg_lo:[1,1,0] clamp",
        [4, 5, 7, 8, 9, 30, 31, 32, 35, 36, 37, 38],
        [
            h(-2.0) << 16 | h(1.5),
            h(0.5) << 16 | h(4.0),
            f(0.5),
            bf(3.0) << 16 | bf(1.5),
            bf(-1.0) << 16 | bf(2.0),
            0x0102_03ff,
            0x0202_02ff,
            3,
            0x1111_111f,
            0x2222_222f,
            0x8080_8080,
            0x7fff_ff00,
        ],
        [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21],
    );
    let want = [
        f(5.5),           // 0.5 + 1.5×4 + (-2)×0.5
        f(4.5),           // -0.5 + 6 - 1
        f(-4.5),          // 0.5 + (-1.5)×4 + (-2)×(-0.5)
        f(0.5),           // 0.5 + 1.5×2 + 3×(-1)
        65040,            // 3 + 255×255 + 3×2 + 2×2 + 1×2
        16,               // signed: 3 + (-1)(-1) + 6 + 4 + 2
        (-240i32) as u32, // A signed, B unsigned: 3 - 255 + 12
        239,              // 15×15 + 7×(1×2)
        15,               // (-1)(-1) + 14
        65036,            // wraps: -1 + 65037
        0xffff_ffff,      // saturates
        0x7fff_ffff,      // 0x7fffff00 + 4×(-128)² = 0x7fffff00 + 65536 saturates
    ];
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(*g, w, "v{} = {g:#010x}, want {w:#010x}", 10 + i);
    }
}

#[test]
fn fma_mix_reads_f32_or_f16_halves_and_writes_halves() {
    let got = lane5(
        "v_fma_mix_f32 v40, v4, v5, v7 op_sel_hi:[1,1,0]\n\
         v_fma_mix_f32 v41, v4, v5, v7 op_sel:[1,1,0] op_sel_hi:[1,1,0]\n\
         v_fma_mix_f32 v42, -v4, |v5|, v7 op_sel:[1,1,0] op_sel_hi:[1,1,0]\n\
         v_fma_mixlo_f16 v43, v4, v5, v7 op_sel_hi:[1,1,0]\n\
         v_fma_mixhi_f16 v44, v4, v5, v7 op_sel_hi:[1,1,0]\n\
         v_fma_mix_f32 v45, v7, v7, 1.0\n\
         v_fma_mix_f32 v46, v4, v5, 1.0 op_sel_hi:[1,1,1]\n\
         v_fma_mix_f32 v47, v4, v5, v7 op_sel_hi:[1,1,0] clamp\n\
         v_fma_mix_f32 v48, -|v7|, v7, v7",
        [4, 5, 7, 43, 44],
        [
            h(-2.0) << 16 | h(1.5),
            h(0.5) << 16 | h(4.0),
            f(0.5),
            KEEP,
            0x1234,
        ],
        [40, 41, 42, 43, 44, 45, 46, 47, 48],
    );
    let want = [
        f(6.5),                // f16 1.5 × f16 4 + f32 0.5
        f(-0.5),               // high halves: -2 × 0.5 + 0.5
        f(1.5),                // -(-2) × |0.5| + 0.5
        KEEP | h(6.5),         // low half written, high kept
        h(6.5) << 16 | 0x1234, // high half written, low kept
        f(1.25),               // all f32: 0.5 × 0.5 + 1.0
        f(7.0),                // 1.5 × 4 + f16 1.0
        f(1.0),                // 6.5 clamped
        f(0.25),               // -0.5 × 0.5 + 0.5
    ];
    assert_eq!(got, want);
}

#[test]
fn vop3p_dpp_forms_remap_source_0() {
    // v50 lane l: (hi 1.0, lo l); v51: (hi 3, lo 2); v52 = 0.
    // v_dot2_f32_f16 row_mirror: 2 × m + 3 × 1 with m the mirrored lane.
    // v_fma_mix_f32 dpp8:[1,0,3,2,5,4,7,6]: f16 lo(v50[l ^ 1]) × 2 + 0.
    for size in [32u32, 64] {
        let dev = run_size(
            "v_dot2_f32_f16_e64_dpp v53, v50, v51, v52 row_mirror\n\
             v_fma_mix_f32_e64_dpp v54, v50, v51, v52 op_sel_hi:[1,1,0] dpp8:[1,0,3,2,5,4,7,6]\n\
             v_dot2_f32_f16_e64_dpp v55, v50, v51, v52 row_shr:2 row_mask:0x3\n\
             s_endpgm",
            size,
            |d| {
                set_lanes(d, [50, 51, 52, 55], |l| {
                    [h(1.0) << 16 | h(l as f32), h(3.0) << 16 | h(2.0), 0, 77]
                })
            },
        );
        let w = dev.wave(0);
        for l in 0..size {
            let m = (l & !15) + 15 - (l & 15);
            assert_eq!(
                w.vgpr(53, l),
                f(2.0 * m as f32 + 3.0),
                "dot2 lane {l} wave{size}"
            );
            assert_eq!(
                w.vgpr(54, l),
                f(2.0 * (l ^ 1) as f32),
                "mix lane {l} wave{size}"
            );
            // row_shr:2, bound_ctrl:0: lanes 0-1 of each row keep; rows 2-3 masked off.
            let want = if l >= 32 || l & 15 < 2 {
                77
            } else {
                f(2.0 * (l - 2) as f32 + 3.0)
            };
            assert_eq!(w.vgpr(55, l), want, "shr lane {l} wave{size}");
        }
    }
}
