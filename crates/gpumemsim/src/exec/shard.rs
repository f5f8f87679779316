//! A grid split over processes (`gpumemsim.ray.run(..., shards=N)`). Shard `i` of `n`
//! ([`Shard::Run`]) runs its share of the grid's WGP blocks apart, as [`run_grid`] runs every
//! block in one process, and hands back a [`GridPart`]: what a report reads of its device
//! part, the global bytes it wrote, and the log of every byte each of its blocks and
//! workgroups touched. Merging the parts ([`Shard::Merge`]) does what a run apart in one
//! process does with its blocks: the same check for bytes two blocks share, the same sums in
//! the same order, the same order of events. So the merged run is the single process's,
//! and so is its report, byte for byte. A grid that one process runs together (a
//! device-wide unit, a hostcall, one WGP, workgroups sharing bytes, a block that stopped with
//! an error) is run whole, together, by the merge.
//!
//! [`run_grid`]: super::run_grid

use std::ops::Range;
use std::sync::Arc;

use rdna3_isa::asm::AsmLine;
use serde::{Deserialize, Serialize};

use super::grid::{finish_merge, grid_blocks, made, run_blocks, shared_bytes, GridRun, Memory};
use super::slots::Retired;
use super::{
    DelayAluStats, Device, DsSample, InstStats, RunConfig, RunError, Schedule, VmemSample,
};
use super::{TogetherBecause, WaveInit};
use crate::addr::{AccessLog, GlobalMemory};
use crate::event::Event;
use crate::smem::KcacheStats;
use crate::timeline::{PlacementStats, Timeline, UnitBusy};

/// What [`run_grid`](super::run_grid) does with a grid split over processes
/// ([`RunConfig::shard`]).
#[derive(Clone, Debug)]
pub enum Shard {
    /// Run only shard `index` (from 0) of `count`: of the B WGP blocks that hold workgroups,
    /// blocks `index × B / count` up to `(index + 1) × B / count`; the run's
    /// [`GridRun::part`] is what it hands back.
    Run {
        /// This shard.
        index: u32,
        /// Shards in all.
        count: u32,
    },
    /// Run nothing: put together the parts every shard handed back (each once, any order).
    Merge(Arc<[GridPart]>),
}

/// What one shard of a grid hands back to be merged ([`Shard`]): made by a run with
/// [`Shard::Run`], carried between processes as bytes ([`GridPart::to_bytes`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GridPart {
    /// [`PART_FORMAT`] of the build that made it.
    format: u32,
    /// Of the program and the settings the grid ran with ([`fingerprint`]): a part of another
    /// launch is refused.
    fingerprint: u64,
    index: u32,
    count: u32,
    /// Why the grid cannot run apart (it runs together): the part ran nothing.
    together: Option<TogetherBecause>,
    /// The workgroups it ran.
    groups: Range<u32>,
    /// Host threads it ran on.
    threads: usize,
    stats: Vec<InstStats>,
    ds_worst: Vec<Option<DsSample>>,
    vmem_worst: Vec<Option<VmemSample>>,
    events: Vec<Event>,
    calls: Vec<(usize, usize)>,
    clocks: Vec<u64>,
    steps: u64,
    retired: Retired,
    kcache: KcacheStats,
    busy: UnitBusy,
    delay_alu: DelayAluStats,
    timeline: Option<Timeline>,
    placement: PlacementStats,
    /// The global bytes it wrote, as runs (address, length) of `written`.
    runs: Vec<(u64, u32)>,
    #[serde(with = "serde_bytes")]
    written: Vec<u8>,
    /// Each of its blocks' global accesses, in block order.
    block_logs: Vec<AccessLog>,
}

/// The layout of [`GridPart`]'s bytes: parts of another build are refused (3: the units'
/// busy cycles count the transcendental unit).
const PART_FORMAT: u32 = 4;

impl GridPart {
    /// The part as bytes (MessagePack).
    pub fn to_bytes(&self) -> Vec<u8> {
        rmp_serde::to_vec(self).expect("a part serialises")
    }

