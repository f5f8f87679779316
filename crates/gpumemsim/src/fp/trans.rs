//! The vector ALU's transcendental unit: `V_EXP`, `V_LOG`, `V_SIN`, `V_COS`, `V_RCP`,
//! `V_RSQ`, `V_SQRT` in f32 and f16 (and `V_RCP`/`V_RSQ`/`V_SQRT_F64`), on raw bits.
//!
//! # What the result is, and why
//! The hardware's results are approximations whose bits no public document gives (the ISA
//! notes say "1ULP accuracy" for f32, "0.51ULP" for f16, "(2**29)ULP" for the f64 seeds). We
//! return the **correctly rounded** value of the exact function (nearest, ties to even): it is
//! within every stated bound, it is one well-defined answer that a test can check, and a
//! program that is correct on the hardware for any result within the bound is correct here.
//! Each result is computed in double-double arithmetic ([`super::dd`], about 106 bits) and
//! rounded once ([`super::round`]):
//! - `rcp` and `sqrt` are provably correctly rounded (their exact results are never within
//!   2^-49 relative of an f32 midpoint, far more than the f64 evaluation's error);
//! - `rsq` is provably correctly rounded in f32 and f16 (the exact result stays 2^-73 relative
//!   away from any f32 midpoint, and the double-double error is below 2^-100); for f64 it is
//!   correctly rounded unless the exact value lies within about 2^-100 of a midpoint;
//! - `exp`, `log`, `sin`, `cos` are correctly rounded unless the exact value lies within about
//!   2^-95 relative of a midpoint — for the 2^32 f32 inputs the expected number of such inputs
//!   is far below one, and the f16 functions are checked exhaustively against an independent
//!   f64 reference in the tests.
//!
//! # Special cases (RDNA3.5 ISA reference, "Functional examples" of each opcode, which gfx11
//! shares)
//! - `exp(-inf) = +0`, `exp(±0) = 1`, `exp(+inf) = +inf`.
//! - `log(-inf) = log(-1) = NaN`, `log(±0) = -inf`, `log(1) = +0`, `log(+inf) = +inf`.
//! - `sin(±inf) = cos(±inf) = NaN`; `sin(-0) = -0`; `sin(0.25) = 1`, `cos(0.25) = +0`; the
//!   input is in revolutions (`sin(S0 × 2π)`), "full range input is supported": the most
//!   negative finite f32 gives `sin = +0`, `cos = 1`. Every exact zero of a nonzero input is
//!   +0 (the examples' -MaxFloat and 0.25 cases; our reading for the other multiples of ½).
//! - `rcp(±inf) = ±0`, `rcp(±0) = ±inf`; `rsq(-inf) = NaN`, `rsq(±0) = ±inf`,
//!   `rsq(+inf) = +0`; `sqrt(-inf) = NaN`, `sqrt(-0) = -0`, `sqrt(+inf) = +inf`.
//! - A NaN the unit makes is the *negative* quiet NaN: `0xffc00000` (f32) and `0xfe00` (f16)
//!   in the examples; `0xfff8000000000000` for f64 by analogy (the f64 pages give no example;
//!   `V_DIV_FIXUP_F64` makes that NaN for 0/0). A NaN input comes back quieted.
//!
//! # Denormals
//! The f32 `exp`, `log`, `rcp`, `rsq` and `sqrt` notes say "denormals are flushed": their
//! denormal inputs read as ±0 and denormal results are written as ±0 whatever MODE says (LLVM
//! agrees: it scales denormal inputs of `v_log_f32`/`v_sqrt_f32` around the instruction). The
//! f32 `sin`/`cos`, every f16 function and the f64 ones "support denormals": MODE's control
//! for the type applies (`ctl`).

use super::consts::{LN2, LOG2_E, TWO_PI};
use super::dd::Dd;
use super::round::{to_f16, to_f32};
use super::DenormCtl;
use std::sync::OnceLock;

/// The NaN the transcendental unit makes from non-NaN inputs (f32).
pub const NAN_INVALID_F32: u32 = 0xffc0_0000;
/// The NaN the transcendental unit makes from non-NaN inputs (f16).
pub const NAN_INVALID_F16: u16 = 0xfe00;
/// The NaN the transcendental unit makes from non-NaN inputs (f64).
pub const NAN_INVALID_F64: u64 = 0xfff8_0000_0000_0000;

const EXP_TERMS: usize = 26;
const LOG_TERMS: usize = 24;
const TRIG_TERMS: usize = 17;

