//! The division helpers, `ldexp` and `trig_preop` (`gpumemsim::fp::div`): each branch of the
//! pseudocode by a case that takes it, expected values derived by hand from the pseudocode or
//! from host arithmetic where it is exact.

use gpumemsim::fp::div::*;
use gpumemsim::fp::DenormCtl;

const NONE: DenormCtl = DenormCtl::FLUSH_NONE;
const ALL: DenormCtl = DenormCtl::FLUSH_ALL;

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn d(x: f64) -> u64 {
    x.to_bits()
}

#[test]
fn div_fixup_f32_takes_each_branch() {
    let q = f(0.75);
    let fix = |den: f32, num: f32| div_fixup32(q, f(den), f(num), NONE);
    // NaN numerator (S2) first, quieted; then a NaN denominator.
    assert_eq!(div_fixup32(q, f(1.0), 0x7f80_0001, NONE), 0x7fc0_0001);
    assert_eq!(div_fixup32(q, 0xff80_0002, 0x7fc0_0003, NONE), 0x7fc0_0003);
    assert_eq!(div_fixup32(q, 0xff80_0002, f(1.0), NONE), 0xffc0_0002);
    // 0/0 and inf/inf: the negative quiet NaN 0xffc00000.
    assert_eq!(fix(0.0, -0.0), 0xffc0_0000);
    assert_eq!(fix(f32::INFINITY, f32::NEG_INFINITY), 0xffc0_0000);
    // x/0 and inf/y: inf with sign(S1) ^ sign(S2).
    assert_eq!(fix(-0.0, 3.0), f(f32::NEG_INFINITY));
    assert_eq!(fix(2.0, f32::INFINITY), f(f32::INFINITY));
    // x/inf and 0/y: zero with the sign.
    assert_eq!(fix(f32::NEG_INFINITY, 3.0), f(-0.0));
    assert_eq!(fix(-2.0, 0.0), f(-0.0));
    // A quotient below 2^-150: the signed zero (exponent(S2) - exponent(S1) < -150).
    assert_eq!(fix(-2f32.powi(127), f32::from_bits(1)), f(-0.0));
    // Otherwise ±|S0| with the quotient's sign.
    assert_eq!(fix(-2.0, 1.5), f(-0.75));
    assert_eq!(div_fixup32(f(-0.75), f(-2.0), f(-1.5), NONE), f(0.75));
    // Denormals: a denormal denominator with input flushing is 0 (x/0).
    assert_eq!(div_fixup32(q, 1, f(1.0), ALL), f(f32::INFINITY));
    assert_eq!(div_fixup32(q, 1, f(1.0), NONE), q);
}

#[test]
fn div_fixup_f64_and_f16() {
    let q = d(0.75);
    assert_eq!(div_fixup64(q, d(0.0), d(0.0), NONE), 0xfff8_0000_0000_0000);
    assert_eq!(div_fixup64(q, d(-0.0), d(1.0), NONE), d(f64::NEG_INFINITY));
    assert_eq!(div_fixup64(q, d(2.0), d(0.0), NONE), 0);
    assert_eq!(div_fixup64(q, d(2.0), d(-1.5), NONE), d(-0.75));
    assert_eq!(
        div_fixup64(q, d(2f64.powi(1000)), d(2f64.powi(-100)), NONE),
        0,
        "below 2^-1075"
    );
    assert_eq!(
        div_fixup64(q, 0x7ff0_0000_0000_0005, d(1.0), NONE),
        0x7ff8_0000_0000_0005
    );
    let h = |x: f32| {
        gpumemsim::fp::valu::f32_to_f16(x.to_bits(), gpumemsim::fp::valu::Round::NearestEven)
    };
    assert_eq!(div_fixup16(h(0.75), 0x0000, 0x8000, NONE), 0xfe00, "0/0");
    assert_eq!(
        div_fixup16(h(0.75), 0x7c00, 0xfc00, NONE),
        0xfe00,
        "inf/inf"
    );
    assert_eq!(div_fixup16(h(0.75), 0x8000, h(1.0), NONE), 0xfc00, "1/-0");
    assert_eq!(div_fixup16(h(0.75), h(-2.0), h(1.5), NONE), h(-0.75));
    assert_eq!(
        div_fixup16(h(0.75), h(2.0), 0x7c01, NONE),
        0x7e01,
        "NaN numerator"
    );
}

