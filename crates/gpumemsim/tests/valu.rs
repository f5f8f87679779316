//! The vector ALU (e32, e64 and VOP3-only forms), end to end.

use gpumemsim::exec::{Device, RunConfig, RunError};
use gpumemsim::isa::asm::assemble;

fn run_with(
    src: &str,
    cfg: &RunConfig,
    setup: impl FnOnce(&mut Device),
) -> (Device, Result<(), RunError>) {
    let prog = assemble(src);
    assert!(prog.errors.is_empty(), "{:?}", prog.errors);
    let mut dev = Device::new(cfg, prog.lines.len()).expect("config");
    setup(&mut dev);
    let r = dev.run(&prog.lines, cfg);
    (dev, r)
}

fn run(src: &str, setup: impl FnOnce(&mut Device)) -> Device {
    let (dev, r) = run_with(src, &RunConfig::default(), setup);
    r.expect("runs");
    dev
}

#[test]
fn a_program_computes_its_own_lds_addresses() {
    // v1 = lane * 4 from v0 (the work-item id), store lane + 100, read back the neighbour.
    let src = "v_lshlrev_b32 v1, 2, v0\n\
               v_add_nc_u32 v2, 0x64, v0\n\
               ds_store_b32 v1, v2\n\
               s_waitcnt lgkmcnt(0)\n\
               v_xor_b32 v3, 4, v1\n\
               ds_load_b32 v4, v3\n\
               s_waitcnt lgkmcnt(0)\n\
               v_readfirstlane_b32 s5, v4\n\
               s_endpgm\n";
    let dev = run(src, |_| {});
    let w = dev.wave(0);
    for l in 0..32 {
        assert_eq!(w.vgpr(1, l), 4 * l);
        assert_eq!(w.vgpr(4, l), (l ^ 1) + 100, "lane {l}");
    }
    assert_eq!(w.sreg(5), 101);
}

#[test]
fn integer_ops_follow_the_pseudocode() {
    let src = "v_sub_nc_u32 v10, v1, v2\nv_subrev_nc_u32 v11, v1, v2\nv_lshrrev_b32 v12, 4, v1\n\
               v_ashrrev_i32 v13, 4, v1\nv_and_b32 v14, v1, v2\nv_or_b32 v15, v1, v2\nv_xnor_b32 v16, v1, v2\n\
               v_min_i32 v17, v1, v2\nv_max_u32 v18, v1, v2\nv_mul_u32_u24 v19, v1, v2\nv_not_b32 v20, v1\n\
               v_mul_i32_i24 v21, v1, v2\ns_endpgm\n";
    let (a, b) = (0x8123_4567u32, 0x0000_0300u32);
    let dev = run(src, |d| {
        d.wave_mut(0).set_exec(1);
        d.wave_mut(0).set_vgpr(1, 0, a);
        d.wave_mut(0).set_vgpr(2, 0, b);
    });
    let w = dev.wave(0);
    let got: Vec<u32> = (10..22).map(|r| w.vgpr(r, 0)).collect();
    let sext24 = |x: u32| ((x << 8) as i32) >> 8;
    let want = [
        a.wrapping_sub(b),
        b.wrapping_sub(a),
        a >> 4,
        ((a as i32) >> 4) as u32,
        a & b,
        a | b,
        !(a ^ b),
        (a as i32).min(b as i32) as u32,
        a.max(b),
        (a & 0xff_ffff).wrapping_mul(b),
        !a,
        sext24(a).wrapping_mul(sext24(b)) as u32,
    ];
    assert_eq!(got, want);
}

#[test]
fn compares_write_vcc_and_drive_cndmask_and_branches() {
    let src = "v_cmp_gt_u32 vcc_lo, 10, v0\n\
               v_cndmask_b32 v1, 7, v0, vcc_lo\n\
               v_cmp_lt_i32 vcc_lo, -1, v2\n\
               s_cbranch_vccz skip\n\
               s_mov_b32 s1, 1\n\
               skip:\n\
               v_cmpx_eq_u32 3, v0\n\
               v_mov_b32 v3, 42\n\
               s_endpgm\n";
    let dev = run(src, |d| {
        for l in 0..32 {
            d.wave_mut(0).set_vgpr(2, l, (-2i32) as u32);
        }
    });
    let w = dev.wave(0);
    for l in 0..32 {
        // vcc bit l: 10 > lane. cndmask picks src1 (v0) where vcc is set, else 7.
        assert_eq!(w.vgpr(1, l), if l < 10 { l } else { 7 });
        assert_eq!(
            w.vgpr(3, l),
            if l == 3 { 42 } else { 0 },
            "cmpx left only lane 3 in EXEC"
        );
    }
    assert_eq!(
        w.sreg(1),
        0,
        "-1 < -2 is false in every lane: vccz, branch taken"
    );
    assert_eq!(w.exec(), 1 << 3);
}

