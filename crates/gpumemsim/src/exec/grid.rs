//! Running a grid: every workgroup of a dispatch, WGP by WGP or together.
//!
//! Placement deals the grid's workgroups to the WGPs in contiguous blocks
//! (`exec::placement`); the WGPs of the model share nothing on the chip but the device-wide
//! units (GDS, GWS, ordered count): each has its own LDS pipe, SIMDs, scalar cache and
//! vector memory path. What they can share is global memory. So a program that uses no
//! device-wide unit can run one WGP's block at a time — on as many threads as there are
//! cores — and give the result of running them all together, as long as no two blocks read
//! or wrote a byte the other one wrote (then the order between them would matter). The run
//! logs every global byte each block reads and writes ([`AccessLog`]) and checks exactly that
//! afterwards; when the check fails (a global atomic counter, a workgroup reading another's
//! output), when a part stops with an error, or when the program uses a device-wide unit, the
//! grid runs again with every workgroup together, as [`Device::run`] schedules them. With one
//! WGP (`--wgps 1`) there is one block: the grid runs together. The checker's global race
//! check runs in the same run, apart or together (`exec::lds_check`): races between the
//! workgroups of one block are found there, and blocks that touched each other's bytes run
//! together.
//!
//! Run apart, the result is the one run together gives: the same memory, registers, clocks,
//! statistics and step count, whatever the number of threads. The events are the same events;
//! they are listed by [`Event::cycle`](crate::event::Event), then wave (run together they are
//! listed in the order the scheduler met them, which can differ between waves at one cycle).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rdna3_isa::asm::AsmLine;
use rdna3_isa::Format;

use super::issue::{program_facts, IssueFacts};
use super::placement::{block_of, wgp_of};
use super::{Device, RunConfig, RunError, WaveInit};
use crate::addr::{AccessLog, GlobalMemory};
use crate::ds::{self, DsKind};
use crate::gws::OrderedCount;

/// Makes global memory as the host leaves it for a grid ([`run_grid`]).
pub type Memory<'a> = dyn Fn() -> GlobalMemory + Sync + 'a;

/// How a grid ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every workgroup together, in one clock-ordered schedule.
    Together,
    /// One workgroup at a time, on `threads` threads.
    Apart {
        /// Host threads used.
        threads: usize,
    },
}

/// Why a grid ran together.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TogetherBecause {
    /// It ran apart (the field is unused).
    NotTogether,
    /// One workgroup, [`RunConfig::together`], or a scheduling seed (seeds choose between
    /// interleavings of all the grid's waves).
    Asked,
    /// The program uses GDS, GWS or ordered count (named: the first such instruction).
    DeviceWide(String),
    /// Workgroups on two WGPs touched the same global bytes (named: the first such WGPs).
    SharedMemory(u32, u32),
    /// Every workgroup runs on one WGP (`--wgps 1`).
    OneWgp,
    /// A workgroup run alone stopped with an error; run together, the error is the one the
    /// whole grid meets.
    Error,
    /// The kernel calls the host while it runs (hostcall: HIP's printf), which serves one
    /// device.
    Host,
}

impl std::fmt::Display for TogetherBecause {
    /// The reason as `gpumemsim run --json` reports it under `schedule.reason`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TogetherBecause::NotTogether | TogetherBecause::Asked => {
                write!(f, "asked (one workgroup, --together or --seed)")
            }
            TogetherBecause::DeviceWide(at) => {
                write!(f, "{at} uses a device-wide unit (GDS, GWS, ordered count)")
            }
            TogetherBecause::SharedMemory(a, b) => {
                write!(
                    f,
                    "workgroups on WGPs {a} and {b} touch the same global memory"
                )
            }
            TogetherBecause::OneWgp => write!(f, "one WGP runs every workgroup (--wgps 1)"),
            TogetherBecause::Error => write!(f, "a workgroup run alone stopped with an error"),
            TogetherBecause::Host => write!(
                f,
                "the kernel calls the host while it runs (hostcall: printf), which serves one device"
            ),
        }
    }
}

