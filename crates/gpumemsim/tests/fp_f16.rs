//! f16 arithmetic on bits (`gpumemsim::fp::f16`), against an independent oracle: every f16
//! value is an integer multiple of 2^-24, so sums, products and fused multiply-adds are exact
//! integers in units of 2^-48 (they fit an i128), and the test rounds those integers to f16
//! itself, by the IEEE rule written out below. Edge cases are tabled by name: ±0, denormals
//! in and out under each MODE flag, ±inf, quiet and signalling NaNs with payloads, overflow,
//! ties.

use gpumemsim::fp::f16::*;
use gpumemsim::fp::DenormCtl;
use proptest::prelude::*;

const NONE: DenormCtl = DenormCtl::FLUSH_NONE;
const ALL: DenormCtl = DenormCtl::FLUSH_ALL;
const IN: DenormCtl = DenormCtl {
    flush_input: true,
    flush_output: false,
};
const OUT: DenormCtl = DenormCtl {
    flush_input: false,
    flush_output: true,
};

const PZ: u16 = 0x0000;
const NZ: u16 = 0x8000;
const MIN_DEN: u16 = 0x0001; // 2^-24
const MAX_DEN: u16 = 0x03ff;
const MIN_NORM: u16 = 0x0400; // 2^-14
const ONE: u16 = 0x3c00;
const TWO: u16 = 0x4000;
const MAX: u16 = 0x7bff; // 65504
const INF: u16 = 0x7c00;
const NINF: u16 = 0xfc00;
const QNAN: u16 = 0x7e05;
const SNAN: u16 = 0xfc21; // quiet: 0xfe21

/// An f16's value in units of 2^-24 (exact), or `None` for inf/NaN.
fn units(h: u16) -> Option<i128> {
    let e = (h >> 10 & 0x1f) as i32;
    let m = (h & 0x3ff) as i128;
    if e == 31 {
        return None;
    }
    let mag = if e == 0 { m } else { (m | 0x400) << (e - 1) };
    Some(if h & 0x8000 != 0 { -mag } else { mag })
}

/// The f16 nearest to `v × 2^-48` (ties to even), written out independently of the crate;
/// `neg_zero` gives the sign of an exact zero.
fn round_units48(v: i128, neg_zero: bool) -> u16 {
    if v == 0 {
        return if neg_zero { NZ } else { PZ };
    }
    let sign = if v < 0 { 0x8000u16 } else { 0 };
    let mag = v.unsigned_abs();
    // The quantum: 2^-24 (units 2^24) below 2^-14, else 2^(e - 10) for |v| in [2^e, 2^(e+1)).
    let top = 127 - mag.leading_zeros() as i32; // mag in [2^top, 2^(top+1)) units of 2^-48
    let e = top - 48;
    let q_exp = if e < -14 { -24 } else { e - 10 }; // quantum 2^q_exp
    let shift = (q_exp + 48) as u32; // quantum in units
    let mut n = mag >> shift;
    let rem = mag & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    if rem > half || rem == half && n & 1 == 1 {
        n += 1;
    }
    // n quanta of 2^q_exp.
    let (mut n, mut q_exp) = (n, q_exp);
    if n == 0x800 {
        n = 0x400;
        q_exp += 1;
    }
    if n < 0x400 {
        return sign | n as u16; // denormal (q_exp = -24)
    }
    let field = q_exp + 10 + 15;
    if field >= 31 {
        return sign | INF;
    }
    sign | (field as u16) << 10 | (n as u16 - 0x400)
}

fn is_den(h: u16) -> bool {
    h & 0x7c00 == 0 && h & 0x3ff != 0
}

/// The model of a finite f16 operation: inputs flushed per `ctl`, exact result rounded,
/// denormal result flushed per `ctl` (sign kept).
fn model(ins: &[u16], ctl: DenormCtl, exact: impl Fn(&[i128]) -> (i128, bool)) -> u16 {
    let ins: Vec<u16> = ins
        .iter()
        .map(|&x| {
            if ctl.flush_input && is_den(x) {
                x & 0x8000
            } else {
                x
            }
        })
        .collect();
    let vals: Vec<i128> = ins.iter().map(|&x| units(x).unwrap_or(0)).collect();
    let (v, neg_zero) = exact(&vals);
    let r = round_units48(v, neg_zero);
    if ctl.flush_output && is_den(r) {
        r & 0x8000
    } else {
        r
    }
}

