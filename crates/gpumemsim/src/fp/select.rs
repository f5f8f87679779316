//! Float min and max: the DS atomics (DS_MIN_F32, DS_MAX_F32, DS_MIN_F64, DS_MAX_F64 and their
//! `_RTN` forms) and the vector ALU's `V_MIN/V_MAX` in f16, f32 and f64, one selection rule
//! with three knobs (which NaNs are special, which input a tie keeps, whether a flushed input
//! is returned flushed).

use super::{Layout, F16, F32, F64};

/// How a caller's operation differs within the shared rule.
#[derive(Clone, Copy)]
struct Rule {
    /// Pick the larger (max) or the smaller (min).
    larger: bool,
    /// Signalling NaNs are returned quieted (DS always; the VALU in MODE.IEEE). Without it
    /// every NaN simply loses to a number (the VALU's non-IEEE branch).
    snan_wins: bool,
    /// Equal inputs give src1 (the VALU pseudocode's `else` branch) instead of src0 (the DS
    /// pseudocode's, which writes DATA only when strictly better).
    tie_src1: bool,
    /// With input flushing, the selected number is returned flushed (the VALU) rather than
    /// as it was (the DS atomics).
    flush_result: bool,
}

const DS_MIN: Rule = Rule {
    larger: false,
    snan_wins: true,
    tie_src1: false,
    flush_result: false,
};
const DS_MAX: Rule = Rule {
    larger: true,
    ..DS_MIN
};

/// The shared selection rule on `mem` (src0) and `data` (src1).
///
/// The max and min selection rules (docs/rules/float-atomics.md#min-and-max-orders):
/// ```text
/// if (src0 == SNaN) result = QNaN(src0)   // bits of SRC0 are preserved but is a QNaN
/// else if (src1 == SNaN) result = QNaN(src1)
/// else result = larger/smaller of (src0, src1)
/// Max order, smallest to largest: QNaN, -inf, -float, -denorm, -0, +0, +denorm, +float, +inf
/// Min order, smallest to largest: -inf, -float, -denorm, -0, +0, +denorm, +float, +inf, QNaN
/// ```
/// QNaN is at the losing end of both orders, so a QNaN loses to any number in min and in max.
const fn select(l: Layout, mem: u64, data: u64, flush_input: bool, r: Rule) -> u64 {
    if r.snan_wins && l.is_snan(mem) {
        return l.quiet(mem);
    }
    if r.snan_wins && l.is_snan(data) {
        return l.quiet(data);
    }
    match (l.is_nan(mem), l.is_nan(data)) {
        // Two QNaNs rank equal: the tie rule keeps mem.
        (true, true) => mem,
        (true, false) => data,
        (false, true) => mem,
        (false, false) => {
            // With input flushing, a denormal compares as ±0 (sign kept), but the result is
            // the selected input unmodified
            // (docs/rules/float-atomics.md#min-and-max-return-an-unflushed-input).
            let (c_mem, c_data) = if flush_input {
                (l.flush(mem), l.flush(data))
            } else {
                (mem, data)
            };
            let (k_mem, k_data) = (l.order_key(c_mem), l.order_key(c_data));
            let data_wins = match (r.larger, r.tie_src1) {
                (true, false) => k_data > k_mem,
                (true, true) => k_data >= k_mem,
                (false, false) => k_data < k_mem,
                (false, true) => k_data <= k_mem,
            };
            match (data_wins, r.flush_result) {
                (true, false) => data,
                (false, false) => mem,
                (true, true) => c_data,
                (false, true) => c_mem,
            }
        }
    }
}

/// The new memory value of a float atomic min: the smaller of `mem` (the spec's src0, the
/// memory value) and `data` (src1, DATA0), by the spec's order, in which **-0 < +0** and a
/// quiet NaN is larger than +inf.
///
/// Rules (docs/rules/float-atomics.md#min-and-max-orders):
/// - `mem` is a signalling NaN → `mem` made quiet (sign and payload kept); else `data` is a
///   signalling NaN → `data` made quiet.
/// - Else the smaller by `-inf < -float < -denorm < -0 < +0 < +denorm < +float < +inf < QNaN`.
/// - `flush_input` (float CMP, MIN and MAX use only the input denormal control, and min and
///   max return the selected input unflushed:
///   docs/rules/float-atomics.md#min-and-max-return-an-unflushed-input): denormals compare as
///   ±0 of their sign, but the result is the unmodified selected input (a denormal stays a
///   denormal). The output control is not used.
/// - Ties (equal values, two QNaNs, or two denormals/zeros of one sign that compare equal
///   after flushing) return `mem`: our choice, following the DS pseudocode `MEM = src < tmp ?
///   src : tmp`, which writes DATA only when it is strictly smaller. With it a tie leaves
///   memory unchanged.
///
/// Where the pseudocode differs (IEEE `<`, under which `-0 < +0` is false and any compare with
/// NaN is false, so `mem` = QNaN would stay), the spec's order is followed.
pub const fn min_f32(mem: u32, data: u32, flush_input: bool) -> u32 {
    select(F32, mem as u64, data as u64, flush_input, DS_MIN) as u32
}

