//! The division helpers (`V_DIV_SCALE`, `V_DIV_FMAS`, `V_DIV_FIXUP`), `V_LDEXP` and
//! `V_TRIG_PREOP_F64`, on raw bits, per AMD's pseudocode
//! (`../shared/reference/rdna3-isa-pseudocode.txt`) — except where the f32/f64 division
//! helpers follow a hardware-checked description instead, below.
//!
//! `exponent(x)` in the pseudocode is the biased exponent field (255 for f32 infinities and
//! NaNs, 0 for zeros and denormals).
//!
//! # The division helpers: where we depart from the pseudocode, and why
//! Compilers divide with `v_div_scale` (numerator and denominator pre-scaled, VCC = "the
//! quotient needs a post-scale"), a reciprocal and Newton steps, `v_div_fmas` (the last step,
//! post-scaled where VCC is set) and `v_div_fixup` (signs and special cases). Read literally,
//! the ISA guide's pseudocode cannot make that sequence give the correctly rounded quotient:
//! `V_DIV_SCALE` pre-scales by 2^±64 (f32) / 2^±128 (f64) while `V_DIV_FMAS` post-scales by a
//! fixed 2^32 / 2^64 in one direction, so the two never cancel (clang-19's `a / b` came out
//! wrong by 2^32 near overflow and by 2^96 deep in underflow), its reciprocal-denormal test can
//! never fire for f32, and `V_DIV_FIXUP` passes an infinite or NaN provisional quotient through.
//!
//! AMD's own emulator rocjitsu (repository ROCm/rocm-systems, pull request #11613, file
//! `emulation/rocjitsu/lib/rocjitsu/src/rocjitsu/isa/arch/amdgpu/shared/division.h`) states
//! rules checked on physical gfx1100/gfx1201 hardware. The f32/f64 helpers here follow those
//! rules (our own code; the facts are theirs), per format:
//!
//! | | f32 | f64 |
//! |---|---|---|
//! | pre/post scale | 2^64 | 2^128 |
//! | exponent-difference threshold `T` | 96 | 768 |
//! | "huge denominator": encoded exponent ≥ 2·bias − 1 (\|S1\| ≥ 2^(bias−1)) | 253 (2^126) | 2045 (2^1022) |
//! | "tiny numerator": encoded exponent ≤ precision | 24 | 53 |
//!
//! With them the whole compiler sequence gives IEEE round-to-nearest division bit for bit
//! (`tests/fp_div.rs` checks it on random and edge-class bit patterns). The f16 fixup keeps the
//! pseudocode (its compiler sequence divides in f32 and uses no scale or fmas).

use super::arith::{fma32, fma64};
use super::consts::TWO_OVER_PI_BITS;
use super::trans::{NAN_INVALID_F16, NAN_INVALID_F32, NAN_INVALID_F64};
use super::{is_nan_f32, quiet_f32, quiet_f64};
use super::{DenormCtl, Layout, F16, F32, F64};

fn exp64(x: u64) -> i32 {
    (x >> 52 & 0x7ff) as i32
}

/// The division-scaling constants of one format (see the module table).
#[derive(Clone, Copy)]
struct DivRules {
    l: Layout,
    /// log2 of the pre- and post-scale factor.
    scale: i32,
    /// The exponent difference (numerator minus denominator, encoded fields) that flags.
    threshold: i32,
    /// Encoded numerator exponents at or below this are pre-scaled up (the format's precision).
    tiny: i32,
    /// The NaN `V_DIV_SCALE` returns for a zero operand.
    invalid: u64,
}

const DIV32: DivRules = DivRules {
    l: F32,
    scale: 64,
    threshold: 96,
    tiny: 24,
    invalid: NAN_INVALID_F32 as u64,
};

const DIV64: DivRules = DivRules {
    l: F64,
    scale: 128,
    threshold: 768,
    tiny: 53,
    invalid: NAN_INVALID_F64,
};

/// Stored mantissa bits of `l`.
fn mant_bits(l: Layout) -> i32 {
    l.mant.count_ones() as i32
}

/// The exponent bias of `l` (127, 1023, 15).
fn bias(l: Layout) -> i32 {
    ((l.exp >> l.mant.count_ones()) >> 1) as i32
}

/// The encoded (biased) exponent field of `x`.
fn field(l: Layout, x: u64) -> i32 {
    ((x & l.exp) >> l.mant.count_ones()) as i32
}

/// A finite `x` as (negative, integer significand, exponent of its last bit): `x = ±sig × 2^e`.
fn decode(l: Layout, x: u64) -> (bool, u64, i32) {
    let (neg, m, f) = (x & l.sign != 0, x & l.mant, field(l, x));
    let lsb = 1 - bias(l) - mant_bits(l);
    if f == 0 {
        (neg, m, lsb)
    } else {
        (neg, m | (l.mant + 1), f - 1 + lsb)
    }
}

