//! f32/f64 instructions beyond plain arithmetic, end to end: the transcendental unit, the
//! cube-map operations, `v_mullit`, the DX9 zero rules, the division helpers (VCC as the
//! scale flag), `v_fract`'s clamp, and the conversions to packed and normalised integers.
//! Expected values are hand-derived from the pseudocode (the f32/f64 division helpers from
//! the hardware-checked rules `fp/div.rs` documents) or exact host arithmetic; clang-19's
//! division sequences are checked against IEEE division.

mod common;

use common::*;

fn d(x: f64) -> [u32; 2] {
    let b = x.to_bits();
    [b as u32, (b >> 32) as u32]
}

#[test]
fn transcendentals_execute_in_every_encoding() {
    let dev = run(
        "v_exp_f32 v10, v1\nv_log_f32_e64 v11, v2\nv_sin_f32 v12, v3\nv_cos_f32_e64 v13, -v3\n\
         v_rcp_f32 v14, v2\nv_rsq_f32 v15, v2\nv_sqrt_f32 v16, v2\nv_rcp_iflag_f32 v17, v2\n\
         v_exp_f32_e64 v18, v1 mul:2\nv_sqrt_f32_e64 v19, v4 clamp\ns_endpgm",
        |d| set_lanes(d, [1, 2, 3, 4], |_| [f(-3.0), f(16.0), f(0.125), f(0.25)]),
    );
    let w = dev.wave(0);
    let want = [
        f(0.125),
        f(4.0),
        f(std::f32::consts::FRAC_1_SQRT_2),
        f(std::f32::consts::FRAC_1_SQRT_2),
        f(0.0625),
        f(0.25),
        f(4.0),
        f(0.0625),
        f(0.25),
        f(0.5),
    ];
    for (i, v) in want.iter().enumerate() {
        assert_eq!(w.vgpr(10 + i as u32, 0), *v, "v{}", 10 + i);
    }
    // "Denormals are flushed" whatever MODE says: rcp of a denormal is +inf.
    let dev = run("v_rcp_f32 v10, v1\nv_sin_f32 v11, v1\ns_endpgm", |d| {
        d.wave_mut(0).mode = mode(3, 3);
        set_lanes(d, [1], |_| [0x0000_0100]);
    });
    assert_eq!(dev.wave(0).vgpr(10, 0), f(f32::INFINITY));
    assert_ne!(dev.wave(0).vgpr(11, 0), 0, "sin keeps its denormal input");
    // f64 reciprocal, square root and reciprocal square root.
    let dev = run(
        "v_rcp_f64 v[10:11], v[2:3]\nv_sqrt_f64 v[12:13], v[2:3]\nv_rsq_f64 v[14:15], v[2:3]\ns_endpgm",
        |dv| set_lanes(dv, [2, 3], |_| d(4.0)),
    );
    let w = dev.wave(0);
    let get = |r: u32| f64::from_bits(w.vgpr(r, 0) as u64 | (w.vgpr(r + 1, 0) as u64) << 32);
    assert_eq!((get(10), get(12), get(14)), (0.25, 2.0, 0.5));
}

