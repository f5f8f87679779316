//! The interpreter and scheduler: runs a program on the waves of one or more workgroups (each
//! with its own LDS allocation, all sharing the device's GDS and GWS), dispatches memory
//! instructions to the unit models, and keeps time, per-instruction statistics and events.
//!
//! Scheduling: waves are created workgroup by workgroup, wave by wave (the creation order
//! ordered count relies on). Each step runs one instruction of the runnable wave with the
//! earliest clock (ties: the lowest index), taken from a priority queue of runnable waves, so
//! a step costs O(log waves) however many waves the grid has. With a nonzero seed, a wave's
//! clock gets a pseudo-random jitter of up to [`SEED_JITTER`] cycles each time it is queued,
//! so different seeds give different (and each reproducible) interleavings. Waves that wait — at `s_barrier`, on a GWS
//! semaphore or barrier, for their ordered-count turn, or after a GWS NACK — block until woken;
//! when every live wave is blocked the run stops with a deadlock report.

mod access_memo;
mod control;
mod deps;
mod ds_sample;
mod functional;
mod global_sync;
mod grid;
mod inflight;
mod issue;
mod lds_check;
mod placement;
mod progress;
mod quick;
mod ready;
mod salu;
mod scalar_mem;
mod shard;
mod slots;
mod step;
mod trace;
mod units;
mod valu;
mod vector_mem;
mod vinterp;
mod vmem_sample;

use std::sync::Arc;

use rdna3_isa::asm::AsmLine;

use crate::addr::{Apertures, GlobalMemory};
use crate::atomic::MemoryFloatRules;
use crate::banks::BankModel;
use crate::event::Event;
use crate::gds::{Gds, DEFAULT_GDS_BYTES};
use crate::gws::{Gws, GwsConfig, OrderedCount, ORDERED_COUNTERS};
use crate::lds::{AlignMode, Lds, LdsAllocation, LdsInit, LdsMode};
use crate::smem::{ClauseTracker, KcacheConfig, KcacheStats, ScalarCache, SgprWrite, SmemOutcome};
use crate::timeline::{PlacementStats, SegmentKind, Timeline, UnitBusy};

use crate::timing::TimingParams;
use crate::wave::Wave;

pub use deps::DelayAluStats;
pub use ds_sample::DsSample;
pub use functional::FUNCTIONAL_SLICE;
pub use grid::{device_wide_instruction, run_grid, GridRun, Memory, Schedule, TogetherBecause};
pub use progress::{RunProgress, PROGRESS_STEPS};
pub use shard::{GridPart, Shard};
pub use slots::WaveInit;
pub use vmem_sample::{SampleLine, VmemSample};

/// Default `private_segment_buffer.base` (an arbitrary 48-bit global address).
pub const DEFAULT_SCRATCH_BASE: u64 = 0x7f00_0000_0000;

/// Most host threads [`run_grid`] may be asked for (each holds a copy of global memory).
pub const MAX_THREADS: usize = 256;

/// Largest value of a timing parameter (cycles): 2^32, which keeps every cycle counter of a
/// run far from overflowing u64.
pub const MAX_TIMING_CYCLES: u64 = 1 << 32;

/// The most scratch a gfx1100 wave may have, in bytes: COMPUTE_TMPRING_SIZE.WAVESIZE is a
/// 15-bit field in units of 64 dwords on GFX11 (LLVM's `GCNSubtarget::getMaxWaveScratchSize`,
/// which `AMDGPUAsmPrinter` divides by the wave size for the per-work-item limit of
/// AMDGPUUsage's private segment): 256 × (2^15 − 1).
pub const MAX_WAVE_SCRATCH_BYTES: u32 = 256 * ((1 << 15) - 1);

/// The most private (scratch) bytes one lane may have in a wave of `wave_size` lanes:
/// [`MAX_WAVE_SCRATCH_BYTES`] / `wave_size` (131,068 for wave64, 262,136 for wave32).
pub fn max_scratch_per_lane(wave_size: u32) -> u32 {
    MAX_WAVE_SCRATCH_BYTES / wave_size.max(1)
}

/// Most WGPs a device may have ([`RunConfig::wgps`]).
pub const MAX_WGPS: u32 = 1024;

/// Largest clock jitter a nonzero seed adds when choosing the next wave.
pub const SEED_JITTER: u64 = 64;

/// How to run a program.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// 32 or 64.
    pub wave_size: u32,
    /// Waves in each workgroup.
    pub waves: u32,
    /// Workgroups.
    pub workgroups: u32,
    /// LDS allocation of each workgroup (bytes).
    pub lds_size: u32,
    /// CU or WGP mode.
    pub lds_mode: LdsMode,
    /// SH_MEM_CONFIG alignment mode.
    pub align: AlignMode,
    /// GDS size (bytes).
    pub gds_size: u32,
    /// The VMID's GWS resources.
    pub gws: GwsConfig,
    /// Ring sizes of the ordered-count counters (`None`: append buffer).
    pub ordered_rings: [Option<u32>; ORDERED_COUNTERS],
    /// Scheduling seed (0: earliest clock first).
    pub seed: u64,
    /// Instructions one wave may execute before it is stopped (a runaway wave).
    pub max_steps: u64,
    /// Timing parameters.
    pub timing: TimingParams,
    /// The bank-conflict model that prices every LDS access (an AMD preset).
    pub banks: BankModel,
    /// Whether the caller chose `banks` (`--banks`); otherwise a launch takes the preset of
    /// its kernel's chip ([`crate::target::Target::bank_preset`]).
    pub banks_chosen: bool,
    /// The timing parameters the caller set by name ([`RunConfig::set_timing`]): a launch
    /// keeps them whatever its kernel's chip ([`crate::timing::TimingParams::on_chip`]).
    pub timing_chosen: Vec<&'static str>,
    /// The chip whose rules apply where the executor's own differ from chip to chip
    /// ([`crate::target::Target`]: whether stores count on VMcnt, the V# layout); a launch
    /// sets its kernel's. gfx1100 by default.
    pub chip: &'static crate::target::Target,
    /// gfx942: where the AGPRs start in the unified register file (the kernel's ACCUM_OFFSET,
    /// [`Wave::accum_offset`]); 0 elsewhere.
    pub accum_offset: u32,
    /// Each workgroup's scalar data cache.
    pub kcache: KcacheConfig,
    /// The flat apertures.
    pub apertures: Apertures,
    /// `private_segment_buffer.base`: where wave 0's scratch region starts.
    pub scratch_base: u64,
    /// The memory address of the program's byte address 0 (a code object's kernel entry):
    /// what `s_getpc_b64` reads and `s_setpc_b64` jumps by.
    pub code_base: u64,
    /// A host thread that answers the device while it runs (HIP's hostcall: printf), asked
    /// to look at global memory whenever a wave sleeps; a grid with one runs together.
    pub host: Option<Arc<dyn HostService>>,
    /// The grid's number of each workgroup the device runs, when they are not `0..workgroups`
    /// (a sampled launch): messages name a workgroup by it.
    pub workgroup_ids: Option<Arc<[u32]>>,
    /// Private bytes per lane.
    pub scratch_size: u32,
    /// The denormal rules of float atomics to memory (see [`MemoryFloatRules`]).
    pub memory_float_rules: MemoryFloatRules,
    /// Host threads [`run_grid`] runs independent workgroups on (0: one per core).
    pub threads: usize,
    /// Makes [`run_grid`] run every workgroup together even where it could run them apart.
    pub together: bool,
    /// Record each DS instruction's costliest execution ([`Device::ds_worst`]) for the bank
    /// heat maps of the HTML report, and each vector memory instruction's execution that
    /// requested the most cache lines ([`Device::vmem_worst`]) for its coalescing picture.
    /// Off by default; a run that leaves it off pays one untaken branch per DS or vector
    /// memory instruction.
    pub record_samples: bool,
    /// Counters the run adds to as it goes, for a progress bar ([`RunProgress`]); `None` by
    /// default.
    pub progress: Option<Arc<RunProgress>>,
    /// Watch LDS accesses for races, lane collisions and reads of bytes nothing wrote
    /// (`lds_race`, `lane_collision`, `uninitialized_lds_read` events; `gpumemsim check`).
    /// On by default; a run that turns it off saves the shadow state's time and memory.
    pub check: bool,
    /// Run without the timing model and the observers (`--functional`): no issue model,
    /// unit, cache or bank timing, no checks, no timeline or samples. Data a memory
    /// instruction returns is in its registers when it issues, and each wave runs up to
    /// [`FUNCTIONAL_SLICE`] instructions before the next takes its turn
    /// (docs/functional.md). The registers and memory are those the timed run gives for
    /// every program whose result does not depend on the order of its waves' accesses;
    /// reports carry no cycles. Off by default.
    pub functional: bool,
    /// What LDS holds before the launch writes it.
    pub lds_init: LdsInit,
    /// The kernel's LDS variables, where the code object's DWARF gives them
    /// ([`crate::loader::Kernel::lds_variables`]): the checker reports an access of one
    /// instruction that reaches two of them (`lds_out_of_bounds`).
    pub lds_variables: Vec<crate::loader::LdsVariable>,
    /// WGPs of the device (`--wgps`): workgroups are placed on them as occupancy allows
    /// (docs/rules/timing.md#placement).
    pub wgps: u32,
    /// The part the run stands for ([`crate::preset`]), for reports (its name, clock and
    /// microseconds); `None` for a bare device of `wgps` WGPs. The CLI and the Python
    /// package choose the code's default part ([`crate::preset::DevicePreset::resolve`]).
    pub device: Option<&'static crate::preset::DevicePreset>,
    /// Waves one SIMD may hold at once (the occupancy limit); 0: the device's wave slots
    /// ([`crate::occupancy::MAX_WAVES_PER_SIMD`]) and the LDS the workgroups ask for.
    pub waves_per_simd: u32,
    /// Record each wave's issue, stall and wait segments ([`Device::timeline`]) for the HTML
    /// report's timeline. Off by default.
    pub record_timeline: bool,
    /// Create each workgroup's LDS storage when it starts and drop it, with its waves' VGPRs,
    /// when it ends, so that memory follows the resident workgroups, not the grid. A launch
    /// sets it (what it reports is global memory); off by default, because after a run
    /// without it every wave's registers and every workgroup's LDS can still be read.
    pub release_finished: bool,
    /// Let a wave held back only because its unit is busy issue at once, at the cycle the
    /// unit was booked for it, instead of queueing again, when nothing another wave does
    /// before that cycle can see the difference (`Device::runs_ahead`). The result is the
    /// same unless the run ends in an error: other waves may then have stopped one step
    /// earlier or later than the exact order has them, so whoever sets it runs again
    /// without it after an error (a launch does). Off by default.
    pub run_ahead: bool,
    /// A grid split over processes: run one shard of it, or merge the shards' parts
    /// (`exec::shard`); `None` (the default) runs the whole grid.
    pub shard: Option<Shard>,
}