#[test]
fn float_compares_cover_unordered_and_class() {
    let src = "v_cmp_u_f32 vcc_lo, v1, v2\ns_mov_b32 s10, vcc_lo\n\
               v_cmp_nlt_f32 vcc_lo, v1, v2\ns_mov_b32 s11, vcc_lo\n\
               v_cmp_class_f32 vcc_lo, v1, v3\ns_mov_b32 s12, vcc_lo\n\
               v_cmp_lg_f64 vcc_lo, v[4:5], v[6:7]\ns_mov_b32 s13, vcc_lo\ns_endpgm\n";
    let vals = [1.0f32, f32::NAN, -0.0, f32::INFINITY];
    let dev = run(src, |d| {
        let w = d.wave_mut(0);
        w.set_exec(0xf);
        for (l, v) in vals.iter().enumerate() {
            w.set_vgpr(1, l as u32, v.to_bits());
            w.set_vgpr(2, l as u32, 0.0f32.to_bits());
            w.set_vgpr(3, l as u32, 1 << 5 | 1 << 1); // -0 or quiet NaN
            let d = [1.0f64, 2.0, 0.0, f64::NAN][l];
            w.set_vgpr(4, l as u32, d.to_bits() as u32);
            w.set_vgpr(5, l as u32, (d.to_bits() >> 32) as u32);
            w.set_vgpr(6, l as u32, 2.0f64.to_bits() as u32);
            w.set_vgpr(7, l as u32, (2.0f64.to_bits() >> 32) as u32);
        }
    });
    let w = dev.wave(0);
    assert_eq!(w.sreg(10), 0b0010, "unordered: only the NaN lane");
    assert_eq!(
        w.sreg(11),
        0b1111,
        "nlt: !(a < 0) holds for 1, NaN, -0 and inf"
    );
    assert_eq!(w.sreg(12), 0b0110, "class: quiet NaN and -0");
    assert_eq!(
        w.sreg(13),
        0b0101,
        "lg is ordered: 1 != 2, 0 != 2; equal and NaN lanes false"
    );
}

#[test]
fn carries_chain_through_vcc_in_wave64() {
    let cfg = RunConfig {
        wave_size: 64,
        ..RunConfig::default()
    };
    let (dev, r) = run_with(
        "s_mov_b64 vcc, 0\nv_add_co_ci_u32 v3, vcc_lo, v1, v2, vcc_lo\ns_endpgm\n",
        &cfg,
        |d| {
            for l in 0..64 {
                d.wave_mut(0).set_vgpr(1, l, 0xffff_ffff);
                d.wave_mut(0).set_vgpr(2, l, l % 2);
            }
        },
    );
    r.expect("runs");
    let w = dev.wave(0);
    for l in 0..64u32 {
        assert_eq!(w.vgpr(3, l), 0xffff_ffffu32.wrapping_add(l % 2));
    }
    assert_eq!(
        w.vcc(),
        0xaaaa_aaaa_aaaa_aaaa,
        "carry out of the odd lanes, all 64 bits"
    );
}