/// The underflow branch's threshold: exponents 150 apart (f32) or 1075 apart (f64) keep the
/// quotient, one more gives the signed zero; f16 has no such branch.
#[test]
fn div_fixup_underflow_threshold() {
    let f32_with_exp = |e: u32| e << 23 | 0x1234;
    let q = f(-3.0);
    assert_eq!(
        div_fixup32(q, f32_with_exp(200), f32_with_exp(50), NONE),
        f(3.0)
    );
    assert_eq!(div_fixup32(q, f32_with_exp(200), f32_with_exp(49), NONE), 0);
    assert_eq!(
        div_fixup32(q, f32_with_exp(200) | 1 << 31, f32_with_exp(49), NONE),
        1 << 31
    );
    let f64_with_exp = |e: u64| e << 52 | 0x1234;
    let q = d(-3.0);
    assert_eq!(
        div_fixup64(q, f64_with_exp(2000), f64_with_exp(925), NONE),
        d(3.0)
    );
    assert_eq!(
        div_fixup64(q, f64_with_exp(2000), f64_with_exp(924), NONE),
        0
    );
    // f16: exponents 29 apart (the most a normal pair can be) still keep the quotient.
    assert_eq!(div_fixup16(0xc200, 30 << 10 | 1, 1 << 10 | 1, NONE), 0x4200);
}

#[test]
fn div_fmas_scales_by_2_to_the_32_or_64_when_vcc_is_set() {
    assert_eq!(div_fmas32(f(1.5), f(2.0), f(0.25), false, NONE), f(3.25));
    assert_eq!(
        div_fmas32(f(1.5), f(2.0), f(0.25), true, NONE),
        f(3.25 * 2f32.powi(32))
    );
    // Input denormals are never flushed: 2^-149 × 2^100 = 2^-49.
    assert_eq!(
        div_fmas32(1, f(2f32.powi(100)), 0, false, ALL),
        f(2f32.powi(-49))
    );
    // The scaled result overflows to infinity.
    assert_eq!(
        div_fmas32(f(2f32.powi(100)), f(1.0), 0, true, NONE),
        f(f32::INFINITY)
    );
    assert_eq!(div_fmas32(0x7f80_0001, f(1.0), 0, true, NONE), 0x7fc0_0001);
    assert_eq!(
        div_fmas64(d(1.5), d(2.0), d(0.25), true, NONE),
        d(3.25 * 2f64.powi(64))
    );
    assert_eq!(div_fmas64(d(1.5), d(2.0), d(0.25), false, NONE), d(3.25));
}

#[test]
fn div_scale_takes_each_branch() {
    // Zero numerator or denominator: NaN, VCC clear.
    assert_eq!(div_scale32(f(1.0), f(0.0), f(1.0)), (0x7fc0_0000, false));
    // exponent(S2) - exponent(S1) >= 96: VCC set; S0 == S1 scales by 2^64.
    let (n, dn) = (f(2f32.powi(100)), f(1.0));
    assert_eq!(div_scale32(dn, dn, n), (f(2f32.powi(64)), true));
    assert_eq!(
        div_scale32(n, dn, n),
        (n, true),
        "S0 = numerator: unchanged"
    );
    // A denormal denominator (and exponents closer than 96): S0 × 2^64, VCC clear.
    assert_eq!(
        div_scale32(1, 1, f(2f32.powi(-120))),
        (f(2f32.powi(-85)), false)
    );
    // With the exponents 96 apart the first branch wins: VCC set.
    assert_eq!(div_scale32(1, 1, f(1.0)), (f(2f32.powi(-85)), true));
    // A quotient that is an f32 denormal: VCC set, the numerator (S0 == S2) scaled.
    let (num, den) = (f(2f32.powi(-100)), f(2f32.powi(40)));
    assert_eq!(div_scale32(num, den, num), (f(2f32.powi(-36)), true));
    assert_eq!(div_scale32(den, den, num), (den, true));
    // A tiny numerator (exponent field <= 23): S0 × 2^64.
    let tiny = f(2f32.powi(-110));
    assert_eq!(div_scale32(tiny, f(0.5), tiny), (f(2f32.powi(-46)), false));
    // Ordinary operands: unchanged, VCC clear.
    assert_eq!(div_scale32(f(3.0), f(3.0), f(7.0)), (f(3.0), false));
    // f64: the reciprocal of a huge denominator is an f64 denormal: S0 × 2^-128 ...
    let big = d(2f64.powi(1023));
    assert_eq!(
        div_scale64(big, big, d(2f64.powi(1000))),
        (d(2f64.powi(895)), false)
    );
    // ... and when the quotient is one too, VCC is set and S0 = S1 scaled up (overflowing).
    assert_eq!(div_scale64(big, big, d(1.0)), (d(f64::INFINITY), true));
    assert_eq!(div_scale64(d(3.0), d(3.0), d(7.0)), (d(3.0), false));
    assert_eq!(
        div_scale64(d(1.0), d(1.0), d(2f64.powi(800))),
        (d(2f64.powi(128)), true)
    );
}