#[test]
fn cube_map_operations_follow_the_major_axis() {
    // (x, y, z) per lane; expected (id, sc, tc, ma) from the pseudocode's branches.
    let dirs: [([f32; 3], [f32; 4]); 6] = [
        ([0.5, -0.25, -2.0], [5.0, -0.5, 0.25, -4.0]), // |z| major, z < 0
        ([0.5, -0.25, 2.0], [4.0, 0.5, 0.25, 4.0]),    // |z| major, z >= 0
        ([0.5, -3.0, 2.0], [3.0, 0.5, -2.0, -6.0]),    // |y| major, y < 0
        ([0.5, 3.0, 2.0], [2.0, 0.5, 2.0, 6.0]),       // |y| major, y >= 0
        ([-4.0, 3.0, 2.0], [1.0, 2.0, -3.0, -8.0]),    // |x| major, x < 0
        ([4.0, 3.0, 2.0], [0.0, -2.0, -3.0, 8.0]),     // |x| major, x >= 0
    ];
    let dev = run(
        "v_cubeid_f32 v10, v1, v2, v3\nv_cubesc_f32 v11, v1, v2, v3\n\
         v_cubetc_f32 v12, v1, v2, v3\nv_cubema_f32 v13, v1, v2, v3\ns_endpgm",
        |d| {
            set_lanes(d, [1, 2, 3], |l| {
                let [x, y, z] = dirs[l as usize % 6].0;
                [f(x), f(y), f(z)]
            })
        },
    );
    for (l, (_, want)) in dirs.iter().enumerate() {
        for (i, v) in want.iter().enumerate() {
            assert_eq!(
                dev.wave(0).vgpr(10 + i as u32, l as u32),
                f(*v),
                "lane {l} op {i}"
            );
        }
    }
}

#[test]
fn mullit_and_the_dx9_zero_rules() {
    // v_mullit: -MAX_FLOAT when S1 is -MAX_FLOAT/-inf/NaN or S2 <= 0 or NaN, else S0 × S1.
    let cases: [([f32; 3], f32); 5] = [
        ([2.0, 3.0, 1.0], 6.0),
        ([2.0, 3.0, 0.0], -f32::MAX),
        ([2.0, f32::NEG_INFINITY, 1.0], -f32::MAX),
        ([2.0, 3.0, f32::NAN], -f32::MAX),
        ([f32::INFINITY, 0.0, 1.0], f32::NAN),
    ];
    let dev = run("v_mullit_f32 v10, v1, v2, v3\ns_endpgm", |d| {
        set_lanes(d, [1, 2, 3], |l| {
            let [a, b, c] = cases[l as usize % 5].0;
            [f(a), f(b), f(c)]
        })
    });
    for (l, (_, want)) in cases.iter().enumerate() {
        let got = dev.wave(0).vgpr(10, l as u32);
        if want.is_nan() {
            assert_eq!(got, 0x7fc0_0000, "inf × 0 is the canonical NaN");
        } else {
            assert_eq!(got, f(*want), "lane {l}");
        }
    }
    // DX9: 0 × anything adds nothing — fma_dx9 gives S2, fmac_dx9 keeps the accumulator,
    // mul_dx9 gives +0 — even for ∞ and NaN factors.
    let dev = run(
        "v_fma_dx9_zero_f32 v10, v1, v2, v3\nv_fmac_dx9_zero_f32 v11, v1, v2\n\
         v_mul_dx9_zero_f32 v12, v1, v2\nv_fma_dx9_zero_f32 v13, v4, v4, v3\ns_endpgm",
        |d| {
            set_lanes(d, [1, 2, 3, 4, 11], |_| {
                [0, f(f32::INFINITY), f(-7.0), f(1.5), f(5.0)]
            })
        },
    );
    let w = dev.wave(0);
    assert_eq!(w.vgpr(10, 0), f(-7.0));
    assert_eq!(w.vgpr(11, 0), f(5.0));
    assert_eq!(w.vgpr(12, 0), 0);
    assert_eq!(
        w.vgpr(13, 0),
        f(1.5f32.mul_add(1.5, -7.0)),
        "no zero: a fused fma"
    );
}