#[test]
fn f32_arithmetic_is_ieee_nearest_even_with_mode_flushing() {
    let src = "v_add_f32 v3, v1, v2\nv_mul_f32 v4, v1, v2\nv_fmac_f32 v5, v1, v2\nv_sub_f32 v6, v1, v2\ns_endpgm\n";
    let pairs = [
        (1.5f32, 2.25f32),
        (f32::MAX, 2.0),
        (1e-30, 1e-10),
        (0.1, 0.2),
    ];
    let dev = run(src, |d| {
        let w = d.wave_mut(0);
        w.set_exec(0xf);
        for (l, (a, b)) in pairs.iter().enumerate() {
            w.set_vgpr(1, l as u32, a.to_bits());
            w.set_vgpr(2, l as u32, b.to_bits());
            w.set_vgpr(5, l as u32, 1.0f32.to_bits());
        }
    });
    let w = dev.wave(0);
    for (l, (a, b)) in pairs.iter().enumerate() {
        let l = l as u32;
        assert_eq!(f32::from_bits(w.vgpr(3, l)), a + b);
        assert_eq!(f32::from_bits(w.vgpr(4, l)), a * b);
        assert_eq!(f32::from_bits(w.vgpr(5, l)), a.mul_add(*b, 1.0));
        assert_eq!(f32::from_bits(w.vgpr(6, l)), a - b);
    }
    // MODE flushing f32 denormal outputs: 1e-30 * 1e-10 is denormal → +0.
    let (dev, r) = run_with(
        "v_mul_f32 v4, v1, v2\ns_endpgm\n",
        &RunConfig::default(),
        |d| {
            let w = d.wave_mut(0);
            w.mode = 0xf0 & !0x20; // f32: allow input denormals, flush outputs
            w.set_vgpr(1, 0, 1e-30f32.to_bits());
            w.set_vgpr(2, 0, 1e-10f32.to_bits());
        },
    );
    r.expect("runs");
    assert_eq!(dev.wave(0).vgpr(4, 0), 0);
}

#[test]
fn unmodelled_modifiers_and_round_modes_stop_the_run_by_name() {
    // An output modifier on an integer result has no documented meaning.
    let (_, r) = run_with(
        "v_cvt_i32_f32_e64 v1, v2 mul:2\ns_endpgm\n",
        &RunConfig::default(),
        |_| {},
    );
    assert!(r
        .expect_err("stops")
        .to_string()
        .contains("v_cvt_i32_f32_e64"));
    let (_, r) = run_with(
        "v_add_f32 v1, v2, v3\ns_endpgm\n",
        &RunConfig::default(),
        |d| d.wave_mut(0).mode = 0xf1,
    );
    assert!(r.expect_err("stops").to_string().contains("v_add_f32_e32"));
    // Packed f16 math rounds, so it stops under a non-default round mode too.
    let (_, r) = run_with(
        "v_pk_add_f16 v1, v2, v3\ns_endpgm\n",
        &RunConfig::default(),
        |d| d.wave_mut(0).mode = 0xf1,
    );
    assert!(r.expect_err("stops").to_string().contains("v_pk_add_f16"));
    // WMMA runs in wave32 only: in wave64 it stops the run by the name it is written with.
    let wave64 = RunConfig {
        wave_size: 64,
        ..RunConfig::default()
    };
    for (src, name) in [
        (
            "v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]",
            "`v_wmma_f32_16x16x16_f16`",
        ),
        (
            "v_wmma_i32_16x16x16_iu8 v[0:7], v[8:11], v[16:19], v[0:7]",
            "`v_wmma_i32_16x16x16_iu8`",
        ),
    ] {
        let (_, r) = run_with(&format!("{src}\ns_endpgm\n"), &wave64, |_| {});
        let e = r.expect_err("stops").to_string();
        assert!(e.contains(name), "{src}: {e}");
    }
}

#[test]
fn op_sel_forms_in_the_table_read_and_write_the_selected_halves() {
    // op_sel:[1,0,1]: src0's high half + src1's low half, into v1's high half.
    let (dev, r) = run_with(
        "v_add_nc_u16 v1, v2, v3 op_sel:[1,0,1]\ns_endpgm\n",
        &RunConfig::default(),
        |d| set3(d, |_| [0x1111_2222, 0x0030_0004, 0x0500_0006]),
    );
    r.expect("runs");
    assert_eq!(
        dev.wave(0).vgpr(1, 3),
        0x0036_2222,
        "0x30 + 6 in the high half"
    );
}

/// Sets v1, v2, v3 of every lane from `f(lane)`.
fn set3(dev: &mut Device, f: impl Fn(u32) -> [u32; 3]) {
    let w = dev.wave_mut(0);
    for l in 0..w.size {
        let [a, b, c] = f(l);
        w.set_vgpr(1, l, a);
        w.set_vgpr(2, l, b);
        w.set_vgpr(3, l, c);
    }
}

