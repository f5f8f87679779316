//! The read-modify-write arithmetic of the atomics, shared by the DS (LDS/GDS) and the
//! vector-memory (global, flat, scratch, buffer) models: pure functions from the old memory
//! value and the data to the new memory value. The float cases follow
//! docs/rules/float-atomics.md through [`crate::fp`].

use crate::fp::{self, DenormCtl};

/// Read-modify-write operations of the atomics (pseudocode in
/// `../shared/reference/rdna3-isa-pseudocode.txt`, `DS_ADD_U32` ... `DS_MAX_F64`,
/// `GLOBAL_ATOMIC_*`, `BUFFER_ATOMIC_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// `add`.
    Add,
    /// `sub`.
    Sub,
    /// `rsub`: data − memory.
    Rsub,
    /// `inc`: memory ≥ data ? 0 : memory + 1.
    Inc,
    /// `dec`: memory == 0 || memory > data ? data : memory − 1.
    Dec,
    /// Signed minimum.
    MinI,
    /// Signed maximum.
    MaxI,
    /// Unsigned minimum.
    MinU,
    /// Unsigned maximum.
    MaxU,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `mskor`: (memory & ~data0) | data1.
    Mskor,
    /// `storexchg`: memory = data0.
    Xchg,
    /// `cmpstore`: memory == data1 ? data0 : memory.
    Cmpstore,
    /// `wrap`: memory ≥ data0 ? memory − data0 : memory + data1.
    Wrap,
    /// Float add (f32).
    AddF,
    /// Float minimum.
    MinF,
    /// Float maximum.
    MaxF,
    /// Float compare-store.
    CmpstoreF,
    /// `csub` (memory atomics): memory < data ? 0 : memory − data.
    Csub,
    /// gfx942's `pk_add_f16`: two f16 adds, one per half.
    PkAddF16,
    /// gfx942's `pk_add_bf16`: two bf16 adds, one per half.
    PkAddBf16,
}

/// An integer atomic's new memory value at `bits` (32 or 64) wide; values are zero-extended
/// to u64 and the result is masked to the width. Float operations return `None`.
fn atomic_int(op: AtomicOp, mem: u64, d0: u64, d1: u64, bits: u32) -> Option<u64> {
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let signed = |x: u64| ((x << (64 - bits)) as i64) >> (64 - bits);
    let r = match op {
        AtomicOp::Add => mem.wrapping_add(d0),
        AtomicOp::Sub => mem.wrapping_sub(d0),
        AtomicOp::Rsub => d0.wrapping_sub(mem),
        AtomicOp::Inc => {
            if mem >= d0 {
                0
            } else {
                mem + 1
            }
        }
        AtomicOp::Dec => {
            if mem == 0 || mem > d0 {
                d0
            } else {
                mem - 1
            }
        }
        AtomicOp::MinI => {
            if signed(d0) < signed(mem) {
                d0
            } else {
                mem
            }
        }
        AtomicOp::MaxI => {
            if signed(d0) >= signed(mem) {
                d0
            } else {
                mem
            }
        }
        AtomicOp::MinU => d0.min(mem),
        AtomicOp::MaxU => d0.max(mem),
        AtomicOp::And => mem & d0,
        AtomicOp::Or => mem | d0,
        AtomicOp::Xor => mem ^ d0,
        AtomicOp::Mskor => (mem & !d0) | d1,
        AtomicOp::Xchg => d0,
        AtomicOp::Cmpstore => {
            if mem == d1 {
                d0
            } else {
                mem
            }
        }
        AtomicOp::Csub => mem.saturating_sub(d0),
        AtomicOp::Wrap => {
            if mem >= d0 {
                mem - d0
            } else {
                mem.wrapping_add(d1)
            }
        }
        AtomicOp::AddF
        | AtomicOp::MinF
        | AtomicOp::MaxF
        | AtomicOp::CmpstoreF
        | AtomicOp::PkAddF16
        | AtomicOp::PkAddBf16 => return None,
    };
    Some(r & mask)
}

/// A 32-bit atomic's new memory value. `mode` is the wave's MODE register.
pub fn atomic32(op: AtomicOp, mem: u32, d0: u32, d1: u32, mode: u32) -> u32 {
    if let Some(r) = atomic_int(op, mem as u64, d0 as u64, d1 as u64, 32) {
        return r as u32;
    }
    let ctl = DenormCtl::from_mode_f32(mode);
    match op {
        // (16-bit values follow MODE's double/half-precision denormal field.)
        AtomicOp::PkAddF16 => fp::add_pk16(mem, d0, false, DenormCtl::from_mode_f16(mode)),
        AtomicOp::PkAddBf16 => fp::add_pk16(mem, d0, true, DenormCtl::from_mode_f16(mode)),
        AtomicOp::AddF => fp::add_f32(mem, d0, ctl),
        AtomicOp::MinF => fp::min_f32(mem, d0, ctl.flush_input),
        AtomicOp::MaxF => fp::max_f32(mem, d0, ctl.flush_input),
        _ => fp::cmpstore_f32(mem, d1, d0, ctl.flush_input),
    }
}

