//! Vector-ALU float arithmetic on raw bits, per AMD's RDNA3 pseudocode
//! (`../shared/reference/rdna3-isa-pseudocode.txt`), for f32 and f64.
//!
//! Rules every function here follows (MODE decides the denormal control; rounding is
//! round-to-nearest-even, the only FP_ROUND the executor runs):
//! - **Denormals:** an input is read as ±0 (sign kept) when `ctl.flush_input`, a denormal
//!   result written as ±0 when `ctl.flush_output`.
//! - **NaN:** arithmetic with a NaN input returns the first NaN input in source order,
//!   quieted (payload kept); a NaN made from non-NaN inputs (∞ − ∞, 0 × ∞) is the canonical
//!   quiet NaN. This is our reading: the pseudocode writes the IEEE operation and names no
//!   NaN-selection rule for these opcodes.
//! - **Transcendental approximations** (`v_rcp_*`, `v_rsq_*`, `v_sqrt_*`, `v_exp`, `v_log`,
//!   `v_sin`, `v_cos`) are in [`super::trans`]: correctly rounded, a named choice. Integer
//!   division sequences clang emits (`v_rcp_iflag_f32` plus correction steps) give exact
//!   results either way.
//! - **min/max** are not here: they share the DS atomics' selection rule in
//!   [`super::valu_minmax_f32`].

use super::{flush_denorm_f64, is_nan_f32, is_nan_f64};
use super::{DenormCtl, Layout, F32, F64};

/// The canonical quiet NaN (f32).
pub const NAN32: u32 = 0x7fc0_0000;
/// The canonical quiet NaN (f64).
pub const NAN64: u64 = 0x7ff8_0000_0000_0000;

/// f32's sign, exponent, magnitude and quiet-bit masks, from its [`Layout`] (for the 32-bit
/// paths that test bits without widening to `u64`).
const SIGN32: u32 = F32.sign as u32;
const EXP32: u32 = F32.exp as u32;
const ABS32: u32 = F32.abs_mask() as u32;
const QUIET32: u32 = F32.quiet as u32;

/// `x` read as ±0 when it is a denormal and `on` (a zero is its sign alone already).
#[inline(always)]
pub fn flush32(x: u32, on: bool) -> u32 {
    if on && x & EXP32 == 0 {
        x & SIGN32
    } else {
        x
    }
}

/// `x` read as ±0 when it is a denormal and `on` (f64).
#[inline]
pub fn flush64(x: u64, on: bool) -> u64 {
    if on {
        flush_denorm_f64(x)
    } else {
        x
    }
}

/// The result of an operation in format `l` on (already flushed) inputs `ins`: the first NaN
/// input quieted, else `op`'s result bits with a NaN replaced by `nan` (the canonical quiet
/// NaN) and a denormal flushed when `flush_output`.
#[inline]
fn finish(
    l: Layout,
    ins: impl IntoIterator<Item = u64>,
    nan: u64,
    flush_output: bool,
    op: impl FnOnce() -> u64,
) -> u64 {
    if let Some(x) = ins.into_iter().find(|&x| l.is_nan(x)) {
        return l.quiet(x);
    }
    let r = op();
    if l.is_nan(r) {
        return nan;
    }
    if flush_output {
        l.flush(r)
    } else {
        r
    }
}

/// [`finish`] for f32, in 32-bit arithmetic and without branches: `op` runs whatever the
/// inputs (it is pure), and the first NaN input, tried last to first, replaces its result, so
/// that a lane loop of it vectorizes four or eight lanes to a register. The tests hold it
/// equal to [`finish`] with [`F32`]: a NaN is a magnitude above the exponent mask
/// ([`Layout::is_nan`]), quieted by its quiet bit ([`Layout::quiet`]); a result with a zero
/// exponent keeps its sign alone when flushed ([`Layout::flush`]).
#[inline(always)]
fn finish32<const K: usize>(ins: [u32; K], ctl: DenormCtl, op: impl FnOnce() -> f32) -> u32 {
    let r = op().to_bits();
    let mut r = if r & ABS32 > EXP32 {
        NAN32
    } else if ctl.flush_output && r & EXP32 == 0 {
        r & SIGN32
    } else {
        r
    };
    for x in ins.into_iter().rev() {
        if x & ABS32 > EXP32 {
            r = x | QUIET32;
        }
    }
    r
}

/// [`finish`] for f64.
#[inline]
fn finish64(ins: &[u64], ctl: DenormCtl, op: impl FnOnce() -> f64) -> u64 {
    finish(F64, ins.iter().copied(), NAN64, ctl.flush_output, || {
        op().to_bits()
    })
}

