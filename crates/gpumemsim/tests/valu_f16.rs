//! f16 instructions end to end: MODE's double-precision denormal bits control f16 (and the
//! single-precision ones do not), results land in register halves, accumulators and K
//! literals, packed forms, conversions, compares and the output modifiers. Expected values
//! are hand-derived from the pseudocode or exact in f32.

mod common;

use common::*;
use gpumemsim::exec::RunConfig;
use gpumemsim::isa::{Field, Instruction};

const KEEP: u32 = 0xabcd_0000;

#[test]
fn f16_denormals_follow_the_double_precision_mode_bits() {
    // 2^-24 + 2^-24 = 2^-23, a denormal sum of denormals.
    for (m, want) in [
        (mode(3, 3), 0x0002),
        (mode(0, 3), 0x0002), // f32 flushing does not touch f16
        (mode(3, 0), 0),      // f64/f16 flushing does
        (mode(3, 1), 0),      // inputs allowed, outputs flushed
        (mode(3, 2), 0),      // inputs flushed
    ] {
        let dev = run("v_add_f16 v10, v1, v2\ns_endpgm", |d| {
            d.wave_mut(0).mode = m;
            set_lanes(d, [1, 2, 10], |_| [1, 1, KEEP]);
        });
        assert_eq!(dev.wave(0).vgpr(10, 0), KEEP | want, "mode {m:#x}");
    }
}

#[test]
fn arithmetic_accumulators_and_k_literals() {
    let (a, b, c) = (h(1.5), h(-2.25), h(0.125));
    let dev = run(
        "v_add_f16 v10, v1, v2\nv_sub_f16 v11, v1, v2\nv_subrev_f16 v12, v1, v2\n\
         v_mul_f16 v13, v1, v2\nv_fmac_f16 v14, v1, v2\nv_fmamk_f16 v15, v1, 0x4200, v2\n\
         v_fmaak_f16 v16, v1, v2, 0x4200\nv_max_f16 v17, v1, v2\nv_min_f16 v18, v1, v2\n\
         v_ldexp_f16 v19, v1, v4\nv_maxmin_f16 v20, v1, v2, v3\nv_minmax_f16 v21, v1, v2, v3\n\
         s_endpgm",
        |d| {
            set_lanes(d, [1, 2, 3, 4], |_| [KEEP | a, KEEP | b, c, 0xffff_fffd]);
            set_lanes(d, [14], |_| [KEEP | c]);
        },
    );
    let w = dev.wave(0);
    let want = [
        h(1.5 - 2.25),
        h(1.5 + 2.25),
        h(-2.25 - 1.5),
        h(1.5 * -2.25),
        h(1.5f32.mul_add(-2.25, 0.125)),
        h(1.5f32.mul_add(3.0, -2.25)), // K = 0x4200 = 3.0
        h(1.5f32.mul_add(-2.25, 3.0)),
        h(1.5),
        h(-2.25),
        h(1.5 / 8.0), // S1 = -3 as i16
        h(0.125),     // min(max(1.5, -2.25), 0.125)
        h(0.125),     // max(min(1.5, -2.25), 0.125)
    ];
    for (i, want) in want.iter().enumerate() {
        let keep = if i == 4 { KEEP } else { 0 };
        assert_eq!(w.vgpr(10 + i as u32, 0), keep | want, "v{}", 10 + i);
    }
}

#[test]
fn op_sel_and_e32_high_halves() {
    // v_add_f16_e64 with op_sel [1, 1, _, 1]: v10.h = v1.h + v2.h.
    let (dev, r) = run_edit(
        "v_add_f16_e64 v10, v1, v2\nv_add_f16_e32 v11, v1, v2\ns_endpgm",
        &RunConfig::default(),
        |d| {
            set_lanes(d, [1, 2, 10, 11], |_| {
                [h(2.0) << 16 | h(1.0), h(0.5) << 16 | h(4.0), 0x1111, 0x2222]
            })
        },
        |lines| {
            lines[0].inst.set(Field::OpSel, 0b1011);
            // e32: v(11 + 128) = v11.h, v(1 + 128) = v1.h, vsrc1 v2 = v2.l.
            lines[1].inst.set(Field::Vdst, 11 | 0x80);
            lines[1].inst.set(Field::Src0, 256 + (1 | 0x80));
        },
    );
    r.expect("runs");
    let w = dev.wave(0);
    assert_eq!(w.vgpr(10, 0), h(2.5) << 16 | 0x1111);
    assert_eq!(w.vgpr(11, 0), h(6.0) << 16 | 0x2222);
}

