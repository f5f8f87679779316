//! Correct rounding of a real value held as an f64 (plus, optionally, the small error term of
//! a double-double) to a narrower binary format — f16 or f32 — round to nearest, ties to
//! even, with denormals and overflow to infinity. One rounding: the result is the format's
//! value nearest to `hi + lo`, not to `hi`.
//!
//! Why `lo` is enough: every midpoint between two neighbouring f16 or f32 values is itself an
//! f64, and `hi` is `hi + lo` rounded to f64, so `hi + lo` lies on the same side of a midpoint
//! as `hi` unless `hi` *is* the midpoint; only then does the sign of `lo` decide.

/// A binary interchange format narrower than f64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// Stored mantissa bits.
    pub man: u32,
    /// Exponent bits.
    pub exp: u32,
}

/// IEEE binary16.
pub const HALF: Format = Format { man: 10, exp: 5 };
/// IEEE binary32.
pub const SINGLE: Format = Format { man: 23, exp: 8 };

impl Format {
    const fn bias(self) -> i32 {
        (1 << (self.exp - 1)) - 1
    }
    const fn inf(self) -> u64 {
        ((1u64 << self.exp) - 1) << self.man
    }
    const fn sign(self) -> u64 {
        1 << (self.man + self.exp)
    }
}

/// `hi + lo` rounded to `f` (nearest, ties to even), where `hi` is `hi + lo` rounded to f64
/// (`|lo|` at most half an f64 ulp of `hi`; `lo = 0` for a plain f64). A NaN `hi` gives a
/// quiet NaN keeping the sign and the top payload bits.
pub fn round_f64(hi: f64, lo: f64, f: Format) -> u64 {
    let bits = hi.to_bits();
    let sign = if bits >> 63 == 1 { f.sign() } else { 0 };
    if hi.is_nan() {
        let quiet = 1u64 << (f.man - 1);
        return sign | f.inf() | quiet | (bits & ((1 << 52) - 1)) >> (52 - f.man);
    }
    if hi.is_infinite() {
        return sign | f.inf();
    }
    if hi == 0.0 {
        return sign;
    }
    let field = (bits >> 52 & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    // hi = m × 2^e exactly.
    let (m, e) = if field == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, field - 1075)
    };
    let top = e + 63 - m.leading_zeros() as i32;
    let emin = 1 - f.bias();
    // The result is a whole number n of quanta 2^q.
    let mut q = top.max(emin) - f.man as i32;
    let drop = q - e;
    let mut n = if drop <= 0 {
        // Not reached for f16/f32 (an f64 has more bits), kept total.
        m.checked_shl((-drop) as u32).unwrap_or(0)
    } else if drop > 63 {
        // m × 2^e < 2^(q - 11): far below half a quantum, rounds to zero.
        0
    } else {
        let d = drop as u32;
        let kept = m >> d;
        let rem = m & ((1u64 << d) - 1);
        let half = 1u64 << (d - 1);
        let up = if rem != half {
            rem > half
        } else if lo != 0.0 {
            // Exactly halfway in hi: the error term says which side the value is on.
            (lo > 0.0) == (bits >> 63 == 0)
        } else {
            kept & 1 == 1
        };
        kept + up as u64
    };
    if n == 1 << (f.man + 1) {
        n >>= 1;
        q += 1;
    }
    if n < 1 << f.man {
        // Denormal (or zero): exponent field 0.
        return sign | n;
    }
    let field = q + f.man as i32 + f.bias();
    if field >= (1 << f.exp) - 1 {
        return sign | f.inf();
    }
    sign | (field as u64) << f.man | (n - (1 << f.man))
}

/// `hi + lo` rounded to f32 bits.
#[inline]
pub fn to_f32(hi: f64, lo: f64) -> u32 {
    round_f64(hi, lo, SINGLE) as u32
}

/// `hi + lo` rounded to f16 bits.
#[inline]
pub fn to_f16(hi: f64, lo: f64) -> u16 {
    round_f64(hi, lo, HALF) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_f64_rounds_as_the_host_cast() {
        // Host `as f32` is IEEE round-to-nearest-even, denormals and overflow included.
        let mut rng = crate::xorshift::XorShift::new(0x1234_5678_9abc_def0);
        for _ in 0..200_000 {
            let x = rng.next_u64();
            // Exponents around the f32 range, all mantissas.
            let e = 1023 - 160 + (x >> 52) % 300;
            let v = f64::from_bits(x & 0x800f_ffff_ffff_ffff | e << 52);
            assert_eq!(to_f32(v, 0.0), (v as f32).to_bits(), "{v:e}");
        }
    }

    #[test]
    fn the_error_term_breaks_ties() {
        // 1 + 2^-24 is halfway between 1 and 1 + 2^-23.
        let mid = 1.0 + 2f64.powi(-24);
        assert_eq!(to_f32(mid, 0.0), 0x3f80_0000, "tie to even");
        assert_eq!(to_f32(mid, 1e-30), 0x3f80_0001, "just above");
        assert_eq!(to_f32(-mid, -1e-30), 0xbf80_0001, "just above in magnitude");
        assert_eq!(to_f32(-mid, 1e-30), 0xbf80_0000);
        // Halfway between the two largest finite f32 past MAX: to infinity, or down.
        let top = f32::MAX as f64 + 2f64.powi(103);
        assert_eq!(to_f32(top, 0.0), 0x7f80_0000);
        assert_eq!(to_f32(top, -1.0), 0x7f7f_ffff);
        // Half the smallest f16 denormal (2^-25): ties to 0, and up with a positive error.
        assert_eq!(to_f16(2f64.powi(-25), 0.0), 0);
        assert_eq!(to_f16(2f64.powi(-25), 1e-40), 1);
        assert_eq!(to_f16(-(2f64.powi(-25)), -1e-40), 0x8001);
    }

    #[test]
    fn f16_matches_the_f32_converter_on_f32_values() {
        use crate::fp::valu::{f32_to_f16, Round};
        let mut x = 0x9e37_79b9u32;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let v = f32::from_bits(x);
            let want = f32_to_f16(x, Round::NearestEven);
            assert_eq!(to_f16(v as f64, 0.0), want, "{x:#x}");
        }
        assert_eq!(to_f16(65520.0, 0.0), 0x7c00, "overflow");
        assert_eq!(to_f16(65519.0, 0.0), 0x7bff);
        assert_eq!(to_f16(-0.0, 0.0), 0x8000);
    }
}
