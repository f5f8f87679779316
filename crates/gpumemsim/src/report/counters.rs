//! A run's totals under the names profilers give them, so a number from the simulator can
//! be set beside a number from rocprof (AMD) or Nsight Compute (NVIDIA). Only quantities the
//! simulator actually has are named; a counter it cannot compute is absent, never 0. Each
//! definition is in docs/counters.md; the bank model's own (`SQ_LDS_BANK_CONFLICT` and
//! Nsight Compute's shared-memory counters per access) are
//! [`crate::banks::Counters::profiler_entries`].

use rdna3_isa::asm::AsmLine;
use rdna3_isa::{Field, Format};

use crate::ds::{ds_kind, DsKind};
use crate::exec::Device;

/// The rocprof (SQ block) counters a run gives, with their definitions here, in the order
/// reports list them.
pub const AMD_COUNTERS: [(&str, &str); 15] = [
    (
        "GRBM_GUI_ACTIVE",
        "cycles the kernel ran: the clock of the last wave to end",
    ),
    ("SQ_WAVES", "waves launched"),
    (
        "SQ_WAVE_CYCLES",
        "wave-cycles: each wave's clock when it ended, added up",
    ),
    (
        "SQ_WAIT_INST_ANY",
        "wave-cycles waves waited at an instruction (s_waitcnt, barriers, a busy LDS)",
    ),
    ("SQ_INSTS", "wave-instructions executed"),
    (
        "SQ_INSTS_VALU",
        "vector ALU wave-instructions (VOP1/2/3/3P/C, VOPD, DPP, VINTERP)",
    ),
    ("SQ_INSTS_SALU", "scalar ALU wave-instructions (SOP1/2/K/C)"),
    ("SQ_INSTS_SMEM", "scalar memory wave-instructions"),
    (
        "SQ_INSTS_LDS",
        "LDS wave-instructions (DS without GDS, LDS parameter/direct loads)",
    ),
    (
        "SQ_INSTS_GDS",
        "GDS, GWS and ordered-count wave-instructions",
    ),
    (
        "SQ_INSTS_VMEM",
        "vector memory wave-instructions (FLAT, GLOBAL, SCRATCH, MUBUF, MTBUF)",
    ),
    (
        "SQ_INSTS_FLAT",
        "FLAT-encoded wave-instructions (FLAT, GLOBAL, SCRATCH)",
    ),
    (
        "SQ_INSTS_BRANCH",
        "branch wave-instructions (s_branch, s_cbranch_*, s_setpc/swappc)",
    ),
    ("SQ_INSTS_SENDMSG", "s_sendmsg wave-instructions"),
    (
        "SQ_LDS_BANK_CONFLICT",
        "cycles LDS accesses lost to bank conflicts, all waves",
    ),
];

/// What a vector cache counter counts, in cache lines (docs/rules/timing.md#vector-caches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheLines {
    /// Every line vector memory instructions requested: loads, stores, atomics.
    Requested,
    /// Load lines the CU's cache (L0 or vL1D) missed.
    LoadsPastL0,
    /// Lines the CU's cache passed on: load lines it missed, and every store and atomic line.
    PastL0,
    /// Lines that reached the L2.
    ReachedL2,
    /// Lines the L2 served.
    L2Hits,
    /// Lines the L2 missed.
    L2Misses,
}

impl CacheLines {
    /// The count in `t`, a run's cache lines.
    fn of(self, t: &crate::vcache::LineCounts) -> u64 {
        use crate::vcache::Level;
        let l2 = t.reached(Level::L2);
        match self {
            CacheLines::Requested => t.requests,
            CacheLines::LoadsPastL0 => t.reached(Level::L1),
            CacheLines::PastL0 => t.reached(Level::L1) + t.writes,
            CacheLines::ReachedL2 => l2,
            CacheLines::L2Hits => t.served_by(Level::L2),
            CacheLines::L2Misses => l2 - t.served_by(Level::L2),
        }
    }
}

/// The vector cache counters a run on an RDNA3 device whose vector caches are modelled
/// gives (RDNA's names: TCP is the L0, GL1C the L1, GL2C the L2), with their definitions.
pub const CACHE_COUNTERS: [(&str, CacheLines, &str); 5] = [
    (
        "TCP_REQ_sum",
        CacheLines::Requested,
        "cache lines vector memory instructions requested (loads, stores, atomics)",
    ),
    (
        "GL1C_REQ_sum",
        CacheLines::PastL0,
        "cache lines the L0 passed to the L1: load lines it missed, and every store and atomic line",
    ),
    (
        "GL2C_REQ_sum",
        CacheLines::ReachedL2,
        "cache lines that reached the L2",
    ),
    ("GL2C_HIT_sum", CacheLines::L2Hits, "cache lines the L2 served"),
    (
        "GL2C_MISS_sum",
        CacheLines::L2Misses,
        "cache lines the L2 missed (served by the Infinity Cache or VRAM)",
    ),
];