#[test]
fn division_helpers_read_vcc_as_the_scale_flag() {
    // div_fmas post-scales in lanes whose VCC bit is set: S2 = 0.25 has an exponent field
    // (125) not above the bias, so by 2^-64 (the ISA pseudocode's fixed 2^32, which this test
    // used to expect, is not what gfx1100 does: see fp/div.rs).
    let dev = run(
        "s_mov_b32 vcc_lo, 0xaaaaaaaa\nv_div_fmas_f32 v10, v1, v2, v3\n\
         v_div_fixup_f32 v11, v4, v2, v1\nv_div_fixup_f32 v12, v4, v5, v5\ns_endpgm",
        |d| {
            set_lanes(d, [1, 2, 3, 4, 5], |_| {
                [f(1.5), f(-2.0), f(0.25), f(0.75), 0]
            })
        },
    );
    let w = dev.wave(0);
    for l in 0..32 {
        let want = if l % 2 == 1 {
            -2.75 * 2f32.powi(-64)
        } else {
            -2.75
        };
        assert_eq!(w.vgpr(10, l), f(want), "lane {l}");
        // fixup(q = 0.75, den = -2, num = 1.5): the quotient's sign, |q|.
        assert_eq!(w.vgpr(11, l), f(-0.75));
        assert_eq!(w.vgpr(12, l), 0xffc0_0000, "0/0");
    }
    let dev = run(
        "s_mov_b32 vcc_lo, 1\nv_div_fmas_f64 v[10:11], v[2:3], v[4:5], v[6:7]\n\
         v_div_fixup_f64 v[12:13], v[2:3], v[8:9], v[4:5]\ns_endpgm",
        |dv| {
            set_lanes(dv, [2, 3, 4, 5, 6, 7, 8, 9], |_| {
                let [a, b, c, e] = [d(1.5), d(2.0), d(0.25), d(0.0)];
                [a[0], a[1], b[0], b[1], c[0], c[1], e[0], e[1]]
            })
        },
    );
    let w = dev.wave(0);
    let get = |r: u32, l: u32| w.vgpr(r, l) as u64 | (w.vgpr(r + 1, l) as u64) << 32;
    // f64: S2 = 0.25, so 2^-128 (the pseudocode's 2^64 before).
    assert_eq!(get(10, 0), (3.25 * 2f64.powi(-128)).to_bits());
    assert_eq!(get(10, 1), 3.25f64.to_bits());
    assert_eq!(get(12, 0), f64::INFINITY.to_bits(), "2/+0");
}

#[test]
fn fract_is_clamped_below_one() {
    // x - floor(x) for x = -2^-30 is 1 - 2^-30, which rounds to 1.0 in f32: clamped to
    // 0x3f7fffff (ISA notes: "result clamped to 0x3f7fffff").
    let dev = run(
        "v_fract_f32 v10, v1\nv_fract_f32 v11, v2\nv_fract_f64 v[12:13], v[4:5]\ns_endpgm",
        |dv| {
            set_lanes(dv, [1, 2, 4, 5], |_| {
                let x = d(-(2f64.powi(-60)));
                [f(-(2f32.powi(-30))), f(-1.25), x[0], x[1]]
            })
        },
    );
    let w = dev.wave(0);
    assert_eq!(w.vgpr(10, 0), 0x3f7f_ffff);
    assert_eq!(w.vgpr(11, 0), f(0.75));
    assert_eq!(
        w.vgpr(12, 0) as u64 | (w.vgpr(13, 0) as u64) << 32,
        0x3fef_ffff_ffff_ffff
    );
}