/// `±sig × 2^e` rounded once to `l` (nearest, ties to even), with denormal results and
/// overflow to infinity; a zero `sig` is the signed zero. Bits of `sig` below the rounding
/// point only matter through whether they are zero, so a caller may fold lost low-order bits
/// into bit 0 (a sticky bit) as long as bit 0 is never the rounding or guard position.
fn round_exact(l: Layout, neg: bool, sig: u128, e: i32) -> u64 {
    let sign = if neg { l.sign } else { 0 };
    if sig == 0 {
        return sign;
    }
    let mb = mant_bits(l);
    let min_lsb = 1 - bias(l) - mb; // the unit of the denormals
    let top = 127 - sig.leading_zeros() as i32;
    let mut lsb = (top + e - mb).max(min_lsb);
    let shift = lsb - e;
    let mut kept = if shift <= 0 {
        sig << -shift // exact: at most mb + 1 bits
    } else if shift > 128 {
        0 // below half the last place: rounds to zero
    } else {
        let kept = if shift == 128 { 0 } else { sig >> shift };
        let guard = sig >> (shift - 1) & 1 == 1;
        let sticky = sig & ((1u128 << (shift - 1)) - 1) != 0;
        kept + (guard && (sticky || kept & 1 == 1)) as u128
    };
    if kept >> (mb + 1) != 0 {
        // Rounded up to the next binade.
        kept >>= 1;
        lsb += 1;
    }
    if lsb > bias(l) - mb {
        return sign | l.exp; // beyond the largest binade
    }
    if kept >> mb == 0 {
        return sign | kept as u64; // a denormal (its exponent field is 0)
    }
    let f = (lsb - min_lsb + 1) as u64;
    sign | f << mb | (kept as u64 & l.mant)
}

/// `x × 2^k` for a finite `x`, rounded once.
fn scale_exact(l: Layout, x: u64, k: i32) -> u64 {
    if k == 0 {
        return x;
    }
    let (neg, sig, e) = decode(l, x);
    round_exact(l, neg, sig as u128, e + k)
}

/// `x` shifted right by `d` bits, the bits shifted out folded into bit 0.
fn shift_sticky(x: u128, d: i32) -> u128 {
    if d <= 0 {
        x
    } else if d >= 128 {
        (x != 0) as u128
    } else {
        x >> d | (x & ((1u128 << d) - 1) != 0) as u128
    }
}

/// `(a × b + c) × 2^k` for finite `a`, `b`, `c` (denormals as they are), rounded once.
/// An exact zero sum is +0 unless both terms are -0 (round to nearest).
fn fma_scaled(l: Layout, a: u64, b: u64, c: u64, k: i32) -> u64 {
    let ((na, sa, ea), (nb, sb, eb), (nc, sc, ec)) = (decode(l, a), decode(l, b), decode(l, c));
    let (np, sp, ep) = (na ^ nb, sa as u128 * sb as u128, ea + eb);
    let sc = sc as u128;
    if sp == 0 && sc == 0 {
        return if np && nc { l.sign } else { 0 };
    }
    if sp == 0 {
        return round_exact(l, nc, sc, ec + k);
    }
    if sc == 0 {
        return round_exact(l, np, sp, ep + k);
    }
    // Both terms with their top bit at 126 (products have at most 106 bits), the smaller
    // shifted right to the larger's scale with a sticky bit. The sum or difference is exact
    // when the tops are at most 1 apart; otherwise the result keeps its top at bit 125 or
    // above, far over the sticky bit at bit 0.
    let top = |s: u128, e: i32| 127 - s.leading_zeros() as i32 + e;
    let t = top(sp, ep).max(top(sc, ec));
    let align = |s: u128, e: i32| {
        let tz = 127 - s.leading_zeros() as i32;
        shift_sticky(s << (126 - tz), t - (tz + e))
    };
    let (xp, xc) = (align(sp, ep), align(sc, ec));
    let unit = t - 126 + k;
    if np == nc {
        round_exact(l, np, xp + xc, unit)
    } else if xp > xc {
        round_exact(l, np, xp - xc, unit)
    } else if xc > xp {
        round_exact(l, nc, xc - xp, unit)
    } else {
        0
    }
}