/// Expected result from (a, b, c, lane).
type LaneFn = fn(u32, u32, u32, u32) -> u32;

#[test]
fn vop3_integer_ops_follow_the_pseudocode() {
    let cases: &[(&str, LaneFn)] = &[
        ("v_mul_lo_u32 v10, v1, v2", |a, b, _, _| a.wrapping_mul(b)),
        ("v_mul_hi_u32 v10, v1, v2", |a, b, _, _| {
            ((a as u64 * b as u64) >> 32) as u32
        }),
        ("v_mul_hi_i32 v10, v1, v2", |a, b, _, _| {
            ((a as i32 as i64 * b as i32 as i64) >> 32) as u32
        }),
        ("v_add3_u32 v10, v1, v2, v3", |a, b, c, _| {
            a.wrapping_add(b).wrapping_add(c)
        }),
        ("v_lshl_add_u32 v10, v1, 3, v3", |a, _, c, _| {
            (a << 3).wrapping_add(c)
        }),
        ("v_and_or_b32 v10, v1, v2, v3", |a, b, c, _| (a & b) | c),
        ("v_bfe_u32 v10, v1, 4, 8", |a, _, _, _| (a >> 4) & 0xff),
        ("v_bfe_i32 v10, v1, 4, 8", |a, _, _, _| {
            ((a >> 4) as u8 as i8) as i32 as u32
        }),
        ("v_bfi_b32 v10, v1, v2, v3", |a, b, c, _| (a & b) | (!a & c)),
        ("v_alignbit_b32 v10, v1, v2, 8", |a, b, _, _| {
            (b >> 8) | (a << 24)
        }),
        ("v_med3_i32 v10, v1, v2, v3", |a, b, c, _| {
            let mut v = [a as i32, b as i32, c as i32];
            v.sort();
            v[1] as u32
        }),
        ("v_min3_u32 v10, v1, v2, v3", |a, b, c, _| a.min(b).min(c)),
        ("v_mbcnt_lo_u32_b32 v10, -1, 0", |_, _, _, l| l),
        ("v_bcnt_u32_b32 v10, v1, 1", |a, _, _, _| a.count_ones() + 1),
    ];
    let vals = |l: u32| {
        [
            l.wrapping_mul(0x9e37_79b9) ^ 0xf0f0_1234,
            0x8000_0001u32.wrapping_add(l * 77_777),
            l.wrapping_mul(0xdead_beef),
        ]
    };
    for (text, want) in cases {
        let dev = run(&format!("{text}\ns_endpgm"), |d| set3(d, vals));
        let w = dev.wave(0);
        for l in 0..32 {
            let [a, b, c] = vals(l);
            assert_eq!(w.vgpr(10, l), want(a, b, c, l), "{text} lane {l}");
        }
    }
    let dev = run("v_lshlrev_b64 v[10:11], 36, v[2:3]\ns_endpgm", |d| {
        set3(d, vals)
    });
    let w = dev.wave(0);
    let [_, b, c] = vals(5);
    let x = (c as u64) << 32 | b as u64;
    assert_eq!(w.vgpr(10, 5) as u64 | (w.vgpr(11, 5) as u64) << 32, x << 36);
}

#[test]
fn vop3_fma_f32_is_fused_with_abs_and_neg() {
    // (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly; an unfused product rounds to 1 first.
    let (a, b) = (1.0f32 + f32::EPSILON, 1.0f32 - f32::EPSILON);
    let dev = run(
        "v_fma_f32 v10, v1, v2, v3\nv_fma_f32 v11, -v1, |v2|, -|v3|\ns_endpgm",
        |d| set3(d, |_| [a.to_bits(), b.to_bits(), (-1.0f32).to_bits()]),
    );
    let w = dev.wave(0);
    assert_eq!(a * b - 1.0, 0.0, "the case tells fused from unfused");
    assert_eq!(w.vgpr(10, 0), (-(2.0f32.powi(-46))).to_bits());
    // -a × |b| - |c| = -(1 - 2^-46) - 1, rounded once.
    assert_eq!(w.vgpr(11, 0), (-a).mul_add(b, -1.0).to_bits());
    // Literal and inline constants: 2 × 0.5 + 1.0.
    let dev = run("v_fma_f32 v12, 2.0, 0.5, 0x3f800000\ns_endpgm", |_| {});
    assert_eq!(dev.wave(0).vgpr(12, 3), 2.0f32.to_bits());
}