#[test]
fn output_modifiers_and_clamp_on_f16_results() {
    let dev = run(
        "v_add_f16_e64 v10, v1, v2 mul:2\nv_add_f16_e64 v11, v1, v2 clamp\n\
         v_mul_f16_e64 v12, -v1, v2 clamp\nv_add_f16_e64 v13, |v2|, v1 div:2\ns_endpgm",
        |d| set_lanes(d, [1, 2], |_| [h(0.75), h(-0.125)]),
    );
    let w = dev.wave(0);
    assert_eq!(w.vgpr(10, 0), h(1.25));
    assert_eq!(w.vgpr(11, 0), h(0.625));
    assert_eq!(w.vgpr(12, 0), h(0.09375), "-0.75 × -0.125 within [0, 1]");
    assert_eq!(w.vgpr(13, 0), h(0.4375));
}

#[test]
fn unary_f16_and_transcendentals() {
    let dev = run(
        "v_sqrt_f16 v10, v1\nv_rcp_f16 v11, v1\nv_rsq_f16 v12, v1\nv_log_f16 v13, v1\n\
         v_exp_f16 v14, v2\nv_sin_f16 v15, v3\nv_cos_f16 v16, v3\nv_floor_f16 v17, v2\n\
         v_ceil_f16 v18, v2\nv_trunc_f16 v19, v2\nv_rndne_f16 v20, v2\nv_fract_f16 v21, v2\n\
         v_frexp_mant_f16 v22, v1\nv_frexp_exp_i16_f16 v23, v1\ns_endpgm",
        |d| {
            set_lanes(d, [1, 2, 3], |_| [h(16.0), h(-2.5), h(0.25)]);
            set_lanes(d, [23], |_| [KEEP]);
        },
    );
    let w = dev.wave(0);
    let want = [
        (10, h(4.0)),
        (11, h(0.0625)),
        (12, h(0.25)),
        (13, h(4.0)),
        (14, h(0.17677669)), // 2^-2.5 = 0.1767767 → f16 0x31a8
        (15, h(1.0)),
        (16, 0),
        (17, h(-3.0)),
        (18, h(-2.0)),
        (19, h(-2.0)),
        (20, h(-2.0)),
        (21, h(0.5)),
        (22, h(0.5)),
        (23, KEEP | 5),
    ];
    for (r, v) in want {
        assert_eq!(w.vgpr(r, 0), v, "v{r}");
    }
}

