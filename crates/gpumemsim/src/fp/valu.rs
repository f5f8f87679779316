//! Vector-ALU float helpers the memory models need (V_INTERP): f16 ↔ f32 conversions and a
//! fused multiply-add, in round-to-nearest-even or round-toward-zero, on raw bits.
//!
//! The FMA is IEEE fused (one rounding): round-to-nearest-even uses the host's fused
//! `f32::mul_add`, which IEEE 754 defines exactly; round-toward-zero computes the exact
//! result as an f64 sum plus its error term and rounds that toward zero. NaN results are the
//! canonical quiet NaN 0x7fc00000: our reading, since AMD's VALU pages do not define which
//! input NaN an FMA returns.

/// Rounding of a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Round {
    /// To nearest, ties to even.
    NearestEven,
    /// Toward zero.
    TowardZero,
}

/// The canonical quiet NaN the VALU helpers return.
pub const CANONICAL_NAN_F32: u32 = 0x7fc0_0000;

/// An f16 as f32 bits (exact; NaN payloads move to the top of the f32 mantissa, quiet bit
/// kept).
pub fn f16_to_f32(h: u16) -> u32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    match exp {
        0 if man == 0 => sign,
        0 => {
            // Denormal: value = man × 2^-24; normalise.
            let shift = man.leading_zeros() - 21; // bring the top set bit to bit 10
            let m = (man << shift) & 0x3ff;
            let e = 127 - 15 + 1 - shift;
            sign | e << 23 | m << 13
        }
        0x1f => sign | 0x7f80_0000 | man << 13,
        _ => sign | (exp + 127 - 15) << 23 | man << 13,
    }
}

/// f32 bits to f16 with `round` (overflow: infinity for nearest-even, the largest finite
/// value for toward-zero; NaNs stay NaNs, quieted, with the top payload bits).
pub fn f32_to_f16(x: u32, round: Round) -> u16 {
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        if man == 0 {
            return sign | 0x7c00;
        }
        return sign | 0x7e00 | ((man >> 13) as u16 & 0x1ff);
    }
    // Value = 1.man × 2^(exp-127) (or 0.man × 2^-126). Build a 24-bit significand.
    let (sig, e) = if exp == 0 {
        (man, -126)
    } else {
        (man | 0x80_0000, exp - 127)
    };
    if sig == 0 {
        return sign;
    }
    // Target: f16 normal e in -14..=15 with 11-bit significand; below, denormal (2^-24 units).
    let shift = if e >= -14 { 13 } else { 13 + (-14 - e) } as u32;
    let (mut q, rem_bits) = if shift >= 32 {
        (0u32, sig != 0)
    } else {
        (sig >> shift, sig & ((1 << shift) - 1) != 0)
    };
    if round == Round::NearestEven && shift < 32 {
        let half = 1u32 << (shift - 1);
        let rem = sig & ((1 << shift) - 1);
        if rem > half || (rem == half && q & 1 == 1) {
            q += 1;
        }
    }
    let _ = rem_bits;
    let mut e16 = if e >= -14 { e + 15 } else { 0 };
    // q is the f16 significand including the hidden bit for normals (11 bits), or the
    // denormal mantissa.
    if e16 > 0 {
        if q >= 0x800 {
            q >>= 1;
            e16 += 1;
        }
        if e16 >= 0x1f {
            return match round {
                Round::NearestEven => sign | 0x7c00,
                Round::TowardZero => sign | 0x7bff,
            };
        }
        sign | (e16 as u16) << 10 | (q as u16 & 0x3ff)
    } else {
        // Denormal, or rounded up into the smallest normal (q == 0x400 carries naturally).
        sign | q as u16
    }
}

