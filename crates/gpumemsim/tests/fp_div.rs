//! The division helpers, `ldexp` and `trig_preop` (`gpumemsim::fp::div`): each branch or rule
//! by a case that takes it, expected values derived by hand (from the pseudocode, or for the
//! f32/f64 `div_scale`/`div_fmas`/`div_fixup` from the hardware-checked rules `fp/div.rs`
//! documents) or from host arithmetic where it is exact; and the whole division sequence
//! clang-19 emits, built from these helpers, against the host's IEEE division.

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

/// 2^e as f32 bits, exact for e in -149..=127 (denormals included, unlike `powi`).
fn p32(e: i32) -> u32 {
    if e >= -126 {
        ((e + 127) as u32) << 23
    } else {
        1 << (e + 149)
    }
}

/// 2^e as f64 bits, exact for e in -1074..=1023.
fn p64(e: i32) -> u64 {
    if e >= -1022 {
        ((e + 1023) as u64) << 52
    } else {
        1 << (e + 1074)
    }
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

/// `V_DIV_FMAS`: the post-scale is 2^+64 (f32) / 2^+128 (f64) when the encoded exponent of
/// S2 is above the bias and 2^-64 / 2^-128 otherwise, fused with the multiply-add (one
/// rounding). The ISA pseudocode's fixed 2^32 / 2^64 is not what the hardware does (rocjitsu,
/// ROCm/rocm-systems PR #11613, `division.h`, checked on gfx1100/gfx1201); the expectations
/// here that used 2^32 were written from that pseudocode and now follow the hardware.
#[test]
fn div_fmas_post_scale_follows_the_addend_exponent() {
    let p = p32;
    // (a, b, c, VCC, result): a × b + c, scaled where VCC is set.
    let table: [(u32, u32, u32, bool, u32); 16] = [
        (f(1.5), f(2.0), f(0.25), false, f(3.25)),
        // c = 0.25 (exponent field 125 <= 127): scaled down by 2^64.
        (f(1.5), f(2.0), f(0.25), true, f(3.25 * 2f32.powi(-64))),
        // c = 1.0 (field 127, the bias itself): down.
        (f(1.0), f(1.0), f(1.0), true, p(-63)),
        // c = 2.0 and c = -2.0 (field 128): up.
        (f(1.5), f(2.0), f(2.0), true, f(5.0 * 2f32.powi(64))),
        (f(1.5), f(2.0), f(-2.0), true, p(64)),
        // c = 0 and a denormal c (field 0): down.
        (f(3.0), p(10), 0, true, f(3.0 * 2f32.powi(-54))),
        (f(1.0), 0, 1, true, 0),
        // Scaled up past the largest f32: +inf (round to nearest).
        (p(100), f(1.0), f(2.0), true, f(f32::INFINITY)),
        (f(-1.0), f(1.0), f(-f32::MAX), true, f(f32::NEG_INFINITY)),
        // Fused: 2^129 + 0.5 overflows f32 on its own, but the scale brings it back.
        (p(127), f(4.0), f(0.5), true, p(65)),
        // One rounding into the denormals: (1.5 × 2^-85 - 2^-115) × 2^-64 is just below
        // 1.5 × 2^-149 and rounds to 2^-149; rounding to f32 first (1.5 × 2^-85) and then
        // scaling would tie to even and give 2 × 2^-149.
        (p(-115), f(-1.0), f(1.5 * 2f32.powi(-85)), true, 1),
        (p(-115), f(1.0), f(1.5 * 2f32.powi(-85)), true, 2),
        // Exact cancellation: +0; -0 only from -0 + -0.
        (f(2.0), f(3.0), f(-6.0), true, 0),
        (f(-0.0), f(5.0), f(-0.0), true, f(-0.0)),
        // Infinities and NaNs as V_FMA_F32 (scaling them changes nothing).
        (f(f32::INFINITY), f(1.0), 0, true, f(f32::INFINITY)),
        (0x7f80_0001, f(1.0), 0, true, 0x7fc0_0001),
    ];
    for (a, b, c, vcc, want) in table {
        assert_eq!(
            div_fmas32(a, b, c, vcc, NONE),
            want,
            "div_fmas32({a:#x}, {b:#x}, {c:#x}, {vcc})"
        );
    }
    // Input denormals are never flushed: 2^-149 × 2^100 = 2^-49; a denormal result is
    // flushed per MODE.
    assert_eq!(div_fmas32(1, p(100), 0, false, ALL), p(-49));
    assert_eq!(
        div_fmas32(p(-115), f(-1.0), f(1.5 * 2f32.powi(-85)), true, ALL),
        0
    );
    let q = p64;
    let table: [(u64, u64, u64, bool, u64); 9] = [
        (d(1.5), d(2.0), d(0.25), false, d(3.25)),
        (d(1.5), d(2.0), d(0.25), true, d(3.25 * 2f64.powi(-128))),
        (d(1.0), d(1.0), d(1.0), true, q(-127)),
        (d(1.5), d(2.0), d(2.0), true, d(5.0 * 2f64.powi(128))),
        (d(-1.5), d(2.0), d(2.0), true, d(-(2f64.powi(128)))),
        (q(900), d(1.0), d(2.0), true, d(f64::INFINITY)),
        (q(1023), d(4.0), d(0.5), true, q(897)),
        // (1.5 × 2^-946 - 2^-1006) × 2^-128 rounds once to 2^-1074 (twice: 2 × 2^-1074).
        (q(-1006), d(-1.0), d(1.5 * 2f64.powi(-946)), true, 1),
        (q(-1006), d(1.0), d(1.5 * 2f64.powi(-946)), true, 2),
    ];
    for (a, b, c, vcc, want) in table {
        assert_eq!(
            div_fmas64(a, b, c, vcc, NONE),
            want,
            "div_fmas64({a:#x}, {b:#x}, {c:#x}, {vcc})"
        );
    }
}

/// `V_DIV_SCALE` per rocjitsu's hardware-checked rules (ROCm/rocm-systems PR #11613,
/// `division.h`): encoded exponents `de` (S1), `ne` (S2), `Δ = ne - de`; the first rule that
/// matches decides. Each rule by a case on each side of its boundary, for S0 = S1
/// (the denominator) and S0 = S2 (the numerator).
#[test]
fn div_scale_f32_rules_table() {
    let p = p32;
    // (S1 denominator, S2 numerator, S0 = S1 result, S0 = S2 result, VCC)
    let table: [(u32, u32, u32, u32, bool); 18] = [
        // A zero operand: the NaN 0xffc00000 (the pseudocode's NAN.f32 read as the canonical
        // NaN 0x7fc00000 before); VCC still follows the exponent rules (here Δ = 127 >= 96,
        // Δ = -127 <= -96 and Δ = 0 with a zero denominator).
        (0, f(1.0), 0xffc0_0000, 0xffc0_0000, true),
        (f(1.0), 0, 0xffc0_0000, 0xffc0_0000, true),
        (0, 0x8000_0000, 0xffc0_0000, 0xffc0_0000, false),
        // 1. Δ >= 96: VCC; the denominator × 2^64, the numerator as it is.
        (f(1.0), p(96), p(64), p(96), true),
        (f(1.0), p(95), f(1.0), p(95), false),
        (1, f(1.0), p(-85), f(1.0), true),
        // 2. A denormal denominator (Δ < 96): both × 2^64.
        (p(-140), p(-40), p(-76), p(24), false),
        // 3. |S1| >= 2^126 (field 253): both × 2^-64, unless Δ <= -96: VCC, and the
        //    numerator is left alone.
        (p(126), p(31), p(62), p(-33), false),
        (p(126), p(30), p(62), p(30), true),
        (p(126), f(3.0), p(62), f(3.0), true),
        (
            f(-f32::MAX),
            f(-3.0),
            f(-f32::MAX * 2f32.powi(-64)),
            f(-3.0),
            true,
        ),
        //    Just below 2^126 (field 252): rule 4 instead.
        (
            0x7e7f_ffff,
            f(3.0),
            0x7e7f_ffff,
            f(3.0 * 2f32.powi(64)),
            true,
        ),
        // 4. Δ <= -96: VCC; the numerator × 2^64, the denominator as it is.
        (f(1.0), p(-96), f(1.0), p(-32), true),
        (f(-1.0), 1, f(-1.0), p(-85), true),
        (f(1.0), p(-95), f(1.0), p(-95), false),
        // 5. A tiny numerator (field <= 24; the pseudocode says 23): both × 2^64.
        (p(-60), p(-103), p(4), p(-39), false),
        (p(-60), p(-102), p(-60), p(-102), false),
        // 6. Otherwise unchanged.
        (f(1.5), f(-3.0), f(1.5), f(-3.0), false),
    ];
    for (den, num, want_den, want_num, vcc) in table {
        assert_eq!(
            div_scale32(den, den, num),
            (want_den, vcc),
            "den: div_scale32({den:#x}, {den:#x}, {num:#x})"
        );
        assert_eq!(
            div_scale32(num, den, num),
            (want_num, vcc),
            "num: div_scale32({num:#x}, {den:#x}, {num:#x})"
        );
    }
    // S0 equal to neither operand is scaled as the numerator.
    assert_eq!(
        div_scale32(f(5.0), f(1.0), p(-96)),
        (f(5.0 * 2f32.powi(64)), true)
    );
    assert_eq!(div_scale32(f(5.0), p(126), f(3.0)), (f(5.0), true));
    // An infinite or NaN S0 is returned, a NaN quieted.
    assert_eq!(
        div_scale32(0xff80_0000, f(1.0), p(-96)),
        (0xff80_0000, true)
    );
    assert_eq!(
        div_scale32(0x7f80_0001, f(1.0), f(2.0)),
        (0x7fc0_0001, false)
    );
}

/// The f64 rules: threshold 768, scale 2^128, huge denominator field >= 2045 (|S1| >=
/// 2^1022), tiny numerator field <= 53, zero operands give 0xfff8000000000000.
#[test]
fn div_scale_f64_rules_table() {
    let p = p64;
    let nan = 0xfff8_0000_0000_0000u64;
    let table: [(u64, u64, u64, u64, bool); 16] = [
        (0, d(1.0), nan, nan, true),
        (d(1.0), 0, nan, nan, true),
        (0, 0, nan, nan, false),
        (d(1.0), p(768), p(128), p(768), true),
        (d(1.0), p(767), d(1.0), p(767), false),
        (p(-1030), p(-300), p(-902), p(-172), false),
        (p(1022), p(255), p(894), p(127), false),
        (p(1022), p(254), p(894), p(254), true),
        (p(1023), d(1.0), p(895), d(1.0), true),
        (
            0x7fcf_ffff_ffff_ffff,
            d(3.0),
            0x7fcf_ffff_ffff_ffff,
            d(3.0 * 2f64.powi(128)),
            true,
        ),
        (d(1.0), p(-768), d(1.0), p(-640), true),
        (d(1.0), p(-767), d(1.0), p(-767), false),
        (p(-500), p(-970), p(-372), p(-842), false),
        (p(-500), p(-969), p(-500), p(-969), false),
        (d(3.0), d(7.0), d(3.0), d(7.0), false),
        (d(-1.0), 1, d(-1.0), p(-946), true),
    ];
    for (den, num, want_den, want_num, vcc) in table {
        assert_eq!(
            div_scale64(den, den, num),
            (want_den, vcc),
            "den: div_scale64({den:#x}, {den:#x}, {num:#x})"
        );
        assert_eq!(
            div_scale64(num, den, num),
            (want_num, vcc),
            "num: div_scale64({num:#x}, {den:#x}, {num:#x})"
        );
    }
}

/// `V_DIV_FIXUP`: an infinite or NaN provisional quotient of finite, nonzero operands is the
/// signed infinity (the quotient overflowed), the sign from S1 ^ S2 as for any quotient;
/// the special cases of the operands still come first. f16 keeps the pseudocode.
#[test]
fn div_fixup_turns_an_inf_or_nan_quotient_into_inf() {
    let table: [(u32, u32, u32, u32); 8] = [
        (f(f32::INFINITY), f(2.0), f(-3.0), f(f32::NEG_INFINITY)),
        (0x7fc0_0000, f(-2.0), f(-3.0), f(f32::INFINITY)),
        (0xffc0_0000, f(2.0), f(3.0), f(f32::INFINITY)),
        (f(f32::NEG_INFINITY), f(1.0), f(1.0), f(f32::INFINITY)),
        (0x7f80_0001, f(-1.0), f(1.0), f(f32::NEG_INFINITY)),
        // The operands' special cases win: a NaN numerator, 0/y, and the underflow branch.
        (f(f32::INFINITY), f(1.0), 0x7f80_0002, 0x7fc0_0002),
        (f(f32::INFINITY), f(1.0), f(-0.0), f(-0.0)),
        (f(f32::INFINITY), f(2f32.powi(127)), 1, 0),
    ];
    for (q, den, num, want) in table {
        assert_eq!(
            div_fixup32(q, den, num, NONE),
            want,
            "{q:#x} {den:#x} {num:#x}"
        );
    }
    assert_eq!(
        div_fixup64(0x7ff8_0000_0000_0000, d(-2.0), d(3.0), NONE),
        d(f64::NEG_INFINITY)
    );
    assert_eq!(
        div_fixup64(d(f64::INFINITY), d(-2.0), d(-3.0), NONE),
        d(f64::INFINITY)
    );
    assert_eq!(
        div_fixup16(0x7e00, 0x4000, 0x4200, NONE),
        0x7e00,
        "f16: q as it is"
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

// ---------------------------------------------------------------------------------------
// The whole division sequence clang-19 emits, against IEEE division.
// ---------------------------------------------------------------------------------------

use gpumemsim::fp::arith::{bin32, bin64, fma32, fma64};
use gpumemsim::fp::trans::{rcp_f32, rcp_f64};
use proptest::prelude::*;

/// `a / b` in f32 as clang-19 -O2 compiles it for gfx1100 (HIP, or OpenCL with
/// `-cl-fp32-correctly-rounded-divide-sqrt`), from `llvm-objdump-19 -d`, with `v0 = b`,
/// `v4 = a`. With f32 denormals on (HIP's default) MODE is left alone. With them off
/// (`-cl-denorms-are-zero`, `ftz`) clang moves the second `v_div_scale` up, brackets the
/// Newton steps with `s_denorm_mode 15` (f32 denormals on) and `s_denorm_mode 12` (f32
/// flushed again), so only `v_div_fmas`/`v_div_fixup` run with flushing (`v_div_scale` reads
/// no MODE bits here, and `v_rcp_f32` flushes whatever MODE says).
fn clang_div_f32(a: u32, b: u32, ftz: bool) -> u32 {
    let mode = if ftz { ALL } else { NONE };
    let neg = |x: u32| x ^ 0x8000_0000;
    let one = f(1.0);
    let (v1, _) = div_scale32(b, b, a); //         v_div_scale_f32 v1, null, v0, v0, v4
    let v5 = rcp_f32(v1); //                        v_rcp_f32_e32 v5, v1
    let steps = NONE; //                            (s_denorm_mode 15 when ftz)
    let v6 = fma32(neg(v1), v5, one, steps); //     v_fma_f32 v6, -v1, v5, 1.0
    let v5 = fma32(v6, v5, v5, steps); //           v_fmac_f32_e32 v5, v6, v5
    let (v6, vcc) = div_scale32(a, b, a); //        v_div_scale_f32 v6, vcc_lo, v4, v0, v4
    let v7 = bin32(v6, v5, steps, |x, y| x * y); // v_mul_f32_e32 v7, v6, v5
    let v8 = fma32(neg(v1), v7, v6, steps); //      v_fma_f32 v8, -v1, v7, v6
    let v7 = fma32(v8, v5, v7, steps); //           v_fmac_f32_e32 v7, v8, v5
    let v1 = fma32(neg(v1), v7, v6, steps); //      v_fma_f32 v1, -v1, v7, v6
    let v1 = div_fmas32(v1, v5, v7, vcc, mode); //  (s_denorm_mode 12) v_div_fmas_f32 v1, v1, v5, v7
    div_fixup32(v1, b, a, mode) //                  v_div_fixup_f32 v0, v1, v0, v4
}

/// `a / b` in f64 as clang-19 -O2 compiles it for gfx1100 (`v[0:1] = b`, `v[4:5] = a`):
/// two Newton steps on the reciprocal, one on the quotient; MODE (f64 denormals on) is left
/// alone.
fn clang_div_f64(a: u64, b: u64) -> u64 {
    let neg = |x: u64| x ^ 1 << 63;
    let one = d(1.0);
    let (s, _) = div_scale64(b, b, a); //        v_div_scale_f64 v[6:7], null, v[0:1], v[0:1], v[4:5]
    let r = rcp_f64(s, NONE); //                  v_rcp_f64_e32 v[8:9], v[6:7]
    let e = fma64(neg(s), r, one, NONE); //       v_fma_f64 v[10:11], -v[6:7], v[8:9], 1.0
    let r = fma64(r, e, r, NONE); //              v_fma_f64 v[8:9], v[8:9], v[10:11], v[8:9]
    let e = fma64(neg(s), r, one, NONE); //       v_fma_f64 v[10:11], -v[6:7], v[8:9], 1.0
    let r = fma64(r, e, r, NONE); //              v_fma_f64 v[8:9], v[8:9], v[10:11], v[8:9]
    let (n, vcc) = div_scale64(a, b, a); //       v_div_scale_f64 v[10:11], vcc_lo, v[4:5], v[0:1], v[4:5]
    let q = bin64(n, r, NONE, |x, y| x * y); //   v_mul_f64 v[12:13], v[10:11], v[8:9]
    let t = fma64(neg(s), q, n, NONE); //         v_fma_f64 v[6:7], -v[6:7], v[12:13], v[10:11]
    let q = div_fmas64(t, r, q, vcc, NONE); //    v_div_fmas_f64 v[6:7], v[6:7], v[8:9], v[12:13]
    div_fixup64(q, b, a, NONE) //                 v_div_fixup_f64 v[0:1], v[6:7], v[0:1], v[4:5]
}

fn flush32(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

/// IEEE round-to-nearest `a / b` (the host's), denormals flushed in and out with `ftz`.
fn ieee_div_f32(a: u32, b: u32, ftz: bool) -> u32 {
    if ftz {
        flush32((f32::from_bits(flush32(a)) / f32::from_bits(flush32(b))).to_bits())
    } else {
        (f32::from_bits(a) / f32::from_bits(b)).to_bits()
    }
}

/// The sequence's result equals the host's IEEE quotient bit for bit (any NaN for a NaN).
fn check_f32(a: u32, b: u32, ftz: bool) -> Result<(), String> {
    let (got, want) = (clang_div_f32(a, b, ftz), ieee_div_f32(a, b, ftz));
    let ok = if f32::from_bits(want).is_nan() {
        f32::from_bits(got).is_nan()
    } else {
        got == want
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{a:#010x} / {b:#010x} (ftz {ftz}): got {got:#010x}, IEEE {want:#010x} ({:e} / {:e} = {:e})",
            f32::from_bits(a),
            f32::from_bits(b),
            f32::from_bits(want)
        ))
    }
}

fn check_f64(a: u64, b: u64) -> Result<(), String> {
    let (got, want) = (
        clang_div_f64(a, b),
        (f64::from_bits(a) / f64::from_bits(b)).to_bits(),
    );
    let ok = if f64::from_bits(want).is_nan() {
        f64::from_bits(got).is_nan()
    } else {
        got == want
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{a:#018x} / {b:#018x}: got {got:#018x}, IEEE {want:#018x} ({:e} / {:e})",
            f64::from_bits(a),
            f64::from_bits(b)
        ))
    }
}

/// SplitMix64: a fixed stream of well-mixed bits for the sweeps.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ z >> 30).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ z >> 27).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ z >> 31
    }
}