#[test]
fn vop3_output_modifiers_and_clamp_apply_to_float_results() {
    let dev = run(
        "v_fma_f32 v10, v1, v2, v3 clamp\nv_add_f32_e64 v11, v1, v2 mul:2\n\
         v_add_f32_e64 v12, v1, v2 div:2\nv_mul_f32_e64 v13, -v1, v2 clamp\n\
         v_add_nc_u32_e64 v14, v4, v4 clamp\ns_endpgm",
        |d| {
            set3(d, |_| {
                [0.75f32.to_bits(), 1.5f32.to_bits(), 0.25f32.to_bits()]
            });
            d.wave_mut(0).set_vgpr(4, 0, 0x9000_0000);
        },
    );
    let w = dev.wave(0);
    assert_eq!(
        w.vgpr(10, 0),
        1.0f32.to_bits(),
        "0.75 × 1.5 + 0.25 clamps to 1"
    );
    assert_eq!(w.vgpr(11, 0), 4.5f32.to_bits());
    assert_eq!(w.vgpr(12, 0), 1.125f32.to_bits());
    assert_eq!(w.vgpr(13, 0), 0, "a negative result clamps to +0");
    assert_eq!(
        w.vgpr(14, 0),
        u32::MAX,
        "an unsigned add with clamp saturates"
    );
    // Integer clamp saturates the exact result: 0xffffff × 0xffffff + 0xffffffff > u32::MAX.
    let dev = run(
        "v_mad_u32_u24 v10, v1, v2, v3 clamp\nv_mad_u32_u24 v11, v1, v2, v3\ns_endpgm",
        |d| set3(d, |_| [0xff_ffff, 0xff_ffff, 0xffff_ffff]),
    );
    let w = dev.wave(0);
    assert_eq!(w.vgpr(10, 0), u32::MAX, "saturated");
    assert_eq!(
        w.vgpr(11, 0),
        (0xff_ffffu64 * 0xff_ffff + 0xffff_ffff) as u32,
        "wraps without clamp"
    );
}

#[test]
fn e64_forms_read_any_source_and_write_sgpr_masks() {
    // Compares to an SGPR pair of masks, a select by that mask, a carry chain through SGPRs.
    let src = "v_cmp_gt_u32_e64 s10, v1, 15\nv_cndmask_b32_e64 v10, v1, -1, s10\n\
               v_cmp_lt_f32_e64 s11, -v2, 0\n\
               v_add_co_u32 v11, s12, v1, -1\nv_add_co_ci_u32_e64 v12, s13, 0, 0, s12\n\
               v_cmpx_ne_u32_e64 v1, 3\nv_mov_b32 v13, 7\ns_endpgm";
    let dev = run(src, |d| set3(d, |l| [l, (l as f32 - 16.0).to_bits(), 0]));
    let w = dev.wave(0);
    let above15 = 0xffff_0000u32;
    assert_eq!(w.sreg(10), above15);
    for l in 0..32 {
        assert_eq!(w.vgpr(10, l), if l > 15 { u32::MAX } else { l }, "lane {l}");
        assert_eq!(w.vgpr(12, l), (l != 0) as u32, "carry of l + 0xffffffff");
        assert_eq!(
            w.vgpr(13, l),
            if l == 3 { 0 } else { 7 },
            "cmpx masks lane 3"
        );
    }
    // -(l - 16) < 0  <=>  l > 16.
    assert_eq!(w.sreg(11), 0xfffe_0000);
    assert_eq!(w.sreg(12), 0xffff_fffe);
    assert_eq!(w.sreg(13), 0);
    assert_eq!(w.exec(), !(1u64 << 3) & 0xffff_ffff);
}

#[test]
fn lane_ops_read_and_write_single_lanes() {
    let src = "s_mov_b32 s0, 5\nv_readlane_b32 s1, v1, s0\nv_readlane_b32 s2, v1, 37\n\
               v_writelane_b32 v2, s1, 9\nv_mbcnt_lo_u32_b32 v3, -1, 0\ns_endpgm";
    let dev = run(src, |d| {
        set3(d, |l| [100 + l, 0, 0]);
        d.wave_mut(0).set_exec(1);
    });
    let w = dev.wave(0);
    assert_eq!(w.sreg(1), 105);
    assert_eq!(w.sreg(2), 105, "the lane select wraps at the wave size");
    assert_eq!(w.vgpr(2, 9), 105, "writelane ignores EXEC");
    assert_eq!(w.vgpr(2, 8), 0);
}