/// Taylor coefficients: 1/k! (exp), 1/(2k+1) (atanh), ±1/(2k+1)! (sin), ±1/(2k)! (cos).
struct Coefficients {
    exp: [Dd; EXP_TERMS],
    atanh: [Dd; LOG_TERMS],
    sin: [Dd; TRIG_TERMS],
    cos: [Dd; TRIG_TERMS],
}

fn coefficients() -> &'static Coefficients {
    static C: OnceLock<Coefficients> = OnceLock::new();
    C.get_or_init(|| {
        let mut fact = [Dd::new(1.0); 2 * TRIG_TERMS + 2];
        for k in 1..fact.len() {
            fact[k] = fact[k - 1] / Dd::new(k as f64);
        }
        let sign = |k: usize| if k.is_multiple_of(2) { 1.0 } else { -1.0 };
        Coefficients {
            exp: std::array::from_fn(|k| fact[k]),
            atanh: std::array::from_fn(|k| Dd::new(1.0) / Dd::new((2 * k + 1) as f64)),
            sin: std::array::from_fn(|k| fact[2 * k + 1].mul_f64(sign(k))),
            cos: std::array::from_fn(|k| fact[2 * k].mul_f64(sign(k))),
        }
    })
}

/// Σ c[k] y^k by Horner's rule.
fn horner(c: &[Dd], y: Dd) -> Dd {
    let mut r = c[c.len() - 1];
    for &ck in c.iter().rev().skip(1) {
        r = r * y + ck;
    }
    r
}

/// 2^x for a finite f64 `x` with |x| < 1000.
pub fn exp2_dd(x: f64) -> Dd {
    let n = x.round_ties_even();
    let f = x - n; // exact, |f| <= 1/2
    if f == 0.0 {
        return Dd::new(1.0).scale(n as i32);
    }
    let t = LN2.mul_f64(f); // |t| <= 0.35
    horner(&coefficients().exp, t).scale(n as i32)
}

/// log2(x) for a finite f64 `x > 0`.
pub fn log2_dd(x: f64) -> Dd {
    // x = m × 2^e with m in [√½, √2).
    let (mut m, mut e) = normalise(x);
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    if m == 1.0 {
        return Dd::new(e as f64);
    }
    // ln m = 2 atanh(u), u = (m - 1)/(m + 1), |u| <= 0.172.
    let u = Dd::new(m - 1.0) / Dd::new(m + 1.0);
    let s = horner(&coefficients().atanh, u * u);
    let ln_m = (u * s).mul_f64(2.0);
    Dd::new(e as f64) + ln_m * LOG2_E
}

/// (m, e) with x = m × 2^e exactly and m in [1, 2), for a finite x > 0.
fn normalise(x: f64) -> (f64, i32) {
    let mut bits = x.to_bits();
    let mut e = (bits >> 52) as i32 - 1023;
    if bits >> 52 == 0 {
        bits = (x * 2f64.powi(64)).to_bits();
        e = (bits >> 52) as i32 - 1023 - 64;
    }
    (f64::from_bits(bits & !(0x7ff << 52) | 1023 << 52), e)
}

/// sin(2πx) (`cos` false) or cos(2πx) of a finite f64 in revolutions; `None` when the exact
/// result is zero.
pub fn sincos_rev_dd(x: f64, cos: bool) -> Option<Dd> {
    let r = x - x.round_ties_even(); // exact, in [-1/2, 1/2]
    let q = (4.0 * r).round_ties_even();
    let s = r - 0.25 * q; // exact, in [-1/8, 1/8]
                          // sin(2πr) = sin(θ + qπ/2) and cos(2πr) = cos(θ + qπ/2), θ = 2πs.
    let quadrant = (q as i32 + if cos { 1 } else { 0 }).rem_euclid(4);
    let use_cos = quadrant % 2 == 1;
    let negate = quadrant >= 2;
    let v = if s == 0.0 {
        if use_cos {
            Dd::new(1.0)
        } else {
            return None;
        }
    } else {
        let theta = TWO_PI.mul_f64(s);
        let t2 = theta * theta;
        let c = coefficients();
        if use_cos {
            horner(&c.cos, t2)
        } else {
            theta * horner(&c.sin, t2)
        }
    };
    Some(if negate { -v } else { v })
}