#[test]
fn conversions_use_the_right_denormal_controls() {
    // v_cvt_f16_f32: input flushed per the f32 bits, a denormal result per the f16 bits.
    let tiny = f(2f32.powi(-20)); // normal in f32, an f16 denormal (0x0010)
    for (m, want) in [
        (mode(3, 3), 0x0010),
        (mode(0, 3), 0x0010),
        (mode(3, 0), 0),
        (mode(3, 2), 0x0010), // f16 input flushing does not apply to an f32 input
    ] {
        let dev = run("v_cvt_f16_f32 v10, v1\ns_endpgm", |d| {
            d.wave_mut(0).mode = m;
            set_lanes(d, [1, 10], |_| [tiny, KEEP]);
        });
        assert_eq!(dev.wave(0).vgpr(10, 0), KEEP | want, "mode {m:#x}");
    }
    // v_cvt_f32_f16: a denormal f16 input flushed per the f16 bits.
    for (m, want) in [
        (mode(3, 3), f(2f32.powi(-24))),
        (mode(3, 0), 0),
        (mode(0, 3), f(2f32.powi(-24))),
    ] {
        let dev = run("v_cvt_f32_f16 v10, v1\ns_endpgm", |d| {
            d.wave_mut(0).mode = m;
            set_lanes(d, [1], |_| [1]);
        });
        assert_eq!(dev.wave(0).vgpr(10, 0), want, "mode {m:#x}");
    }
    // Signalling NaNs are quieted on the way through.
    let dev = run(
        "v_cvt_f32_f16 v10, v1\nv_cvt_f16_f32 v11, v2\ns_endpgm",
        |d| {
            set_lanes(d, [1, 2], |_| [0x7c01, 0x7f80_2000]);
        },
    );
    assert_eq!(dev.wave(0).vgpr(10, 0), 0x7fc0_2000);
    assert_eq!(dev.wave(0).vgpr(11, 0), 0x7e01);
    // Integer conversions: truncation, saturation, NaN → 0, nearest-even from integers.
    let dev = run(
        "v_cvt_u16_f16 v10, v1\nv_cvt_i16_f16 v11, v1\nv_cvt_f16_u16 v12, v2\n\
         v_cvt_f16_i16 v13, v2\nv_cvt_norm_i16_f16 v14, v1\nv_cvt_norm_u16_f16 v15, v3\ns_endpgm",
        |d| {
            set_lanes(d, [1, 2, 3], |l| {
                [
                    [h(-2.75), h(70000.0), 0x7e00][l as usize % 3],
                    [2049, 65535, 0x8001][l as usize % 3],
                    h(0.5),
                ]
            })
        },
    );
    let w = dev.wave(0);
    // lane 0: -2.75 → u16 0 (saturated), i16 -2; u16 2049 → 2048 (ties to even); i16 2049
    // likewise; snorm(-2.75) = -32767; unorm(0.5) = 32767.5 → 32768 (even).
    assert_eq!(w.vgpr(10, 0), 0);
    assert_eq!(w.vgpr(11, 0), 0xfffe);
    assert_eq!(w.vgpr(12, 0), h(2048.0));
    assert_eq!(w.vgpr(13, 0), h(2048.0));
    assert_eq!(w.vgpr(14, 0), (-32767i16) as u16 as u32);
    assert_eq!(w.vgpr(15, 0), 32768);
    // lane 1: +inf → 65535 / 32767; 65535 → f16 rounds to 65536: +inf; i16 -1 → -1.0.
    assert_eq!(w.vgpr(10, 1), 65535);
    assert_eq!(w.vgpr(11, 1), 32767);
    assert_eq!(w.vgpr(12, 1), 0x7c00);
    assert_eq!(w.vgpr(13, 1), h(-1.0));
    assert_eq!(w.vgpr(14, 1), 32767);
    // lane 2: NaN → 0.
    assert_eq!(w.vgpr(10, 2), 0);
    assert_eq!(w.vgpr(11, 2), 0);
    assert_eq!(w.vgpr(14, 2), 0);
    assert_eq!(w.vgpr(13, 2), h(-32767.0), "0x8001 as i16");
}

#[test]
fn packed_and_dot_product_forms() {
    // v_pk_fmac_f16: each half fused with its own accumulator half.
    // v_dot2acc_f32_f16: D + lo×lo + hi×hi in f32 (products exact).
    let dev = run(
        "v_pk_fmac_f16 v10, v1, v2\nv_dot2acc_f32_f16 v11, v1, v2\ns_endpgm",
        |d| {
            set_lanes(d, [1, 2, 10, 11], |_| {
                [
                    h(3.0) << 16 | h(1.5),
                    h(-0.5) << 16 | h(2.0),
                    h(1.0) << 16 | h(0.25),
                    f(10.0),
                ]
            })
        },
    );
    let w = dev.wave(0);
    assert_eq!(w.vgpr(10, 0), h(-0.5) << 16 | h(3.25));
    assert_eq!(w.vgpr(11, 0), f(10.0 + 3.0 - 1.5));
    // The VOPD form does the same. The assembler does not take VOPD text yet: the word is
    // llvm-mc-19's encoding of `v_dual_dot2acc_f32_f16 v11, v1, v2 :: v_dual_mov_b32 v12, v3`.
    let word = [0x01, 0x05, 0x10, 0xcb, 0x03, 0x01, 0x0c, 0x0b];
    let (dev, r) = run_edit(
        "s_nop 0\ns_endpgm",
        &RunConfig::default(),
        |d| {
            set_lanes(d, [1, 2, 3, 11], |_| {
                [h(3.0) << 16 | h(1.5), h(-0.5) << 16 | h(2.0), 7, f(10.0)]
            })
        },
        |lines| lines[0].inst = Instruction::decode(&word).expect("decodes").0,
    );
    r.expect("runs");
    assert_eq!(dev.wave(0).vgpr(11, 0), f(11.5));
    assert_eq!(dev.wave(0).vgpr(12, 0), 7);
}

