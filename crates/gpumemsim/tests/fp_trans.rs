//! The transcendental unit (`gpumemsim::fp::trans`): the ISA's functional examples bit for
//! bit, denormal handling, and the correctly rounded results against an independent
//! reference — the host's f64 `exp2`/`log2`/`sin`/`cos`/`sqrt` (accurate to about 2^-52),
//! rounded to f32 or f16, skipping the inputs whose reference lies so close to a rounding
//! midpoint that the reference itself cannot decide (their count is asserted to be tiny).

use gpumemsim::fp::trans::*;
use gpumemsim::fp::DenormCtl;

const ALLOW: DenormCtl = DenormCtl::FLUSH_NONE;
const FLUSH: DenormCtl = DenormCtl::FLUSH_ALL;

/// The f32 nearest to `y`, or `None` when `y` is within 2^-47 (relative) of a midpoint.
fn ref32(y: f64) -> Option<u32> {
    let r = y as f32;
    if !r.is_finite() || r == 0.0 {
        return Some(r.to_bits());
    }
    let b = r.to_bits();
    let neighbours = [b.wrapping_sub(1), b + 1];
    for n in neighbours {
        let m = (f32::from_bits(n) as f64 + r as f64) / 2.0;
        if (y - m).abs() <= y.abs() * 2f64.powi(-47) {
            return None;
        }
    }
    Some(b)
}

/// The f16 nearest to `y` (through the crate's exact rounding, checked against the f32
/// converter in its own tests), or `None` near a midpoint.
fn ref16(y: f64) -> Option<u16> {
    let r = gpumemsim::fp::round::to_f16(y, 0.0);
    for d in [-1i32, 1] {
        let n = (r as i32 + d) as u16;
        if n & 0x7c00 == 0x7c00 {
            continue;
        }
        let m = (f16(r) + f16(n)) / 2.0;
        if (y - m).abs() <= y.abs() * 2f64.powi(-47) {
            return None;
        }
    }
    Some(r)
}

/// sin(2πx) or cos(2πx) in f64, the argument reduced exactly first (to within an eighth of
/// a revolution of a quadrant), so the reference is accurate to about 2^-52 relative even
/// near the functions' zeros.
fn sincos_ref(x: f64, cos: bool) -> f64 {
    let r = x - x.round_ties_even();
    let q = (4.0 * r).round_ties_even();
    let theta = 2.0 * std::f64::consts::PI * (r - 0.25 * q);
    match (q as i32 + cos as i32).rem_euclid(4) {
        0 => theta.sin(),
        1 => theta.cos(),
        2 => -theta.sin(),
        _ => -theta.cos(),
    }
}