fn finite() -> impl Strategy<Value = u16> {
    prop_oneof![
        any::<u16>().prop_filter("finite", |h| h & 0x7c00 != 0x7c00),
        (0u16..0x400).prop_map(|m| m),
        (0u16..0x400).prop_map(|m| m | 0x8000),
    ]
}

fn ctls() -> impl Strategy<Value = DenormCtl> {
    prop_oneof![Just(NONE), Just(ALL), Just(IN), Just(OUT)]
}

fn sign(h: u16) -> bool {
    h & 0x8000 != 0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn add_sub_mul_fma_round_the_exact_result_once(
        a in finite(), b in finite(), c in finite(), ctl in ctls()
    ) {
        let fl = |x: u16| if ctl.flush_input && is_den(x) { x & 0x8000 } else { x };
        let (sa, sb, sc) = (sign(fl(a)), sign(fl(b)), sign(fl(c)));
        // Exact zero signs (IEEE, round to nearest): x + y is -0 only for -0 + -0.
        let want = model(&[a, b], ctl, |v| ((v[0] + v[1]) << 24, sa && sb));
        prop_assert_eq!(add16(a, b, ctl), want, "add");
        let want = model(&[a, b], ctl, |v| ((v[0] - v[1]) << 24, sa && !sb));
        prop_assert_eq!(sub16(a, b, ctl), want, "sub");
        let want = model(&[a, b], ctl, |v| (v[0] * v[1], sa != sb));
        prop_assert_eq!(mul16(a, b, ctl), want, "mul");
        let want = model(&[a, b, c], ctl, |v| {
            (v[0] * v[1] + (v[2] << 24), (sa != sb) && sc)
        });
        prop_assert_eq!(fma16(a, b, c, ctl), want, "fma");
    }

    #[test]
    fn ldexp_scales_and_rounds_once(a in finite(), e in -40i32..40, ctl in ctls()) {
        // a × 2^e in units of 2^-48 scaled by 2^40 (exact for e >= -40), rounded by the
        // oracle at 2^-88: shift the oracle's input instead of its quantum.
        let want = model(&[a], ctl, |v| {
            let x = v[0] << 24; // units of 2^-48
            let scaled = if e >= 0 { x << e } else { x };
            (scaled, sign(a))
        });
        if e >= 0 {
            prop_assert_eq!(ldexp16(a, e, ctl), want);
        } else {
            // For e < 0 compare with the host: a × 2^e is exact in f64 and in f32 (at most 11
            // significant bits, above 2^-64), and the f32 → f16 converter rounds it once.
            let fl = if ctl.flush_input && is_den(a) { a & 0x8000 } else { a };
            let y = (to_f64(fl) * 2f64.powi(e)) as f32;
            let r = gpumemsim::fp::valu::f32_to_f16(
                y.to_bits(),
                gpumemsim::fp::valu::Round::NearestEven,
            );
            let r = if ctl.flush_output && is_den(r) { r & 0x8000 } else { r };
            prop_assert_eq!(ldexp16(a, e, ctl), r);
        }
    }
}

#[test]
fn the_oracle_agrees_with_the_f32_converter() {
    // Every f16 as units, back through the oracle's rounding.
    for h in 0..=u16::MAX {
        if let Some(v) = units(h) {
            assert_eq!(round_units48(v << 24, sign(h)), h, "{h:#x}");
        }
    }
}