#[test]
fn conversions_to_packed_and_normalised_integers() {
    let dev = run(
        "v_cvt_pk_i16_f32 v10, v1, v2\nv_cvt_pk_u16_f32 v11, v1, v2\n\
         v_cvt_pk_norm_i16_f32 v12, v3, v4\nv_cvt_pk_norm_u16_f32 v13, v3, v4\n\
         v_cvt_off_f32_i4 v14, v5\nv_cvt_pk_rtz_f16_f32_e64 v15, v6, v7 clamp\ns_endpgm",
        |d| {
            set_lanes(d, [1, 2, 3, 4, 5, 6, 7], |l| {
                [
                    f(-40000.5),
                    f(1234.9),
                    f(0.5),
                    f(-0.25),
                    l,
                    f(-3.0),
                    f(0.3333),
                ]
            })
        },
    );
    let w = dev.wave(0);
    // Truncate and saturate: -40000.5 → i16 -32768 / u16 0; 1234.9 → 1234.
    assert_eq!(w.vgpr(10, 0), 1234 << 16 | 0x8000);
    assert_eq!(w.vgpr(11, 0), 1234 << 16);
    // snorm: 0.5 × 32767 = 16383.5 → 16384 (even); -0.25 × 32767 = -8191.75 → -8192.
    assert_eq!(w.vgpr(12, 0), ((-8192i16) as u16 as u32) << 16 | 16384);
    // unorm: 0.5 × 65535 = 32767.5 → 32768; -0.25 → 0.
    assert_eq!(w.vgpr(13, 0), 32768);
    // The signed 4-bit table: 0..7 → n/16, 8..15 → (n - 16)/16.
    for l in 0..32u32 {
        let n = (l & 15) as i32;
        let n = if n >= 8 { n - 16 } else { n };
        assert_eq!(w.vgpr(14, l), f(n as f32 / 16.0), "lane {l}");
    }
    // rtz then clamp on each half: -3 → 0, 0.3333 → 0.33325195 (toward zero).
    assert_eq!(w.vgpr(15, 0), 0x3555 << 16);
}

/// 2^e as an f32 (exact for e in -149..=127).
fn p2(e: i32) -> f32 {
    if e >= -126 {
        f32::from_bits(((e + 127) as u32) << 23)
    } else {
        f32::from_bits(1 << (e + 149))
    }
}

/// `V_DIV_SCALE_F32` for (S0, S1, S2) = `div_scale_cases()[lane % 8]`: the result and the
/// VCC bit, hand-derived rule by rule from the hardware-checked rules `fp/div.rs` follows
/// (every value a power of two or small, so exact).
fn div_scale_cases() -> [([f32; 3], f32, bool); 8] {
    [
        // S1 = 0: the NaN 0xffc00000; VCC from the exponents (exponent(S2) - exponent(S1) =
        // 127 >= 96). The pseudocode's reading gave 0x7fc00000 and no flag.
        ([1.0, 0.0, 1.0], f32::NAN, true),
        // exponent(S2) - exponent(S1) = 100 >= 96: flag; S0 == S1 (the denominator) is
        // scaled by 2^64.
        ([1.0, 1.0, p2(100)], p2(64), true),
        // the same, numerator (S0 == S2, not S1): unchanged, flag.
        ([p2(100), 1.0, p2(100)], p2(100), true),
        // S1 = 2^-140 is denormal, S2 = 2^-40 (exponent difference 87 < 96): S0 × 2^64.
        ([p2(-140), p2(-140), p2(-40)], p2(-76), false),
        // exponent(S2) - exponent(S1) = 27 - 157 <= -96: flag; the numerator (S0 == S2) is
        // scaled by 2^64.
        ([p2(-100), p2(30), p2(-100)], p2(-36), true),
        // the same operands, the denominator (S0 == S1): unchanged, flag.
        ([p2(30), p2(30), p2(-100)], p2(30), true),
        // exponent(S2) <= 24 (S2 = 2^-110, field 17; Δ = -90): S0 × 2^64.
        ([p2(-110), p2(-20), p2(-110)], p2(-46), false),
        // none of the above: S0.
        ([3.0, 1.5, 3.0], 3.0, false),
    ]
}

/// The bits of an f32 result (a zero operand gives the NaN 0xffc00000).
fn bits(x: f32) -> u32 {
    if x.is_nan() {
        0xffc0_0000
    } else {
        f(x)
    }
}