#[test]
fn f16_compares_flush_per_the_f16_bits() {
    // +denormal < 0x3c00 always; +denormal > +0 only with denormals kept.
    for (m, want) in [
        (mode(3, 3), 0b11u32),
        (mode(3, 0), 0b01),
        (mode(0, 3), 0b11),
    ] {
        let dev = run(
            "v_cmp_lt_f16 vcc_lo, v1, v2\ns_mov_b32 s10, vcc_lo\nv_cmp_gt_f16 vcc_lo, v1, v3\n\
             s_mov_b32 s11, vcc_lo\ns_endpgm",
            |d| {
                d.wave_mut(0).mode = m;
                d.wave_mut(0).set_exec(1);
                set_lanes(d, [1, 2, 3], |_| [0x0001, 0x3c00, 0x0000]);
            },
        );
        let w = dev.wave(0);
        assert_eq!(w.sreg(10) | w.sreg(11) << 1, want, "mode {m:#x}");
    }
    // The class test reads the raw bits: a denormal is a denormal whatever MODE says.
    let dev = run("v_cmp_class_f16 vcc_lo, v1, v2\ns_endpgm", |d| {
        d.wave_mut(0).mode = mode(3, 0);
        set_lanes(d, [1, 2], |_| [0x0001, 1 << 7]);
    });
    assert_eq!(dev.wave(0).vcc() as u32, u32::MAX);
}

/// bf16 bits of an f32 value that is a bf16 (its top half).
fn bf(x: f32) -> u32 {
    x.to_bits() >> 16
}

#[test]
fn dot2_bf16_reads_halves_by_op_sel_and_bf16_inline_constants() {
    // The inline 1.0 in a bf16 source is 0x3f80 in the low half (as f16 constants are);
    // op_sel:[0,0,0,1] writes the high half of v3 (low half kept): 1 + 1.5×4 + 2×0.5 = 8.
    // With v4, op_sel[2] picks its half: low 0.25 → 7.25, high -3 → 4.
    let dev = run(
        "v_dot2_bf16_bf16 v3, v1, v2, 1.0 op_sel:[0,0,0,1]\n\
         v_dot2_bf16_bf16 v5, v1, v2, v4\n\
         v_dot2_bf16_bf16 v6, v1, v2, v4 op_sel:[0,0,1,0]\ns_endpgm",
        |d| {
            set_lanes(d, [1, 2, 3, 4, 5, 6], |_| {
                [
                    bf(2.0) << 16 | bf(1.5),
                    bf(0.5) << 16 | bf(4.0),
                    0x1234,
                    bf(-3.0) << 16 | bf(0.25),
                    KEEP,
                    KEEP,
                ]
            });
        },
    );
    let w = dev.wave(0);
    assert_eq!(w.vgpr(3, 5), bf(8.0) << 16 | 0x1234);
    assert_eq!(w.vgpr(5, 5), KEEP | bf(7.25));
    assert_eq!(w.vgpr(6, 5), KEEP | bf(4.0), "-3 + 6 + 1");
}

#[test]
fn a_fake16_e32_destination_past_v127_is_the_high_half() {
    // v_cvt_f16_f32_e32 with vdst 128 + 5 (Triton's LLVM writes v5.h this way; llvm-mc-19
    // has no text for it): v5.h = f16(1.5) = 0x3e00, v5.l kept.
    let (inst, _) = Instruction::decode_hw(&[0x01, 0x15, 0x0a, 0x7f]).expect("decodes");
    assert_eq!(inst.get(Field::Vdst), 133);
    let (dev, r) = run_edit(
        "v_nop\ns_endpgm",
        &RunConfig::default(),
        |d| set_lanes(d, [1, 5], |_| [1.5f32.to_bits(), 0x1111_2222]),
        |lines| lines[0].inst = inst,
    );
    r.expect("runs");
    assert_eq!(dev.wave(0).vgpr(5, 0), 0x3e00_2222);
}