fn flush_f32(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

/// Fused multiply-add `a × b + c` of f32 bits with `round`; `flush_input`/`flush_output`
/// flush denormal inputs/results to zero of the same sign (MODE.FP_DENORM).
pub fn fma_f32(a: u32, b: u32, c: u32, round: Round, flush_input: bool, flush_output: bool) -> u32 {
    let (a, b, c) = if flush_input {
        (flush_f32(a), flush_f32(b), flush_f32(c))
    } else {
        (a, b, c)
    };
    let (fa, fb, fc) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
    let r = match round {
        Round::NearestEven => fa.mul_add(fb, fc),
        Round::TowardZero => fma_rtz(fa, fb, fc),
    };
    if r.is_nan() {
        return CANONICAL_NAN_F32;
    }
    let bits = r.to_bits();
    if flush_output {
        flush_f32(bits)
    } else {
        bits
    }
}

fn fma_rtz(a: f32, b: f32, c: f32) -> f32 {
    let p = a as f64 * b as f64; // exact: 24 × 24 bits fit in 53
    let cc = c as f64;
    let s = p + cc;
    if !s.is_finite() || !p.is_finite() {
        return a.mul_add(b, c);
    }
    // TwoSum: s + err is exactly p + c.
    let bb = s - p;
    let err = (p - (s - bb)) + (cc - bb);
    let mut r = s as f32;
    if r.is_infinite() {
        return f32::MAX.copysign(r);
    }
    if r == 0.0 && s == 0.0 && err == 0.0 {
        // An exact zero: +0 unless both addends are -0 (IEEE, any rounding but downward).
        return if p.is_sign_negative() && cc.is_sign_negative() {
            -0.0
        } else {
            0.0
        };
    }
    // Sign of r − exact: (r − s) is exact (Sterbenz); when it is 0 the error decides.
    let diff = (r as f64 - s) - err;
    let toward_zero_step = |x: f32| -> f32 {
        let bits = x.to_bits();
        if bits & 0x7fff_ffff == 0 {
            x
        } else {
            f32::from_bits(bits - 1)
        }
    };
    if (r > 0.0 && diff > 0.0) || (r < 0.0 && diff < 0.0) {
        r = toward_zero_step(r);
    } else if r == 0.0 && err != 0.0 {
        r = 0.0f32.copysign(err as f32);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_round_trips_through_f32_for_every_value() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            let is_nan = h & 0x7c00 == 0x7c00 && h & 0x3ff != 0;
            if is_nan {
                assert!(f32::from_bits(f).is_nan());
                assert_eq!(
                    f32_to_f16(f, Round::NearestEven),
                    h | 0x200,
                    "{h:#x} quieted"
                );
            } else {
                assert_eq!(f32_to_f16(f, Round::NearestEven), h, "{h:#x}");
                assert_eq!(f32_to_f16(f, Round::TowardZero), h, "{h:#x} (exact)");
            }
        }
    }

    #[test]
    fn f16_conversion_rounds_as_asked() {
        // 1 + 2^-11 is halfway between 1.0 and the next f16 (1 + 2^-10): ties to even → 1.0.
        let halfway = 0x3f80_1000;
        assert_eq!(f32_to_f16(halfway, Round::NearestEven), 0x3c00);
        // Just above halfway rounds up to nearest, down toward zero.
        assert_eq!(f32_to_f16(halfway + 1, Round::NearestEven), 0x3c01);
        assert_eq!(f32_to_f16(halfway + 1, Round::TowardZero), 0x3c00);
        // Overflow: 65520 rounds to inf at nearest, to 65504 toward zero.
        assert_eq!(f32_to_f16(65520f32.to_bits(), Round::NearestEven), 0x7c00);
        assert_eq!(f32_to_f16(65520f32.to_bits(), Round::TowardZero), 0x7bff);
        // Smallest f16 denormal is 2^-24; half of it ties to even (0), a bit more rounds up.
        assert_eq!(
            f32_to_f16((2f32).powi(-24).to_bits(), Round::NearestEven),
            1
        );
        assert_eq!(
            f32_to_f16((2f32).powi(-25).to_bits(), Round::NearestEven),
            0
        );
        assert_eq!(
            f32_to_f16((1.5f32 * (2f32).powi(-25)).to_bits(), Round::NearestEven),
            1
        );
        assert_eq!(
            f32_to_f16((-1.5f32 * (2f32).powi(-25)).to_bits(), Round::TowardZero),
            0x8000
        );
    }

    #[test]
    fn fma_is_fused_and_rtz_rounds_toward_zero() {
        let f = |x: f32| x.to_bits();
        // (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly: a non-fused multiply would give 0.
        let a = 1.0 + f32::EPSILON;
        let b = 1.0 - f32::EPSILON;
        let r = fma_f32(f(a), f(b), f(-1.0), Round::NearestEven, false, false);
        assert_eq!(f32::from_bits(r), -(2f32).powi(-46));
        // (1 + 2^-12)² + 2^-30 = 1 + 2^-11 + 2^-24 + 2^-30 exactly: just above the midpoint
        // between 1 + 2^-11 and the next f32, so nearest rounds up and toward-zero down.
        let a = 1.0 + (2f32).powi(-12);
        let c = (2f32).powi(-30);
        let lo = 1.0 + (2f32).powi(-11);
        let hi = f32::from_bits(lo.to_bits() + 1);
        assert_eq!(
            fma_f32(f(a), f(a), f(c), Round::NearestEven, false, false),
            f(hi)
        );
        assert_eq!(
            fma_f32(f(a), f(a), f(c), Round::TowardZero, false, false),
            f(lo)
        );
        assert_eq!(
            fma_f32(f(-a), f(a), f(-c), Round::TowardZero, false, false),
            f(-lo)
        );
        assert_eq!(
            fma_f32(f(-a), f(a), f(-c), Round::NearestEven, false, false),
            f(-hi)
        );
        // Overflow toward zero saturates at the largest finite value.
        assert_eq!(
            fma_f32(f(f32::MAX), f(2.0), f(0.0), Round::TowardZero, false, false),
            f(f32::MAX)
        );
        // Denormal flushing.
        let den = 1u32;
        assert_eq!(
            fma_f32(den, f(1.0), f(0.0), Round::NearestEven, false, false),
            den
        );
        assert_eq!(
            fma_f32(den, f(1.0), f(0.0), Round::NearestEven, true, false),
            0
        );
        assert_eq!(
            fma_f32(f(1.0), den, f(0.0), Round::NearestEven, false, true),
            0
        );
        assert_eq!(
            fma_f32(
                f(f32::INFINITY),
                f(0.0),
                f(1.0),
                Round::NearestEven,
                false,
                false
            ),
            CANONICAL_NAN_F32
        );
    }
}