/// A binary f32 operation (`+`, `-`, `×`) under the rules above.
#[inline]
pub fn bin32(a: u32, b: u32, ctl: DenormCtl, op: fn(f32, f32) -> f32) -> u32 {
    let (a, b) = (flush32(a, ctl.flush_input), flush32(b, ctl.flush_input));
    finish32([a, b], ctl, || op(f32::from_bits(a), f32::from_bits(b)))
}

/// A binary f64 operation under the rules above.
#[inline]
pub fn bin64(a: u64, b: u64, ctl: DenormCtl, op: fn(f64, f64) -> f64) -> u64 {
    let (a, b) = (flush64(a, ctl.flush_input), flush64(b, ctl.flush_input));
    finish64(&[a, b], ctl, || op(f64::from_bits(a), f64::from_bits(b)))
}

/// A unary f32 operation under the rules above.
#[inline]
pub fn un32(a: u32, ctl: DenormCtl, op: fn(f32) -> f32) -> u32 {
    let a = flush32(a, ctl.flush_input);
    finish32([a], ctl, || op(f32::from_bits(a)))
}

/// A unary f64 operation under the rules above.
#[inline]
pub fn un64(a: u64, ctl: DenormCtl, op: fn(f64) -> f64) -> u64 {
    let a = flush64(a, ctl.flush_input);
    finish64(&[a], ctl, || op(f64::from_bits(a)))
}

/// Fused `a × b + c` in f32 (one rounding; IEEE's fusedMultiplyAdd, which the host's
/// `mul_add` computes exactly).
#[inline(always)]
pub fn fma32(a: u32, b: u32, c: u32, ctl: DenormCtl) -> u32 {
    let f = |x| flush32(x, ctl.flush_input);
    let (a, b, c) = (f(a), f(b), f(c));
    finish32([a, b, c], ctl, || {
        f32::from_bits(a).mul_add(f32::from_bits(b), f32::from_bits(c))
    })
}

/// Fused `a × b + c` in f64.
#[inline(always)]
pub fn fma64(a: u64, b: u64, c: u64, ctl: DenormCtl) -> u64 {
    let f = |x| flush64(x, ctl.flush_input);
    let (a, b, c) = (f(a), f(b), f(c));
    finish64(&[a, b, c], ctl, || {
        f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c))
    })
}

/// `V_MUL_DX9_ZERO_F32`: like `×`, but 0 × anything (∞ and NaN included) is +0.
pub fn mul_dx9_zero32(a: u32, b: u32, ctl: DenormCtl) -> u32 {
    let (fa, fb) = (flush32(a, ctl.flush_input), flush32(b, ctl.flush_input));
    if fa & ABS32 == 0 || fb & ABS32 == 0 {
        return 0;
    }
    bin32(a, b, ctl, |x, y| x * y)
}

/// `V_FRACT_F32`: `x − floor(x)` (the pseudocode's formula: ±∞ gives NaN, a NaN itself),
/// at most `0x3f7fffff`, the largest f32 below 1.0 (RDNA3.5 ISA notes: "result clamped to
/// 0x3f7fffff"; without the clamp -2^-30 would round to 1.0).
pub fn fract32(a: u32, ctl: DenormCtl) -> u32 {
    un32(a, ctl, |x| {
        let r = x + -x.floor();
        if r > f32::from_bits(0x3f7f_ffff) {
            f32::from_bits(0x3f7f_ffff)
        } else {
            r
        }
    })
}

/// `V_FRACT_F64`, at most `0x3fefffffffffffff` (the ISA notes' clamp).
pub fn fract64(a: u64, ctl: DenormCtl) -> u64 {
    un64(a, ctl, |x| {
        let r = x + -x.floor();
        if r > f64::from_bits(0x3fef_ffff_ffff_ffff) {
            f64::from_bits(0x3fef_ffff_ffff_ffff)
        } else {
            r
        }
    })
}

/// `V_FREXP_MANT_F32`: the significand in [0.5, 1) with the input's sign; ±∞ and NaN
/// unchanged; ±0 stays ±0.
pub fn frexp_mant32(a: u32, ctl: DenormCtl) -> u32 {
    let a = flush32(a, ctl.flush_input);
    if a & EXP32 == EXP32 || a & ABS32 == 0 {
        return a;
    }
    let (m, _) = frexp(f32::from_bits(a) as f64);
    flush32((m as f32).to_bits(), ctl.flush_output)
}

/// `V_FREXP_EXP_I32_F32`: the exponent e with x = m × 2^e, m in [0.5, 1); 0 for ±∞, NaN, ±0.
pub fn frexp_exp32(a: u32, ctl: DenormCtl) -> u32 {
    let a = flush32(a, ctl.flush_input);
    if a & EXP32 == EXP32 || a & ABS32 == 0 {
        return 0;
    }
    frexp(f32::from_bits(a) as f64).1 as u32
}