#[test]
fn div_scale_f32_scales_per_lane_and_sets_its_sdst_bit() {
    let cases = div_scale_cases();
    // Lanes 16-19 and 24-27 inactive: their vdst keeps its old value and their sdst bit
    // is written 0, as every VOP3SD carry-out does.
    let exec = 0xf0f0_ffffu32;
    let dev = run(
        "s_mov_b32 s20, -1\ns_mov_b32 s21, -1\ns_mov_b32 s22, -1\ns_mov_b32 exec_lo, 0xf0f0ffff\n\
         v_div_scale_f32 v10, s20, v1, v2, v3\n\
         v_div_scale_f32 v11, s21, -v3, v2, v3\n\
         v_div_scale_f32 v12, s22, v3, v2, -v3\n\
         v_div_scale_f32 v13, vcc_lo, v1, v2, v3 clamp\n\
         v_div_scale_f32 v14, null, v1, v2, v3 mul:2\n\
         s_endpgm",
        |d| {
            set_lanes(d, [1, 2, 3, 10, 11, 12], |l| {
                let [a, b, c] = cases[l as usize % 8].0;
                [f(a), f(b), f(c), 0xdead, 0xdead, 0xdead]
            })
        },
    );
    let w = dev.wave(0);
    // Instruction 2: S0 = -S2 (the numerator negated) is not S1, so it is scaled as the
    // numerator (the pseudocode's reading left it alone in cases 4 and 5).
    let neg0 = [
        (f32::NAN, true),
        (-p2(100), true),
        (-p2(100), true),
        (-p2(24), false),
        (-p2(-36), true),
        (-p2(-36), true),
        (-p2(-46), false),
        (-3.0, false),
    ];
    // Instruction 3: S2 negated: the rules test -S2 (same exponents), and S0 = +S2 is not
    // S1, so it is scaled as the numerator in cases 4 and 5.
    let neg2 = [
        (f32::NAN, true),
        (p2(100), true),
        (p2(100), true),
        (p2(24), false),
        (p2(-36), true),
        (p2(-36), true),
        (p2(-46), false),
        (3.0, false),
    ];
    let mut sdst = [0u32; 3];
    for l in 0..32u32 {
        let c = l as usize % 8;
        let (s, r, vcc) = cases[c];
        for (k, (want, bit)) in [(r, vcc), neg0[c], neg2[c]].into_iter().enumerate() {
            let got = w.vgpr(10 + k as u32, l);
            if exec >> l & 1 == 0 {
                assert_eq!(got, 0xdead, "inactive lane {l} keeps v{}", 10 + k);
                continue;
            }
            assert_eq!(got, bits(want), "v{} lane {l} for {s:?}", 10 + k);
            sdst[k] |= (bit as u32) << l;
        }
    }
    assert_eq!(sdst[0], 0x3737_3737 & exec, "cases 0, 1, 2, 4, 5 flag");
    assert_eq!(
        w.sreg(20),
        sdst[0],
        "s20: one bit per active lane, 0 for inactive ones"
    );
    assert_eq!(w.sreg(21), sdst[1], "s21");
    assert_eq!(w.sreg(22), sdst[2], "s22");
    assert_eq!(w.vcc() as u32, sdst[0], "vcc_lo as the sdst");
    // clamp and the output modifier apply to the result as on the other float ops.
    assert_eq!(w.vgpr(13, 7), f(1.0), "3.0 clamped");
    assert_eq!(w.vgpr(13, 1), f(1.0), "2^64 clamped");
    assert_eq!(w.vgpr(14, 7), f(6.0), "3.0 mul:2");
    assert_eq!(w.vgpr(14, 3), f(p2(-75)), "2^-76 mul:2");
}