/// `V_DIV_FIXUP_F32` of the quotient `q` (S0), denominator `den` (S1) and numerator `num`
/// (S2), per the pseudocode except for one rule. Inputs are read with MODE's input flushing
/// and the result written with its output flushing, as other f32 arithmetic.
///
/// The pseudocode's `UNDERFLOW_F32` (a quotient below 2^-150 in magnitude) is not defined
/// anywhere in the ISA text; we return the signed zero, which is the round-to-nearest value of
/// such a quotient. Its `OVERFLOW_F32` branch (`exponent(S1) == 255`) cannot be reached: an
/// infinite or NaN denominator was handled before it.
///
/// Departure from the pseudocode: an infinite or NaN provisional quotient `q` (with finite,
/// nonzero operands) gives ±inf with the quotient's sign (sign(S1) ^ sign(S2)), where the
/// pseudocode would pass `q` through. This follows rocjitsu's hardware-checked description
/// (ROCm/rocm-systems PR #11613, `division.h`; see the module documentation): a quotient that
/// overflowed inside the Newton steps or `V_DIV_FMAS` (which can produce inf − inf) is the
/// correctly rounded overflow.
pub fn div_fixup32(q: u32, den: u32, num: u32, ctl: DenormCtl) -> u32 {
    let (q, den, num) = (q as u64, den as u64, num as u64);
    div_fixup(
        F32,
        q,
        den,
        num,
        ctl,
        NAN_INVALID_F32 as u64,
        Some(-150),
        true,
    ) as u32
}

/// `V_DIV_FIXUP_F64` (as [`div_fixup32`], including the inf/NaN-quotient rule; the underflow
/// threshold is -1075).
pub fn div_fixup64(q: u64, den: u64, num: u64, ctl: DenormCtl) -> u64 {
    div_fixup(F64, q, den, num, ctl, NAN_INVALID_F64, Some(-1075), true)
}

/// `V_DIV_FIXUP_F16`, per the pseudocode (which has no underflow or overflow branch for f16;
/// rocjitsu's description covers f32 and f64 only, so an inf/NaN `q` passes through here).
pub fn div_fixup16(q: u16, den: u16, num: u16, ctl: DenormCtl) -> u16 {
    let (q, den, num) = (q as u64, den as u64, num as u64);
    div_fixup(F16, q, den, num, ctl, NAN_INVALID_F16 as u64, None, false) as u16
}

/// `V_DIV_FIXUP_*` in the float layout `l`: `invalid` is the layout's NaN of an invalid
/// operation, a quotient whose exponents differ by less than `underflow` (where the format's
/// pseudocode has that branch) is the signed zero, and with `inf_quotient` an infinite or NaN
/// `q` is the signed infinity.
#[allow(clippy::too_many_arguments)]
fn div_fixup(
    l: Layout,
    q: u64,
    den: u64,
    num: u64,
    ctl: DenormCtl,
    invalid: u64,
    underflow: Option<i64>,
    inf_quotient: bool,
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
    } else if inf_quotient && q & l.exp == l.exp {
        // An infinite or NaN provisional quotient of finite operands: it overflowed.
        sign | inf
    } else {
        sign | (q & l.abs_mask())
    };
    flush(r, ctl.flush_output)
}

/// `V_DIV_FMAS_F32`: `fma(a, b, c)`, post-scaled in lanes whose VCC bit (`scale`) is set.
///
/// Departure from the pseudocode (which multiplies by a fixed 2^32): the post-scale is 2^+64
/// when the encoded exponent of S2 (`c`, the provisional quotient in the compiler's sequence)
/// is above the bias (|c| ≥ 2), 2^-64 otherwise (zeros and denormals included), and it is
/// fused with the multiply-add: `(a × b + c) × 2^±64` is rounded once, so a quotient that
/// lands among the denormals is not rounded twice. This follows rocjitsu's hardware-checked
/// description (ROCm/rocm-systems PR #11613, `division.h`; see the module documentation): only
/// a ±64 post-scale undoes [`div_scale32`]'s ±64 pre-scale; the pseudocode's 2^32 does not.
///
/// "Input denormals are not flushed but output flushing is allowed" (ISA notes): denormal
/// inputs are used as they are and a denormal result is flushed per MODE. NaN and infinite
/// inputs give what `V_FMA_F32` gives (scaling an infinity or NaN changes nothing).
pub fn div_fmas32(a: u32, b: u32, c: u32, scale: bool, ctl: DenormCtl) -> u32 {
    div_fmas(
        DIV32,
        a as u64,
        b as u64,
        c as u64,
        scale,
        ctl,
        |a, b, c, ctl| fma32(a as u32, b as u32, c as u32, ctl) as u64,
    ) as u32
}

/// `V_DIV_FMAS_F64`: as [`div_fmas32`], post-scaling by 2^±128 (2^+128 when the encoded
/// exponent of S2 is above 1023), the pseudocode's fixed 2^64 replaced for the same reason.
pub fn div_fmas64(a: u64, b: u64, c: u64, scale: bool, ctl: DenormCtl) -> u64 {
    div_fmas(DIV64, a, b, c, scale, ctl, fma64)
}