/// `V_FREXP_MANT_F64`.
pub fn frexp_mant64(a: u64, ctl: DenormCtl) -> u64 {
    let a = flush64(a, ctl.flush_input);
    if a & 0x7ff0_0000_0000_0000 == 0x7ff0_0000_0000_0000 || a << 1 == 0 {
        return a;
    }
    frexp(f64::from_bits(a)).0.to_bits()
}

/// `V_FREXP_EXP_I32_F64`.
pub fn frexp_exp64(a: u64, ctl: DenormCtl) -> u32 {
    let a = flush64(a, ctl.flush_input);
    if a & 0x7ff0_0000_0000_0000 == 0x7ff0_0000_0000_0000 || a << 1 == 0 {
        return 0;
    }
    frexp(f64::from_bits(a)).1 as u32
}

/// (m, e) with x = m × 2^e and |m| in [0.5, 1), for finite nonzero x.
fn frexp(x: f64) -> (f64, i32) {
    let mut bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i32;
    let mut adjust = 0;
    if e == 0 {
        // Denormal: scale up by 2^64 first.
        bits = (x * f64::from_bits(0x43f0_0000_0000_0000)).to_bits();
        e = ((bits >> 52) & 0x7ff) as i32;
        adjust = -64;
    }
    let m = f64::from_bits(bits & !(0x7ff << 52) | (1022u64 << 52));
    (m, e - 1022 + adjust)
}

/// f32 → i32 as `V_CVT_I32_F32`: truncate toward zero, saturate, NaN → 0.
#[inline]
pub fn f32_to_i32(a: u32, ctl: DenormCtl) -> u32 {
    f32::from_bits(flush32(a, ctl.flush_input)) as i32 as u32
}

/// f32 → u32 as `V_CVT_U32_F32`: truncate, saturate (negative → 0), NaN → 0.
#[inline]
pub fn f32_to_u32(a: u32, ctl: DenormCtl) -> u32 {
    f32::from_bits(flush32(a, ctl.flush_input)) as u32
}

/// Applies the VOP3 output modifier (1 ×2, 2 ×4, 3 ÷2) and `clamp` to an f32 result.
/// Clamp takes the result to [+0, 1.0]; a NaN becomes +0 when MODE.DX10_CLAMP is set, else
/// stays (our reading of the MODE bit's description).
pub fn out_mods32(r: u32, omod: u32, clamp: bool, dx10: bool, ctl: DenormCtl) -> u32 {
    let mut r = r;
    if omod != 0 && !is_nan_f32(r) {
        let k = [1.0f32, 2.0, 4.0, 0.5][omod as usize & 3];
        r = flush32((f32::from_bits(r) * k).to_bits(), ctl.flush_output);
    }
    if clamp {
        if is_nan_f32(r) {
            return if dx10 { 0 } else { r };
        }
        let f = f32::from_bits(r);
        if f <= 0.0 {
            return 0;
        }
        if f >= 1.0 {
            return 0x3f80_0000;
        }
    }
    r
}