/// Mantissas that stress rounding: zero, all ones, one, the top bit, and random ones.
fn mantissas(m: &mut Mix, bits: u32, n: usize) -> Vec<u64> {
    let all = (1u64 << bits) - 1;
    let mut v = vec![0, all, 1, 1 << (bits - 1)];
    v.extend((0..n).map(|_| m.next() & all));
    v
}

/// Every pair of f32 exponent fields (0 = zeros and denormals, 255 = infinities and NaNs),
/// so every exponent difference, the |b| >= 2^126 fields and the tiny-numerator fields, each
/// with several mantissas and both signs: 1,048,576 divisions, all IEEE-exact.
#[test]
fn clang_f32_division_equals_ieee_division_for_every_exponent_pair() {
    let mut m = Mix(1);
    let mut bad = Vec::new();
    let mut n = 0u32;
    for ea in 0..=255u32 {
        for eb in 0..=255u32 {
            let ma = mantissas(&mut m, 23, 0);
            let mb = mantissas(&mut m, 23, 0);
            for i in 0..4 {
                let a = (i & 1) << 31 | ea << 23 | ma[i as usize] as u32;
                let b = (i >> 1 & 1) << 31 | eb << 23 | mb[(i as usize + 1) % 4] as u32;
                let r = m.next();
                let a2 = a & !0x7f_ffff | r as u32 & 0x7f_ffff;
                let b2 = b & !0x7f_ffff | (r >> 32) as u32 & 0x7f_ffff;
                for (x, y) in [(a, b), (a2, b2), (a, b2), (a2, b)] {
                    n += 1;
                    if let Err(e) = check_f32(x, y, false) {
                        bad.push(e);
                    }
                }
            }
        }
    }
    assert_eq!(n, 1 << 20);
    assert!(
        bad.is_empty(),
        "{} of {n} wrong, e.g.\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

/// The same pairs with f32 denormals flushed (OpenCL `-cl-denorms-are-zero`): the sequence
/// equals IEEE division of the flushed operands, its result flushed.
#[test]
fn clang_f32_division_with_denormals_flushed_equals_flushed_ieee_division() {
    let mut m = Mix(2);
    let mut bad = Vec::new();
    for ea in 0..=255u32 {
        for eb in 0..=255u32 {
            for _ in 0..2 {
                let r = m.next();
                let a = (r as u32 & 1 << 31) | ea << 23 | r as u32 >> 8 & 0x7f_ffff;
                let b = ((r >> 32) as u32 & 1 << 31) | eb << 23 | (r >> 40) as u32 & 0x7f_ffff;
                if let Err(e) = check_f32(a, b, true) {
                    bad.push(e);
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} wrong, e.g.\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

/// f64: every denominator exponent field in the classes the rules test (zeros and denormals,
/// small, around the bias, 2^1022 and above, inf/NaN) against every numerator exponent field,
/// plus every field pair whose difference is within 3 of ±768, ±1022 or 0.
#[test]
fn clang_f64_division_equals_ieee_division_across_the_exponent_classes() {
    let mut m = Mix(3);
    let mut fields: Vec<u64> = (0..60).chain(1010..1040).chain(2030..2048).collect();
    fields.extend([
        100, 255, 256, 500, 767, 768, 769, 1279, 1280, 1500, 1791, 1792,
    ]);
    let mut pairs: Vec<(u64, u64)> = Vec::new();
    for &eb in &fields {
        pairs.extend((0..2048).map(|ea| (ea, eb)));
    }
    for eb in 0..2048i64 {
        for diff in [-1022i64, -768, 0, 768, 1022] {
            for dd in -3..=3 {
                let ea = eb + diff + dd;
                if (0..2048).contains(&ea) {
                    pairs.push((ea as u64, eb as u64));
                }
            }
        }
    }
    let mut bad = Vec::new();
    let mut n = 0u64;
    for (ea, eb) in pairs {
        let ma = mantissas(&mut m, 52, 1);
        let mb = mantissas(&mut m, 52, 1);
        for i in 0..5 {
            let s = m.next();
            let a = (s & 1 << 63) | ea << 52 | ma[i];
            let b = (s << 1 & 1 << 63) | eb << 52 | mb[(i + 2) % 5];
            n += 1;
            if let Err(e) = check_f64(a, b) {
                bad.push(e);
            }
        }
    }
    assert!(n > 1_000_000, "{n}");
    assert!(
        bad.is_empty(),
        "{} of {n} wrong, e.g.\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

/// f32 bits: uniform, or a chosen edge exponent field with a random mantissa, or a special
/// value.
fn f32_bits() -> impl Strategy<Value = u32> {
    let edge_field = prop::sample::select(vec![
        0u32, 1, 2, 23, 24, 25, 31, 32, 63, 64, 95, 96, 97, 126, 127, 128, 157, 158, 159, 222, 223,
        224, 252, 253, 254, 255,
    ]);
    prop_oneof![
        4 => any::<u32>(),
        4 => (any::<bool>(), edge_field, any::<u32>())
            .prop_map(|(s, e, m)| (s as u32) << 31 | e << 23 | m & 0x7f_ffff),
        1 => prop::sample::select(vec![
            0u32, 0x8000_0000, 1, 0x8000_0001, 0x007f_ffff, 0x0080_0000, 0x7f7f_ffff,
            0xff7f_ffff, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x7f80_0001, 0x3f80_0000,
            0x7e80_0000, 0x7e7f_ffff,
        ]),
    ]
}

/// [`f32_bits`] with infinities and NaNs moved to the largest finite binade.
fn finite_f32() -> impl Strategy<Value = u32> {
    f32_bits().prop_map(|x| {
        if x & 0x7f80_0000 == 0x7f80_0000 {
            x & !0x0080_0000
        } else {
            x
        }
    })
}

fn f64_bits() -> impl Strategy<Value = u64> {
    let edge_field = prop::sample::select(vec![
        0u64, 1, 2, 52, 53, 54, 255, 256, 767, 768, 769, 1022, 1023, 1024, 1277, 1278, 1279, 1790,
        1791, 1792, 2044, 2045, 2046, 2047,
    ]);
    prop_oneof![
        4 => any::<u64>(),
        4 => (any::<bool>(), edge_field, any::<u64>())
            .prop_map(|(s, e, m)| (s as u64) << 63 | e << 52 | m & ((1 << 52) - 1)),
        1 => prop::sample::select(vec![
            0u64, 1 << 63, 1, 0x000f_ffff_ffff_ffff, 0x0010_0000_0000_0000,
            0x7fef_ffff_ffff_ffff, 0x7ff0_0000_0000_0000, 0xfff0_0000_0000_0000,
            0x7ff8_0000_0000_0000, 0x3ff0_0000_0000_0000, 0x7fd0_0000_0000_0000,
        ]),
    ]
}

/// Operand pairs (sign and mantissa random) whose exponent fields differ by within 3 of the
/// flagging threshold `±t`, the denominator's field uniform over the fields that allow it.
fn near_threshold(t: i64, max_field: i64) -> impl Strategy<Value = (i64, i64, u64, u64)> {
    (
        any::<bool>(),
        -3i64..=3,
        any::<u64>(),
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(move |(up, dd, r, ma, mb)| {
            let diff = if up { t } else { -t } + dd;
            let (lo, hi) = ((-diff).max(0), (max_field - diff).min(max_field));
            let eb = lo + (r % (hi - lo + 1) as u64) as i64;
            (eb + diff, eb, ma, mb)
        })
}

fn near_threshold_f32() -> impl Strategy<Value = (u32, u32)> {
    near_threshold(96, 255).prop_map(|(ea, eb, ma, mb)| {
        let m = 0x807f_ffff;
        (
            (ea as u32) << 23 | ma as u32 & m,
            (eb as u32) << 23 | mb as u32 & m,
        )
    })
}

fn near_threshold_f64() -> impl Strategy<Value = (u64, u64)> {
    near_threshold(768, 2047).prop_map(|(ea, eb, ma, mb)| {
        let m = 0x800f_ffff_ffff_ffff;
        ((ea as u64) << 52 | ma & m, (eb as u64) << 52 | mb & m)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn clang_f32_division_is_ieee_division(a in f32_bits(), b in f32_bits()) {
        check_f32(a, b, false).map_err(TestCaseError::fail)?;
        check_f32(a, b, true).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn clang_f32_division_is_ieee_division_near_the_threshold((a, b) in near_threshold_f32()) {
        check_f32(a, b, false).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn clang_f64_division_is_ieee_division(a in f64_bits(), b in f64_bits()) {
        check_f64(a, b).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn clang_f64_division_is_ieee_division_near_the_threshold((a, b) in near_threshold_f64()) {
        check_f64(a, b).map_err(TestCaseError::fail)?;
    }

    /// Without VCC, `V_DIV_FMAS` is `V_FMA` with input denormals kept.
    #[test]
    fn div_fmas_without_vcc_is_fma(a in f32_bits(), b in f32_bits(), c in f32_bits(),
                                   x in f64_bits(), y in f64_bits(), z in f64_bits()) {
        prop_assert_eq!(div_fmas32(a, b, c, false, NONE), fma32(a, b, c, NONE));
        prop_assert_eq!(div_fmas32(a, b, c, false, ALL), fma32(a, b, c, DenormCtl {
            flush_input: false,
            flush_output: true,
        }));
        prop_assert_eq!(div_fmas64(x, y, z, false, NONE), fma64(x, y, z, NONE));
    }

    /// With VCC, f32 `V_DIV_FMAS` against an independent model: `a × b` is exact in f64,
    /// a two-sum makes `a × b + c` an exact double-double, scaling it by 2^±64 is exact, and
    /// `round::to_f32` rounds a double-double once.
    #[test]
    fn div_fmas_f32_scales_then_rounds_once(a in finite_f32(), b in finite_f32(), c in finite_f32()) {
        let (x, y, z) = (f32::from_bits(a) as f64, f32::from_bits(b) as f64, f32::from_bits(c) as f64);
        let p = x * y;
        let s = p + z;
        let bp = s - z;
        let e = (p - bp) + (z - (s - bp));
        let k = if c >> 23 & 0xff > 127 { 2f64.powi(64) } else { 2f64.powi(-64) };
        let want = gpumemsim::fp::round::to_f32(s * k, e * k);
        let got = div_fmas32(a, b, c, true, NONE);
        if want & 0x7fff_ffff == 0 {
            // A zero: the sign of an exact cancellation is +0; the model's two-sum agrees
            // except for signed-zero subtleties, so compare magnitudes.
            prop_assert_eq!(got & 0x7fff_ffff, 0);
        } else {
            prop_assert_eq!(got, want, "{:#x} {:#x} {:#x}", a, b, c);
        }
    }
}