#[test]
fn div_scale_writes_a_wave64_mask_and_f64_results() {
    let cases = div_scale_cases();
    // wave64: the sdst is an SGPR pair (s[20:21]); lanes 32-39 inactive.
    let dev = run_size(
        "s_mov_b32 s20, -1\ns_mov_b32 s21, -1\ns_mov_b32 exec_hi, 0xffffff00\n\
         v_div_scale_f32 v10, s20, v1, v2, v3\ns_endpgm",
        64,
        |d| {
            set_lanes(d, [1, 2, 3], |l| {
                let [a, b, c] = cases[l as usize % 8].0;
                [f(a), f(b), f(c)]
            })
        },
    );
    let w = dev.wave(0);
    let exec = 0xffff_ff00_ffff_ffffu64;
    assert_eq!(
        w.sreg(20) as u64 | (w.sreg(21) as u64) << 32,
        0x3737_3737_3737_3737 & exec
    );
    assert_eq!(w.vgpr(10, 41), f(p2(64)), "lane 41 is case 1");
    // f64: exponent(S2) - exponent(S1) >= 768 flags and scales the denominator by 2^128;
    // the negated numerator, flagged, stays as it is; an ordinary quotient leaves S0 alone.
    let dev = run(
        "v_div_scale_f64 v[10:11], s20, v[2:3], v[2:3], v[4:5]\n\
         v_div_scale_f64 v[12:13], s21, -v[4:5], v[2:3], v[4:5]\ns_endpgm",
        |dv| {
            set_lanes(dv, [2, 3, 4, 5], |l| {
                let (den, num) = if l == 0 {
                    (d(1.0), d(2f64.powi(800)))
                } else {
                    (d(1.5), d(3.0))
                };
                [den[0], den[1], num[0], num[1]]
            })
        },
    );
    let w = dev.wave(0);
    let get =
        |r: u32, l: u32| f64::from_bits(w.vgpr(r, l) as u64 | (w.vgpr(r + 1, l) as u64) << 32);
    assert_eq!(get(10, 0), 2f64.powi(128));
    assert_eq!(get(10, 1), 1.5);
    assert_eq!(get(12, 0), -(2f64.powi(800)));
    assert_eq!(get(12, 1), -3.0);
    assert_eq!((w.sreg(20), w.sreg(21)), (1, 1), "only lane 0 is flagged");
}

/// Operand pairs at the division helpers' edges: exponent differences of ±95/96/97, |b| >=
/// 2^126, denormals, tiny numerators, overflow and underflow, zeros, infinities, NaN.
fn division_edge_pairs() -> Vec<(u32, u32)> {
    let mut v = vec![
        (f(1.0), f(3.0)),
        (f(-7.0), f(0.1)),
        (f(f32::MAX), f(0.5)),
        (f(f32::MAX), f(-1.0e-10)),
        (f(3.0e38), f(1.0e-5)),
        (p2_bits(96) | 0x1234, f(1.0)),
        (f(1.0e30), f(1.0e-10)),
        (f(1.0), f(3.0e38)),
        (f(5.0), f(2.0e38)),
        (f(2.0e38), f(2.5e38)),
        (p2_bits(126), p2_bits(127) | 5),
        (f(1.0e-30), f(1.0e10)),
        (f(1.0e-40), f(3.0)),
        (1, f(3.0)),
        (1, f(0.75)),
        (f(1.0), 1),
        (0x007f_ffff, 0x0000_0003),
        (f(3.0), 0x0040_0000),
        (f(1.0e-38), f(1.0e-38)),
        (f(1.5), f(1.0e38)),
        (0, f(2.0)),
        (f(2.0), 0),
        (0, 0x8000_0000),
        (f(f32::INFINITY), f(2.0)),
        (f(2.0), f(f32::NEG_INFINITY)),
        (f(f32::INFINITY), f(f32::INFINITY)),
        (0x7fc0_0000, f(1.0)),
        (f(1.0), 0x7f80_0001),
        (f(-1.0e-45), f(1.0e38)),
        (f(1.0e-20), f(1.0e25)),
        (f(3.0e-39), f(-2.0e-39)),
        (f(9.0e37), f(3.0e-3)),
    ];
    v.extend(v.clone().into_iter().map(|(a, b)| (b ^ 0x8000_0000, a)));
    v
}

fn p2_bits(e: i32) -> u32 {
    f(p2(e))
}