impl RunConfig {
    /// Whether the run watches accesses with the shadow-memory checks: [`RunConfig::check`],
    /// unless the run is [`RunConfig::functional`].
    pub fn checks(&self) -> bool {
        self.check && !self.functional
    }

    /// Names of the timing model's parameters (`docs/timing.md`): [`TimingParams`]' fields
    /// and the scalar cache's latencies, in the order [`RunConfig::timing_entries`] gives.
    pub const TIMING_NAMES: [&'static str; 24] = [
        "salu",
        "valu",
        "f64_issue",
        "quarter_issue",
        "trans_issue",
        "valu_latency",
        "trans_latency",
        "f64_latency",
        "quarter_latency",
        "salu_latency",
        "lds_issue",
        "lds_latency",
        "vmem_issue",
        "vmem_latency",
        "l0_latency",
        "l1_latency",
        "l2_latency",
        "mall_latency",
        "vram_latency",
        "kcache_hit",
        "kcache_miss",
        "gds_issue",
        "gds_latency",
        "gws_latency",
    ];

    /// The timing parameter `name`'s slot (`None`: no such parameter).
    fn timing_slot(&mut self, name: &str) -> Option<&mut u64> {
        let t = &mut self.timing;
        Some(match name {
            "salu" => &mut t.salu,
            "valu" => &mut t.valu,
            "f64_issue" => &mut t.f64_issue,
            "quarter_issue" => &mut t.quarter_issue,
            "trans_issue" => &mut t.trans_issue,
            "valu_latency" => &mut t.valu_latency,
            "trans_latency" => &mut t.trans_latency,
            "f64_latency" => &mut t.f64_latency,
            "quarter_latency" => &mut t.quarter_latency,
            "salu_latency" => &mut t.salu_latency,
            "lds_issue" => &mut t.lds_issue,
            "lds_latency" => &mut t.lds_latency,
            "vmem_issue" => &mut t.vmem_issue,
            "vmem_latency" => &mut t.vmem_latency,
            "l0_latency" => &mut t.l0_latency,
            "l1_latency" => &mut t.l1_latency,
            "l2_latency" => &mut t.l2_latency,
            "mall_latency" => &mut t.mall_latency,
            "vram_latency" => &mut t.vram_latency,
            "kcache_hit" => &mut self.kcache.hit_latency,
            "kcache_miss" => &mut self.kcache.miss_latency,
            "gds_issue" => &mut t.gds_issue,
            "gds_latency" => &mut t.gds_latency,
            "gws_latency" => &mut t.gws_latency,
            _ => return None,
        })
    }

    /// Every timing parameter in effect, by name (cycles).
    pub fn timing_entries(&self) -> [(&'static str, u64); Self::TIMING_NAMES.len()] {
        let mut c = self.clone();
        std::array::from_fn(|i| {
            let name = Self::TIMING_NAMES[i];
            (name, *c.timing_slot(name).expect("every name has a slot"))
        })
    }

    /// Sets the timing parameter `name` (one of [`RunConfig::TIMING_NAMES`]) to `cycles`;
    /// `false` for an unknown name.
    pub fn set_timing(&mut self, name: &str, cycles: u64) -> bool {
        match self.timing_slot(name) {
            Some(slot) => {
                *slot = cycles;
                self.timing_chosen.push(
                    Self::TIMING_NAMES
                        .iter()
                        .find(|n| **n == name)
                        .copied()
                        .unwrap_or(""),
                );
                true
            }
            None => false,
        }
    }
}

impl Default for RunConfig {
    fn default() -> RunConfig {
        RunConfig {
            wave_size: 32,
            waves: 1,
            workgroups: 1,
            lds_size: 65536,
            lds_mode: LdsMode::Cu,
            align: AlignMode::Dword,
            gds_size: DEFAULT_GDS_BYTES,
            gws: GwsConfig::default(),
            ordered_rings: [None; ORDERED_COUNTERS],
            seed: 0,
            max_steps: 10_000_000,
            timing: TimingParams::default(),
            banks: BankModel::rdna3(),
            banks_chosen: false,
            timing_chosen: Vec::new(),
            chip: &crate::target::GFX1100,
            accum_offset: 0,
            kcache: KcacheConfig::default(),
            apertures: Apertures::default(),
            scratch_base: DEFAULT_SCRATCH_BASE,
            code_base: crate::loader::IMAGE_BASE,
            host: None,
            workgroup_ids: None,
            scratch_size: 0,
            memory_float_rules: MemoryFloatRules::default(),
            threads: 0,
            together: false,
            record_samples: false,
            progress: None,
            check: true,
            functional: false,
            lds_init: LdsInit::Zero,
            lds_variables: Vec::new(),
            wgps: 1,
            device: None,
            waves_per_simd: 0,
            record_timeline: false,
            release_finished: false,
            run_ahead: false,
            shard: None,
        }
    }
}

/// Statistics of one instruction of the program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InstStats {
    /// Times executed (all waves).
    pub executions: u64,
    /// Cycles spent issuing it (all waves).
    pub cycles: u64,
    /// Of those, cycles lost to LDS bank conflicts.
    pub conflict_cycles: u64,
    /// Cycles its waves stalled on it (`s_waitcnt`, barriers, LDS busy, GWS waits).
    pub stall_cycles: u64,
    /// Memory instructions: cycles from issue until the instruction completed (its data
    /// returned and its wait counter dropped), all executions.
    pub latency_cycles: u64,
    /// SMEM: scalar-cache line lookups that hit.
    pub cache_hits: u64,
    /// SMEM: scalar-cache line lookups that missed.
    pub cache_misses: u64,
    /// Vector memory: the cache lines its accesses touched and the level that served each
    /// (with a device whose vector caches are modelled: [`crate::vcache`]).
    pub lines: crate::vcache::LineCounts,
}

impl InstStats {
    /// These counts without their timing (a functional run's: `exec::functional`): the
    /// executions and the scalar cache's hits and misses.
    pub fn untimed(&self) -> InstStats {
        InstStats {
            executions: self.executions,
            cache_hits: self.cache_hits,
            cache_misses: self.cache_misses,
            ..InstStats::default()
        }
    }

    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &InstStats) {
        self.executions += other.executions;
        self.cycles += other.cycles;
        self.conflict_cycles += other.conflict_cycles;
        self.stall_cycles += other.stall_cycles;
        self.latency_cycles += other.latency_cycles;
        self.cache_hits += other.cache_hits;
        self.cache_misses += other.cache_misses;
        self.lines.add(&other.lines);
    }
}