#[test]
fn ldexp_rounds_once_including_denormal_results() {
    assert_eq!(ldexp32(f(1.5), 3, NONE), f(12.0));
    assert_eq!(ldexp32(f(1.0), 128, NONE), f(f32::INFINITY));
    assert_eq!(ldexp32(f(-1.0), -149, NONE), 0x8000_0001);
    assert_eq!(ldexp32(f(1.5), -149, NONE), 2, "1.5 × 2^-149 ties to even");
    assert_eq!(ldexp32(f(1.0), -150, NONE), 0, "half the smallest denormal");
    assert_eq!(ldexp32(f(1.0), -149, ALL), 0, "flushed");
    assert_eq!(ldexp32(1, 149, NONE), f(1.0), "denormal input kept");
    assert_eq!(ldexp32(1, 149, ALL), 0, "denormal input flushed");
    assert_eq!(ldexp32(0xff80_0000, -5, NONE), 0xff80_0000);
    assert_eq!(ldexp32(0x7f80_0001, 1, NONE), 0x7fc0_0001);
    assert_eq!(ldexp32(f(1.0), i32::MIN, NONE), 0);
    assert_eq!(ldexp64(d(1.5), -1074, NONE), 2, "ties to even");
    assert_eq!(ldexp64(d(1.25), -1074, NONE), 1);
    assert_eq!(ldexp64(d(-1.0), 1024, NONE), d(f64::NEG_INFINITY));
    assert_eq!(ldexp64(d(1.0), -1075, NONE), 0);
    assert_eq!(
        ldexp64(1, 1074, NONE),
        d(1.0),
        "a denormal scaled up exactly"
    );
    assert_eq!(ldexp64(d(3.0), 10, NONE), d(3072.0));
    assert_eq!(ldexp64(d(1.0), -1022, NONE), d(f64::MIN_POSITIVE));
    assert_eq!(ldexp64(d(1.0), -1023, ALL), 0);
    assert_eq!(ldexp64(d(1.0), -1023, NONE), 1 << 51);
}

#[test]
fn trig_preop_returns_consecutive_53_bit_segments_of_2_over_pi() {
    // Segment 0 at an ordinary input is 2/π truncated to 53 bits: within one ulp below the
    // host's rounded FRAC_2_PI; segment k is the next 53 bits, 2^-53k below.
    let x = d(1.0);
    let s: Vec<f64> = (0..4).map(|k| f64::from_bits(trig_preop(x, k))).collect();
    let two_over_pi = std::f64::consts::FRAC_2_PI;
    assert!(
        s[0] <= two_over_pi && two_over_pi - s[0] <= 2f64.powi(-53),
        "{}",
        s[0]
    );
    assert!(s[1] < 2f64.powi(-53) && s[1] > 0.0);
    assert!(s[2] < 2f64.powi(-106) && s[2] > 0.0);
    // The segments add up to 2/π: with the crate's 2π double-double (generated by the same
    // script from mpmath's π, not from the 2/π table), (s0 + s1 + s2) × 2π = 4 to 2^-100.
    use gpumemsim::fp::dd::Dd;
    let sum = Dd::new(s[0]) + Dd::new(s[1]) + Dd::new(s[2]);
    let two_pi = Dd::from_bits(0x401921fb54442d18, 0x3cb1a62633145c07);
    let four = sum * two_pi;
    assert!(
        (four.hi - 4.0 + four.lo).abs() < 2f64.powi(-100),
        "{four:?}"
    );
    // Each segment is a whole 53-bit integer times its place value.
    let ints: Vec<u64> = s
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let scaled = v * 2f64.powi(53 * (k as i32 + 1));
            assert_eq!(scaled, scaled.trunc(), "segment {k}");
            assert!(scaled < 2f64.powi(53));
            scaled as u64
        })
        .collect();
    // An input with exponent field 1083 (> 1077) moves the window 6 bits on: fraction bits
    // 7..59, i.e. the low 47 bits of segment 0 then the top 6 of segment 1, at 2^-59.
    let t = (ints[0] & ((1 << 47) - 1)) << 6 | ints[1] >> 47;
    assert_eq!(
        f64::from_bits(trig_preop(d(2f64.powi(60)), 0)),
        t as f64 * 2f64.powi(-59)
    );
    // Exponent field 1978 = 1077 + 17 × 53 selects segment 17, scaled up by 2^128
    // (exponents >= 1968 avoid denormal results).
    let x = d(2f64.powi(1978 - 1023));
    assert_eq!(
        f64::from_bits(trig_preop(x, 0)),
        f64::from_bits(trig_preop(d(1.0), 17)) * 2f64.powi(128)
    );
    // Past the table's 1201 bits the segments are zero.
    assert_eq!(trig_preop(d(2f64.powi(900)), 31), 0);
}