/// The sequence clang-19 -O2 emits for a correctly rounded `a / b` on gfx1100 (from
/// `llvm-objdump-19 -d` of a HIP kernel; v0 = b, v4 = a), run lane by lane through the
/// executor, equals IEEE division; with f32 denormals off (MODE f32 field 0) clang brackets
/// the Newton steps with `s_denorm_mode 15`/`12`, and the result is IEEE division of the
/// flushed operands, flushed. (The executor does not implement `s_denorm_mode` yet; the
/// same MODE[7:4] writes are made with `s_setreg_imm32_b32`.)
#[test]
fn clang_division_sequence_gives_ieee_quotients() {
    const IEEE: &str = "v_div_scale_f32 v1, null, v0, v0, v4\nv_rcp_f32_e32 v5, v1\n\
        s_waitcnt_depctr 0xfff\nv_fma_f32 v6, -v1, v5, 1.0\nv_fmac_f32_e32 v5, v6, v5\n\
        v_div_scale_f32 v6, vcc_lo, v4, v0, v4\nv_mul_f32_e32 v7, v6, v5\n\
        v_fma_f32 v8, -v1, v7, v6\nv_fmac_f32_e32 v7, v8, v5\nv_fma_f32 v1, -v1, v7, v6\n\
        v_div_fmas_f32 v1, v1, v5, v7\nv_div_fixup_f32 v0, v1, v0, v4\ns_endpgm";
    const FTZ: &str = "v_div_scale_f32 v1, null, v0, v0, v4\n\
        v_div_scale_f32 v6, vcc_lo, v4, v0, v4\nv_rcp_f32_e32 v5, v1\n\
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 15\n\
        v_fma_f32 v7, -v1, v5, 1.0\nv_fmac_f32_e32 v5, v7, v5\nv_mul_f32_e32 v7, v6, v5\n\
        v_fma_f32 v8, -v1, v7, v6\nv_fmac_f32_e32 v7, v8, v5\nv_fma_f32 v1, -v1, v7, v6\n\
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 12\nv_div_fmas_f32 v1, v1, v5, v7\nv_div_fixup_f32 v0, v1, v0, v4\n\
        s_endpgm";
    let pairs = division_edge_pairs();
    assert_eq!(pairs.len(), 64);
    let flush = |x: u32| {
        if x & 0x7f80_0000 == 0 {
            x & 0x8000_0000
        } else {
            x
        }
    };
    for (src, ftz) in [(IEEE, false), (FTZ, true)] {
        let dev = run_size(src, 64, |d| {
            d.wave_mut(0).mode = mode(if ftz { 0 } else { 3 }, 3);
            set_lanes(d, [4, 0], |l| {
                let (a, b) = pairs[l as usize];
                [a, b]
            })
        });
        for (l, &(a, b)) in pairs.iter().enumerate() {
            let (x, y) = if ftz { (flush(a), flush(b)) } else { (a, b) };
            let want = f32::from_bits(x) / f32::from_bits(y);
            let want = if ftz { flush(f(want)) } else { f(want) };
            let got = dev.wave(0).vgpr(0, l as u32);
            if f32::from_bits(want).is_nan() {
                assert!(
                    f32::from_bits(got).is_nan(),
                    "lane {l}: {a:#x}/{b:#x} = {got:#x}"
                );
            } else {
                assert_eq!(got, want, "lane {l} (ftz {ftz}): {a:#x} / {b:#x}");
            }
        }
    }
    // f64: two Newton steps on the reciprocal (v[0:1] = b, v[4:5] = a).
    let dev = run(
        "v_div_scale_f64 v[6:7], null, v[0:1], v[0:1], v[4:5]\nv_rcp_f64_e32 v[8:9], v[6:7]\n\
         v_fma_f64 v[10:11], -v[6:7], v[8:9], 1.0\nv_fma_f64 v[8:9], v[8:9], v[10:11], v[8:9]\n\
         v_fma_f64 v[10:11], -v[6:7], v[8:9], 1.0\nv_fma_f64 v[8:9], v[8:9], v[10:11], v[8:9]\n\
         v_div_scale_f64 v[10:11], vcc_lo, v[4:5], v[0:1], v[4:5]\n\
         v_mul_f64 v[12:13], v[10:11], v[8:9]\nv_fma_f64 v[6:7], -v[6:7], v[12:13], v[10:11]\n\
         v_div_fmas_f64 v[6:7], v[6:7], v[8:9], v[12:13]\n\
         v_div_fixup_f64 v[0:1], v[6:7], v[0:1], v[4:5]\ns_endpgm",
        |dv| {
            set_lanes(dv, [4, 5, 0, 1], |l| {
                let (a, b) = F64_PAIRS[l as usize];
                let (a, b) = (d(a), d(b));
                [a[0], a[1], b[0], b[1]]
            })
        },
    );
    let w = dev.wave(0);
    for (l, &(a, b)) in F64_PAIRS.iter().enumerate() {
        let got = w.vgpr(0, l as u32) as u64 | (w.vgpr(1, l as u32) as u64) << 32;
        let want = a / b;
        if want.is_nan() {
            assert!(f64::from_bits(got).is_nan(), "lane {l}: {a:e} / {b:e}");
        } else {
            assert_eq!(got, want.to_bits(), "lane {l}: {a:e} / {b:e}");
        }
    }
}