/// A host thread the device calls while it runs ([`RunConfig::host`]).
pub trait HostService: Send + Sync + std::fmt::Debug {
    /// Looks at global memory and answers what the device asked (a wave sleeps: it may
    /// be waiting for the answer).
    fn service(&self, memory: &mut GlobalMemory);
    /// Forgets what earlier runs asked (a grid run starts).
    fn reset(&self);
}

/// Why a run stopped before every wave ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The executor does not implement an instruction.
    Unimplemented {
        /// Mnemonic.
        name: &'static str,
        /// Instruction index.
        pc: usize,
        /// Source line.
        line: usize,
        /// Why, when more is known than that the executor lacks it (another chip's
        /// instruction that is not lowered yet: `crate::target`).
        why: Option<String>,
    },
    /// A wave executed `max_steps` instructions and had not ended.
    StepLimit {
        /// The limit.
        steps: u64,
        /// The wave (index in creation order).
        wave: u32,
        /// Its workgroup.
        workgroup: u32,
        /// The instruction it was about to execute.
        pc: usize,
    },
    /// A branch left the program.
    BadBranch {
        /// Instruction index of the branch.
        pc: usize,
        /// Source line.
        line: usize,
    },
    /// A computed jump (`s_setpc_b64`, `s_swappc_b64`) to an address where the program has no
    /// instruction.
    BadJump {
        /// Instruction index of the jump.
        pc: usize,
        /// Source line.
        line: usize,
        /// The address it jumped to.
        target: u64,
    },
    /// A wave executed `s_trap` (`__builtin_trap()`, a failed `assert`): the run stops, as
    /// the runtime stops a queue on a trap; the `trap` event says which lanes and where.
    Trap {
        /// Instruction index of the `s_trap`.
        pc: usize,
        /// Source line.
        line: usize,
        /// The wave (index in creation order).
        wave: u32,
        /// Its workgroup.
        workgroup: u32,
        /// The trap id (`s_trap`'s immediate).
        id: u32,
    },
    /// Every live wave is blocked; one line per blocked wave says what it waits for.
    Deadlock(Vec<String>),
    /// The configuration cannot be run.
    Config(String),
    /// The run was cancelled ([`RunProgress::cancel`]) after `steps` instructions.
    Interrupted {
        /// Instructions executed before it stopped.
        steps: u64,
    },
}

impl std::fmt::Display for RunError {
    /// An assembly program's form of [`RunError::describe`]: the instruction by its program
    /// line and index.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let line = match self {
            RunError::Unimplemented { line, .. }
            | RunError::BadBranch { line, .. }
            | RunError::BadJump { line, .. }
            | RunError::Trap { line, .. } => Some(*line),
            _ => None,
        };
        match self {
            RunError::Deadlock(waits) => {
                write!(
                    f,
                    "deadlock: every live wave is blocked: {}",
                    waits.join("; ")
                )
            }
            RunError::Config(m) => f.write_str(m),
            RunError::Interrupted { steps } => {
                write!(f, "interrupted after {steps} instructions")
            }
            e => f.write_str(&e.describe(&|pc| match line {
                Some(l) => format!("line {l} (pc {pc})"),
                None => format!("pc {pc}"),
            })),
        }
    }
}

impl RunError {
    /// The message with each instruction it names given by `at` (from the instruction's
    /// index): a kernel's report names an instruction by its `llvm-objdump-19` address and
    /// source line, where `Display` names it by its program line and index (an assembly
    /// program's own lines).
    pub fn describe(&self, at: &dyn Fn(usize) -> String) -> String {
        match self {
            RunError::Unimplemented { name, pc, why, .. } => match why {
                Some(why) => format!("{}: instruction `{name}` does not run: {why}", at(*pc)),
                None => format!(
                    "{}: instruction `{name}` is not implemented by the executor",
                    at(*pc)
                ),
            },
            RunError::StepLimit {
                steps,
                wave,
                workgroup,
                pc,
            } => format!(
                "wave {wave} (workgroup {workgroup}) was stopped at {} after {steps} instructions: \
                 it may loop forever (the limit is per wave: raise it with --max-steps)",
                at(*pc)
            ),
            RunError::BadBranch { pc, .. } => {
                format!("{}: branch target is outside the program", at(*pc))
            }
            RunError::BadJump { pc, target, .. } => format!(
                "{}: jump to {target:#x}, where the program has no instruction",
                at(*pc)
            ),
            RunError::Trap {
                pc,
                wave,
                workgroup,
                id,
                ..
            } => format!(
                "{}: wave {wave} (workgroup {workgroup}) executed s_trap {id:#x}: the kernel trapped (__builtin_trap or a failed assert)",
                at(*pc)
            ),
            // Named by no instruction: the same text either way.
            other => other.to_string(),
        }
    }
}

impl std::error::Error for RunError {}

/// Placement statistics of two device parts that ran side by side (on different WGPs, at
/// the same simulated time): the most resident workgroups add up.
fn merge_placement(a: PlacementStats, b: PlacementStats) -> PlacementStats {
    PlacementStats {
        wgps: a.wgps.max(b.wgps),
        waves_per_simd: a.waves_per_simd.max(b.waves_per_simd),
        max_resident_waves_per_simd: a
            .max_resident_waves_per_simd
            .max(b.max_resident_waves_per_simd),
        max_resident_workgroups: a.max_resident_workgroups + b.max_resident_workgroups,
    }
}

/// An outstanding memory operation of a wave.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    pub counter: Counter,
    pub done_at: u64,
    /// A GDS/GWS operation (the GWS programming rules look for these).
    pub gds: bool,
    /// How much it adds to its counter (a multi-dword SMEM load counts 2).
    pub weight: u32,
}

/// A wave's operations of one in-order kind, in issue order — LDS operations on LGKMcnt (DS,
/// including GDS, and FLAT; the device's `lds_ops`), vector loads on VMcnt, LDS parameter and
/// direct loads on EXPcnt (`exec::inflight`): operation `k` (0-based) is complete, as far as
/// the program can know, once `waited > k`.
///
/// Operations of one kind return in order (docs/rules/timing.md#wait-counters; LGKM_CNT is
/// out of order only across types, so LDS operations stay in order whatever SMEM does), so
/// while operation `k` is outstanding every later one is too: `s_waitcnt xcnt(N)` leaves at
/// most N outstanding, hence proves every operation with at least N later ones complete.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct OrderedOps {
    /// Operations issued.
    pub issued: u64,
    /// Operations a wait has proven complete (the first `waited` issued).
    pub waited: u64,
}

/// Which wait counter an operation counts against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counter {
    Lgkm,
    Exp,
    /// Vector memory loads.
    Vm,
    /// Vector memory stores.
    Vs,
}

/// What a blocked wave waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// `s_barrier` at this instruction.
    Barrier {
        /// Instruction index.
        pc: usize,
    },
    /// A GWS semaphore or barrier resource.
    Gws {
        /// Resource id.
        rid: u32,
        /// Instruction index.
        pc: usize,
    },
    /// Its turn on an ordered-count counter.
    Ordered {
        /// Counter index.
        index: usize,
        /// Instruction index.
        pc: usize,
    },
    /// GWS answered NACK (resource id clamped): the wave rewound and stalls.
    Nack {
        /// The clamped resource id.
        rid: u32,
        /// Instruction index.
        pc: usize,
    },
}