/// The output modifier and clamp for an f64 result.
pub fn out_mods64(r: u64, omod: u32, clamp: bool, dx10: bool, ctl: DenormCtl) -> u64 {
    let mut r = r;
    if omod != 0 && !is_nan_f64(r) {
        let k = [1.0f64, 2.0, 4.0, 0.5][omod as usize & 3];
        r = flush64((f64::from_bits(r) * k).to_bits(), ctl.flush_output);
    }
    if clamp {
        if is_nan_f64(r) {
            return if dx10 { 0 } else { r };
        }
        let f = f64::from_bits(r);
        if f <= 0.0 {
            return 0;
        }
        if f >= 1.0 {
            return 1.0f64.to_bits();
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fp::EDGE_F32;

    const N: DenormCtl = DenormCtl::FLUSH_NONE;
    const F: DenormCtl = DenormCtl::FLUSH_ALL;

    #[test]
    fn arithmetic_nans_denormals_and_rounding() {
        let den = 0x0000_0001u32;
        assert_eq!(bin32(den, 0, F, |x, y| x + y), 0, "flushed input");
        assert_eq!(bin32(den, 0, N, |x, y| x + y), den, "kept denormal");
        assert_eq!(
            bin32(0x7f80_0000, 0xff80_0000, N, |x, y| x + y),
            NAN32,
            "inf - inf"
        );
        assert_eq!(
            bin32(0x7f80_0001, 0x7fc0_0002, N, |x, y| x + y),
            0x7fc0_0001,
            "first NaN quieted"
        );
        assert_eq!(
            fma32(0x3f80_0001, 0x3f80_0001, 0xbf80_0002, N),
            0x2880_0000,
            "one rounding: 2^-46"
        );
        assert_eq!(fract32((-0.25f32).to_bits(), N), 0.75f32.to_bits());
        assert_eq!(frexp_mant32(8.0f32.to_bits(), N), 0.5f32.to_bits());
        assert_eq!(frexp_exp32(8.0f32.to_bits(), N), 4);
        assert_eq!(
            frexp_exp32(1, N),
            (-148i32) as u32,
            "the smallest denormal is 0.5 × 2^-148"
        );
        assert_eq!(frexp_exp64(3.0f64.to_bits(), N), 2);
        assert_eq!(f32_to_i32(0xcf80_0000, N), i32::MIN as u32, "saturates");
        assert_eq!(f32_to_u32((-1.0f32).to_bits(), N), 0);
        assert_eq!(mul_dx9_zero32(0, 0x7f80_0000, N), 0, "0 × inf = +0");
    }

    /// [`finish32`]'s rules as [`finish`] states them for any layout, on inputs flushed by
    /// [`super::super::flush_denorm_f32`]: the reference the branch-free f32 path is held to.
    fn reference32(ins: &[u32], ctl: DenormCtl, op: impl Fn(&[f32]) -> f32) -> u32 {
        let flush = |x: u32| {
            if ctl.flush_input {
                super::super::flush_denorm_f32(x)
            } else {
                x
            }
        };
        let ins: Vec<u32> = ins.iter().map(|&x| flush(x)).collect();
        let f: Vec<f32> = ins.iter().map(|&x| f32::from_bits(x)).collect();
        let wide = ins.iter().map(|&x| x as u64);
        let nan = NAN32 as u64;
        finish(super::super::F32, wide, nan, ctl.flush_output, || {
            op(&f).to_bits() as u64
        }) as u32
    }

    /// `fma32`, `bin32` (+, −, ×) and `un32` give the reference's bits under every denormal
    /// control, on edge values (±0, denormals, ±inf, NaNs quiet and signalling with payloads
    /// and either sign) and random ones.
    #[test]
    fn branch_free_f32_results_match_the_reference() {
        let mut rng = crate::xorshift::XorShift::new(0xf32f_1a75);
        let mut value = || match rng.below(3) {
            0 => rng.pick(&EDGE_F32),
            1 => rng.next_u64() as u32,
            _ => rng.next_u64() as u32 & 0x807f_ffff | rng.pick(&[0, 0x0080_0000, 0x3f00_0000]),
        };
        let (mut nans, mut flushed) = (0, 0);
        for mode in [0x00, 0x10, 0x20, 0x30] {
            let ctl = DenormCtl::from_mode_f32(mode);
            for _ in 0..100_000 {
                let [a, b, c] = [value(), value(), value()];
                let fma = fma32(a, b, c, ctl);
                assert_eq!(
                    fma,
                    reference32(&[a, b, c], ctl, |f| f[0].mul_add(f[1], f[2])),
                    "fma {a:#x} {b:#x} {c:#x} {ctl:?}"
                );
                for (name, op) in [
                    ("+", (|x, y| x + y) as fn(f32, f32) -> f32),
                    ("-", |x, y| x - y),
                    ("×", |x, y| x * y),
                ] {
                    assert_eq!(
                        bin32(a, b, ctl, op),
                        reference32(&[a, b], ctl, |f| op(f[0], f[1])),
                        "{a:#x} {name} {b:#x} {ctl:?}"
                    );
                }
                let neg = |x: f32| -x;
                assert_eq!(un32(a, ctl, neg), reference32(&[a], ctl, |f| -f[0]));
                nans += (fma & 0x7fff_ffff > 0x7f80_0000) as u32;
                flushed += (fma & 0x7fff_ffff == 0 && c & 0x7f80_0000 == 0) as u32;
            }
        }
        assert!(
            nans > 10_000 && flushed > 1_000,
            "{nans} NaNs, {flushed} zeros"
        );
    }

    #[test]
    fn output_modifiers_and_clamp() {
        let r = 0.75f32.to_bits();
        assert_eq!(out_mods32(r, 1, false, true, N), 1.5f32.to_bits());
        assert_eq!(out_mods32(r, 1, true, true, N), 1.0f32.to_bits());
        assert_eq!(out_mods32(r, 3, false, true, N), 0.375f32.to_bits());
        assert_eq!(out_mods32((-2.0f32).to_bits(), 0, true, true, N), 0);
        assert_eq!(
            out_mods32(NAN32, 0, true, true, N),
            0,
            "DX10 clamp: NaN to 0"
        );
        assert_eq!(out_mods32(NAN32, 0, true, false, N), NAN32);
        assert_eq!(
            out_mods64(0.75f64.to_bits(), 2, true, true, N),
            1.0f64.to_bits()
        );
    }
}