/// A 64-bit atomic's new memory value.
pub fn atomic64(op: AtomicOp, mem: u64, d0: u64, d1: u64, mode: u32) -> u64 {
    if let Some(r) = atomic_int(op, mem, d0, d1, 64) {
        return r;
    }
    let ctl = DenormCtl::from_mode_f64(mode);
    match op {
        // gfx942's 64-bit float adds (gfx1100 has none).
        AtomicOp::AddF => fp::add_f64(mem, d0, ctl),
        AtomicOp::MinF => fp::min_f64(mem, d0, ctl.flush_input),
        AtomicOp::MaxF => fp::max_f64(mem, d0, ctl.flush_input),
        _ => fp::cmpstore_f64(mem, d1, d0, ctl.flush_input),
    }
}

/// Which denormal rules the float atomics of memory (buffer, global, flat) follow.
///
/// The float atomics rules give them their own paragraph after the LDS rules
/// (docs/rules/float-atomics.md#denormals-in-memory-atomics): floating-point atomics pass or
/// flush denormals by MODE.fp_denorm with no separate input and output control (only bit 0 of
/// the single- or double-precision field counts), the rest of the rules are as for LDS, and
/// the float atomic add is hard-wired to flush input denormals, not using MODE.fp_denorm. The
/// paragraph names `ds_{min,max,cmpst}_f32`, which makes it ambiguous whether it is about LDS
/// or memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemoryFloatRules {
    /// Our reading (the default): the paragraph is about memory atomics. `add_f32` flushes
    /// input denormals always and keeps a denormal result (it reads no MODE bit);
    /// `min`/`max`/`cmpswap` flush inputs when MODE.fp_denorm bit 0 (allow input denormals)
    /// of their precision is 0 — the same control the LDS rules use for them.
    #[default]
    Memory,
    /// The other reading: memory float atomics follow the LDS rules exactly (`add_f32` flushes
    /// input and output per MODE.fp_denorm).
    Lds,
}

/// A 32-bit memory atomic's new value under `rules` (`mode`: the wave's MODE register).
pub fn memory_atomic32(
    op: AtomicOp,
    mem: u32,
    d0: u32,
    d1: u32,
    mode: u32,
    rules: MemoryFloatRules,
) -> u32 {
    if op == AtomicOp::AddF && rules == MemoryFloatRules::Memory {
        let hardwired = DenormCtl {
            flush_input: true,
            flush_output: false,
        };
        return fp::add_f32(mem, d0, hardwired);
    }
    atomic32(op, mem, d0, d1, mode)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DENORM: u32 = 0x0000_0001;
    const ALLOW_ALL: u32 = 0xf0;
    const FLUSH_ALL: u32 = 0x00;

    #[test]
    fn memory_add_f32_flushes_inputs_whatever_the_mode_and_the_switch_selects_lds_rules() {
        // 0 + denormal: the hard-wired input flush gives +0 even when MODE allows denormals.
        let m = memory_atomic32(
            AtomicOp::AddF,
            0,
            DENORM,
            0,
            ALLOW_ALL,
            MemoryFloatRules::Memory,
        );
        assert_eq!(m, 0);
        let l = memory_atomic32(
            AtomicOp::AddF,
            0,
            DENORM,
            0,
            ALLOW_ALL,
            MemoryFloatRules::Lds,
        );
        assert_eq!(l, DENORM, "LDS rules pass the denormal when MODE allows it");
        // A denormal result from normal inputs is kept under the memory reading.
        let a = 0x0080_0001; // smallest normal + 1 ulp
        let b = 0x8080_0000; // minus the smallest normal
        assert_eq!(
            memory_atomic32(AtomicOp::AddF, a, b, 0, FLUSH_ALL, MemoryFloatRules::Memory),
            DENORM
        );
        assert_eq!(
            memory_atomic32(AtomicOp::AddF, a, b, 0, FLUSH_ALL, MemoryFloatRules::Lds),
            0,
            "LDS rules flush the result when MODE says so"
        );
    }

    #[test]
    fn csub_clamps_at_zero_and_integer_ops_ignore_the_switch() {
        assert_eq!(atomic32(AtomicOp::Csub, 5, 7, 0, 0), 0);
        assert_eq!(atomic32(AtomicOp::Csub, 7, 5, 0, 0), 2);
        for rules in [MemoryFloatRules::Memory, MemoryFloatRules::Lds] {
            assert_eq!(memory_atomic32(AtomicOp::Add, 1, 2, 0, 0, rules), 3);
            // cmpswap: memory == cmp (d1) ? src (d0) : memory.
            assert_eq!(memory_atomic32(AtomicOp::Cmpstore, 4, 9, 4, 0, rules), 9);
            assert_eq!(memory_atomic32(AtomicOp::Cmpstore, 4, 9, 5, 0, rules), 4);
        }
    }
}