/// The simulated device: its workgroups' waves and LDS, GDS, GWS, and what the run observed.
///
/// Configured by a [`RunConfig`] ([`Device::new`]); set up through the `_mut` accessors
/// ([`Device::wave_mut`], [`Device::lds_mut`], [`Device::memory_mut`], ...), run with
/// [`Device::run`], and inspected through the read accessors ([`Device::waves`],
/// [`Device::events`], [`Device::stats`], [`Device::totals`], [`Device::cycles`], ...).
pub struct Device {
    /// Each wave slot's shadow stack of calls: (call site, return address), outermost first
    /// (`exec::control`).
    call_stacks: Vec<Vec<(usize, u64)>>,
    /// The calls that ran: (call site, the instruction called), each once.
    calls: std::collections::BTreeSet<(usize, usize)>,
    /// Waves in creation order; with an initialiser, the resident waves in their slots
    /// (`exec::slots`).
    waves: Vec<Wave>,
    /// Each wave slot's workgroup slot.
    wave_group: Vec<usize>,
    /// Each workgroup slot's workgroup, counted from [`Device::first_group`] (see
    /// [`Device::workgroup_of`]).
    slot_group: Vec<u32>,
    /// The workgroups the device holds.
    group_count: u32,
    /// Makes waves as their workgroups start (`None`: every wave was made up front).
    wave_init: Option<WaveInit>,
    /// What making a wave needs.
    spawn: slots::Spawn,
    /// What the waves that left reused slots left.
    retired: slots::Retired,
    /// The part the run stands for ([`RunConfig::device`]).
    preset: Option<&'static crate::preset::DevicePreset>,
    /// The grid index of the device's first workgroup (0 unless the device holds a part of
    /// the grid).
    first_group: u32,
    /// [`RunConfig::workgroup_ids`].
    workgroup_ids: Option<Arc<[u32]>>,
    /// Each workgroup slot's LDS.
    lds: Vec<Lds>,
    /// The allocation every workgroup gets.
    alloc: LdsAllocation,
    /// The device GDS.
    gds: Gds,
    /// The GWS resources.
    gws: Gws,
    /// The ordered-count counters.
    ordered: OrderedCount,
    /// Events in the order they happened.
    events: Vec<Event>,
    /// Stores and atomics without return count on VMcnt (GFX9: [`RunConfig::chip`]).
    stores_on_vmcnt: bool,
    /// Per-instruction statistics, indexed like the program.
    stats: Vec<InstStats>,
    /// With [`RunConfig::record_samples`]: each DS instruction's costliest execution (the bank
    /// model's view of it), indexed like the program (`None` for instructions that made no
    /// LDS bank access); empty otherwise.
    ds_worst: Vec<Option<DsSample>>,
    /// With [`RunConfig::record_samples`] and the vector caches: each vector memory
    /// instruction's execution that requested the most cache lines; empty otherwise.
    vmem_worst: Vec<Option<VmemSample>>,
    /// Each wave's clock (cycles).
    clocks: Vec<u64>,
    /// Instructions executed.
    steps: u64,
    /// What each blocked wave waits for.
    waits: Vec<Option<Waiting>>,
    /// Global memory, shared with the host.
    memory: GlobalMemory,
    /// Each WGP's scalar data cache (one per workgroup until the run places them).
    kcache: Vec<ScalarCache>,
    /// The vector caches' shape, when the device models them ([`RunConfig::device`]).
    vcache: Option<crate::vcache::VcacheConfig>,
    /// Each WGP's vector caches (made as first used).
    vcaches: Vec<crate::vcache::WgpCaches>,
    /// The lines of the vector memory instruction being executed (kept to reuse its space).
    vcache_lines: Vec<u64>,
    /// Each wave's SMEM clause and group state.
    clauses: Vec<ClauseTracker>,
    /// Each wave's SMEM data not yet arrived in its SGPRs.
    sgpr_returns: Vec<Vec<SgprWrite>>,
    /// Each wave's registers with SMEM data not yet arrived (bit = operand code).
    sgpr_late: Vec<u128>,
    /// The scalar registers each instruction of the program reads (filled on first use).
    read_masks: Vec<Option<u128>>,
    /// Reused SMEM outcome.
    smem_out: SmemOutcome,
    pending: Vec<Vec<Pending>>,
    /// Per wave: when its next pending operation completes, as of its last count
    /// (`u64::MAX`: none), or 0 after an operation was added (the next
    /// [`Device::update_counters`] counts again). Until then its counters cannot change, and
    /// the count is skipped without reading `pending`.
    pending_next: Vec<u64>,
    /// Each wave's LGKM-counted LDS operations (DS and FLAT), issued and known complete.
    lds_ops: Vec<OrderedOps>,
    /// Each wave's VGPR data in flight.
    inflight: Vec<inflight::InFlight>,
    /// The checker's state ([`RunConfig::check`]: LDS shadows, barrier generations, the
    /// global race logs).
    checker: lds_check::Checker,
    /// The VGPRs each instruction of the program touches (filled on first use).
    vgpr_masks: Vec<Option<inflight::Touched>>,
    /// When the last memory operation issued completes, its counter and its position
    /// among that counter's operations of its wave.
    last_issue: (u64, Counter, u64),
    rng: u64,
    /// Whether queued clocks get a jitter.
    seeded: bool,
    /// Waves in each workgroup (wave `i` is in workgroup `i / group_waves`).
    group_waves: usize,
    /// Runnable waves by (clock + jitter, order), where the order is the wave id above its
    /// slot ([`Device::order_of`]): ties go to the lower wave id, whatever slot it holds. A
    /// wave that has ended or blocked since it was queued is dropped when it comes first.
    ready: ready::ReadyQueue,
    /// Whether any wave has waited for its ordered-count turn (see [`Device::wake_ordered`]).
    ordered_waited: bool,
    /// With [`RunConfig::record_timeline`]: each wave's segments.
    timeline: Option<Timeline>,
    /// Placement statistics of device parts run apart and absorbed.
    placement_stats: PlacementStats,
    /// Where workgroups and waves run (made when the run starts).
    placement: Option<placement::Placement>,
    /// The shared units and when each is free.
    units: units::Units,
    /// Each wave's register readiness and `s_delay_alu` declarations.
    scoreboards: Vec<deps::Scoreboard>,
    /// What each instruction of the program reads and writes, its unit, ... (worked out for
    /// the whole program when a run starts: one look-up per use, no check for a first one).
    facts: std::sync::Arc<[issue::IssueFacts]>,
    /// The DS outcome buffer, lent to each DS instruction (`Device::ds`).
    ds_outcome: Option<Box<crate::ds::DsOutcome>>,
    /// The bank model's answers for the accesses the run has priced (cleared when a run
    /// starts: its bank model may be another).
    bank_memo: access_memo::AccessMemo<Option<(u64, u64)>>,
    /// Each VALU (VOP1/VOP2/VOPC/VOP3, VOPD) instruction of the program decoded for
    /// execution (filled on first use).
    valu: Vec<Option<valu::Decoded>>,
    /// How the program's `s_delay_alu` declarations compared with the model's latencies.
    delay_alu: DelayAluStats,
    /// Whether each wave's workgroup has started.
    started: Vec<bool>,
    /// Whether each wave's next instruction has its unit booked (`Device::hold_back`).
    booked: Vec<bool>,
    /// The run's timing parameters.
    timing: TimingParams,
    /// [`RunConfig::release_finished`], with what starting a workgroup's LDS needs.
    release_finished: bool,
    lds_init: LdsInit,
    check_lds_trace: bool,
    /// [`RunConfig::functional`]: no timing, no observers (`exec::functional`).
    functional: bool,
    /// LDS storage of finished workgroups ([`Lds::release`]), zeroed, for the next to start.
    spare_lds: Vec<Vec<u8>>,
    /// With a timeline: each wave's last segment and its entry in the timeline's waves.
    last_segment: Vec<Option<usize>>,
    life: Vec<Option<usize>>,
    /// Steps every instruction through the general step, never the short path
    /// (`exec::quick`): the tests hold the short path to it.
    pub(crate) general_only: bool,
}

impl Device {
    /// A device for `cfg`, waves initialised as the `run` command defines (v0 = work-item id
    /// = lane + wave-in-group × wave size; s0 = workgroup id; everything else 0, EXEC all ones).
    pub fn new(cfg: &RunConfig, program_len: usize) -> Result<Device, RunError> {
        Device::check(cfg)?;
        Device::with_groups(cfg, program_len, 0..cfg.workgroups, None)
    }

    /// A device for `cfg`'s grid whose waves `init` sets up (given each wave's workgroup):
    /// with [`RunConfig::release_finished`], made as their workgroups start and released when
    /// they end, so memory follows the resident workgroups; otherwise, or for a program that
    /// uses a device-wide unit (its ordered-count turns follow every wave), all made and set
    /// up now.
    pub fn with_init(
        cfg: &RunConfig,
        program: &[AsmLine],
        init: WaveInit,
    ) -> Result<Device, RunError> {
        Device::check(cfg)?;
        grid::made(program, cfg, &init, 0..cfg.workgroups)
    }