const F64_PAIRS: [(f64, f64); 32] = [
    (1.0, 3.0),
    (-7.0, 0.1),
    (f64::MAX, 0.5),
    (f64::MAX, -1.0e-10),
    (1.0e300, 1.0e-20),
    (1.0e250, 1.0e-250),
    (1.0, 1.0e308),
    (5.0, 6.0e307),
    (6.0e307, 7.0e307),
    (1.0e-300, 1.0e10),
    (1.0e-310, 3.0),
    (5.0e-324, 3.0),
    (5.0e-324, 0.75),
    (1.0, 5.0e-324),
    (2.0e-308, -3.0e-320),
    (1.0e-100, 1.0e250),
    (-1.0e-200, 1.0e150),
    (1.0e-300, 1.0e300),
    (0.0, 2.0),
    (2.0, 0.0),
    (0.0, -0.0),
    (f64::INFINITY, 2.0),
    (2.0, f64::NEG_INFINITY),
    (f64::INFINITY, f64::INFINITY),
    (f64::NAN, 1.0),
    (1.0e-320, 1.0e-320),
    (1.5, 1.0e308),
    (3.0e-309, -2.0e-309),
    (9.0e307, 3.0e-3),
    (1.0e-20, 1.0e290),
    (1.0e-5, 1.0e300),
    (std::f64::consts::PI, std::f64::consts::E),
];

#[test]
fn s_denorm_mode_and_s_round_mode_set_their_mode_fields() {
    // s_denorm_mode 12 flushes f32 denormals (FP_DENORM[1:0] = 0) and keeps f16/f64 ones;
    // s_round_mode 5 sets FP_ROUND to 5. v_add_f32 of two f32 denormals then flushes to +0.
    let flushed = run("s_denorm_mode 12\nv_add_f32 v2, v0, v1\ns_endpgm", |d| {
        set_lanes(d, [0, 1], |_| [1, 1])
    });
    let w = flushed.wave(0);
    assert_eq!(w.mode & 0xf0, 0xc0);
    assert_eq!(w.vgpr(2, 0), 0);
    let rounded = run("s_round_mode 5\ns_endpgm", |_| {});
    assert_eq!(rounded.wave(0).mode & 0xf, 5);
    let kept = run("s_denorm_mode 15\nv_add_f32 v2, v0, v1\ns_endpgm", |d| {
        set_lanes(d, [0, 1], |_| [1, 1])
    });
    assert_eq!(kept.wave(0).vgpr(2, 0), 2, "the smallest denormal, twice");
}
