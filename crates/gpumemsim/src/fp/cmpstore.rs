//! Float atomic compare-store (DS_CMPSTORE_F32, DS_CMPSTORE_F64 and their `_RTN` forms).

use super::{Layout, F32, F64};

/// Swap only when the compare (==) is true, +0 and -0 counting as equal: `doSwap = (src0 !=
/// NaN) && (src1 != NaN) && (src0 == src1)` (docs/rules/float-atomics.md#compare-swap).
const fn cmpstore(l: Layout, mem: u64, cmp: u64, src: u64, flush_input: bool) -> u64 {
    let (mem, cmp, src) = if flush_input {
        (l.flush(mem), l.flush(cmp), l.flush(src))
    } else {
        (mem, cmp, src)
    };
    let equal = mem == cmp || (l.is_zero(mem) && l.is_zero(cmp));
    let swap = !l.is_nan(mem) && !l.is_nan(cmp) && equal;
    if swap {
        src
    } else {
        mem
    }
}

/// The new memory value of a float atomic compare-store: `src` if `mem == cmp`, else `mem`.
///
/// DS operand order on gfx11 (`rdna3-isa-pseudocode.txt`, DS_CMPSTORE_F32 / DS_CMPSTORE_B32):
/// `tmp = MEM[ADDR]; src = DATA; cmp = DATA2; MEM[ADDR] = tmp == cmp ? src : tmp; RETURN_DATA =
/// tmp`. So the DS layer calls `cmpstore_f32(MEM[ADDR], DATA1, DATA0, flush_input)`: **DATA0
/// is the new value and DATA1 the compare value**. This is the reverse of the older chips'
/// DS_CMPST_* (DATA0 = compare, DATA1 = new); `llc-19 -mcpu=gfx1100` emits
/// `ds_cmpstore_rtn_b32 vdst, vaddr, vswap, vcmp` for an LDS `cmpxchg`, agreeing. The returned
/// pre-op value (`RETURN_DATA = tmp`) is the raw memory value, not flushed.
///
/// Rules:
/// - docs/rules/float-atomics.md#compare-swap: swap only when neither `mem` nor
///   `cmp` is NaN (quiet or signalling) and they are equal, `+0 == -0`. The float compare
///   replaces the pseudocode's `==` on bits where they differ (±0, NaN). `src` is stored as it
///   is, NaN or not: no quieting (the spec gives no NaN rule for the stored value).
/// - `flush_input` (CMP uses only the input flush control; denormal inputs compare as zero;
///   compare-swap flushes its result when input flushing happens:
///   docs/rules/float-atomics.md#compare-swap-flushes-its-result):
///   we read "flushes the result" as: when input flushing is on, all three inputs are flushed
///   (±0, sign kept) before the operation and the stored value is the flushed selection. So a
///   swap stores `flush(src)`, and a failed compare stores `flush(mem)`: a denormal in memory
///   becomes ±0 even when no swap happens, because the read-modify-write writes back its
///   result either way. This is the contrast the spec draws with Min/Max, which return an
///   unmodified input. Without input flushing nothing is flushed.
pub const fn cmpstore_f32(mem: u32, cmp: u32, src: u32, flush_input: bool) -> u32 {
    cmpstore(F32, mem as u64, cmp as u64, src as u64, flush_input) as u32
}

/// f64 version of [`cmpstore_f32`] (DS_CMPSTORE_F64, DS_CMPSTORE_RTN_F64: `src = DATA` (DATA0,
/// a VGPR pair), `cmp = DATA2` (DATA1)); `flush_input` comes from the double-precision
/// FP_DENORM bits.
pub const fn cmpstore_f64(mem: u64, cmp: u64, src: u64, flush_input: bool) -> u64 {
    cmpstore(F64, mem, cmp, src, flush_input)
}