fn f16(h: u16) -> f64 {
    f32::from_bits(gpumemsim::fp::valu::f16_to_f32(h)) as f64
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn isa_functional_examples_f32() {
    // RDNA3.5 ISA reference, "Functional examples" of each opcode.
    assert_eq!(exp2_f32(0xff80_0000), 0x0000_0000, "exp(-INF) = 0");
    assert_eq!(exp2_f32(0x8000_0000), 0x3f80_0000, "exp(-0.0) = 1");
    assert_eq!(exp2_f32(0x7f80_0000), 0x7f80_0000, "exp(+INF) = +INF");
    assert_eq!(log2_f32(0xff80_0000), 0xffc0_0000, "log(-INF) = NAN");
    assert_eq!(log2_f32(0xbf80_0000), 0xffc0_0000, "log(-1.0) = NAN");
    assert_eq!(log2_f32(0x8000_0000), 0xff80_0000, "log(-0.0) = -INF");
    assert_eq!(log2_f32(0x0000_0000), 0xff80_0000, "log(+0.0) = -INF");
    assert_eq!(log2_f32(0x3f80_0000), 0x0000_0000, "log(+1.0) = 0");
    assert_eq!(log2_f32(0x7f80_0000), 0x7f80_0000, "log(+INF) = +INF");
    assert_eq!(rcp_f32(0xff80_0000), 0x8000_0000, "rcp(-INF) = -0");
    assert_eq!(rcp_f32(0xc000_0000), 0xbf00_0000, "rcp(-2.0) = -0.5");
    assert_eq!(rcp_f32(0x8000_0000), 0xff80_0000, "rcp(-0.0) = -INF");
    assert_eq!(rcp_f32(0x0000_0000), 0x7f80_0000, "rcp(+0.0) = +INF");
    assert_eq!(rcp_f32(0x7f80_0000), 0x0000_0000, "rcp(+INF) = +0");
    assert_eq!(rsq_f32(0xff80_0000), 0xffc0_0000, "rsq(-INF) = NAN");
    assert_eq!(rsq_f32(0x8000_0000), 0xff80_0000, "rsq(-0.0) = -INF");
    assert_eq!(rsq_f32(0x0000_0000), 0x7f80_0000, "rsq(+0.0) = +INF");
    assert_eq!(rsq_f32(0x4080_0000), 0x3f00_0000, "rsq(+4.0) = +0.5");
    assert_eq!(rsq_f32(0x7f80_0000), 0x0000_0000, "rsq(+INF) = +0");
    assert_eq!(sqrt_f32(0xff80_0000), 0xffc0_0000, "sqrt(-INF) = NAN");
    assert_eq!(sqrt_f32(0x8000_0000), 0x8000_0000, "sqrt(-0.0) = -0");
    assert_eq!(sqrt_f32(0x0000_0000), 0x0000_0000, "sqrt(+0.0) = +0");
    assert_eq!(sqrt_f32(0x4080_0000), 0x4000_0000, "sqrt(+4.0) = +2.0");
    assert_eq!(sqrt_f32(0x7f80_0000), 0x7f80_0000, "sqrt(+INF) = +INF");
    for ctl in [ALLOW, FLUSH] {
        let sin = |x| sincos_f32(x, false, ctl);
        let cos = |x| sincos_f32(x, true, ctl);
        assert_eq!(sin(0xff80_0000), 0xffc0_0000, "sin(-INF) = NAN");
        assert_eq!(sin(0xff7f_ffff), 0x0000_0000, "sin(-MaxFloat) = 0");
        assert_eq!(sin(0x8000_0000), 0x8000_0000, "sin(-0.0) = -0");
        assert_eq!(sin(0x3e80_0000), 0x3f80_0000, "sin(0.25) = 1");
        assert_eq!(sin(0x7f80_0000), 0xffc0_0000, "sin(+INF) = NAN");
        assert_eq!(cos(0xff80_0000), 0xffc0_0000, "cos(-INF) = NAN");
        assert_eq!(cos(0xff7f_ffff), 0x3f80_0000, "cos(-MaxFloat) = 1");
        assert_eq!(cos(0x8000_0000), 0x3f80_0000, "cos(-0.0) = 1");
        assert_eq!(cos(0x3e80_0000), 0x0000_0000, "cos(0.25) = 0");
        assert_eq!(cos(0x7f80_0000), 0xffc0_0000, "cos(+INF) = NAN");
    }
}

#[test]
fn isa_functional_examples_f16() {
    for ctl in [ALLOW, FLUSH] {
        assert_eq!(rcp_f16(0xfc00, ctl), 0x8000, "rcp(-INF) = -0");
        assert_eq!(rcp_f16(0xc000, ctl), 0xb800, "rcp(-2.0) = -0.5");
        assert_eq!(rcp_f16(0x8000, ctl), 0xfc00, "rcp(-0.0) = -INF");
        assert_eq!(rcp_f16(0x0000, ctl), 0x7c00, "rcp(+0.0) = +INF");
        assert_eq!(rcp_f16(0x7c00, ctl), 0x0000, "rcp(+INF) = +0");
        assert_eq!(sqrt_f16(0xfc00, ctl), 0xfe00, "sqrt(-INF) = NAN");
        assert_eq!(sqrt_f16(0x8000, ctl), 0x8000, "sqrt(-0.0) = -0");
        assert_eq!(sqrt_f16(0x0000, ctl), 0x0000, "sqrt(+0.0) = +0");
        assert_eq!(sqrt_f16(0x4400, ctl), 0x4000, "sqrt(+4.0) = +2.0");
        assert_eq!(sqrt_f16(0x7c00, ctl), 0x7c00, "sqrt(+INF) = +INF");
        assert_eq!(rsq_f16(0xfc00, ctl), 0xfe00, "rsq(-INF) = NAN");
        assert_eq!(rsq_f16(0x8000, ctl), 0xfc00, "rsq(-0.0) = -INF");
        assert_eq!(rsq_f16(0x0000, ctl), 0x7c00, "rsq(+0.0) = +INF");
        assert_eq!(rsq_f16(0x4400, ctl), 0x3800, "rsq(+4.0) = +0.5");
        assert_eq!(rsq_f16(0x7c00, ctl), 0x0000, "rsq(+INF) = +0");
        assert_eq!(log2_f16(0xfc00, ctl), 0xfe00, "log(-INF) = NAN");
        assert_eq!(log2_f16(0xbc00, ctl), 0xfe00, "log(-1.0) = NAN");
        assert_eq!(log2_f16(0x8000, ctl), 0xfc00, "log(-0.0) = -INF");
        assert_eq!(log2_f16(0x0000, ctl), 0xfc00, "log(+0.0) = -INF");
        assert_eq!(log2_f16(0x3c00, ctl), 0x0000, "log(+1.0) = 0");
        assert_eq!(log2_f16(0x7c00, ctl), 0x7c00, "log(+INF) = +INF");
        assert_eq!(exp2_f16(0xfc00, ctl), 0x0000, "exp(-INF) = 0");
        assert_eq!(exp2_f16(0x8000, ctl), 0x3c00, "exp(-0.0) = 1");
        assert_eq!(exp2_f16(0x7c00, ctl), 0x7c00, "exp(+INF) = +INF");
        let sin = |x| sincos_f16(x, false, ctl);
        let cos = |x| sincos_f16(x, true, ctl);
        assert_eq!(sin(0xfc00), 0xfe00, "sin(-INF) = NAN");
        assert_eq!(sin(0xfbff), 0x0000, "most negative finite FP16");
        assert_eq!(sin(0x8000), 0x8000, "sin(-0.0) = -0");
        assert_eq!(sin(0x3400), 0x3c00, "sin(0.25) = 1");
        assert_eq!(sin(0x7bff), 0x0000, "most positive finite FP16");
        assert_eq!(sin(0x7c00), 0xfe00, "sin(+INF) = NAN");
        assert_eq!(cos(0xfc00), 0xfe00, "cos(-INF) = NAN");
        assert_eq!(cos(0xfbff), 0x3c00);
        assert_eq!(cos(0x8000), 0x3c00, "cos(-0.0) = 1");
        assert_eq!(cos(0x3400), 0x0000, "cos(0.25) = 0");
        assert_eq!(cos(0x7bff), 0x3c00);
        assert_eq!(cos(0x7c00), 0xfe00, "cos(+INF) = NAN");
    }
}

#[test]
fn nan_inputs_come_back_quiet_with_their_payload() {
    let (snan, qnan) = (0xff80_1234u32, 0x7fc0_0042u32);
    for g in [exp2_f32, log2_f32, rcp_f32, rsq_f32, sqrt_f32] {
        assert_eq!(g(snan), 0xffc0_1234);
        assert_eq!(g(qnan), qnan);
    }
    assert_eq!(sincos_f32(snan, false, ALLOW), 0xffc0_1234);
    assert_eq!(sincos_f16(0x7c01, true, ALLOW), 0x7e01);
    assert_eq!(rcp_f64(0x7ff0_0000_0000_0001, ALLOW), 0x7ff8_0000_0000_0001);
}

#[test]
fn f32_exp_log_rcp_rsq_sqrt_flush_denormals_whatever_mode_says() {
    // "1ULP accuracy, denormals are flushed": inputs read as ±0, results written as ±0.
    let den = 0x0000_0400u32; // 2^-139
    assert_eq!(exp2_f32(den), 0x3f80_0000, "2^(+0)");
    assert_eq!(log2_f32(den), 0xff80_0000, "log2(+0) = -inf");
    assert_eq!(rcp_f32(den), 0x7f80_0000, "1/+0");
    assert_eq!(rcp_f32(den | 0x8000_0000), 0xff80_0000, "1/-0");
    assert_eq!(sqrt_f32(den), 0, "sqrt(+0)");
    assert_eq!(rsq_f32(den | 0x8000_0000), 0xff80_0000, "rsq(-0)");
    // Results below 2^-126 are written as +0: 2^-126.5, 1/2^127.
    assert_eq!(exp2_f32(f(-126.5)), 0);
    assert_eq!(exp2_f32(f(-126.0)), 0x0080_0000, "2^-126 is normal");
    assert_eq!(rcp_f32(f(2f32.powi(127))), 0);
    assert_eq!(
        rcp_f32(f(-(2f32.powi(126)))),
        0x8080_0000,
        "-2^-126 is normal"
    );
    // sin/cos support denormals per MODE: sin(2π x) of a tiny x is a denormal 2πx.
    let s = sincos_f32(den, false, ALLOW);
    assert_eq!(
        Some(s),
        ref32(sincos_ref(f32::from_bits(den) as f64, false))
    );
    assert_eq!(sincos_f32(den, false, FLUSH), 0, "input flushed: sin(+0)");
    let out_only = DenormCtl {
        flush_input: false,
        flush_output: true,
    };
    assert_eq!(sincos_f32(den, false, out_only), 0, "output flushed");
    assert_eq!(sincos_f32(den, true, FLUSH), 0x3f80_0000);
}

#[test]
fn f16_functions_honour_the_f16_mode_control() {
    let den = 0x0001u16; // 2^-24
    assert_eq!(rcp_f16(den, FLUSH), 0x7c00, "1/+0");
    assert_eq!(rcp_f16(den, ALLOW), 0x7c00, "1/2^-24 overflows");
    assert_eq!(sqrt_f16(den, ALLOW), 0x0c00, "sqrt(2^-24) = 2^-12");
    assert_eq!(sqrt_f16(den, FLUSH), 0);
    assert_eq!(log2_f16(den, ALLOW), 0xce00, "log2(2^-24) = -24");
    assert_eq!(log2_f16(den, FLUSH), 0xfc00);
    assert_eq!(exp2_f16(0xce00, ALLOW), 0x0001, "2^-24, a denormal result");
    assert_eq!(exp2_f16(0xce00, FLUSH), 0, "flushed on output");
    assert_eq!(exp2_f16(0xce40, ALLOW), 0, "2^-25 ties to 0");
}

#[test]
fn f16_functions_are_correctly_rounded_for_every_input() {
    let mut skipped = 0;
    let mut checked = 0;
    for h in 0..=u16::MAX {
        if h & 0x7c00 == 0x7c00 {
            continue;
        }
        let x = f16(h);
        let cases: [(u16, Option<f64>, &str); 6] = [
            (exp2_f16(h, ALLOW), (x < 16.0).then(|| x.exp2()), "exp"),
            (log2_f16(h, ALLOW), (x > 0.0).then(|| x.log2()), "log"),
            (
                sincos_f16(h, false, ALLOW),
                Some(sincos_ref(x, false)),
                "sin",
            ),
            (sincos_f16(h, true, ALLOW), Some(sincos_ref(x, true)), "cos"),
            (rcp_f16(h, ALLOW), (x != 0.0).then(|| 1.0 / x), "rcp"),
            (rsq_f16(h, ALLOW), (x > 0.0).then(|| 1.0 / x.sqrt()), "rsq"),
        ];
        for (got, want, name) in cases {
            let Some(y) = want else { continue };
            if y == 0.0 {
                continue; // exact zeros: the special-case tests pin their signs
            }
            match ref16(y) {
                Some(w) => {
                    checked += 1;
                    assert_eq!(got, w, "{name}({h:#06x} = {x})");
                }
                None => skipped += 1,
            }
        }
        if x >= 0.0 {
            assert_eq!(
                sqrt_f16(h, ALLOW),
                ref16(x.sqrt()).unwrap_or(0),
                "sqrt {h:#x}"
            );
        }
    }
    assert!(checked > 250_000, "{checked}");
    assert!(skipped < 20, "{skipped} references too close to a midpoint");
}

/// A sample of ordinary f32 values (every 997th bit pattern, all signs and exponents).
fn sample() -> impl Iterator<Item = u32> {
    (0..=u32::MAX)
        .step_by(997)
        .filter(|x| x & 0x7f80_0000 != 0x7f80_0000)
}

#[test]
fn f32_exp_and_log_are_correctly_rounded_on_a_sample() {
    let (mut checked, mut skipped) = (0, 0);
    for a in sample() {
        let x = f32::from_bits(a) as f64;
        let mut check = |got: u32, y: f64, name: &str| match ref32(y) {
            Some(w) => {
                checked += 1;
                assert_eq!(got, w, "{name}({a:#x} = {x:e})");
            }
            None => skipped += 1,
        };
        if a & 0x7f80_0000 != 0 {
            if (-126.0..128.0).contains(&x) {
                check(exp2_f32(a), x.exp2(), "exp");
            }
            if x > 0.0 {
                check(log2_f32(a), x.log2(), "log");
            }
            if x != 0.0 && x.abs() < 2f64.powi(126) {
                check(rcp_f32(a), 1.0 / x, "rcp");
            }
            if x > 0.0 {
                check(rsq_f32(a), 1.0 / x.sqrt(), "rsq");
                check(sqrt_f32(a), x.sqrt(), "sqrt");
            }
        }
    }
    assert!(checked > 5_000_000, "{checked}");
    assert!(skipped < 50, "{skipped}");
}

#[test]
fn f32_sin_and_cos_are_correctly_rounded_on_a_sample() {
    let (mut checked, mut skipped) = (0, 0);
    for a in sample() {
        let x = f32::from_bits(a) as f64;
        for cos in [false, true] {
            let y = sincos_ref(x, cos);
            if y == 0.0 {
                continue; // exact zeros: pinned by the special-case tests
            }
            match ref32(y) {
                Some(w) => {
                    checked += 1;
                    assert_eq!(sincos_f32(a, cos, ALLOW), w, "cos={cos} {a:#x} = {x:e}");
                }
                None => skipped += 1,
            }
        }
    }
    assert!(checked > 4_000_000, "{checked}");
    assert!(skipped < 50, "{skipped}");
}

#[test]
fn exact_results_are_exact() {
    // Powers of two, and sin/cos at multiples of 1/4 revolution and at 1/8 (√½).
    for k in -126..128 {
        assert_eq!(exp2_f32(f(k as f32)), f(2f32.powi(k)), "2^{k}");
        assert_eq!(log2_f32(f(2f32.powi(k))), f(k as f32), "log2 2^{k}");
    }
    assert_eq!(sincos_f32(f(0.5), false, ALLOW), 0, "sin(π) = +0");
    assert_eq!(sincos_f32(f(-0.5), false, ALLOW), 0, "sin(-π) = +0");
    assert_eq!(sincos_f32(f(0.75), false, ALLOW), f(-1.0));
    assert_eq!(sincos_f32(f(0.5), true, ALLOW), f(-1.0));
    assert_eq!(sincos_f32(f(0.75), true, ALLOW), 0, "cos(3π/2) = +0");
    assert_eq!(sincos_f32(f(1e9), false, ALLOW), 0, "an integer");
    assert_eq!(sincos_f32(f(0.125), false, ALLOW), f(0.70710677));
    assert_eq!(sincos_f32(f(-0.125), true, ALLOW), f(0.70710677));
    assert_eq!(sincos_f32(f(1000.125), false, ALLOW), f(0.70710677));
}

#[test]
fn f64_rcp_sqrt_rsq() {
    let b = |x: f64| x.to_bits();
    assert_eq!(rcp_f64(b(4.0), ALLOW), b(0.25));
    assert_eq!(rcp_f64(b(-0.0), ALLOW), b(f64::NEG_INFINITY));
    assert_eq!(rcp_f64(b(3.0), ALLOW), b(1.0 / 3.0));
    assert_eq!(sqrt_f64(b(2.0), ALLOW), b(2f64.sqrt()));
    assert_eq!(sqrt_f64(b(-1.0), ALLOW), NAN_INVALID_F64);
    assert_eq!(sqrt_f64(b(-0.0), ALLOW), b(-0.0));
    assert_eq!(rsq_f64(b(4.0), ALLOW), b(0.5));
    assert_eq!(rsq_f64(b(-4.0), ALLOW), NAN_INVALID_F64);
    assert_eq!(rsq_f64(b(0.0), ALLOW), b(f64::INFINITY));
    assert_eq!(rsq_f64(b(f64::INFINITY), ALLOW), 0);
    // 1/√2 rounded once (the host's 1/sqrt(2) rounds twice, and here agrees).
    assert_eq!(rsq_f64(b(2.0), ALLOW), b(std::f64::consts::FRAC_1_SQRT_2));
    // f64 denormals follow MODE.
    let den = 1u64;
    assert_eq!(sqrt_f64(den, FLUSH), 0);
    assert_eq!(sqrt_f64(den, ALLOW), b(f64::from_bits(1).sqrt()));
    assert_eq!(rcp_f64(b(2f64.powi(1023)), FLUSH), 0, "2^-1023 flushed");
    assert_eq!(rcp_f64(b(2f64.powi(1023)), ALLOW), b(2f64.powi(-1023)));
}
