//! Double-double arithmetic: a value `hi + lo` with `|lo| <= ulp(hi) / 2`, about 106 bits of
//! precision, from error-free transformations of host IEEE-754 f64 operations (`+`, `×`, and
//! the fused `mul_add`, all correctly rounded on every Rust target). The results are the same
//! bits on every host.
//!
//! Used for the vector ALU's transcendental instructions, whose exact results are rounded
//! once to f32 or f16 (see [`super::trans`]).

/// `hi + lo`, normalised so that `hi` is the sum rounded to f64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dd {
    /// The value rounded to f64.
    pub hi: f64,
    /// The rest.
    pub lo: f64,
}

/// `a + b` exactly, as (rounded sum, error) (Knuth's TwoSum).
#[inline]
fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    Dd { hi: s, lo: e }
}

/// `a + b` exactly when `|a| >= |b|` (Dekker's FastTwoSum).
#[inline]
fn quick_two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd {
        hi: s,
        lo: b - (s - a),
    }
}

/// `a × b` exactly, as (rounded product, error), with the fused multiply-add.
#[inline]
fn two_prod(a: f64, b: f64) -> Dd {
    let p = a * b;
    Dd {
        hi: p,
        lo: a.mul_add(b, -p),
    }
}

impl Dd {
    /// A double-double from the bits of its two parts.
    pub const fn from_bits(hi: u64, lo: u64) -> Dd {
        Dd {
            hi: f64::from_bits(hi),
            lo: f64::from_bits(lo),
        }
    }

    /// An f64, exactly.
    #[inline]
    pub const fn new(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }

    /// `self × b` for an f64 `b`.
    #[inline]
    pub fn mul_f64(self, b: f64) -> Dd {
        let p = two_prod(self.hi, b);
        quick_two_sum(p.hi, p.lo + self.lo * b)
    }

    /// `self × 2^k`, exact while the parts stay normal.
    #[inline]
    pub fn scale(self, k: i32) -> Dd {
        let f = pow2(k);
        Dd {
            hi: self.hi * f,
            lo: self.lo * f,
        }
    }

    /// `√x` for a finite `x > 0`: the correctly rounded root plus its residual term.
    pub fn sqrt(x: f64) -> Dd {
        let s = x.sqrt();
        // x - s² exactly (the fused multiply-add rounds once, and the residual is exact).
        let r = (-s).mul_add(s, x);
        quick_two_sum(s, r / (2.0 * s))
    }
}

impl std::ops::Add for Dd {
    type Output = Dd;
    #[inline]
    fn add(self, b: Dd) -> Dd {
        let s = two_sum(self.hi, b.hi);
        let t = two_sum(self.lo, b.lo);
        let s = quick_two_sum(s.hi, s.lo + t.hi);
        quick_two_sum(s.hi, s.lo + t.lo)
    }
}

impl std::ops::Neg for Dd {
    type Output = Dd;
    #[inline]
    fn neg(self) -> Dd {
        Dd {
            hi: -self.hi,
            lo: -self.lo,
        }
    }
}

impl std::ops::Sub for Dd {
    type Output = Dd;
    #[inline]
    fn sub(self, b: Dd) -> Dd {
        self + -b
    }
}

impl std::ops::Mul for Dd {
    type Output = Dd;
    #[inline]
    fn mul(self, b: Dd) -> Dd {
        let p = two_prod(self.hi, b.hi);
        let lo = p.lo + (self.hi * b.lo + self.lo * b.hi);
        quick_two_sum(p.hi, lo)
    }
}

impl std::ops::Div for Dd {
    type Output = Dd;
    /// Three quotient digits.
    fn div(self, b: Dd) -> Dd {
        let q1 = self.hi / b.hi;
        let r = self - b.mul_f64(q1);
        let q2 = r.hi / b.hi;
        let r = r - b.mul_f64(q2);
        let q3 = r.hi / b.hi;
        quick_two_sum(q1, q2) + Dd::new(q3)
    }
}

/// 2^k as an f64, for -1022 <= k <= 1023.
#[inline]
pub fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// |a - b| relative to |b|, in units of 2^-100.
    fn close(a: Dd, b: Dd) -> bool {
        let d = a - b;
        d.hi.abs() <= b.hi.abs() * 2f64.powi(-100)
    }

    #[test]
    fn arithmetic_carries_about_106_bits() {
        let third = Dd::new(1.0) / Dd::new(3.0);
        assert!(close(third.mul_f64(3.0), Dd::new(1.0)));
        // The error of 1/3 in f64 is visible in the low part.
        assert_ne!(third.lo, 0.0);
        let r2 = Dd::sqrt(2.0);
        assert!(close(r2 * r2, Dd::new(2.0)));
    }
}