/// What [`run_grid`] did.
pub struct GridRun {
    /// The device after the run: every wave, LDS, memory and statistic of the grid.
    pub device: Device,
    /// How the run ended.
    pub result: Result<(), RunError>,
    /// How it ran.
    pub schedule: Schedule,
    /// Why it ran together (when it did).
    pub together_because: TogetherBecause,
    /// A shard's run ([`Shard::Run`](super::Shard)): what it hands back to be merged.
    pub part: Option<Box<super::GridPart>>,
}

/// The first instruction of `program` that reaches a device-wide unit (GDS, GWS, ordered
/// count, the GS registers), if any.
pub fn device_wide_instruction(program: &[AsmLine]) -> Option<&AsmLine> {
    program.iter().find(|l| is_device_wide(&l.inst))
}

/// Whether `inst` reaches a device-wide unit: a DS instruction with `gds`, a GWS or
/// ordered-count instruction, or one of the GS registers.
pub(crate) fn is_device_wide(inst: &rdna3_isa::Instruction) -> bool {
    inst.def().format == Format::Ds
        && (inst.get(rdna3_isa::Field::Gds) == 1
            || matches!(
                ds::ds_kind(inst.opcode),
                Some(DsKind::GlobalSync | DsKind::GsReg { .. })
            ))
}

