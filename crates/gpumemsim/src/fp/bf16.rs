//! bfloat16 (bf16) vector-ALU arithmetic on raw bits: the operations of `V_DOT2_BF16_BF16`
//! (VOP3) and the inputs of `V_DOT2_F32_BF16` (VOP3P), per AMD's RDNA3 pseudocode.
//!
//! A bf16 value is the top 16 bits of an f32 (1 sign, 8 exponent, 7 mantissa bits), so
//! `bf16_to_f32` is exact: the bits shifted left by 16.
//!
//! # Denormals
//! The pseudocode names no control for bf16. bf16 has the exponent range of f32, so we choose
//! MODE's *single-precision* denormal control (FP_DENORM `[5:4]`, `Ctx::ctl32`) for bf16
//! inputs and results: a bf16 denormal is exactly an f32 denormal with a zero low half, and
//! giving it a different flush rule than the f32 it widens to would make `bf16_to_f32`
//! inexact under one mode or the other.
//!
//! # Rounding
//! Round to nearest, ties to even (the executor runs float arithmetic only in that mode):
//! - a product of two bf16 values has at most 16 significant bits and an exponent within
//!   f64's normal range: exact in f64, rounded once;
//! - a sum of two bf16 values is held exactly as a double-double (TwoSum) and rounded once
//!   ([`super::round::round_f64`] takes the error term).
//!
//! NaN results: the first NaN input quieted, else the canonical quiet NaN [`NAN_BF16`] (the
//! top half of f32's `0x7fc00000`), as the f16 and f32 rules of this module's siblings.

use super::round::{round_f64, Format};
use super::DenormCtl;

/// bf16's layout: 7 stored mantissa bits, 8 exponent bits.
pub const BFLOAT16: Format = Format { man: 7, exp: 8 };
/// The canonical quiet NaN of bf16 arithmetic.
pub const NAN_BF16: u16 = 0x7fc0;

/// The f32 bits of a bf16 (exact).
#[inline]
pub fn to_f32_bits(x: u16) -> u32 {
    (x as u32) << 16
}

/// The exact f64 value of a bf16.
#[inline]
pub fn to_f64(x: u16) -> f64 {
    f32::from_bits(to_f32_bits(x)) as f64
}

/// Whether `x` is a NaN.
#[inline]
pub fn is_nan(x: u16) -> bool {
    x & 0x7f80 == 0x7f80 && x & 0x7f != 0
}

/// `x` read as ±0 when it is a denormal and `on`.
#[inline]
pub fn flush(x: u16, on: bool) -> u16 {
    if on && x & 0x7f80 == 0 {
        x & 0x8000
    } else {
        x
    }
}

/// The result of a bf16 operation on flushed inputs `ins`: the first NaN input quieted, else
/// `op`'s bits (a NaN made canonical), a denormal flushed per `ctl`.
fn finish(ins: &[u16], ctl: DenormCtl, op: impl FnOnce() -> u16) -> u16 {
    if let Some(&x) = ins.iter().find(|&&x| is_nan(x)) {
        return x | 0x40;
    }
    let r = op();
    if is_nan(r) {
        return NAN_BF16;
    }
    flush(r, ctl.flush_output)
}

/// `a × b` rounded once to bf16.
pub fn mul(a: u16, b: u16, ctl: DenormCtl) -> u16 {
    let (a, b) = (flush(a, ctl.flush_input), flush(b, ctl.flush_input));
    finish(&[a, b], ctl, || {
        round_f64(to_f64(a) * to_f64(b), 0.0, BFLOAT16) as u16
    })
}

/// `a + b` rounded once to bf16.
pub fn add(a: u16, b: u16, ctl: DenormCtl) -> u16 {
    let (a, b) = (flush(a, ctl.flush_input), flush(b, ctl.flush_input));
    finish(&[a, b], ctl, || {
        let (x, y) = (to_f64(a), to_f64(b));
        let s = x + y;
        // TwoSum: s + e = x + y exactly (for finite s).
        let e = if s.is_finite() {
            let yy = s - x;
            (x - (s - yy)) + (y - yy)
        } else {
            0.0
        };
        round_f64(s, e, BFLOAT16) as u16
    })
}

/// `V_DOT2_BF16_BF16` per the pseudocode: `tmp = S2.bf16; tmp += S0.lo × S1.lo; tmp +=
/// S0.hi × S1.hi`, where each `×` and `+=` is a bf16 operation rounded once (as the typed
/// pseudocode reads, and as this crate's `V_DOT2_F16_F16` does).
pub fn dot2(a: u32, b: u32, c: u16, ctl: DenormCtl) -> u16 {
    let lo = |x: u32| x as u16;
    let hi = |x: u32| (x >> 16) as u16;
    let t = add(c, mul(lo(a), lo(b), ctl), ctl);
    add(t, mul(hi(a), hi(b), ctl), ctl)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALLOW: DenormCtl = DenormCtl::FLUSH_NONE;

    fn bf(x: f32) -> u16 {
        (x.to_bits() >> 16) as u16
    }

    #[test]
    fn exact_values_round_trip() {
        assert_eq!(mul(bf(1.5), bf(2.0), ALLOW), bf(3.0));
        assert_eq!(add(bf(1.5), bf(-0.25), ALLOW), bf(1.25));
        assert_eq!(
            dot2(0x4000_3fc0, 0x4040_4000, bf(1.0), ALLOW),
            bf(1.0 + 3.0 + 6.0)
        );
    }

    #[test]
    fn rounding_is_nearest_even_on_the_seven_bit_mantissa() {
        // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1.0).
        assert_eq!(add(bf(1.0), 0x3b80, ALLOW), 0x3f80, "2^-8 = 0x3b80");
        // 1 + 3×2^-8 is halfway between 1+2^-7 and 1+2^-6: ties to even (1 + 2^-6 = 0x3f82).
        assert_eq!(add(bf(1.0), 0x3c40, ALLOW), 0x3f82);
        // A far smaller addend still breaks a tie upward: 1 + 2^-8 + 2^-40 → 1 + 2^-7.
        assert_eq!(
            add(add(bf(1.0), 0x2b80, ALLOW), 0x3b80, ALLOW),
            0x3f80,
            "2^-40 is lost first"
        );
        // (1 + 2^-7)² = 1 + 2^-6 + 2^-14 → 1 + 2^-6.
        assert_eq!(mul(0x3f81, 0x3f81, ALLOW), 0x3f82);
        // Overflow to infinity.
        assert_eq!(mul(bf(f32::MAX), bf(2.0), ALLOW), 0x7f80);
    }

    #[test]
    fn denormals_follow_the_control_and_nans_propagate() {
        let den = 0x0001; // the smallest bf16 denormal, 2^-133
        assert_eq!(add(den, den, ALLOW), 0x0002);
        assert_eq!(add(den, den, DenormCtl::FLUSH_ALL), 0);
        assert_eq!(
            mul(0x8040, bf(1.0), DenormCtl::FLUSH_ALL),
            0x8000,
            "sign kept"
        );
        assert_eq!(add(0x7f81, bf(1.0), ALLOW), 0x7fc1, "quieted input NaN");
        assert_eq!(add(0x7f80, 0xff80, ALLOW), NAN_BF16, "inf - inf");
    }
}