fn flush32(x: u32, on: bool) -> u32 {
    if on && x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

fn flush16(x: u16, on: bool) -> u16 {
    if on && x & 0x7c00 == 0 {
        x & 0x8000
    } else {
        x
    }
}

fn flush64(x: u64, on: bool) -> u64 {
    if on && x & 0x7ff0_0000_0000_0000 == 0 {
        x & 1 << 63
    } else {
        x
    }
}

fn is_nan32(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

fn is_nan16(x: u16) -> bool {
    x & 0x7fff > 0x7c00
}

/// The f32 result of an exact value held as a double-double, denormals flushed when `flush`.
fn out32(v: Dd, flush: bool) -> u32 {
    flush32(to_f32(v.hi, v.lo), flush)
}

fn out16(v: Dd, flush: bool) -> u16 {
    flush16(to_f16(v.hi, v.lo), flush)
}

fn f16_value(h: u16) -> f64 {
    f32::from_bits(super::valu::f16_to_f32(h)) as f64
}

/// `V_EXP_F32`: 2^x. Denormals flushed in and out.
pub fn exp2_f32(a: u32) -> u32 {
    let a = flush32(a, true);
    if is_nan32(a) {
        return a | 0x0040_0000;
    }
    let x = f32::from_bits(a) as f64;
    if x >= 128.0 {
        return 0x7f80_0000;
    }
    if x < -127.0 {
        // 2^x < 2^-127: a denormal at most, flushed (and -inf gives +0).
        return 0;
    }
    out32(exp2_dd(x), true)
}

/// `V_LOG_F32`: log2(x). Denormals flushed in and out.
pub fn log2_f32(a: u32) -> u32 {
    let a = flush32(a, true);
    if is_nan32(a) {
        return a | 0x0040_0000;
    }
    if a & 0x7fff_ffff == 0 {
        return 0xff80_0000;
    }
    if a >> 31 == 1 {
        return NAN_INVALID_F32;
    }
    if a == 0x7f80_0000 {
        return a;
    }
    out32(log2_dd(f32::from_bits(a) as f64), true)
}

/// `V_SIN_F32` (`cos` false) / `V_COS_F32`: the input in revolutions. Denormals per `ctl`.
pub fn sincos_f32(a: u32, cos: bool, ctl: DenormCtl) -> u32 {
    let a = flush32(a, ctl.flush_input);
    if is_nan32(a) {
        return a | 0x0040_0000;
    }
    if a & 0x7fff_ffff == 0x7f80_0000 {
        return NAN_INVALID_F32;
    }
    if a & 0x7fff_ffff == 0 && !cos {
        return a;
    }
    match sincos_rev_dd(f32::from_bits(a) as f64, cos) {
        Some(v) => out32(v, ctl.flush_output),
        None => 0,
    }
}

/// `V_RCP_F32` (and `V_RCP_IFLAG_F32`): 1/x. Denormals flushed in and out.
pub fn rcp_f32(a: u32) -> u32 {
    let a = flush32(a, true);
    if is_nan32(a) {
        return a | 0x0040_0000;
    }
    // 1/x in f64 is correctly rounded and never lands on an f32 midpoint: one rounding.
    let r = 1.0 / f32::from_bits(a) as f64;
    flush32(to_f32(r, 0.0), true)
}

/// `V_SQRT_F32`: √x. Denormals flushed in and out.
pub fn sqrt_f32(a: u32) -> u32 {
    let a = flush32(a, true);
    if is_nan32(a) {
        return a | 0x0040_0000;
    }
    if a >> 31 == 1 && a != 0x8000_0000 {
        return NAN_INVALID_F32;
    }
    // √x in f64 is correctly rounded and never lands on an f32 midpoint: one rounding.
    to_f32((f32::from_bits(a) as f64).sqrt(), 0.0)
}

/// `V_RSQ_F32`: 1/√x. Denormals flushed in and out.
pub fn rsq_f32(a: u32) -> u32 {
    let a = flush32(a, true);
    if is_nan32(a) {
        return a | 0x0040_0000;
    }
    match a {
        0 => 0x7f80_0000,
        0x8000_0000 => 0xff80_0000,
        0x7f80_0000 => 0,
        _ if a >> 31 == 1 => NAN_INVALID_F32,
        _ => out32(rsq_dd(f32::from_bits(a) as f64), true),
    }
}

/// 1/√x in double-double for a finite x > 0.
pub fn rsq_dd(x: f64) -> Dd {
    Dd::new(1.0) / Dd::sqrt(x)
}

/// `V_EXP_F16`. Denormals per `ctl` (MODE's f64/f16 control).
pub fn exp2_f16(a: u16, ctl: DenormCtl) -> u16 {
    let a = flush16(a, ctl.flush_input);
    if is_nan16(a) {
        return a | 0x200;
    }
    let x = f16_value(a);
    if x >= 16.0 {
        return 0x7c00;
    }
    if x <= -25.0 {
        // At most half the smallest denormal (2^-25 ties to 0); -inf gives +0.
        return 0;
    }
    out16(exp2_dd(x), ctl.flush_output)
}

/// `V_LOG_F16`.
pub fn log2_f16(a: u16, ctl: DenormCtl) -> u16 {
    let a = flush16(a, ctl.flush_input);
    if is_nan16(a) {
        return a | 0x200;
    }
    if a & 0x7fff == 0 {
        return 0xfc00;
    }
    if a >> 15 == 1 {
        return NAN_INVALID_F16;
    }
    if a == 0x7c00 {
        return a;
    }
    out16(log2_dd(f16_value(a)), ctl.flush_output)
}

/// `V_SIN_F16` (`cos` false) / `V_COS_F16`, in revolutions.
pub fn sincos_f16(a: u16, cos: bool, ctl: DenormCtl) -> u16 {
    let a = flush16(a, ctl.flush_input);
    if is_nan16(a) {
        return a | 0x200;
    }
    if a & 0x7fff == 0x7c00 {
        return NAN_INVALID_F16;
    }
    if a & 0x7fff == 0 && !cos {
        return a;
    }
    match sincos_rev_dd(f16_value(a), cos) {
        Some(v) => out16(v, ctl.flush_output),
        None => 0,
    }
}

/// `V_RCP_F16`.
pub fn rcp_f16(a: u16, ctl: DenormCtl) -> u16 {
    let a = flush16(a, ctl.flush_input);
    if is_nan16(a) {
        return a | 0x200;
    }
    flush16(to_f16(1.0 / f16_value(a), 0.0), ctl.flush_output)
}

/// `V_SQRT_F16`.
pub fn sqrt_f16(a: u16, ctl: DenormCtl) -> u16 {
    let a = flush16(a, ctl.flush_input);
    if is_nan16(a) {
        return a | 0x200;
    }
    if a >> 15 == 1 && a != 0x8000 {
        return NAN_INVALID_F16;
    }
    flush16(to_f16(f16_value(a).sqrt(), 0.0), ctl.flush_output)
}

/// `V_RSQ_F16`.
pub fn rsq_f16(a: u16, ctl: DenormCtl) -> u16 {
    let a = flush16(a, ctl.flush_input);
    if is_nan16(a) {
        return a | 0x200;
    }
    match a {
        0 => 0x7c00,
        0x8000 => 0xfc00,
        0x7c00 => 0,
        _ if a >> 15 == 1 => NAN_INVALID_F16,
        _ => out16(rsq_dd(f16_value(a)), ctl.flush_output),
    }
}

/// `V_RCP_F64`: 1/x, correctly rounded. Denormals per `ctl`.
pub fn rcp_f64(a: u64, ctl: DenormCtl) -> u64 {
    let a = flush64(a, ctl.flush_input);
    let x = f64::from_bits(a);
    if x.is_nan() {
        return a | 1 << 51;
    }
    flush64((1.0 / x).to_bits(), ctl.flush_output)
}

/// `V_SQRT_F64`: √x, correctly rounded.
pub fn sqrt_f64(a: u64, ctl: DenormCtl) -> u64 {
    let a = flush64(a, ctl.flush_input);
    let x = f64::from_bits(a);
    if x.is_nan() {
        return a | 1 << 51;
    }
    if x < 0.0 {
        return NAN_INVALID_F64;
    }
    flush64(x.sqrt().to_bits(), ctl.flush_output)
}

/// `V_RSQ_F64`: 1/√x from a double-double quotient, rounded once.
pub fn rsq_f64(a: u64, ctl: DenormCtl) -> u64 {
    let a = flush64(a, ctl.flush_input);
    let x = f64::from_bits(a);
    if x.is_nan() {
        return a | 1 << 51;
    }
    let r = if x == 0.0 {
        f64::INFINITY.copysign(x)
    } else if x < 0.0 {
        return NAN_INVALID_F64;
    } else if x.is_infinite() {
        0.0
    } else {
        // 1/√x of a positive f64 stays within the normal range: hi is the rounded result.
        rsq_dd(x).hi
    };
    flush64(r.to_bits(), ctl.flush_output)
}