#[test]
fn float_min_max_conversions_and_f64() {
    let src = "v_min_f32 v10, v1, v2\nv_max_f32 v11, v1, v2\nv_cvt_i32_f32 v12, v3\n\
               v_cvt_f64_f32 v[14:15], v3\nv_add_f64 v[16:17], v[14:15], v[14:15]\n\
               v_cvt_f32_f64 v18, v[16:17]\nv_rndne_f32 v19, v3\nv_floor_f32 v20, v3\n\
               v_cvt_u32_f32 v21, v2\nv_perm_b32 v22, v1, v2, 0x0c0d0007\n\
               v_rcp_f32 v23, 4.0\nv_frexp_exp_i32_f32 v24, v3\ns_endpgm";
    let dev = run(src, |d| {
        set3(d, |_| [0x8000_0000, 0, 2.5f32.to_bits()]);
        d.wave_mut(0).set_exec(1);
    });
    let w = dev.wave(0);
    assert_eq!(w.vgpr(10, 0), 0x8000_0000, "min(-0, +0) = -0");
    assert_eq!(w.vgpr(11, 0), 0, "max(-0, +0) = +0");
    assert_eq!(w.vgpr(12, 0), 2);
    let d = w.vgpr(16, 0) as u64 | (w.vgpr(17, 0) as u64) << 32;
    assert_eq!(d, 5.0f64.to_bits());
    assert_eq!(w.vgpr(18, 0), 5.0f32.to_bits());
    assert_eq!(w.vgpr(19, 0), 2.0f32.to_bits(), "2.5 rounds to even");
    assert_eq!(w.vgpr(20, 0), 2.0f32.to_bits());
    assert_eq!(w.vgpr(21, 0), 0);
    // perm selectors (high to low byte): 0x0c → 0, 0x0d → 0xff, 0x00 → byte 0 of src1 (0),
    // 0x07 → byte 7 = the top byte of src0 (0x80).
    assert_eq!(w.vgpr(22, 0), 0x00ff_0080);
    assert_eq!(w.vgpr(23, 0), 0.25f32.to_bits());
    assert_eq!(w.vgpr(24, 0), 2, "2.5 = 0.625 × 2^2");
}

#[test]
fn vop3sd_carry_outs_go_to_the_sgpr_destination() {
    let src = "v_add_co_u32 v10, s20, v1, v2\nv_sub_co_u32 v11, s21, v1, v2\n\
               v_subrev_co_u32 v12, vcc_lo, v1, v2\n\
               v_mad_u64_u32 v[14:15], s22, v1, v2, v[4:5]\n\
               v_mad_i64_i32 v[16:17], s23, v1, v2, v[4:5]\ns_endpgm";
    // Lane l: a = 0xffff_fff0 + l (wrapping), b = l × 3, c = 0xffff_ffff_xxxx_xxxx with a as the low dword.
    let dev = run(src, |d| {
        let w = d.wave_mut(0);
        for l in 0..32 {
            w.set_vgpr(1, l, 0xffff_fff0u32.wrapping_add(l));
            w.set_vgpr(2, l, l * 3);
            w.set_vgpr(4, l, 0xffff_fff0u32.wrapping_add(l));
            w.set_vgpr(5, l, 0xffff_ffff);
        }
    });
    let w = dev.wave(0);
    let (mut add_c, mut sub_c, mut rsub_c, mut madu_c, mut madi_c) = (0u32, 0u32, 0u32, 0u32, 0u32);
    for l in 0..32u32 {
        let (a, b) = (0xffff_fff0u32.wrapping_add(l), l * 3);
        let c = 0xffff_ffff_0000_0000u64 | 0xffff_fff0u32.wrapping_add(l) as u64;
        let (sum, carry) = a.overflowing_add(b);
        assert_eq!(w.vgpr(10, l), sum, "lane {l}");
        add_c |= (carry as u32) << l;
        assert_eq!(w.vgpr(11, l), a.wrapping_sub(b));
        sub_c |= ((b > a) as u32) << l;
        assert_eq!(w.vgpr(12, l), b.wrapping_sub(a));
        rsub_c |= ((a > b) as u32) << l;
        let u = a as u128 * b as u128 + c as u128;
        assert_eq!(
            w.vgpr(14, l) as u64 | (w.vgpr(15, l) as u64) << 32,
            u as u64
        );
        madu_c |= ((u >> 64 & 1) as u32) << l;
        let i = a as i32 as i128 * b as i32 as i128 + c as i64 as i128;
        assert_eq!(
            w.vgpr(16, l) as u64 | (w.vgpr(17, l) as u64) << 32,
            i as u64
        );
        madi_c |= ((i >> 64 & 1) as u32) << l;
    }
    assert_eq!(w.sreg(20), add_c);
    assert_ne!(add_c, 0, "some lanes carry");
    assert_eq!(w.sreg(21), sub_c);
    assert_eq!(w.sreg(106), rsub_c, "vcc_lo");
    assert_eq!(w.sreg(22), madu_c);
    assert_eq!(w.sreg(23), madi_c);
}

