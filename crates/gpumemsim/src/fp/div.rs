//! The division helpers (`V_DIV_SCALE`, `V_DIV_FMAS`, `V_DIV_FIXUP`), `V_LDEXP` and
//! `V_TRIG_PREOP_F64`, on raw bits, per AMD's pseudocode
//! (`../shared/reference/rdna3-isa-pseudocode.txt`).
//!
//! `exponent(x)` in the pseudocode is the biased exponent field (255 for f32 infinities and
//! NaNs, 0 for zeros and denormals).

use super::arith::{fma32, fma64, NAN32, NAN64};
use super::consts::TWO_OVER_PI_BITS;
use super::trans::{NAN_INVALID_F16, NAN_INVALID_F32, NAN_INVALID_F64};
use super::{is_nan_f32, is_nan_f64, quiet_f32, quiet_f64};
use super::{DenormCtl, Layout, F16, F32, F64};

fn exp32(x: u32) -> i32 {
    (x >> 23 & 0xff) as i32
}

fn exp64(x: u64) -> i32 {
    (x >> 52 & 0x7ff) as i32
}

/// `V_DIV_FIXUP_F32` of the quotient `q` (S0), denominator `den` (S1) and numerator `num`
/// (S2), per the pseudocode. Inputs are read with MODE's input flushing and the result
/// written with its output flushing, as other f32 arithmetic.
///
/// The pseudocode's `UNDERFLOW_F32` (a quotient below 2^-150 in magnitude) is not defined
/// anywhere in the ISA text; we return the signed zero, which is the round-to-nearest value of
/// such a quotient. Its `OVERFLOW_F32` branch (`exponent(S1) == 255`) cannot be reached: an
/// infinite or NaN denominator was handled before it.
pub fn div_fixup32(q: u32, den: u32, num: u32, ctl: DenormCtl) -> u32 {
    let (q, den, num) = (q as u64, den as u64, num as u64);
    div_fixup(F32, q, den, num, ctl, NAN_INVALID_F32 as u64, Some(-150)) as u32
}

/// `V_DIV_FIXUP_F64` (as [`div_fixup32`]; the underflow threshold is -1075).
pub fn div_fixup64(q: u64, den: u64, num: u64, ctl: DenormCtl) -> u64 {
    div_fixup(F64, q, den, num, ctl, NAN_INVALID_F64, Some(-1075))
}

/// `V_DIV_FIXUP_F16` (the pseudocode has no underflow or overflow branch for f16).
pub fn div_fixup16(q: u16, den: u16, num: u16, ctl: DenormCtl) -> u16 {
    let (q, den, num) = (q as u64, den as u64, num as u64);
    div_fixup(F16, q, den, num, ctl, NAN_INVALID_F16 as u64, None) as u16
}

/// `V_DIV_FIXUP_*` in the float layout `l`: `invalid` is the layout's NaN of an invalid
/// operation, and a quotient whose exponents differ by less than `underflow` (where the
/// format's pseudocode has that branch) is the signed zero.
fn div_fixup(
    l: Layout,
    q: u64,
    den: u64,
    num: u64,
    ctl: DenormCtl,
    invalid: u64,
    underflow: Option<i64>,
) -> u64 {
    let flush = |x, on| if on { l.flush(x) } else { x };
    let (q, den, num) = (
        flush(q, ctl.flush_input),
        flush(den, ctl.flush_input),
        flush(num, ctl.flush_input),
    );
    let sign = (den ^ num) & l.sign;
    let (d, n) = (den & l.abs_mask(), num & l.abs_mask());
    let inf = l.exp;
    let exponent = |x: u64| ((x & l.exp) >> l.exp.trailing_zeros()) as i64;
    let r = if l.is_nan(num) {
        l.quiet(num)
    } else if l.is_nan(den) {
        l.quiet(den)
    } else if d == 0 && n == 0 || d == inf && n == inf {
        invalid
    } else if d == 0 || n == inf {
        sign | inf
    } else if d == inf || n == 0 || underflow.is_some_and(|t| exponent(num) - exponent(den) < t) {
        // x/inf, 0/y, and (UNDERFLOW) a quotient below the format's smallest denormal.
        sign
    } else {
        sign | (q & l.abs_mask())
    };
    flush(r, ctl.flush_output)
}