/// The threads [`RunConfig::threads`] asks for (0: one per core).
pub(super) fn thread_count(cfg: &RunConfig) -> usize {
    match cfg.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Runs every workgroup of `cfg`'s grid on `program`, apart where that gives the result of
/// running them together (see the module text), else together.
///
/// `memory` makes global memory as the host left it: called for each run of the grid (an
/// apart run's host threads take shared copies of one, [`GlobalMemory::share`]), so that
/// nothing keeps a spare copy in case the grid has to run again. `init` sets up each wave
/// after it is created (registers, EXEC, MODE), given its workgroup's index in the grid; a
/// wave's index in its workgroup is `wave.id % cfg.waves`. It is called once per wave, and
/// again for every wave if the grid has to run a second time together.
///
/// With [`RunConfig::release_finished`], waves are made as their workgroups start and their
/// state is reused when they end (`exec::slots`), so memory follows the resident workgroups;
/// not for a program that uses a device-wide unit (its ordered-count turns follow every wave
/// of the grid), whose waves are all made up front.
pub fn run_grid(
    program: &[AsmLine],
    cfg: &RunConfig,
    memory: &Memory<'_>,
    init: &WaveInit,
) -> Result<GridRun, RunError> {
    let threads = thread_count(cfg)
        .min(cfg.workgroups.min(cfg.wgps) as usize)
        .max(1);
    let because = if cfg.workgroups < 2 || cfg.seed != 0 || cfg.together {
        Some(TogetherBecause::Asked)
    } else if cfg.host.is_some() {
        Some(TogetherBecause::Host)
    } else if cfg.wgps < 2 {
        Some(TogetherBecause::OneWgp)
    } else {
        device_wide_instruction(program)
            .map(|l| TogetherBecause::DeviceWide(format!("line {} `{}`", l.line, l.text())))
    };
    if let Some(super::Shard::Run { index, count }) = &cfg.shard {
        return super::shard::run_shard(program, cfg, memory, init, because, (*index, *count));
    }
    if let Some(because) = because {
        return together(program, cfg, memory, init, because);
    }
    Device::check(cfg)?;
    if let Some(super::Shard::Merge(parts)) = &cfg.shard {
        return super::shard::merge(program, cfg, memory, init, parts);
    }
    match apart(program, cfg, memory, init, threads) {
        Ok(device) => Ok(GridRun {
            device,
            result: Ok(()),
            schedule: Schedule::Apart { threads },
            together_because: TogetherBecause::NotTogether,
            part: None,
        }),
        Err(because) => fall_back(program, cfg, memory, init, because),
    }
}

/// Runs the grid together after running it apart did not give the result of running it
/// together (`because`).
pub(super) fn fall_back(
    program: &[AsmLine],
    cfg: &RunConfig,
    memory: &Memory<'_>,
    init: &WaveInit,
    because: TogetherBecause,
) -> Result<GridRun, RunError> {
    if let Some(p) = &cfg.progress {
        p.restart(format!(
            "running again with every workgroup together: {because}"
        ));
    }
    together(program, cfg, memory, init, because)
}

/// Runs the grid together, once. With [`RunConfig::check`] and two waves or more, the run
/// checks global accesses for races as they are made (`global_race` events name the racing
/// instructions where nothing ordered them).
fn together(
    program: &[AsmLine],
    cfg: &RunConfig,
    memory: &Memory<'_>,
    init: &WaveInit,
    because: TogetherBecause,
) -> Result<GridRun, RunError> {
    Device::check(cfg)?;
    if let Some(host) = &cfg.host {
        // A run again (after a run apart) starts the host afresh.
        host.reset();
    }
    let mut device = made(program, cfg, init, 0..cfg.workgroups)?;
    device.memory = memory();
    if cfg.workgroups >= 2 || cfg.waves >= 2 {
        device.checker.check_global(false, cfg.waves);
    }
    let result = device.run(program, cfg);
    Ok(GridRun {
        device,
        result,
        schedule: Schedule::Together,
        together_because: because,
        part: None,
    })
}

/// A device holding workgroups `groups` of the grid: its waves made as their workgroups
/// start, or (without [`RunConfig::release_finished`], or for a program that uses a
/// device-wide unit) made and set up now.
pub(super) fn made(
    program: &[AsmLine],
    cfg: &RunConfig,
    init: &WaveInit,
    groups: std::ops::Range<u32>,
) -> Result<Device, RunError> {
    if cfg.release_finished && device_wide_instruction(program).is_none() {
        return Device::with_groups(cfg, program.len(), groups, Some(init.clone()));
    }
    let mut device = Device::with_groups(cfg, program.len(), groups, None)?;
    for wi in 0..device.waves.len() {
        let g = device.workgroup_of(wi);
        init(g, &mut device.waves[wi]);
    }
    Ok(device)
}

/// One WGP's block of workgroups run alone: its device, the log of its global accesses and
/// the thread (memory copy) that ran it.
pub(super) struct Part {
    device: Device,
    log: AccessLog,
    thread: usize,
}

/// Runs the workgroups `block` (one WGP's) alone on thread `t`'s copy of memory `mem`: the
/// part and the memory copy back, the part `None` when the run stopped with an error; `None`
/// when the device cannot be made.
fn run_block(
    program: &[AsmLine],
    facts: &Arc<[IssueFacts]>,
    cfg: &RunConfig,
    init: &WaveInit,
    block: std::ops::Range<u32>,
    mem: GlobalMemory,
    t: usize,
) -> Option<(Option<Part>, GlobalMemory)> {
    let mut device = made(program, cfg, init, block).ok()?;
    // With the checker on, it checks each access for races and keeps the block's log;
    // without, the memory logs the block's accesses.
    device.memory = mem;
    if cfg.checks() {
        device.checker.check_global(true, cfg.waves);
    } else {
        device.memory.start_log();
    }
    let result = device.run_with_facts(program, facts.clone(), cfg);
    let log = match device.checker.finish() {
        Some(log) => log,
        None => device.memory.take_log(),
    };
    let mem = std::mem::take(&mut device.memory);
    let part = result.is_ok().then_some(Part {
        device,
        log,
        thread: t,
    });
    Some((part, mem))
}

/// The WGP blocks of `cfg`'s grid that hold workgroups, in order (`exec::placement`).
pub(super) fn grid_blocks(cfg: &RunConfig) -> Vec<std::ops::Range<u32>> {
    (0..cfg.wgps)
        .map(|k| block_of(k, cfg.workgroups, cfg.wgps))
        .filter(|b| !b.is_empty())
        .collect()
}

fn apart(
    program: &[AsmLine],
    cfg: &RunConfig,
    memory: &Memory<'_>,
    init: &WaveInit,
    threads: usize,
) -> Result<Device, TogetherBecause> {
    let blocks = grid_blocks(cfg);
    let (parts, memories) = run_blocks(program, cfg, memory, init, threads, &blocks, true)?;
    Ok(merged(cfg, parts, memories).0)
}

/// How a block run apart ended.
enum Outcome {
    /// Not run (yet, or at all: the run stopped before it).
    Pending,
    /// It stopped with an error, or its device could not be made.
    Failed,
    /// Boxed: a part holds a whole device.
    Ran(Box<Part>),
}

/// The blocks of a run apart as they end, and what the ones ended so far tell, taken in
/// block order so that the verdict does not depend on which thread ended a block first.
struct Verdicts {
    outcomes: Vec<Outcome>,
    /// Blocks `0..checked` ran, and none touched a byte another of them wrote.
    checked: usize,
    /// Their logs, together.
    seen: AccessLog,
    /// Why the blocks do not give the result of running them together, once found.
    because: Option<TogetherBecause>,
}

impl Verdicts {
    /// Takes the blocks that ended in order, from the first not yet checked, up to one
    /// still running or the first that failed or clashed with an earlier one (when
    /// `clashes_stop`; else blocks that touched each other's bytes are left for the caller).
    /// The index of that block when it ends the run.
    fn advance(
        &mut self,
        clashes_stop: bool,
        blocks: &[std::ops::Range<u32>],
        cfg: &RunConfig,
    ) -> Option<usize> {
        while self.because.is_none() && self.checked < self.outcomes.len() {
            let b = self.checked;
            let log = match &self.outcomes[b] {
                Outcome::Pending => return None,
                Outcome::Failed => {
                    self.because = Some(TogetherBecause::Error);
                    return Some(b);
                }
                Outcome::Ran(part) => &part.log,
            };
            if clashes_stop && self.seen.clashes_with(log) {
                let a = self.outcomes[..b]
                    .iter()
                    .position(|o| matches!(o, Outcome::Ran(p) if p.log.clashes_with(log)))
                    .expect("one of the blocks in the union clashes");
                self.because = Some(shared_memory(blocks, cfg, a, b));
                return Some(b);
            }
            if clashes_stop {
                self.seen.merge(log);
            }
            self.checked += 1;
        }
        None
    }
}

/// Runs `blocks` apart on `threads` threads, each on its own copy of the memory `memory`
/// makes: every block's part, in block order, and each thread's memory copy; or why the
/// grid has to run together: a block stopped with an error (or its device could not be
/// made), or, with `clashes_stop`, a block touched bytes an earlier one wrote or wrote bytes
/// an earlier one touched ([`AccessLog::first_conflict`]). Blocks are checked in order as
/// they end, so the run stops as soon as the first block in order that fails or clashes is
/// known, and that block decides the reason whatever the number of threads.
pub(super) fn run_blocks(
    program: &[AsmLine],
    cfg: &RunConfig,
    memory: &Memory<'_>,
    init: &WaveInit,
    threads: usize,
    blocks: &[std::ops::Range<u32>],
    clashes_stop: bool,
) -> Result<(Vec<Part>, Vec<GlobalMemory>), TogetherBecause> {
    let next = AtomicUsize::new(0);
    // Every block's device works from one table of the program's facts.
    let facts = program_facts(program, &cfg.timing, cfg.functional);
    // The first block (in order) known to end the run: no later one needs to run.
    let stop = AtomicUsize::new(usize::MAX);
    let verdicts = Mutex::new(Verdicts {
        outcomes: (0..blocks.len()).map(|_| Outcome::Pending).collect(),
        checked: 0,
        seen: AccessLog::default(),
        because: None,
    });
    // Each thread runs blocks on its own copy of memory. A block may see what an earlier one
    // on its thread wrote: that matters only if it read a byte another block wrote, and then
    // the check of shared bytes sends the grid to run together anyway. Thread 0 runs on the
    // memory made; the others' copies share its pages until one of them writes a page (one
    // thread shares nothing, so it copies no page).
    let mut placed = memory();
    let mut copies: Vec<GlobalMemory> = (1..threads).map(|_| placed.share()).collect();
    copies.insert(0, placed);
    let memories: Vec<GlobalMemory> = std::thread::scope(|s| {
        let handles: Vec<_> = copies
            .into_iter()
            .enumerate()
            .map(|(t, mut mem)| {
                let (next, stop, verdicts, facts) = (&next, &stop, &verdicts, &facts);
                s.spawn(move || {
                    loop {
                        let b = next.fetch_add(1, Ordering::Relaxed);
                        if b >= blocks.len() || b > stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let outcome =
                            match run_block(program, facts, cfg, init, blocks[b].clone(), mem, t) {
                                None => {
                                    mem = GlobalMemory::new();
                                    Outcome::Failed
                                }
                                Some((part, rest)) => {
                                    mem = rest;
                                    part.map_or(Outcome::Failed, |p| Outcome::Ran(Box::new(p)))
                                }
                            };
                        let failed = matches!(outcome, Outcome::Failed);
                        if failed {
                            // Blocks after a failed one cannot change the verdict.
                            stop.fetch_min(b, Ordering::Relaxed);
                        }
                        let mut v = verdicts.lock().expect("a worker panicked");
                        v.outcomes[b] = outcome;
                        if let Some(end) = v.advance(clashes_stop, blocks, cfg) {
                            stop.fetch_min(end, Ordering::Relaxed);
                        }
                    }
                    mem
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a grid worker panicked"))
            .collect()
    });
    let v = verdicts.into_inner().expect("a worker panicked");
    if let Some(because) = v.because {
        return Err(because);
    }
    let parts = v
        .outcomes
        .into_iter()
        .map(|o| match o {
            Outcome::Ran(p) => *p,
            _ => unreachable!("every block ran and was checked"),
        })
        .collect();
    Ok((parts, memories))
}

/// Why blocks run apart do not give the result of running them together, if they do not:
/// two blocks touched bytes one of them wrote (`logs`, one per block of `blocks`).
pub(super) fn shared_bytes(
    cfg: &RunConfig,
    blocks: &[std::ops::Range<u32>],
    logs: &[&AccessLog],
) -> Option<TogetherBecause> {
    AccessLog::first_conflict(logs).map(|(a, b)| shared_memory(blocks, cfg, a, b))
}

/// Blocks `a` and `b` of `blocks` touched the same bytes: the reason, naming their WGPs.
fn shared_memory(
    blocks: &[std::ops::Range<u32>],
    cfg: &RunConfig,
    a: usize,
    b: usize,
) -> TogetherBecause {
    let wgp = |k: usize| wgp_of(blocks[k].start, cfg.workgroups, cfg.wgps);
    TogetherBecause::SharedMemory(wgp(a), wgp(b))
}

/// The device of blocks run apart (`parts`, in block order, each on the thread whose memory
/// copy is in `memories`): every part absorbed into the first, global memory the host's plus
/// every byte each block wrote, events by cycle then wave; and each block's log, in order.
pub(super) fn merged(
    cfg: &RunConfig,
    parts: Vec<Part>,
    mut memories: Vec<GlobalMemory>,
) -> (Device, Vec<AccessLog>) {
    // Global memory: the host's, plus every byte each workgroup wrote, from the copy of the
    // thread that ran it (no other workgroup wrote that byte). Thread 0's copy is the host's
    // plus what its own workgroups wrote: the others' writes complete it.
    let mut memory = std::mem::take(&mut memories[0]);
    // Whatever thread 0's copy logged last is not the device's: it starts unlogged.
    memory.take_log();
    for p in parts.iter().filter(|p| p.thread != 0) {
        memory.copy_written(&memories[p.thread], &p.log);
    }
    let mut logs = Vec::new();
    let mut device: Option<Device> = None;
    for p in parts {
        logs.push(p.log);
        match device.as_mut() {
            None => device = Some(p.device),
            Some(d) => d.absorb(p.device),
        }
    }
    let mut device = device.expect("at least one block");
    device.memory = memory;
    finish_merge(&mut device, cfg);
    (device, logs)
}

/// What a device put together from parts needs last: a fresh ordered-count unit (no part
/// used one) and its events by cycle, then wave.
pub(super) fn finish_merge(device: &mut Device, cfg: &RunConfig) {
    device.ordered = OrderedCount::new(device.waves.len(), cfg.ordered_rings);
    device.events.sort_by_key(|e| (e.cycle, e.wave));
}