    /// Whether `cfg` can be run.
    pub(crate) fn check(cfg: &RunConfig) -> Result<(), RunError> {
        if cfg.wave_size != 32 && cfg.wave_size != 64 {
            return Err(RunError::Config(format!(
                "wave size must be 32 or 64, not {}",
                cfg.wave_size
            )));
        }
        if cfg.waves == 0 || cfg.waves > 32 {
            return Err(RunError::Config(format!(
                "a workgroup has 1 to 32 waves, not {}",
                cfg.waves
            )));
        }
        if cfg.workgroups == 0 {
            return Err(RunError::Config(
                "the device runs at least one workgroup, not 0".into(),
            ));
        }
        // Wave ids are 32 bits: wave `i` of workgroup `g` is `g × waves + i`.
        if u64::from(cfg.workgroups) * u64::from(cfg.waves) > 1 << 32 {
            return Err(RunError::Config(format!(
                "{} workgroups of {} waves: a grid has at most 2^32 waves",
                cfg.workgroups, cfg.waves
            )));
        }
        // Checked: base + size of two 32-bit values can pass 2^32.
        let gws_end = u64::from(cfg.gws.base) + u64::from(cfg.gws.size);
        if cfg.gws.size == 0 || gws_end > u64::from(crate::gws::GWS_RESOURCES) {
            return Err(RunError::Config(format!(
                "the VMID's GWS range {}..{gws_end} (base {}, size {}) must be inside the {} resources",
                cfg.gws.base,
                cfg.gws.base,
                cfg.gws.size,
                crate::gws::GWS_RESOURCES
            )));
        }
        if cfg.wgps == 0 || cfg.wgps > MAX_WGPS {
            return Err(RunError::Config(format!(
                "wgps: a device has 1 to {MAX_WGPS} WGPs, not {}",
                cfg.wgps
            )));
        }
        if cfg.threads > MAX_THREADS {
            return Err(RunError::Config(format!(
                "threads: {} host threads asked for; at most {MAX_THREADS} (each clones global memory)",
                cfg.threads
            )));
        }
        for (name, v) in cfg.timing_entries() {
            if v > MAX_TIMING_CYCLES {
                return Err(RunError::Config(format!(
                    "timing parameter {name} is {v} cycles; at most {MAX_TIMING_CYCLES} (2^32), so that cycle counters cannot overflow"
                )));
            }
        }
        let max_lane = max_scratch_per_lane(cfg.wave_size);
        if cfg.scratch_size > max_lane {
            return Err(RunError::Config(format!(
                "scratch size {} bytes per lane is more than gfx1100 allows a wave{} lane: {max_lane} (COMPUTE_TMPRING_SIZE.WAVESIZE, {MAX_WAVE_SCRATCH_BYTES} bytes per wave)",
                cfg.scratch_size, cfg.wave_size
            )));
        }
        // The grid's scratch: every wave's region, wave 0's at scratch_base.
        let all_waves = u64::from(cfg.workgroups) * u64::from(cfg.waves);
        let scratch_end = all_waves
            .checked_mul(u64::from(cfg.wave_size) * u64::from(cfg.scratch_size))
            .and_then(|n| cfg.scratch_base.checked_add(n));
        let limit = 1u64 << crate::addr::ADDRESS_BITS;
        if cfg.scratch_base >= limit || scratch_end.is_none_or(|e| e > limit) {
            return Err(RunError::Config(format!(
                "scratch base {:#x}: the grid's scratch ({all_waves} waves × {} lanes × {} bytes) runs past the 48-bit address space ({limit:#x})",
                cfg.scratch_base, cfg.wave_size, cfg.scratch_size
            )));
        }
        LdsAllocation::new(cfg.lds_size, cfg.lds_mode).map_err(RunError::Config)?;
        ScalarCache::new(cfg.kcache).map_err(RunError::Config)?;
        Ok(())
    }

    /// A device holding workgroups `groups` of the grid `cfg` describes: wave ids, `s0` and
    /// scratch regions are those of the whole grid, so the workgroups run alone exactly as
    /// they run beside the others.
    pub(crate) fn with_groups(
        cfg: &RunConfig,
        program_len: usize,
        groups: std::ops::Range<u32>,
        init: Option<WaveInit>,
    ) -> Result<Device, RunError> {
        let alloc = LdsAllocation::new(cfg.lds_size, cfg.lds_mode).map_err(RunError::Config)?;
        let kcache = ScalarCache::new(cfg.kcache).map_err(RunError::Config)?;
        let spawn = slots::Spawn::of(cfg);
        let mut waves = Vec::new();
        let mut wave_group = Vec::new();
        let count = groups.len();
        // With an initialiser, waves are made as their workgroups start (exec::slots).
        let up_front = if init.is_some() { 0..0 } else { groups.clone() };
        for g in up_front.clone() {
            for i in 0..cfg.waves {
                waves.push(spawn.wave(g, i, Vec::new()));
                wave_group.push((g - groups.start) as usize);
            }
        }
        let n = waves.len();
        Ok(Device {
            waves,
            wave_group,
            slot_group: (0..up_front.len() as u32).collect(),
            group_count: count as u32,
            wave_init: init,
            spawn,
            retired: slots::Retired::default(),
            preset: cfg.device,
            first_group: groups.start,
            workgroup_ids: cfg.workgroup_ids.clone(),
            lds: up_front
                .clone()
                .map(|g| {
                    if cfg.release_finished {
                        // Made when the workgroup starts (`Device::start_group`).
                        return Lds::unallocated(cfg.lds_mode, cfg.align);
                    }
                    let mut lds = Lds::new(cfg.lds_mode, cfg.align);
                    lds.initialize(alloc, cfg.lds_init, g);
                    if cfg.checks() {
                        lds.trace = Some(Vec::new());
                    }
                    lds
                })
                .collect(),
            alloc,
            gds: Gds::new(cfg.gds_size),
            gws: Gws::new(cfg.gws),
            ordered: OrderedCount::new(n, cfg.ordered_rings),
            events: Vec::new(),
            stores_on_vmcnt: cfg.chip.stores_on_vmcnt,
            stats: vec![InstStats::default(); program_len],
            ds_worst: if cfg.record_samples {
                vec![None; program_len]
            } else {
                Vec::new()
            },
            vmem_worst: if cfg.record_samples {
                vec![None; program_len]
            } else {
                Vec::new()
            },
            clocks: vec![0; n],
            steps: 0,
            waits: vec![None; n],
            memory: GlobalMemory::new(),
            kcache: vec![kcache; up_front.len().max(1)],
            vcache: cfg
                .device
                .and_then(|d| d.vcache)
                .filter(|_| !cfg.functional),
            vcaches: Vec::new(),
            vcache_lines: Vec::new(),
            clauses: vec![ClauseTracker::default(); n],
            sgpr_returns: vec![Vec::new(); n],
            sgpr_late: vec![0; n],
            read_masks: vec![None; program_len],
            smem_out: SmemOutcome::default(),
            pending: vec![Vec::new(); n],
            pending_next: vec![0; n],
            lds_ops: vec![OrderedOps::default(); n],
            inflight: vec![inflight::InFlight::default(); n],
            checker: lds_check::Checker::new(
                cfg.checks(),
                up_front.len(),
                cfg.waves as usize,
                &cfg.lds_variables,
            ),
            vgpr_masks: vec![None; program_len],
            last_issue: (0, Counter::Lgkm, 0),
            rng: cfg.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1,
            group_waves: cfg.waves as usize,
            ready: ready::ReadyQueue::default(),
            seeded: cfg.seed != 0,
            ordered_waited: false,
            timeline: (cfg.record_timeline && !cfg.functional).then(Timeline::default),
            call_stacks: Vec::new(),
            calls: std::collections::BTreeSet::new(),
            placement_stats: PlacementStats::default(),
            placement: None,
            units: units::Units::default(),
            scoreboards: vec![deps::Scoreboard::default(); n],
            facts: Vec::new().into(),
            ds_outcome: None,
            bank_memo: access_memo::AccessMemo::default(),
            valu: vec![None; program_len],
            delay_alu: DelayAluStats::default(),
            started: vec![false; n],
            booked: vec![false; n],
            timing: cfg.timing,
            release_finished: cfg.release_finished,
            lds_init: cfg.lds_init,
            check_lds_trace: cfg.checks(),
            functional: cfg.functional,
            spare_lds: Vec::new(),
            last_segment: vec![None; n],
            life: vec![None; n],
            general_only: false,
        })
    }

