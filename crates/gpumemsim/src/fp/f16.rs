//! Half-precision (f16) vector-ALU arithmetic on raw bits, per AMD's RDNA3 pseudocode
//! (`../shared/reference/rdna3-isa-pseudocode.txt`): `V_ADD/SUB/SUBREV/MUL/FMA*_F16`,
//! `V_MIN/MAX_F16` and the three-input selections, `V_LDEXP_F16`, `V_FREXP_*_F16`,
//! `V_FRACT/TRUNC/CEIL/FLOOR/RNDNE_F16`, `V_DIV_FIXUP_F16` (in [`super::div`]) and the output
//! modifiers of an f16 result.
//!
//! # Denormals
//! f16 shares MODE's *double-precision* denormal control (FP_DENORM bits `[7:6]`): LLVM's
//! AMDGPU target names the feature "fp64-fp16-denormals" ("Denormal handling for fp64 and
//! fp16 is controlled by the same config register", AMDGPU.td, LLVM review D27703), and the
//! ISA notes of `V_CVT_F16_F32`/`V_CVT_F32_F16` say "flush denorms ... based on DP denorm
//! mode". The pseudocode itself names no control. See [`super::DenormCtl::from_mode_f16`].
//!
//! # Rounding: one rounding, proved per operation
//! Every f16 value is a multiple of 2^-24 below 2^16 in magnitude, so
//! - a sum or difference of two f16 values is a multiple of 2^-24 below 2^17: at most 41
//!   significant bits, exact in f64;
//! - a product of two f16 values has at most 22 significant bits: exact in f64;
//! - `fma`: the product is exact, and the f64 sum with its TwoSum error term is the exact
//!   result as a double-double;
//! - `ldexp` of an f16 by a clamped power of two is exact in f64.
//!
//! Each exact value is then rounded once to f16 ([`super::round`]), so no double rounding can
//! occur. NaN results follow the f32 rules of [`super::arith`]: the first NaN input quieted,
//! else the canonical quiet NaN [`NAN16`].

use super::round::to_f16;
use super::valu::f16_to_f32;
use super::DenormCtl;
use super::F16;

/// The canonical quiet NaN of f16 arithmetic (the f16 form of `0x7fc00000`).
pub const NAN16: u16 = 0x7e00;
/// f16 1.0.
pub const ONE16: u16 = 0x3c00;

/// The exact f64 value of an f16.
#[inline]
pub fn to_f64(h: u16) -> f64 {
    f32::from_bits(f16_to_f32(h)) as f64
}

/// `x` read as ±0 when it is a denormal and `on`.
#[inline]
pub fn flush16(x: u16, on: bool) -> u16 {
    if on {
        F16.flush(x as u64) as u16
    } else {
        x
    }
}

/// Whether `x` is a NaN.
#[inline]
pub fn is_nan16(x: u16) -> bool {
    F16.is_nan(x as u64)
}

/// `x` quieted if it is a NaN.
#[inline]
pub fn quiet16(x: u16) -> u16 {
    F16.quiet(x as u64) as u16
}

/// The result of an f16 operation on flushed inputs `ins`: the first NaN input quieted, else
/// `op`'s bits (a NaN made canonical), denormal flushed per `ctl`.
#[inline]
fn finish(ins: &[u16], ctl: DenormCtl, op: impl FnOnce() -> u16) -> u16 {
    for &x in ins {
        if is_nan16(x) {
            return quiet16(x);
        }
    }
    let r = op();
    if is_nan16(r) {
        return NAN16;
    }
    flush16(r, ctl.flush_output)
}

/// A binary f16 operation `op` whose result is exact in f64, rounded once.
#[inline]
pub fn bin16(a: u16, b: u16, ctl: DenormCtl, op: fn(f64, f64) -> f64) -> u16 {
    let (a, b) = (flush16(a, ctl.flush_input), flush16(b, ctl.flush_input));
    finish(&[a, b], ctl, || to_f16(op(to_f64(a), to_f64(b)), 0.0))
}

/// `V_ADD_F16`.
pub fn add16(a: u16, b: u16, ctl: DenormCtl) -> u16 {
    bin16(a, b, ctl, |x, y| x + y)
}

/// `V_SUB_F16` (`V_SUBREV_F16` swaps the operands).
pub fn sub16(a: u16, b: u16, ctl: DenormCtl) -> u16 {
    bin16(a, b, ctl, |x, y| x - y)
}

/// `V_MUL_F16`.
pub fn mul16(a: u16, b: u16, ctl: DenormCtl) -> u16 {
    bin16(a, b, ctl, |x, y| x * y)
}

/// `V_FMA_F16`, `V_FMAC_F16`, `V_FMAMK/FMAAK_F16`: `a × b + c` with one rounding.
pub fn fma16(a: u16, b: u16, c: u16, ctl: DenormCtl) -> u16 {
    let f = |x| flush16(x, ctl.flush_input);
    let (a, b, c) = (f(a), f(b), f(c));
    finish(&[a, b, c], ctl, || {
        let p = to_f64(a) * to_f64(b); // exact
        let c = to_f64(c);
        let s = p + c;
        if !s.is_finite() {
            return to_f16(s, 0.0);
        }
        // TwoSum: p + c = s + e exactly.
        let bb = s - p;
        let e = (p - (s - bb)) + (c - bb);
        to_f16(s, e)
    })
}