#[test]
fn integer_clamp_saturates_the_exact_result() {
    // a = 0xffffff (max u24, -1 as i24), b = 0x7fffff (max i24), c = 0x7fffffff.
    let src = "v_mul_u32_u24_e64 v10, v1, v1 clamp\nv_mul_i32_i24_e64 v11, v2, v4 clamp\n\
               v_mad_i32_i24 v12, v2, v2, v3 clamp\nv_mad_i32_i24 v13, v2, v2, v3\n\
               v_sub_nc_u32_e64 v14, 5, v1 clamp\nv_add_co_ci_u32_e64 v15, s20, v3, v3, s21 clamp\n\
               v_sub_co_ci_u32_e64 v16, s22, 0, 0, s21 clamp\n\
               v_mad_u64_u32 v[18:19], s23, v1, v1, v[6:7] clamp\n\
               v_mad_i64_i32 v[20:21], s24, v3, v3, v[8:9] clamp\ns_endpgm";
    let dev = run(src, |d| {
        let w = d.wave_mut(0);
        w.set_exec(1);
        w.set_sreg(21, 1); // carry-in set
        for (r, v) in [
            (1, 0xff_ffff),
            (2, 0x7f_ffff),
            (3, 0x7fff_ffff),
            (4, 0xff80_0000u32), // -2^23 as i24
            (6, u32::MAX),
            (7, u32::MAX),
            (8, u32::MAX),
            (9, 0x7fff_ffff),
        ] {
            w.set_vgpr(r, 0, v);
        }
    });
    let w = dev.wave(0);
    let wide = |r: u32| w.vgpr(r, 0) as u64 | (w.vgpr(r + 1, 0) as u64) << 32;
    assert_eq!(w.vgpr(10, 0), u32::MAX, "0xffffff² > u32::MAX");
    assert_eq!(
        w.vgpr(11, 0),
        i32::MIN as u32,
        "(2^23 - 1) × -2^23 < i32::MIN"
    );
    assert_eq!(
        w.vgpr(12, 0),
        i32::MAX as u32,
        "(2^23 - 1)² + 0x7fffffff > i32::MAX"
    );
    let exact = 0x7f_ffffi64 * 0x7f_ffff + 0x7fff_ffff;
    assert_eq!(w.vgpr(13, 0), exact as u32, "wraps without clamp");
    assert_eq!(w.vgpr(14, 0), 0, "5 - 0xffffff floors at 0");
    assert_eq!(
        w.vgpr(15, 0),
        u32::MAX,
        "2 × 0x7fffffff + 1 = 2^32 - 1: no saturation needed"
    );
    assert_eq!(w.sreg(20) & 1, 0);
    assert_eq!(w.vgpr(16, 0), 0, "0 - 0 - 1 floors at 0");
    assert_eq!(w.sreg(22) & 1, 1, "the borrow is still reported");
    assert_eq!(wide(18), u64::MAX, "0xffffff² + u64::MAX saturates");
    assert_eq!(w.sreg(23) & 1, 1, "and carries");
    assert_eq!(
        wide(20),
        i64::MAX as u64,
        "0x7fffffff² + i64::MAX saturates"
    );
}