    /// A part from [`GridPart::to_bytes`]' bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<GridPart, String> {
        let part: GridPart = rmp_serde::from_slice(bytes)
            .map_err(|e| format!("not a part of a sharded run ({e})"))?;
        if part.format != PART_FORMAT {
            return Err(format!(
                "a part of a sharded run made by another version of gpumemsim (format {}, this one reads {PART_FORMAT})",
                part.format
            ));
        }
        Ok(part)
    }

    /// Why the grid cannot be split, when it cannot (it runs together, in one process).
    pub fn together(&self) -> Option<&TogetherBecause> {
        self.together.as_ref()
    }

    /// This shard and the number of shards.
    pub fn shard(&self) -> (u32, u32) {
        (self.index, self.count)
    }

    /// The workgroups it ran.
    pub fn groups(&self) -> Range<u32> {
        self.groups.clone()
    }

    fn empty(program: &[AsmLine], cfg: &RunConfig, index: u32, count: u32) -> GridPart {
        GridPart {
            format: PART_FORMAT,
            fingerprint: fingerprint(program, cfg),
            index,
            count,
            together: None,
            groups: 0..0,
            threads: 0,
            stats: Vec::new(),
            ds_worst: Vec::new(),
            vmem_worst: Vec::new(),
            events: Vec::new(),
            calls: Vec::new(),
            clocks: Vec::new(),
            steps: 0,
            retired: Retired::default(),
            kcache: KcacheStats::default(),
            busy: UnitBusy::default(),
            delay_alu: DelayAluStats::default(),
            timeline: None,
            placement: PlacementStats::default(),
            runs: Vec::new(),
            written: Vec::new(),
            block_logs: Vec::new(),
        }
    }

    /// Copies what a report reads from `d`, the device of the shard's blocks run apart.
    fn copy_from(&mut self, d: &Device) {
        self.stats.clone_from(&d.stats);
        self.ds_worst.clone_from(&d.ds_worst);
        self.vmem_worst.clone_from(&d.vmem_worst);
        self.events.clone_from(&d.events);
        self.calls = d.calls.iter().copied().collect();
        self.clocks.clone_from(&d.clocks);
        self.steps = d.steps;
        // The waves still in their slots count as waves run, as the slots' waves would.
        self.retired = d.retired;
        self.retired.waves += d.waves.len() as u64;
        self.kcache = d.kcache_stats();
        self.busy = d.unit_busy();
        self.delay_alu.clone_from(&d.delay_alu);
        self.timeline.clone_from(&d.timeline);
        self.placement = d.placement();
    }

    /// A device of the part's workgroups that reads, for a report, as the shard's did.
    fn device(
        &self,
        program: &[AsmLine],
        cfg: &RunConfig,
        init: &WaveInit,
    ) -> Result<Device, RunError> {
        let mut d = made(program, cfg, init, self.groups.clone())?;
        d.stats.clone_from(&self.stats);
        d.ds_worst.clone_from(&self.ds_worst);
        d.vmem_worst.clone_from(&self.vmem_worst);
        d.events.clone_from(&self.events);
        d.calls = self.calls.iter().copied().collect();
        d.waves.clear();
        d.clocks.clone_from(&self.clocks);
        d.steps = self.steps;
        d.retired = self.retired;
        for (i, c) in d.kcache.iter_mut().enumerate() {
            c.stats = if i == 0 {
                self.kcache
            } else {
                KcacheStats::default()
            };
        }
        d.units.set_busy(self.busy);
        d.delay_alu.clone_from(&self.delay_alu);
        d.timeline.clone_from(&self.timeline);
        d.placement = None;
        d.placement_stats = self.placement;
        Ok(d)
    }
}

/// A hash of what decides a grid's run apart: the program's text and the settings that
/// shape the grid and its report (FNV-1a, the same in every process of one build).
fn fingerprint(program: &[AsmLine], cfg: &RunConfig) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for l in program {
        eat(l.text().as_bytes());
        eat(b"\n");
    }
    let shape = format!(
        "{} {} {} {} {} {} {} {} {} {} {:?} {}",
        cfg.wave_size,
        cfg.waves,
        cfg.workgroups,
        cfg.wgps,
        cfg.lds_size,
        cfg.scratch_size,
        cfg.checks(),
        cfg.functional,
        cfg.record_samples,
        cfg.record_timeline,
        cfg.workgroup_ids,
        cfg.max_steps
    );
    eat(shape.as_bytes());
    h
}

/// The blocks shard `index` of `count` runs.
fn shard_blocks(cfg: &RunConfig, index: u32, count: u32) -> Vec<Range<u32>> {
    let blocks = grid_blocks(cfg);
    let n = blocks.len() as u64;
    let (a, b) = (
        u64::from(index) * n / u64::from(count),
        u64::from(index + 1) * n / u64::from(count),
    );
    blocks[a as usize..b as usize].to_vec()
}