#[test]
fn special_values() {
    // (a, b, add, mul) under FLUSH_NONE.
    let table = [
        (PZ, NZ, PZ, NZ),
        (NZ, NZ, NZ, PZ),
        (INF, NINF, NAN16, NINF),
        (INF, PZ, INF, NAN16),
        (MAX, MAX, INF, INF),
        (QNAN, ONE, QNAN, QNAN),
        (ONE, SNAN, 0xfe21, 0xfe21),
        (SNAN, QNAN, 0xfe21, 0xfe21),
        (MIN_DEN, MIN_DEN, 0x0002, PZ),
        (MAX_DEN, MIN_DEN, MIN_NORM, PZ),
    ];
    for (a, b, add, mul) in table {
        assert_eq!(add16(a, b, NONE), add, "{a:#x} + {b:#x}");
        assert_eq!(mul16(a, b, NONE), mul, "{a:#x} × {b:#x}");
    }
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even.
    assert_eq!(add16(ONE, 0x1000, NONE), ONE);
    assert_eq!(add16(0x3c01, 0x1000, NONE), 0x3c02);
    // fma's single rounding: (1 + 2^-10)(1 - 2^-11) - 1 = 2^-11 - 2^-21 = 2^-12 × (2 -
    // 2^-9), exactly an f16; the rounded product is 1.0, so an unfused result would be 0.
    assert_eq!(fma16(0x3c01, 0x3bff, 0xbc00, NONE), 0x0ffe);
    assert_eq!(mul16(0x3c01, 0x3bff, NONE), ONE);
    // Denormals under each control: in, out, both.
    assert_eq!(add16(MIN_DEN, PZ, NONE), MIN_DEN);
    assert_eq!(add16(MIN_DEN, PZ, IN), PZ);
    assert_eq!(add16(MIN_DEN, PZ, OUT), PZ);
    assert_eq!(add16(0x8001, PZ, OUT), NZ, "flushed output keeps the sign");
    assert_eq!(
        mul16(MIN_NORM, 0x3800, NONE),
        0x0200,
        "2^-14 / 2 is a denormal"
    );
    assert_eq!(mul16(MIN_NORM, 0x3800, OUT), PZ);
    assert_eq!(fma16(MIN_DEN, TWO, NZ, IN), PZ, "0 × 2 + -0 = +0");
    assert_eq!(fma16(NZ, TWO, NZ, NONE), NZ, "-0 × 2 + -0 = -0");
}

#[test]
fn min_max_and_selections() {
    let max = |a, b, ieee, fl| minmax16(a, b, true, ieee, fl);
    let min = |a, b, ieee, fl| minmax16(a, b, false, ieee, fl);
    assert_eq!(min(PZ, NZ, true, false), NZ, "-0 < +0");
    assert_eq!(max(NZ, PZ, true, false), PZ);
    assert_eq!(max(QNAN, ONE, true, false), ONE, "a quiet NaN loses");
    assert_eq!(max(SNAN, ONE, true, false), 0xfe21, "IEEE: sNaN quieted");
    assert_eq!(max(ONE, SNAN, false, false), ONE, "non-IEEE: any NaN loses");
    assert_eq!(min(MIN_DEN, PZ, true, true), PZ, "flushed: a tie, S1");
    assert_eq!(min(MIN_DEN, ONE, true, true), PZ, "flushed result");
    assert_eq!(min(MIN_DEN, ONE, true, false), MIN_DEN);
    assert_eq!(med3_16(ONE, TWO, PZ, true, false), ONE);
    assert_eq!(med3_16(TWO, QNAN, ONE, true, false), ONE, "NaN: min3");
    assert_eq!(
        med3_16(MIN_DEN, 0x8001, ONE, true, true),
        PZ,
        "flushed ±0: max(-0, 1)…"
    );
}