/// `V_MIN_F16` (`max` false) / `V_MAX_F16`: the VALU selection rule of
/// [`super::valu_minmax_f32`] on f16.
pub fn minmax16(a: u16, b: u16, max: bool, ieee: bool, flush_input: bool) -> u16 {
    super::valu_minmax_f16(a, b, max, ieee, flush_input)
}

/// `V_MED3_F16`: [`super::valu_med3_f16`].
pub fn med3_16(a: u16, b: u16, c: u16, ieee: bool, flush_input: bool) -> u16 {
    super::valu_med3_f16(a, b, c, ieee, flush_input)
}

/// `V_LDEXP_F16`: `a × 2^e` rounded once (`e` is S1's signed 16 bits, or any i32).
pub fn ldexp16(a: u16, e: i32, ctl: DenormCtl) -> u16 {
    let a = flush16(a, ctl.flush_input);
    // Past ±80 every finite nonzero f16 over- or underflows either way.
    let e = e.clamp(-80, 80);
    finish(&[a], ctl, || to_f16(to_f64(a) * 2f64.powi(e), 0.0))
}

/// `V_FREXP_MANT_F16`: the significand in [0.5, 1) with the input's sign; ±inf, NaN and ±0
/// unchanged (C `frexp` semantics, as the f32 form: a denormal is normalised first).
pub fn frexp_mant16(a: u16, ctl: DenormCtl) -> u16 {
    let a = flush16(a, ctl.flush_input);
    if a & 0x7c00 == 0x7c00 || a & 0x7fff == 0 {
        return a;
    }
    let x = to_f64(a);
    let e = frexp_exp(x);
    to_f16(x * 2f64.powi(-e), 0.0)
}

/// `V_FREXP_EXP_I16_F16`: the exponent e of x = m × 2^e, m in [0.5, 1), as i16 bits; 0 for
/// ±inf, NaN and ±0.
pub fn frexp_exp16(a: u16, ctl: DenormCtl) -> u16 {
    let a = flush16(a, ctl.flush_input);
    if a & 0x7c00 == 0x7c00 || a & 0x7fff == 0 {
        return 0;
    }
    frexp_exp(to_f64(a)) as i16 as u16
}

/// e with |x| = m × 2^e, m in [0.5, 1), for a finite nonzero normal-range f64.
fn frexp_exp(x: f64) -> i32 {
    ((x.to_bits() >> 52 & 0x7ff) as i32) - 1022
}

/// A rounding of an f16 to an integral value by `op` (exact in f64), NaN quieted.
fn integral16(a: u16, ctl: DenormCtl, op: fn(f64) -> f64) -> u16 {
    let a = flush16(a, ctl.flush_input);
    finish(&[a], ctl, || to_f16(op(to_f64(a)), 0.0))
}

/// `V_TRUNC_F16`.
pub fn trunc16(a: u16, ctl: DenormCtl) -> u16 {
    integral16(a, ctl, f64::trunc)
}

/// `V_CEIL_F16`.
pub fn ceil16(a: u16, ctl: DenormCtl) -> u16 {
    integral16(a, ctl, f64::ceil)
}

/// `V_FLOOR_F16`.
pub fn floor16(a: u16, ctl: DenormCtl) -> u16 {
    integral16(a, ctl, f64::floor)
}

/// `V_RNDNE_F16`: IEEE roundToIntegralTiesToEven (as `V_RNDNE_F32` here: the pseudocode's
/// `floor(S0 + 0.5)` with its even-tie fix describes the same value, except that we keep the
/// sign of a zero result, -0.3 → -0).
pub fn rndne16(a: u16, ctl: DenormCtl) -> u16 {
    integral16(a, ctl, f64::round_ties_even)
}

/// The largest f16 below 1.0, where `V_FRACT_F16` clamps its result.
pub const FRACT16_MAX: u16 = 0x3bff;

/// `V_FRACT_F16`: `x + -floor(x)` rounded once, at most [`FRACT16_MAX`] (the ISA notes clamp
/// the f32/f64 forms below 1.0, "result clamped to 0x3f7fffff"; we apply the same to f16).
/// ±inf gives NaN, as the formula does.
pub fn fract16(a: u16, ctl: DenormCtl) -> u16 {
    let a = flush16(a, ctl.flush_input);
    finish(&[a], ctl, || {
        let x = to_f64(a);
        let r = to_f16(x - x.floor(), 0.0);
        if r & 0x7fff > FRACT16_MAX && !is_nan16(r) {
            FRACT16_MAX
        } else {
            r
        }
    })
}

/// The VOP3 output modifier (1 ×2, 2 ×4, 3 ÷2) and `clamp` on an f16 result, as
/// [`super::arith::out_mods32`] does for f32.
pub fn out_mods16(r: u16, omod: u32, clamp: bool, dx10: bool, ctl: DenormCtl) -> u16 {
    let mut r = r;
    if omod != 0 && !is_nan16(r) {
        let k = [1.0, 2.0, 4.0, 0.5][omod as usize & 3];
        r = flush16(to_f16(to_f64(r) * k, 0.0), ctl.flush_output);
    }
    if clamp {
        if is_nan16(r) {
            return if dx10 { 0 } else { r };
        }
        let f = to_f64(r);
        if f <= 0.0 {
            return 0;
        }
        if f >= 1.0 {
            return ONE16;
        }
    }
    r
}