    /// Appends the waves and workgroups of `o`, a device holding the workgroups that follow
    /// `self`'s, and adds its statistics to `self`'s. Global memory and the device-wide
    /// units stay `self`'s.
    pub(crate) fn absorb(&mut self, o: Device) {
        self.placement_stats = merge_placement(self.placement(), o.placement());
        self.placement = None;
        let slots = self.slot_group.len();
        let offset = o.first_group - self.first_group;
        self.waves.extend(o.waves);
        self.wave_group
            .extend(o.wave_group.into_iter().map(|g| g + slots));
        self.slot_group
            .extend(o.slot_group.into_iter().map(|g| g + offset));
        self.group_count += o.group_count;
        self.retired.add(&o.retired);
        self.lds.extend(o.lds);
        self.events.extend(o.events);
        self.calls.extend(o.calls);
        self.absorb_ds_samples(o.ds_worst);
        self.absorb_vmem_samples(o.vmem_worst);
        for (s, x) in self.stats.iter_mut().zip(&o.stats) {
            s.add(x);
        }
        self.clocks.extend(o.clocks);
        self.steps += o.steps;
        self.waits.extend(o.waits);
        self.kcache.extend(o.kcache);
        self.clauses.extend(o.clauses);
        self.sgpr_returns.extend(o.sgpr_returns);
        self.sgpr_late.extend(o.sgpr_late);
        for (m, x) in self.read_masks.iter_mut().zip(o.read_masks) {
            if m.is_none() {
                *m = x;
            }
        }
        self.pending.extend(o.pending);
        self.pending_next.extend(o.pending_next);
        self.lds_ops.extend(o.lds_ops);
        self.inflight.extend(o.inflight);
        self.checker.absorb(o.checker);
        for (m, x) in self.vgpr_masks.iter_mut().zip(o.vgpr_masks) {
            if m.is_none() {
                *m = x;
            }
        }
        self.ordered_waited |= o.ordered_waited;
        self.units.absorb(&o.units);
        self.scoreboards.extend(o.scoreboards);
        self.delay_alu.absorb(&o.delay_alu);
        self.started.extend(o.started);
        self.booked.extend(o.booked);
        self.absorb_timeline(o.timeline);
        self.last_segment.extend(o.last_segment);
        self.life.extend(o.life);
    }

    /// Every wave, in creation order (workgroup by workgroup). A launch's device (one made
    /// with a [`WaveInit`]) holds only its wave slots: the waves of the workgroups that ran
    /// last in each; [`Device::wave_count`] counts them all.
    pub fn waves(&self) -> &[Wave] {
        &self.waves
    }

    /// Every wave, to set up before a run (registers, EXEC, MODE, ...).
    pub fn waves_mut(&mut self) -> &mut [Wave] {
        &mut self.waves
    }

    /// Wave `i` (in creation order).
    pub fn wave(&self, i: usize) -> &Wave {
        &self.waves[i]
    }

    /// Wave `i`, to set up before a run (`dev.wave_mut(0).set_vgpr(1, lane, v)`).
    pub fn wave_mut(&mut self, i: usize) -> &mut Wave {
        &mut self.waves[i]
    }

    /// Each wave's workgroup, counted from [`Device::first_group`] (see
    /// [`Device::workgroup_of`]); with an initialiser, each resident slot's.
    pub fn wave_groups(&self) -> Vec<usize> {
        self.wave_group
            .iter()
            .map(|&s| self.slot_group[s] as usize)
            .collect()
    }

    /// Lanes per wave (32 or 64).
    pub fn wave_size(&self) -> u32 {
        self.spawn.wave_size
    }

    /// Waves the run made (every wave of the grid once it has run).
    pub fn wave_count(&self) -> u64 {
        self.retired.waves + self.waves.len() as u64
    }

    /// Every wave's final clock, added up.
    pub fn wave_clock_sum(&self) -> u64 {
        self.retired.clock_sum + self.clocks.iter().sum::<u64>()
    }

    /// The grid index of the device's first workgroup (0 unless the device holds a part of
    /// the grid).
    pub fn first_group(&self) -> u32 {
        self.first_group
    }

    /// How many workgroups the device holds.
    pub fn workgroup_count(&self) -> usize {
        self.group_count as usize
    }

    /// Workgroup `g`'s LDS (counted from [`Device::first_group`]).
    pub fn lds(&self, g: usize) -> &Lds {
        &self.lds[g]
    }

    /// Workgroup `g`'s LDS, to fill before a run.
    pub fn lds_mut(&mut self, g: usize) -> &mut Lds {
        &mut self.lds[g]
    }

    /// The LDS allocation every workgroup gets.
    pub fn alloc(&self) -> LdsAllocation {
        self.alloc
    }

    /// The device's GDS.
    pub fn gds(&self) -> &Gds {
        &self.gds
    }

    /// The device's GDS, to fill before a run.
    pub fn gds_mut(&mut self) -> &mut Gds {
        &mut self.gds
    }

    /// The GWS resources.
    pub fn gws(&self) -> &Gws {
        &self.gws
    }

    /// The GWS resources, to initialise before a run.
    pub fn gws_mut(&mut self) -> &mut Gws {
        &mut self.gws
    }

    /// The ordered-count counters.
    pub fn ordered(&self) -> &OrderedCount {
        &self.ordered
    }

    /// The ordered-count counters, to initialise before a run.
    pub fn ordered_mut(&mut self) -> &mut OrderedCount {
        &mut self.ordered
    }

    /// The events of the run, in the order they happened.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The event log, for the crate's tests and the launch (which adds what the host
    /// learnt to an event) to change.
    pub(crate) fn events_mut(&mut self) -> &mut Vec<Event> {
        &mut self.events
    }

    /// The calls that ran (`s_swappc_b64`, `s_call_b64`): (call site, first instruction of
    /// the function called), as program indices, each once, in order.
    pub fn calls(&self) -> &std::collections::BTreeSet<(usize, usize)> {
        &self.calls
    }

    /// Per-instruction statistics, indexed like the program.
    pub fn stats(&self) -> &[InstStats] {
        &self.stats
    }

    /// With [`RunConfig::record_samples`]: each DS instruction's costliest execution (the bank
    /// model's view of it), indexed like the program (`None` for instructions that made no
    /// LDS bank access); empty otherwise.
    pub fn ds_worst(&self) -> &[Option<DsSample>] {
        &self.ds_worst
    }

    /// With [`RunConfig::record_samples`] on a device with vector caches: each vector memory
    /// instruction's execution that requested the most cache lines, with each line's lanes
    /// and level (the coalescing picture), indexed like the program; empty otherwise.
    pub fn vmem_worst(&self) -> &[Option<VmemSample>] {
        &self.vmem_worst
    }

    /// With [`RunConfig::record_timeline`]: each wave's issue, stall and wait segments, the
    /// LDS pipes' busy periods and the critical path; `None` otherwise.
    pub fn timeline(&self) -> Option<&Timeline> {
        self.timeline.as_ref()
    }

    /// Where the run placed workgroups and waves, and the most resident at once
    /// (`--json`'s `"placement"`).
    pub fn placement(&self) -> PlacementStats {
        match &self.placement {
            Some(p) => merge_placement(p.stats(), self.placement_stats),
            None => self.placement_stats,
        }
    }

    /// Busy cycles of each kind of unit (`--json`'s `"units"`).
    pub fn unit_busy(&self) -> UnitBusy {
        self.units.busy()
    }

    /// Whose cache hierarchy the device models (what its levels are called), if it models
    /// one ([`crate::vcache`]).
    pub fn vcache_family(&self) -> Option<crate::vcache::Family> {
        self.vcache.map(|c| c.family)
    }

    /// The vector caches' shape and every instruction's cache lines added up, when the device
    /// models them ([`crate::vcache`]).
    pub fn vcache_totals(
        &self,
    ) -> Option<(crate::vcache::VcacheConfig, crate::vcache::LineCounts)> {
        let c = self.vcache?;
        let mut t = crate::vcache::LineCounts::default();
        for s in &self.stats {
            t.add(&s.lines);
        }
        Some((c, t))
    }

    /// How the program's `s_delay_alu` declarations compared with the model's dependency
    /// latencies (docs/rules/timing.md#dependencies).
    pub fn delay_alu(&self) -> &DelayAluStats {
        &self.delay_alu
    }

    /// Each wave's clock (cycles), indexed like [`Device::waves`].
    pub fn clocks(&self) -> &[u64] {
        &self.clocks
    }

    /// Instructions executed (all waves).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// What each blocked wave waits for (`None`: not blocked).
    pub fn waits(&self) -> &[Option<Waiting>] {
        &self.waits
    }

    /// Global memory, shared with the host.
    pub fn memory(&self) -> &GlobalMemory {
        &self.memory
    }

    /// Global memory, to fill before a run (and read back after it).
    pub fn memory_mut(&mut self) -> &mut GlobalMemory {
        &mut self.memory
    }

    /// Each WGP's scalar data cache, shared by the workgroups it runs.
    pub fn kcache(&self) -> &[ScalarCache] {
        &self.kcache
    }

    /// The grid index of wave `wi`'s workgroup.
    pub fn workgroup_of(&self, wi: usize) -> u32 {
        self.first_group + self.slot_group[self.wave_group[wi]]
    }

    /// The grid's number of wave `wi`'s workgroup, as messages name it: its index, or for a
    /// sampled launch the workgroup of the grid it stands for ([`RunConfig::workgroup_ids`]).
    pub fn grid_workgroup(&self, wi: usize) -> u32 {
        let g = self.workgroup_of(wi);
        self.workgroup_ids
            .as_ref()
            .and_then(|ids| ids.get(g as usize).copied())
            .unwrap_or(g)
    }