/// Runs shard `index` of `count` ([`Shard::Run`]); `because` is why the grid runs together,
/// when [`run_grid`](super::run_grid) knows before running.
pub(super) fn run_shard(
    program: &[AsmLine],
    cfg: &RunConfig,
    memory: &Memory<'_>,
    init: &WaveInit,
    because: Option<TogetherBecause>,
    (index, count): (u32, u32),
) -> Result<GridRun, RunError> {
    if count == 0 || index >= count {
        return Err(RunError::Config(format!(
            "shard {index} of {count}: a shard is one of 0 to count − 1"
        )));
    }
    Device::check(cfg)?;
    let mut part = GridPart::empty(program, cfg, index, count);
    let blocks = shard_blocks(cfg, index, count);
    // A device for the report's shape when the shard runs nothing.
    let idle = |part: GridPart| -> Result<GridRun, RunError> {
        Ok(GridRun {
            device: made(program, cfg, init, 0..1)?,
            result: Ok(()),
            schedule: Schedule::Together,
            together_because: part
                .together
                .clone()
                .unwrap_or(TogetherBecause::NotTogether),
            part: Some(Box::new(part)),
        })
    };
    if let Some(because) = because {
        part.together = Some(because);
        return idle(part);
    }
    let (Some(first), Some(last)) = (blocks.first(), blocks.last()) else {
        // More shards than blocks: this one has none.
        return idle(part);
    };
    part.groups = first.start..last.end;
    let threads = super::grid::thread_count(cfg).min(blocks.len()).max(1);
    // Blocks of this shard that share bytes with each other are found with every shard's
    // blocks when the parts are merged, in the same order a single process uses.
    let (parts, memories) = match run_blocks(program, cfg, memory, init, threads, &blocks, false) {
        Ok(ran) => ran,
        Err(because) => {
            part.together = Some(because);
            return idle(part);
        }
    };
    let (device, block_logs) = super::grid::merged(cfg, parts, memories);
    let mut all = AccessLog::default();
    for l in &block_logs {
        all.merge(l);
    }
    (part.runs, part.written) = device.memory.written_runs(&all);
    part.block_logs = block_logs;
    part.threads = threads;
    part.copy_from(&device);
    Ok(GridRun {
        device,
        result: Ok(()),
        schedule: Schedule::Apart { threads },
        together_because: TogetherBecause::NotTogether,
        part: Some(Box::new(part)),
    })
}

/// Puts `parts` together ([`Shard::Merge`]): the grid as one process runs it apart, or, when
/// it cannot run apart, run whole, together. `Err` for parts that are not every shard of
/// this launch once.
pub(super) fn merge(
    program: &[AsmLine],
    cfg: &RunConfig,
    memory: &Memory<'_>,
    init: &WaveInit,
    parts: &[GridPart],
) -> Result<GridRun, RunError> {
    let mut parts: Vec<&GridPart> = parts.iter().collect();
    check_parts(program, cfg, &mut parts)?;
    if let Some(because) = parts.iter().find_map(|p| p.together.clone()) {
        return super::grid::fall_back(program, cfg, memory, init, because);
    }
    let blocks = grid_blocks(cfg);
    let logs: Vec<&AccessLog> = parts.iter().flat_map(|p| &p.block_logs).collect();
    if let Some(because) = shared_bytes(cfg, &blocks, &logs) {
        return super::grid::fall_back(program, cfg, memory, init, because);
    }
    let mut global: GlobalMemory = memory();
    let mut device: Option<Device> = None;
    for p in parts.iter().filter(|p| !p.groups.is_empty()) {
        let mut at = 0usize;
        for &(addr, len) in &p.runs {
            global.write_bytes(addr, &p.written[at..at + len as usize]);
            at += len as usize;
        }
        let d = p.device(program, cfg, init)?;
        match device.as_mut() {
            None => device = Some(d),
            Some(all) => all.absorb(d),
        }
    }
    let mut device = device.expect("the parts hold every workgroup");
    device.memory = global;
    finish_merge(&mut device, cfg);
    Ok(GridRun {
        device,
        result: Ok(()),
        schedule: Schedule::Apart {
            threads: parts.iter().map(|p| p.threads).sum(),
        },
        together_because: TogetherBecause::NotTogether,
        part: None,
    })
}

/// Orders `parts` by shard and checks that they are every shard of this launch once.
fn check_parts(
    program: &[AsmLine],
    cfg: &RunConfig,
    parts: &mut Vec<&GridPart>,
) -> Result<(), RunError> {
    let bad = |why: String| Err(RunError::Config(format!("parts of a sharded run: {why}")));
    let Some(first) = parts.first() else {
        return bad("none given".into());
    };
    let count = first.count;
    if parts.len() != count as usize {
        return bad(format!("{} given for {count} shards", parts.len()));
    }
    parts.sort_by_key(|p| p.index);
    let fp = fingerprint(program, cfg);
    for (i, p) in parts.iter().enumerate() {
        if p.count != count || p.index != i as u32 {
            return bad(format!("shard {i} of {count} is missing or given twice"));
        }
        if p.fingerprint != fp {
            return bad(format!(
                "shard {i} ran another program or grid than this launch's"
            ));
        }
        let blocks = shard_blocks(cfg, p.index, count);
        let groups = blocks
            .first()
            .map_or(0..0, |f| f.start..blocks.last().map_or(0, |l| l.end));
        if p.together.is_none() && p.groups != groups {
            return bad(format!(
                "shard {i} ran workgroups {:?}, not {groups:?}",
                p.groups
            ));
        }
    }
    Ok(())
}