/// `V_DIV_FMAS_*` in the format of `r`; `fma` is the format's plain fused multiply-add, used
/// when an input is infinite or NaN.
fn div_fmas(
    r: DivRules,
    a: u64,
    b: u64,
    c: u64,
    scale: bool,
    ctl: DenormCtl,
    fma: impl Fn(u64, u64, u64, DenormCtl) -> u64,
) -> u64 {
    let l = r.l;
    let ctl = DenormCtl {
        flush_input: false,
        ..ctl
    };
    if [a, b, c].iter().any(|&x| x & l.exp == l.exp) {
        return fma(a, b, c, ctl);
    }
    let k = match (scale, field(l, c) > bias(l)) {
        (false, _) => 0,
        (true, true) => r.scale,
        (true, false) => -r.scale,
    };
    let q = fma_scaled(l, a, b, c, k);
    if ctl.flush_output {
        l.flush(q)
    } else {
        q
    }
}

/// `V_DIV_SCALE_F32` of S0 (the value to scale), S1 (denominator), S2 (numerator): the
/// scaled value and the VCC bit.
///
/// Departure from the pseudocode: the rules are rocjitsu's hardware-checked description
/// (ROCm/rocm-systems PR #11613, `division.h`; see the module documentation), because the
/// pseudocode's pre-scale and [`div_fmas32`]'s fixed post-scale do not cancel and its
/// reciprocal-denormal test (`1.0 / 64'F(S1) == DENORM.f64`) never fires for f32. With `de`,
/// `ne` the encoded exponents of S1 and S2 and `Δ = ne - de`, the first rule that matches:
///
/// 1. `Δ ≥ 96` (the quotient may overflow): VCC set; the denominator is scaled by 2^64.
/// 2. `de == 0` (a zero or denormal denominator): S0 × 2^64.
/// 3. `de ≥ 253` (|S1| ≥ 2^126, whose reciprocal is at most 2^-126): VCC set when `Δ ≤ -96`;
///    S0 × 2^-64, except the numerator when VCC is set (left as it is).
/// 4. `Δ ≤ -96` (the quotient may underflow): VCC set; the numerator is scaled by 2^64.
/// 5. `ne ≤ 24` (a tiny numerator): S0 × 2^64.
/// 6. otherwise S0 unchanged.
///
/// S0 is "the denominator" when its bits equal S1's and is treated as the numerator otherwise
/// (the ISA requires S0 to be one of the two). A zero S1 or S2 gives the NaN 0xffc00000 (with
/// VCC still from the rules above); an infinite or NaN S0 is returned (a NaN quieted).
/// Scaling rounds once (it only can when S0 is neither operand). Denormal inputs are not
/// flushed: [`div_fixup32`] reads the unscaled operands with MODE's flushing, which decides the
/// final result for them.
pub fn div_scale32(s0: u32, s1: u32, s2: u32) -> (u32, bool) {
    let (r, vcc) = div_scale(DIV32, s0 as u64, s1 as u64, s2 as u64);
    (r as u32, vcc)
}

/// `V_DIV_SCALE_F64`: as [`div_scale32`] with the f64 constants: scale 2^±128, threshold
/// `±768`, huge denominator `de ≥ 2045` (|S1| ≥ 2^1022), tiny numerator `ne ≤ 53`, zero
/// operands give 0xfff8000000000000.
pub fn div_scale64(s0: u64, s1: u64, s2: u64) -> (u64, bool) {
    div_scale(DIV64, s0, s1, s2)
}

/// `V_DIV_SCALE_*` in the format of `r` (the rules are at [`div_scale32`]).
fn div_scale(r: DivRules, s0: u64, s1: u64, s2: u64) -> (u64, bool) {
    let l = r.l;
    let (de, ne) = (field(l, s1), field(l, s2));
    let delta = ne - de;
    let is_den = s0 == s1;
    let (k, vcc) = if delta >= r.threshold {
        (if is_den { r.scale } else { 0 }, true)
    } else if de == 0 {
        (r.scale, false)
    } else if de >= 2 * bias(l) - 1 {
        let vcc = delta <= -r.threshold;
        (if vcc && !is_den { 0 } else { -r.scale }, vcc)
    } else if delta <= -r.threshold {
        (if is_den { 0 } else { r.scale }, true)
    } else if ne <= r.tiny {
        (r.scale, false)
    } else {
        (0, false)
    };
    if l.is_zero(s1) || l.is_zero(s2) {
        (r.invalid, vcc)
    } else if s0 & l.exp == l.exp {
        (l.quiet(s0), vcc)
    } else {
        (scale_exact(l, s0, k), vcc)
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