#[test]
fn rounding_to_integers_frexp_and_fract() {
    let h = |x: f32| {
        gpumemsim::fp::valu::f32_to_f16(x.to_bits(), gpumemsim::fp::valu::Round::NearestEven)
    };
    for (x, tr, ce, fl, rn) in [
        (2.5f32, 2.0, 3.0, 2.0, 2.0),
        (-2.5, -2.0, -2.0, -3.0, -2.0),
        (3.5, 3.0, 4.0, 3.0, 4.0),
        (-0.25, -0.0, -0.0, -1.0, -0.0),
        (0.75, 0.0, 1.0, 0.0, 1.0),
    ] {
        assert_eq!(trunc16(h(x), NONE), h(tr), "trunc {x}");
        assert_eq!(ceil16(h(x), NONE), h(ce), "ceil {x}");
        assert_eq!(floor16(h(x), NONE), h(fl), "floor {x}");
        assert_eq!(rndne16(h(x), NONE), h(rn), "rndne {x}");
    }
    assert_eq!(floor16(0x8001, NONE), h(-1.0), "floor(-denormal)");
    assert_eq!(floor16(0x8001, IN), NZ, "flushed: floor(-0)");
    assert_eq!(trunc16(INF, NONE), INF);
    assert_eq!(trunc16(SNAN, NONE), 0xfe21);
    // fract: x - floor(x), clamped below 1.0 (-2^-24 would round to 1.0).
    assert_eq!(fract16(h(2.75), NONE), h(0.75));
    assert_eq!(fract16(h(-1.25), NONE), h(0.75));
    assert_eq!(fract16(0x8001, NONE), FRACT16_MAX);
    assert_eq!(fract16(INF, NONE), NAN16);
    // frexp: 2.5 = 0.625 × 2^2; a denormal is normalised; inf/NaN/0 give 0 (exp) or
    // themselves (mant).
    assert_eq!(frexp_mant16(h(2.5), NONE), h(0.625));
    assert_eq!(frexp_exp16(h(2.5), NONE), 2);
    assert_eq!(frexp_mant16(MIN_DEN, NONE), h(0.5));
    assert_eq!(frexp_exp16(MIN_DEN, NONE), (-23i16) as u16);
    assert_eq!(frexp_exp16(MIN_DEN, IN), 0, "flushed to 0");
    assert_eq!(frexp_mant16(NINF, NONE), NINF);
    assert_eq!(frexp_exp16(QNAN, NONE), 0);
    assert_eq!(frexp_mant16(NZ, NONE), NZ);
    // ldexp: overflow, underflow to a denormal with rounding, NaN, huge exponents.
    assert_eq!(ldexp16(ONE, 16, NONE), INF);
    assert_eq!(ldexp16(ONE, -24, NONE), MIN_DEN);
    assert_eq!(
        ldexp16(h(1.5), -24, NONE),
        0x0002,
        "1.5 × 2^-24 ties to even 2^-23"
    );
    assert_eq!(
        ldexp16(ONE, -25, NONE),
        PZ,
        "half the smallest denormal ties to 0"
    );
    assert_eq!(ldexp16(ONE, -24, OUT), PZ);
    assert_eq!(ldexp16(NZ, 100, NONE), NZ);
    assert_eq!(ldexp16(ONE, i32::MIN, NONE), PZ);
    assert_eq!(ldexp16(ONE, i32::MAX, NONE), INF);
    assert_eq!(ldexp16(SNAN, 3, NONE), 0xfe21);
}

#[test]
fn output_modifiers_and_clamp() {
    let h = |x: f32| {
        gpumemsim::fp::valu::f32_to_f16(x.to_bits(), gpumemsim::fp::valu::Round::NearestEven)
    };
    assert_eq!(out_mods16(h(0.75), 1, false, true, NONE), h(1.5), "mul:2");
    assert_eq!(out_mods16(h(0.75), 2, false, true, NONE), h(3.0), "mul:4");
    assert_eq!(out_mods16(h(0.75), 3, false, true, NONE), h(0.375), "div:2");
    assert_eq!(
        out_mods16(h(0.75), 1, true, true, NONE),
        ONE,
        "clamp after ×2"
    );
    assert_eq!(out_mods16(h(-3.0), 0, true, true, NONE), PZ);
    assert_eq!(out_mods16(MAX, 1, false, true, NONE), INF, "×2 overflows");
    assert_eq!(
        out_mods16(MIN_NORM, 3, false, true, OUT),
        PZ,
        "÷2 makes a denormal"
    );
    assert_eq!(
        out_mods16(QNAN, 0, true, true, NONE),
        PZ,
        "DX10 clamp: NaN to 0"
    );
    assert_eq!(out_mods16(QNAN, 0, true, false, NONE), QNAN);
}