/// The new memory value of a float atomic max: the larger of `mem` (src0) and `data` (src1)
/// by the spec's order, in which **-0 < +0** and a quiet NaN is smaller than -inf.
///
/// Rules (docs/rules/float-atomics.md#min-and-max-orders): signalling NaNs as in
/// [`min_f32`] (`mem` first); else the larger by `QNaN < -inf < -float < -denorm < -0 < +0 <
/// +denorm < +float < +inf`. Input flushing and ties as in [`min_f32`] (ties return `mem`,
/// following the pseudocode `MEM = src > tmp ? src : tmp`); where the pseudocode's IEEE `>`
/// differs (±0, NaN), the spec's order is followed.
pub const fn max_f32(mem: u32, data: u32, flush_input: bool) -> u32 {
    select(F32, mem as u64, data as u64, flush_input, DS_MAX) as u32
}

/// f64 version of [`min_f32`] (DS_MIN_F64, DS_MIN_RTN_F64); `flush_input` comes from the
/// double-precision FP_DENORM bits (the double-precision field governs F64:
/// docs/rules/float-atomics.md#denormal-controls-in-lds).
pub const fn min_f64(mem: u64, data: u64, flush_input: bool) -> u64 {
    select(F64, mem, data, flush_input, DS_MIN)
}

/// f64 version of [`max_f32`] (DS_MAX_F64, DS_MAX_RTN_F64).
pub const fn max_f64(mem: u64, data: u64, flush_input: bool) -> u64 {
    select(F64, mem, data, flush_input, DS_MAX)
}

/// `V_MIN_F32` (`max` false) / `V_MAX_F32` of `s0`, `s1`, per the VALU pseudocode:
/// - MODE.IEEE (`ieee`): a signalling NaN input (S0 first) gives it quieted; a quiet NaN
///   loses to the other input. Without IEEE, any NaN loses (S1's checked first; two NaNs
///   give S0).
/// - Otherwise the smaller/larger with **-0 < +0**; equal values give S1 (the pseudocode's
///   `LT_NEG_ZERO(S0, S1) ? S0 : S1`).
/// - `flush_input`: denormals are read as ±0, and the selected value is that ±0. The RDNA3.5
///   ISA reference's note on `V_MIN_F32`/`V_MAX_F32`/`V_MIN_F64`/`V_MIN_F16`: "If input denorm
///   mode is disabling denorm, the internal result of a min/max operation cannot be a denorm
///   value, so output denorm mode is irrelevant. If input denorm mode is enabling denorm, the
///   internal min/max result can be a denorm and this operation outputs as a denorm regardless
///   of output denorm mode." (The DS atomics return the unflushed input instead, per
///   docs/rules/float-atomics.md#min-and-max-return-an-unflushed-input.)
pub const fn valu_minmax_f32(s0: u32, s1: u32, max: bool, ieee: bool, flush_input: bool) -> u32 {
    select(F32, s0 as u64, s1 as u64, flush_input, valu_rule(max, ieee)) as u32
}

/// f64 version of [`valu_minmax_f32`] (`V_MIN_F64`, `V_MAX_F64`).
pub const fn valu_minmax_f64(s0: u64, s1: u64, max: bool, ieee: bool, flush_input: bool) -> u64 {
    select(F64, s0, s1, flush_input, valu_rule(max, ieee))
}

/// f16 version of [`valu_minmax_f32`] (`V_MIN_F16`, `V_MAX_F16`; `flush_input` from MODE's
/// double/half control).
pub const fn valu_minmax_f16(s0: u16, s1: u16, max: bool, ieee: bool, flush_input: bool) -> u16 {
    select(F16, s0 as u64, s1 as u64, flush_input, valu_rule(max, ieee)) as u16
}

/// `V_MED3_F32` (and, as [`valu_med3_f16`], `V_MED3_F16`) per the pseudocode: with a NaN
/// input, the min of all three; else the max of the two inputs that are not the max. The
/// min/max rule ([`valu_minmax_f32`]) returns one of its (flushed) inputs, so "the max is
/// S0" is a comparison of bits, after flushing the inputs when `flush_input`.
pub fn valu_med3_f32(a: u32, b: u32, c: u32, ieee: bool, flush_input: bool) -> u32 {
    med3(F32, [a as u64, b as u64, c as u64], ieee, flush_input) as u32
}

/// f16 version of [`valu_med3_f32`].
pub fn valu_med3_f16(a: u16, b: u16, c: u16, ieee: bool, flush_input: bool) -> u16 {
    med3(F16, [a as u64, b as u64, c as u64], ieee, flush_input) as u16
}

fn med3(l: Layout, s: [u64; 3], ieee: bool, flush_input: bool) -> u64 {
    let [a, b, c] = s.map(|x| if flush_input { l.flush(x) } else { x });
    let pick = |x, y, max| select(l, x, y, false, valu_rule(max, ieee));
    let (min, max) = (|x, y| pick(x, y, false), |x, y| pick(x, y, true));
    if l.is_nan(a) || l.is_nan(b) || l.is_nan(c) {
        return min(min(a, b), c);
    }
    let m = max(max(a, b), c);
    if m == a {
        max(b, c)
    } else if m == b {
        max(a, c)
    } else {
        max(a, b)
    }
}

const fn valu_rule(max: bool, ieee: bool) -> Rule {
    Rule {
        larger: max,
        snan_wins: ieee,
        tie_src1: true,
        flush_result: true,
    }
}