/// `V_DIV_FMAS_F32`: `fma(a, b, c)`, times 2^32 in lanes whose VCC bit (`scale`) is set.
/// "Input denormals are not flushed but output flushing is allowed" (ISA notes): the fused
/// result is rounded (and flushed per MODE), then scaled exactly, rounding only on overflow.
pub fn div_fmas32(a: u32, b: u32, c: u32, scale: bool, ctl: DenormCtl) -> u32 {
    let ctl = DenormCtl {
        flush_input: false,
        ..ctl
    };
    let r = fma32(a, b, c, ctl);
    if !scale || is_nan_f32(r) {
        return r;
    }
    ((f32::from_bits(r) as f64 * 2f64.powi(32)) as f32).to_bits()
}

/// `V_DIV_FMAS_F64`: as [`div_fmas32`], scaling by 2^64.
pub fn div_fmas64(a: u64, b: u64, c: u64, scale: bool, ctl: DenormCtl) -> u64 {
    let ctl = DenormCtl {
        flush_input: false,
        ..ctl
    };
    let r = fma64(a, b, c, ctl);
    if !scale || is_nan_f64(r) {
        return r;
    }
    (f64::from_bits(r) * 2f64.powi(64)).to_bits()
}

/// `V_DIV_SCALE_F32` of S0 (the value to scale), S1 (denominator), S2 (numerator): the
/// scaled value and the VCC bit, per the pseudocode, read literally:
/// - where no branch assigns `D0`, the result is S0 unchanged;
/// - `NAN.f32` (a zero numerator or denominator) is the canonical quiet NaN of f32
///   arithmetic ([`NAN32`]);
/// - comparisons are IEEE (`S0 == S1` is false for NaNs, true for +0 and -0);
/// - `1.0 / 64'F(S1.f32) == DENORM.f64` tests whether the f64 reciprocal is an f64 denormal,
///   which no f32 denominator makes: those two branches never fire, as written.
///
/// Denormal inputs are not flushed (the pseudocode tests for them).
pub fn div_scale32(s0: u32, s1: u32, s2: u32) -> (u32, bool) {
    let (x0, x1, x2) = (f32::from_bits(s0), f32::from_bits(s1), f32::from_bits(s2));
    let up = |x: u32| ldexp32(x, 64, DenormCtl::FLUSH_NONE);
    let down = |x: u32| ldexp32(x, -64, DenormCtl::FLUSH_NONE);
    let rcp_denorm = F64.is_denorm((1.0 / x1 as f64).to_bits());
    let quot_denorm = F32.is_denorm((x2 / x1).to_bits() as u64);
    if x2 == 0.0 || x1 == 0.0 {
        (NAN32, false)
    } else if exp32(s2) - exp32(s1) >= 96 {
        (if x0 == x1 { up(s0) } else { s0 }, true)
    } else if F32.is_denorm(s1 as u64) {
        (up(s0), false)
    } else if rcp_denorm && quot_denorm {
        (if x0 == x1 { up(s0) } else { s0 }, true)
    } else if rcp_denorm {
        (down(s0), false)
    } else if quot_denorm {
        (if x0 == x2 { up(s0) } else { s0 }, true)
    } else if exp32(s2) <= 23 {
        (up(s0), false)
    } else {
        (s0, false)
    }
}

/// `V_DIV_SCALE_F64`: as [`div_scale32`] with the f64 thresholds (768, 53) and scale 2^±128.
/// Here the reciprocal test can fire (|S1| > 2^1022).
pub fn div_scale64(s0: u64, s1: u64, s2: u64) -> (u64, bool) {
    let (x0, x1, x2) = (f64::from_bits(s0), f64::from_bits(s1), f64::from_bits(s2));
    let up = |x: u64| ldexp64(x, 128, DenormCtl::FLUSH_NONE);
    let down = |x: u64| ldexp64(x, -128, DenormCtl::FLUSH_NONE);
    let rcp_denorm = F64.is_denorm((1.0 / x1).to_bits());
    let quot_denorm = F64.is_denorm((x2 / x1).to_bits());
    if x2 == 0.0 || x1 == 0.0 {
        (NAN64, false)
    } else if exp64(s2) - exp64(s1) >= 768 {
        (if x0 == x1 { up(s0) } else { s0 }, true)
    } else if F64.is_denorm(s1) {
        (up(s0), false)
    } else if rcp_denorm && quot_denorm {
        (if x0 == x1 { up(s0) } else { s0 }, true)
    } else if rcp_denorm {
        (down(s0), false)
    } else if quot_denorm {
        (if x0 == x2 { up(s0) } else { s0 }, true)
    } else if exp64(s2) <= 53 {
        (up(s0), false)
    } else {
        (s0, false)
    }
}

