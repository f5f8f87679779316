//! Float atomic compare-store (DS_CMPSTORE_F32, DS_CMPSTORE_F64 and their `_RTN` forms).

use super::{Layout, F32, F64};

/// `001_f218f1deb4d558c2.txt §NaN 处理 / FP Compare Swap`: "仅在比较条件（==）为真时交换，将+0和-0
/// 视为相等": `doSwap = (src0 != NaN) && (src1 != NaN) && (src0 == src1) // allow +0 == -0`.
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
/// - `001_f218f1deb4d558c2.txt §NaN 处理 / FP Compare Swap`: swap only when neither `mem` nor
///   `cmp` is NaN (quiet or signalling) and they are equal, `+0 == -0`. The float compare
///   replaces the pseudocode's `==` on bits where they differ (±0, NaN). `src` is stored as it
///   is, NaN or not: no quieting (the spec gives no NaN rule for the stored value).
/// - `flush_input` (`001_f218f1deb4d558c2.txt §非正则？`: CMP uses only the input flush control;
///   denormal inputs compare as zero; "CompareStore（'比较交换'）在发生输入非正规刷新时刷新结果"):
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