    /// Whether the device ran functionally ([`RunConfig::functional`]): no timing, so its
    /// cycles and every instruction's timing statistics are zero; executions are counted.
    pub fn functional(&self) -> bool {
        self.functional
    }

    /// The part the run stands for, if one was named ([`RunConfig::device`]).
    pub fn preset(&self) -> Option<&'static crate::preset::DevicePreset> {
        self.preset
    }

    /// Total cycles: the latest wave clock.
    pub fn cycles(&self) -> u64 {
        if self.functional {
            // Its clocks only order its waves' turns (`exec::functional`).
            return 0;
        }
        let now = self.clocks.iter().copied().max().unwrap_or(0);
        now.max(self.retired.clock_max)
    }

    /// Scales every instruction's figures by `num / den` (rounded to nearest): a sampled
    /// launch's stand for the whole grid ([`crate::launch::Launch::sample`]).
    pub fn scale_stats(&mut self, num: u64, den: u64) {
        let scale = |v: &mut u64| {
            *v = ((u128::from(*v) * u128::from(num) + u128::from(den / 2)) / u128::from(den.max(1)))
                .min(u128::from(u64::MAX)) as u64;
        };
        for s in &mut self.stats {
            for v in [
                &mut s.executions,
                &mut s.cycles,
                &mut s.conflict_cycles,
                &mut s.stall_cycles,
                &mut s.latency_cycles,
                &mut s.cache_hits,
                &mut s.cache_misses,
                &mut s.lines.requests,
                &mut s.lines.writes,
            ] {
                scale(v);
            }
            s.lines.served.iter_mut().for_each(scale);
        }
    }

    /// Every instruction's statistics added up: wave-instructions executed, issue cycles,
    /// conflict, stall and latency cycles, scalar-cache hits and misses (all waves).
    pub fn totals(&self) -> InstStats {
        let mut t = InstStats::default();
        for s in &self.stats {
            t.add(s);
        }
        t
    }

    /// Scalar-cache counts of every workgroup together.
    pub fn kcache_stats(&self) -> KcacheStats {
        let mut t = KcacheStats::default();
        for c in &self.kcache {
            t.hits += c.stats.hits;
            t.misses += c.stats.misses;
            t.invalidations += c.stats.invalidations;
        }
        t
    }

    fn jitter(&mut self) -> u64 {
        if !self.seeded {
            return 0;
        }
        // xorshift64*
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d) % SEED_JITTER
    }

    /// Queues wave `wi` at its current clock (plus the seed's jitter), replacing any entry it
    /// had.
    #[inline(always)]
    pub(crate) fn queue(&mut self, wi: usize) {
        let key = self.clocks[wi] + self.jitter();
        let order = self.order_of(wi);
        self.ready.set(key, order);
    }

    /// Wave slot `wi`'s place among waves queued at one clock: its wave id, then the slot.
    fn order_of(&self, wi: usize) -> u64 {
        u64::from(self.waves[wi].id) << 32 | wi as u64
    }

    /// Unblocks wave `wi` and queues it.
    pub(crate) fn wake(&mut self, wi: usize) {
        self.waits[wi] = None;
        self.queue(wi);
    }

    /// The runnable wave to step next, or `None` when no wave can run: the first of the
    /// queue, once the waves that ended or blocked since they were queued are dropped. It
    /// stays queued while it runs (`exec::ready`).
    #[inline(always)]
    fn next_wave(&mut self) -> Option<usize> {
        while let Some(wi) = self.ready.first() {
            if !self.waves[wi].done && self.waits[wi].is_none() {
                return Some(wi);
            }
            self.ready.remove(wi);
        }
        None
    }

    /// Whether wave `wi`, just held back for its unit, issues its instruction now rather
    /// than queueing again ([`RunConfig::run_ahead`]). It would issue at the booked cycle with
    /// no further check; issuing it now changes nothing another wave sees when the instruction
    /// issues to the SIMD's VALU or SALU (work on the wave's own registers), the wave has no
    /// memory data on its way (landing it could report a finding among other waves'), and no
    /// seed's jitter or timeline records the order of the steps.
    fn runs_ahead(&self, wi: usize, cfg: &RunConfig) -> bool {
        let facts = self.facts.get(self.waves[wi].pc);
        cfg.run_ahead
            && self.booked[wi]
            && !self.seeded
            && self.timeline.is_none()
            && facts.is_some_and(issue::IssueFacts::on_simd_alu)
            && self.nothing_in_flight(wi)
    }

    /// Runs `program` until every wave ends.
    pub fn run(&mut self, program: &[AsmLine], cfg: &RunConfig) -> Result<(), RunError> {
        let facts = issue::program_facts(program, &cfg.timing, self.functional);
        self.run_with_facts(program, facts, cfg)
    }

    /// [`Device::run`] with the program's facts already worked out
    /// ([`issue::program_facts`] of `program` under `cfg`): the blocks of a grid run apart
    /// share one table.
    pub(crate) fn run_with_facts(
        &mut self,
        program: &[AsmLine],
        facts: std::sync::Arc<[issue::IssueFacts]>,
        cfg: &RunConfig,
    ) -> Result<(), RunError> {
        self.facts = facts;
        let mut mark = progress::ProgressMark::at(self.steps);
        let result = self.run_steps(program, cfg, &mut mark);
        if let Some(p) = &cfg.progress {
            mark.report(p, self.steps);
        }
        result
    }

    fn run_steps(
        &mut self,
        program: &[AsmLine],
        cfg: &RunConfig,
        mark: &mut progress::ProgressMark,
    ) -> Result<(), RunError> {
        let code = control::CodeMap::new(program, cfg.code_base);
        self.bank_memo.clear();
        self.ready.clear();
        self.place(program, cfg);
        for i in 0..self.waves.len() {
            if self.started[i] && !self.waves[i].done && self.waits[i].is_none() {
                self.queue(i);
            }
        }
        if self.functional {
            return self.run_functional(program, cfg, &code, mark);
        }
        loop {
            if let Some(p) = self.placement.as_mut() {
                p.recycle();
            }
            let Some(wi) = self.next_wave() else {
                return self.no_wave_left(program);
            };
            let pc = self.waves[wi].pc;
            // The unit the instruction issues to, worked out once for the hold and the step.
            let unit = self.unit_use(wi, pc);
            if pc < program.len() {
                match self.hold_back(wi, pc, unit) {
                    issue::Hold::Issue => {}
                    issue::Hold::Later if !self.runs_ahead(wi, cfg) => {
                        self.queue(wi);
                        continue;
                    }
                    issue::Hold::Later => {}
                }
            }
            self.count_step(wi, cfg, mark)?;
            if pc >= program.len() {
                self.run_off_end(wi, pc);
                mark.ended += 1;
                continue;
            }
            let (first_event, at) = (self.events.len(), self.clocks[wi]);
            let stepped = match self.facts[pc].fast {
                Some(f) if self.quick() => {
                    self.quick_step(wi, pc, &program[pc], f, cfg, &code.targets, unit)
                }
                _ => self.step(wi, pc, program, cfg, &code, unit),
            };
            for e in &mut self.events[first_event..] {
                e.cycle = at;
            }
            stepped?;
            if self.waves[wi].done {
                mark.ended += 1;
            } else if self.waits[wi].is_none() {
                self.queue(wi);
            }
        }
    }

    /// When no wave can run: the run's end if every wave ended, else a deadlock.
    fn no_wave_left(&mut self, program: &[AsmLine]) -> Result<(), RunError> {
        if self.waves.iter().all(|w| w.done) {
            self.finish_timeline();
            return Ok(());
        }
        Err(RunError::Deadlock(self.describe_waits(program)))
    }

    /// Counts a step of wave `wi`: stops a runaway wave at [`RunConfig::max_steps`], and
    /// reports progress (and stops a cancelled run) every [`PROGRESS_STEPS`] steps.
    #[inline(always)]
    fn count_step(
        &mut self,
        wi: usize,
        cfg: &RunConfig,
        mark: &mut progress::ProgressMark,
    ) -> Result<(), RunError> {
        if self.waves[wi].steps >= cfg.max_steps {
            return Err(RunError::StepLimit {
                steps: cfg.max_steps,
                wave: self.waves[wi].id,
                workgroup: self.grid_workgroup(wi),
                pc: self.waves[wi].pc,
            });
        }
        self.waves[wi].steps += 1;
        self.steps += 1;
        self.report_progress(self.steps - 1, cfg, mark)
    }

    /// Reports progress (and stops a cancelled run) when the step count passed a multiple of
    /// [`PROGRESS_STEPS`] since `before`: for [`Device::count_step`] after each step, and for
    /// a functional turn after each stretch of steps.
    #[inline(always)]
    fn report_progress(
        &mut self,
        before: u64,
        cfg: &RunConfig,
        mark: &mut progress::ProgressMark,
    ) -> Result<(), RunError> {
        let Some(p) = &cfg.progress else {
            return Ok(());
        };
        if before / PROGRESS_STEPS != self.steps / PROGRESS_STEPS {
            mark.report(p, self.steps);
            if p.is_cancelled() {
                return Err(RunError::Interrupted { steps: self.steps });
            }
        }
        Ok(())
    }

    /// Wave `wi` ran off the end of the program at `pc`: it ends there, with an event (on
    /// the hardware it would go on fetching whatever follows the code).
    #[cold]
    fn run_off_end(&mut self, wi: usize, pc: usize) {
        self.events.push(Event {
            detail: None,
            kind: "no_endpgm",
            wave: self.waves[wi].id,
            cycle: self.clocks[wi],
            pc,
            message: format!(
                "the wave ran past the end of the program (pc {pc}) without s_endpgm; \
                 the simulator ends it there"
            ),
        });
        self.end_wave(wi);
    }

    fn describe_waits(&self, program: &[AsmLine]) -> Vec<String> {
        let at = |pc: usize| {
            program.get(pc).map_or_else(
                || format!("pc {pc}"),
                |l| format!("line {} `{}`", l.line, l.text()),
            )
        };
        let mut lines: Vec<(u32, String)> = self
            .waits
            .iter()
            .enumerate()
            .filter_map(|(i, w)| {
                let (id, g) = (self.waves[i].id, self.grid_workgroup(i));
                let what = match (*w)? {
                    Waiting::Barrier { pc } => format!("s_barrier of workgroup {g} at {}", at(pc)),
                    Waiting::Gws { rid, pc } => format!("GWS resource {rid} at {}", at(pc)),
                    Waiting::Ordered { index, pc } => {
                        format!("its turn on ordered counter {index} at {}", at(pc))
                    }
                    Waiting::Nack { rid, pc } => {
                        format!("a GWS NACK (resource id clamped to {rid}) at {}", at(pc))
                    }
                };
                Some((id, format!("wave {id} (workgroup {g}) waits for {what}")))
            })
            .collect();
        // Slots are not in wave order when they are reused.
        lines.sort_by_key(|l| l.0);
        lines
            .into_iter()
            .map(|l| l.1)
            .chain(self.unstarted_groups())
            .collect()
    }

    /// A line naming the workgroups that never started (they wait for a slot that the
    /// blocked waves hold), if any.
    fn unstarted_groups(&self) -> Option<String> {
        let p = self.placement.as_ref()?;
        let waiting: Vec<u32> = p.unstarted().map(|g| self.first_group + g).collect();
        let first = *waiting.first()?;
        Some(format!(
            "{} workgroups (the first: {first}) wait for a WGP slot the blocked waves hold: raise --wgps, or lower each workgroup's resources",
            waiting.len()
        ))
    }

    /// Ends wave `wi` and wakes what its end unblocks.
    fn end_wave(&mut self, wi: usize) {
        // Data still in flight lands: the registers are read after the device drained.
        self.land_sgprs(wi, u64::MAX);
        self.land_all_vgprs(wi);
        self.waves[wi].done = true;
        if let Some(calls) = self.call_stacks.get_mut(wi) {
            calls.clear();
        }
        self.check_wave_end(wi);
        self.try_release_barrier(self.wave_group[wi]);
        self.wake_ordered();
        self.release_slot(wi);
    }

    /// Releases workgroup `g`'s `s_barrier` if every live wave of it has arrived.
    fn try_release_barrier(&mut self, g: usize) {
        let members = g * self.group_waves..(g + 1) * self.group_waves;
        let live = || members.clone().filter(|&i| !self.waves[i].done);
        let all_there = live().next().is_some()
            && live().all(|i| matches!(self.waits[i], Some(Waiting::Barrier { .. })));
        if !all_there {
            return;
        }
        let t = live().map(|i| self.clocks[i]).max().unwrap_or(0);
        self.check_barrier_release(g);
        for i in members {
            if let Some(Waiting::Barrier { pc }) = self.waits[i] {
                self.stats[pc].stall_cycles += t - self.clocks[i];
                self.segment(i, SegmentKind::Wait, self.clocks[i], t, pc);
                self.clocks[i] = t;
                self.wake(i);
            }
        }
    }

    /// Unblocks waves whose ordered-count turn has come (they re-issue the instruction).
    /// Nothing to do, and no scan of every wave, until some wave has waited for its turn: a
    /// wave's end calls this, and scanning all waves at each end made a grid's run time grow
    /// with the square of its waves.
    fn wake_ordered(&mut self) {
        if !self.ordered_waited {
            return;
        }
        let ended: Vec<bool> = self.waves.iter().map(|w| w.done).collect();
        for i in 0..self.waves.len() {
            if let Some(Waiting::Ordered { index, .. }) = self.waits[i] {
                if self.ordered.is_turn(index, i, &ended) {
                    self.wake(i);
                }
            }
        }
    }

    /// Adds operation `p` to wave `wi`'s outstanding ones (counted at the next
    /// [`Device::update_counters`]).
    pub(crate) fn add_pending(&mut self, wi: usize, p: Pending) {
        if self.functional {
            // Nothing is outstanding in a functional run (`exec::functional`).
            return;
        }
        self.pending[wi].push(p);
        self.pending_next[wi] = 0;
    }

    /// Advances wave `wi`'s clock until `counter` is at most `n`: each outstanding
    /// operation adds its weight until it completes, in whatever order they complete.
    fn wait_for(&mut self, wi: usize, counter: Counter, n: u32) {
        self.wait_for_each(wi, &[(counter, n)]);
    }

    /// [`Device::wait_for`] of each (counter, n) of `waits` in turn, as `s_waitcnt` waits
    /// for its three, in one pass: the waits proven once, and the clock moved to the latest
    /// of the cycles each counter is down to its `n` (a counter's outstanding operations only
    /// complete while the wave waits, so waiting for one after another ends there too).
    pub(crate) fn wait_for_each(&mut self, wi: usize, waits: &[(Counter, u32)]) {
        let mut proven = false;
        for &(counter, n) in waits {
            proven |= self.note_waited(wi, counter, n);
        }
        if proven {
            self.refresh_unwaited(wi);
        }
        let now = self.clocks[wi];
        // Each counter's outstanding weight now, in one scan.
        let mut counts = [0u32; 4];
        for p in self.pending[wi].iter().filter(|p| p.done_at > now) {
            counts[p.counter as usize] += p.weight;
        }
        let mut until = now;
        for &(counter, n) in waits {
            let (mut count, mut at) = (counts[counter as usize], now);
            // Completions in time order, all those at one cycle together, until the count
            // is down to `n` (a wave has a few operations out: a scan per cycle, no list).
            while count > n {
                let Some(next) = self.pending[wi]
                    .iter()
                    .filter(|p| p.counter == counter && p.done_at > at)
                    .map(|p| p.done_at)
                    .min()
                else {
                    break;
                };
                count -= self.pending[wi]
                    .iter()
                    .filter(|p| p.counter == counter && p.done_at == next)
                    .map(|p| p.weight)
                    .sum::<u32>();
                at = next;
            }
            until = until.max(at);
        }
        self.clocks[wi] = until;
        self.update_counters(wi);
    }

    /// Sets wave `wi`'s wait counters (`Wave::counters`) to its operations outstanding at its
    /// clock, dropping those complete.
    #[inline(always)]
    fn update_counters(&mut self, wi: usize) {
        if self.clocks[wi] < self.pending_next[wi] {
            // Nothing added and nothing completed since the last count (the common case,
            // decided without a call).
            return;
        }
        self.recount(wi);
    }

    /// [`Device::update_counters`] when an operation was added or may have completed.
    #[inline(never)]
    fn recount(&mut self, wi: usize) {
        let now = self.clocks[wi];
        // One pass: drop the completed, count the rest and find the next completion.
        let mut c = crate::wave::Counters::default();
        let mut next = u64::MAX;
        self.pending[wi].retain(|p| {
            if p.done_at <= now {
                return false;
            }
            next = next.min(p.done_at);
            match p.counter {
                Counter::Lgkm => c.lgkm += p.weight,
                Counter::Exp => c.exp += p.weight,
                Counter::Vm => c.vm += p.weight,
                Counter::Vs => c.vs += p.weight,
            }
            true
        });
        self.pending_next[wi] = next;
        self.waves[wi].counters = c;
    }
}