/// `V_LDEXP_F32`: `a × 2^e`, rounded once (nearest even), NaN quieted, ±inf and ±0 kept.
/// Denormals per `ctl`.
pub fn ldexp32(a: u32, e: i32, ctl: DenormCtl) -> u32 {
    let a = super::arith::flush32(a, ctl.flush_input);
    if is_nan_f32(a) {
        return quiet_f32(a);
    }
    // Past ±300 every finite nonzero f32 over- or underflows either way; the product is exact
    // in f64 and the cast rounds it once.
    let r = f32::from_bits(a) as f64 * 2f64.powi(e.clamp(-300, 300));
    super::arith::flush32((r as f32).to_bits(), ctl.flush_output)
}

/// `V_LDEXP_F64`: `a × 2^e`, rounded once (nearest even).
pub fn ldexp64(a: u64, e: i32, ctl: DenormCtl) -> u64 {
    let a = super::arith::flush64(a, ctl.flush_input);
    let x = f64::from_bits(a);
    if x.is_nan() {
        return quiet_f64(a);
    }
    if x == 0.0 || x.is_infinite() {
        return a;
    }
    // x = m × 2^k with m in [1, 2): the result is m × 2^(k + e).
    let field = exp64(a);
    let (m, k) = if field == 0 {
        let y = x * 2f64.powi(64);
        (y, -64)
    } else {
        (x, 0)
    };
    let fm = exp64(m.to_bits());
    let m1 = f64::from_bits(m.to_bits() & !(0x7ffu64 << 52) | 1023 << 52);
    let t = (fm - 1023 + k) as i64 + e as i64;
    let r = if t > 1023 {
        f64::INFINITY.copysign(x)
    } else if t < -1100 {
        0.0f64.copysign(x)
    } else if t >= -1022 {
        m1 * f64::from_bits(((t + 1023) as u64) << 52)
    } else {
        // A denormal result: scale into range exactly first, then round once.
        (m1 * f64::from_bits(((t + 600 + 1023) as u64) << 52)) * 2f64.powi(-600)
    };
    super::arith::flush64(r.to_bits(), ctl.flush_output)
}

/// `V_TRIG_PREOP_F64`: the 53-bit segment of 2/π selected by `sel` (`S1[4:0]`) and the exponent
/// of `a` (S0), scaled to its place value, per the pseudocode. The scaling rounds toward
/// zero ("Rounding is toward zero", ISA notes), which only matters when it underflows.
pub fn trig_preop(a: u64, sel: u32) -> u64 {
    let e = exp64(a);
    let mut shift = (sel & 31) as i32 * 53;
    if e > 1077 {
        shift += e - 1077;
    }
    let seg = two_over_pi_segment(shift as u32);
    let mut scale = -53 - shift;
    if e >= 1968 {
        scale += 128;
    }
    ldexp_toward_zero(seg, scale)
}

/// Bits `shift + 1 ..= shift + 53` of the fraction of 2/π (1-based from its MSB), as an
/// integer; bits past the table's 1201 are zero.
fn two_over_pi_segment(shift: u32) -> u64 {
    let bit = |i: u32| -> u64 {
        // i: 0-based index from the MSB.
        if i >= 1201 {
            return 0;
        }
        TWO_OVER_PI_BITS[(i / 64) as usize] >> (63 - i % 64) & 1
    };
    (0..53).fold(0u64, |acc, j| acc << 1 | bit(shift + j))
}

/// `n × 2^scale` (n < 2^53) as an f64, rounding toward zero when it underflows.
fn ldexp_toward_zero(n: u64, scale: i32) -> u64 {
    if n == 0 {
        return 0;
    }
    let top = 63 - n.leading_zeros() as i32; // n in [2^top, 2^(top+1))
    let e = top + scale; // the result's exponent
    if e >= -1022 {
        // Normal: exact (n has at most 53 bits).
        let m = n << (52 - top);
        return ((e + 1023) as u64) << 52 | (m & ((1 << 52) - 1));
    }
    // Denormal: units of 2^-1074, truncated.
    let shift = -1074 - scale;
    if shift >= 64 {
        0
    } else if shift <= 0 {
        n << (-shift)
    } else {
        n >> shift
    }
}