/// The same for a CDNA3 device (MI300X: TCP is the vL1D, TCC the XCD's L2), with
/// rocprofiler-sdk's gfx942 names (docs/counters.md).
pub const CDNA3_CACHE_COUNTERS: [(&str, CacheLines, &str); 5] = [
    (
        "TCP_TOTAL_CACHE_ACCESSES_sum",
        CacheLines::Requested,
        "cache lines vector memory instructions requested at the vL1D (loads, stores, atomics)",
    ),
    (
        "TCP_TCC_READ_REQ_sum",
        CacheLines::LoadsPastL0,
        "load cache lines the vL1D missed and read from the L2",
    ),
    (
        "TCC_REQ_sum",
        CacheLines::ReachedL2,
        "cache lines that reached the L2",
    ),
    (
        "TCC_HIT_sum",
        CacheLines::L2Hits,
        "cache lines the L2 served",
    ),
    (
        "TCC_MISS_sum",
        CacheLines::L2Misses,
        "cache lines the L2 missed (served by the Infinity Cache or HBM)",
    ),
];

/// The definition of the rocprof counter `name` among those a run gives ([`AMD_COUNTERS`],
/// [`CACHE_COUNTERS`], [`CDNA3_CACHE_COUNTERS`]).
pub fn counter_definition(name: &str) -> Option<&'static str> {
    let cache = CACHE_COUNTERS
        .iter()
        .chain(&CDNA3_CACHE_COUNTERS)
        .map(|&(n, _, what)| (n, what));
    AMD_COUNTERS
        .iter()
        .copied()
        .chain(cache)
        .find(|&(n, _)| n == name)
        .map(|(_, what)| what)
}

/// Which counter an instruction's executions add to (`None`: only `SQ_INSTS`).
fn class(l: &AsmLine) -> Option<&'static str> {
    let d = l.inst.def();
    Some(match d.format {
        Format::Sop1 | Format::Sop2 | Format::Sopk | Format::Sopc => {
            if d.name.starts_with("s_setpc") || d.name.starts_with("s_swappc") {
                "SQ_INSTS_BRANCH"
            } else {
                "SQ_INSTS_SALU"
            }
        }
        Format::Sopp if d.name.starts_with("s_branch") || d.name.starts_with("s_cbranch") => {
            "SQ_INSTS_BRANCH"
        }
        Format::Sopp if d.name.starts_with("s_sendmsg") => "SQ_INSTS_SENDMSG",
        Format::Sopp => return None,
        Format::Smem => "SQ_INSTS_SMEM",
        Format::Ds => {
            let gds = l.inst.get(Field::Gds) == 1
                || matches!(
                    ds_kind(l.inst.opcode),
                    Some(DsKind::GlobalSync | DsKind::GsReg { .. })
                );
            if gds {
                "SQ_INSTS_GDS"
            } else {
                "SQ_INSTS_LDS"
            }
        }
        Format::Ldsdir => "SQ_INSTS_LDS",
        Format::Flat | Format::Global | Format::Scratch | Format::Mubuf | Format::Mtbuf => {
            "SQ_INSTS_VMEM"
        }
        _ => "SQ_INSTS_VALU",
    })
}

/// The rocprof counters of a run of `program` on `device`, in [`AMD_COUNTERS`] order.
pub fn amd_counters(program: &[AsmLine], device: &Device) -> Vec<(&'static str, u64)> {
    let mut out: Vec<(&'static str, u64)> = AMD_COUNTERS.iter().map(|(n, _)| (*n, 0)).collect();
    let mut add = |name: &str, v: u64| {
        if let Some(c) = out.iter_mut().find(|c| c.0 == name) {
            c.1 += v;
        }
    };
    let t = device.totals();
    add("GRBM_GUI_ACTIVE", device.cycles());
    add("SQ_WAVES", device.wave_count());
    add("SQ_WAVE_CYCLES", device.wave_clock_sum());
    add("SQ_WAIT_INST_ANY", t.stall_cycles);
    add("SQ_INSTS", t.executions);
    add("SQ_LDS_BANK_CONFLICT", t.conflict_cycles);
    for (l, s) in program.iter().zip(device.stats()) {
        if let Some(c) = class(l) {
            add(c, s.executions);
        }
        if matches!(
            l.inst.def().format,
            Format::Flat | Format::Global | Format::Scratch
        ) {
            add("SQ_INSTS_FLAT", s.executions);
        }
    }
    if let Some((c, t)) = device.vcache_totals() {
        let table = match c.family {
            crate::vcache::Family::Rdna3 => &CACHE_COUNTERS,
            crate::vcache::Family::Cdna3 => &CDNA3_CACHE_COUNTERS,
        };
        out.extend(table.iter().map(|&(name, lines, _)| (name, lines.of(&t))));
    }
    out
}
