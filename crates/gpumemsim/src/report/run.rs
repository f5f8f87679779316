//! The data of a run's report: every instruction with its statistics, the source lines they
//! come from (hottest first), a heat map for each DS instruction's costliest execution
//! ([`crate::exec::DsSample`]), one per picture, and a coalescing picture for each vector
//! memory instruction's execution that requested the most cache lines
//! ([`crate::exec::VmemSample`]); and the run's timeline, unit busy cycles and placement (see
//! [`crate::timeline`]).

use std::cmp::Reverse;
use std::collections::HashMap;

use crate::banks::{ds_access, Access, AccessShape, BankModel, WaveSize};
use crate::exec::{Device, DsSample, InstStats, VmemSample};
use crate::isa::asm::AsmLine;
use crate::loader::SourceLocation;
use crate::timeline::{PlacementStats, Timeline, UnitBusy};

use super::heatmap::{HeatMap, PatternKey};
use super::source::{by_line, InstSource, SourceRow, SourceTexts};

/// At most this many DS heat maps are drawn (the hottest); the rest are listed by name.
pub const MAX_DS_PANELS: usize = 48;

/// At most this many coalescing pictures are drawn (the most lines first); the rest are
/// listed by name.
pub const MAX_VMEM_PANELS: usize = 32;

/// One instruction of the program and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct InstructionRow {
    /// Index in the program.
    pub pc: usize,
    /// Source line (for code objects: the instruction's number).
    pub line: usize,
    /// Its address as `llvm-objdump-19 -d` prints it: the program's base
    /// ([`RunReport::with_base`]; 0 until set) plus the instruction's byte offset.
    pub address: u64,
    /// The instruction in LLVM syntax.
    pub text: String,
    /// Its statistics over the whole run.
    pub stats: InstStats,
    /// For a DS instruction with a recorded execution: its worst bank conflict's ways.
    pub ways: Option<u32>,
    /// The source line it is attributed to, if known (see [`RunReport::with_sources`]).
    pub source: Option<SourceLocation>,
}

/// A source line of the program and what its instructions cost.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceLine {
    /// The line, its statistics and its instructions (pcs, in program order).
    pub row: SourceRow,
    /// Its text, if the file could be read.
    pub text: Option<String>,
    /// Its anchor in the page: `line-F-L`, F the file's number in order of first appearance
    /// in the program, L the line.
    pub anchor: String,
    /// Its place in file order (files in order of first appearance, lines ascending).
    pub file_order: usize,
}

impl SourceLine {
    /// `name:line`, the file shortened to its name.
    pub fn place(&self) -> String {
        let name = self.row.file.rsplit('/').next().unwrap_or(&self.row.file);
        format!("{name}:{}", self.row.line)
    }
}

/// A heat map of DS instructions that share a pattern (see [`HeatMap::same_pattern`]): the
/// picture is drawn once, for all of them.
#[derive(Clone, Debug, PartialEq)]
pub struct DsPanel {
    /// The instructions (pcs), in program order; the first one's sample is drawn.
    pub pcs: Vec<usize>,
    /// The first instruction's text.
    pub text: String,
    /// The recorded execution drawn.
    pub sample: DsSample,
    /// Its picture.
    pub heat: HeatMap,
    /// All executions of all the panel's instructions.
    pub executions: u64,
    /// Their issue cycles.
    pub cycles: u64,
    /// Their conflict cycles.
    pub conflict_cycles: u64,
}

/// A coalescing picture of vector memory instructions whose recorded executions (each the
/// one that requested the most cache lines) have the same pattern: the same lanes on each
/// line, in order, served by the same levels, wherever the lines are. It is drawn once.
#[derive(Clone, Debug, PartialEq)]
pub struct VmemPanel {
    /// The instructions (pcs), in program order; the first one's sample is drawn.
    pub pcs: Vec<usize>,
    /// The first instruction's text.
    pub text: String,
    /// The recorded execution drawn.
    pub sample: VmemSample,
    /// The cache lines of all the instructions' executions, and the levels that served them.
    pub lines: crate::vcache::LineCounts,
    /// Their executions.
    pub executions: u64,
}

/// Everything the HTML report of a run shows.
#[derive(Clone, Debug, PartialEq)]
pub struct RunReport {
    /// The page's title (e.g. the kernel's name).
    pub title: String,
    /// Labelled facts for the header (source, model, waves, cycles, ...), in order.
    pub facts: Vec<(String, String)>,
    /// Why the run stopped early, if it did.
    pub error: Option<String>,
    /// The bank model's name and its banks × width, e.g. `rdna3: 32 banks × 4 B`.
    pub model: String,
    /// Every instruction, in program order.
    pub instructions: Vec<InstructionRow>,
    /// DS heat maps, hottest first (most conflict cycles, then most cycles, then program
    /// order).
    pub ds: Vec<DsPanel>,
    /// Coalescing pictures, the most cache lines first (then program order); empty on a
    /// device without vector caches or a run that did not record them.
    pub vmem: Vec<VmemPanel>,
    /// Whose cache hierarchy the device modelled (what its levels are called), if any.
    pub vcache_family: Option<crate::vcache::Family>,
    /// Source lines, hottest first ([`by_line`]); empty without [`RunReport::with_sources`].
    pub lines: Vec<SourceLine>,
    /// The run's events, in the order the run lists them.
    pub events: Vec<crate::event::Event>,
    /// The events grouped into findings ([`crate::check::findings`]), as `gpumemsim check`
    /// lists them; the page marks each on its instructions and source lines.
    pub findings: Vec<crate::check::Finding>,
    /// The run's length in cycles ([`Device::cycles`]).
    pub cycles: u64,
    /// Each wave's issue, stall and wait segments, when the run recorded them
    /// ([`crate::exec::RunConfig::record_timeline`]); the page draws them when there is at
    /// least one segment.
    pub timeline: Option<Timeline>,
    /// How busy each kind of unit was ([`Device::unit_busy`]).
    pub units: UnitBusy,
    /// Where the run placed its work ([`Device::placement`]).
    pub placement: PlacementStats,
}

impl RunReport {
    /// The report of `device` after running `program`, DS accesses priced by `model` (the
    /// model the run used: the heat maps are recomputed from the recorded addresses). The
    /// device must have run with [`crate::exec::RunConfig::record_samples`] for heat maps to appear.
    pub fn new(title: &str, program: &[AsmLine], device: &Device, model: &BankModel) -> RunReport {
        let mut instructions = Vec::with_capacity(program.len());
        let mut maps: Vec<(usize, DsSample, HeatMap)> = Vec::new();
        for (pc, (line, stats)) in program.iter().zip(device.stats()).enumerate() {
            let sample = device.ds_worst().get(pc).and_then(|s| s.as_ref());
            let heat = sample.and_then(|s| sample_heat_map(model, line, s));
            instructions.push(InstructionRow {
                pc,
                line: line.line,
                address: i64::from(line.address as i32) as u64,
                text: line.text(),
                stats: *stats,
                ways: heat.as_ref().map(HeatMap::ways),
                source: None,
            });
            if let (Some(s), Some(h)) = (sample, heat) {
                maps.push((pc, s.clone(), h));
            }
        }
        let mut ds: Vec<DsPanel> = Vec::new();
        let mut patterns: HashMap<PatternKey, usize> = HashMap::new();
        for (pc, sample, heat) in maps {
            let st = device.stats()[pc];
            let key = heat.pattern_key();
            match patterns.get(&key) {
                Some(&i) => {
                    let p = &mut ds[i];
                    p.pcs.push(pc);
                    p.executions += st.executions;
                    p.cycles += st.cycles;
                    p.conflict_cycles += st.conflict_cycles;
                }
                None => {
                    patterns.insert(key, ds.len());
                    ds.push(DsPanel {
                        pcs: vec![pc],
                        text: program[pc].text(),
                        sample,
                        heat,
                        executions: st.executions,
                        cycles: st.cycles,
                        conflict_cycles: st.conflict_cycles,
                    });
                }
            }
        }
        ds.sort_by_key(|p| (Reverse(p.conflict_cycles), Reverse(p.cycles), p.pcs[0]));
        let vmem = vmem_panels(program, device);
        let waves = device.wave_count();
        let wave_size = device.wave_size();
        let groups = device.workgroup_count();
        let total_cycles: u64 = device.stats().iter().map(|s| s.cycles).sum();
        let total_conflicts: u64 = device.stats().iter().map(|s| s.conflict_cycles).sum();
        let facts = vec![
            (
                "waves".to_string(),
                format!("{waves} wave(s) of {wave_size} lanes in {groups} workgroup(s)"),
            ),
            (
                "instructions executed".to_string(),
                device.steps().to_string(),
            ),
            (
                "run time".to_string(),
                format!("{} cycles", device.cycles()),
            ),
            (
                "bank-conflict cycles".to_string(),
                format!(
                    "{total_conflicts} of {total_cycles} issue cycles ({:.1}%)",
                    percent(total_conflicts, total_cycles)
                ),
            ),
        ];
        RunReport {
            title: title.to_string(),
            facts,
            error: None,
            model: format!(
                "{}: {} banks × {} B",
                model.name(),
                model.banks(),
                model.bank_width()
            ),
            instructions,
            ds,
            vmem,
            vcache_family: device.vcache_family(),
            lines: Vec::new(),
            events: device.events().to_vec(),
            findings: crate::check::findings(device.events()),
            cycles: device.cycles(),
            timeline: device.timeline().cloned(),
            units: device.unit_busy(),
            placement: device.placement(),
        }
    }

    /// The coalescing picture of instruction `pc`, if it has one.
    pub fn vmem_panel(&self, pc: usize) -> Option<&VmemPanel> {
        self.vmem.iter().find(|p| p.pcs.contains(&pc))
    }

    /// Attributes each instruction to its source line (`sources`, one per instruction, as
    /// [`super::kernel_sources`] and [`super::assembly_sources`] give them) and fills
    /// [`RunReport::lines`], reading each line's text from `texts`.
    pub fn with_sources(
        mut self,
        sources: &[Option<InstSource>],
        texts: &mut SourceTexts,
    ) -> RunReport {
        for (row, src) in self.instructions.iter_mut().zip(sources) {
            row.source = src
                .as_ref()
                .map(|s| s.location.clone())
                .filter(|l| l.line > 0);
        }
        let stats: Vec<InstStats> = self.instructions.iter().map(|r| r.stats).collect();
        let rows = by_line(sources, &stats);
        // Files numbered in order of first appearance in the program.
        let mut files: Vec<&str> = Vec::new();
        for r in &self.instructions {
            if let Some(l) = &r.source {
                if !files.contains(&l.file.as_str()) {
                    files.push(&l.file);
                }
            }
        }
        let file_no = |f: &str| files.iter().position(|g| *g == f).unwrap_or(files.len());
        let mut in_file_order: Vec<(usize, u32, usize)> = rows
            .iter()
            .enumerate()
            .map(|(i, r)| (file_no(&r.file), r.line, i))
            .collect();
        in_file_order.sort_unstable();
        let mut order = vec![0; rows.len()];
        for (k, &(_, _, i)) in in_file_order.iter().enumerate() {
            order[i] = k;
        }
        let lines = rows
            .into_iter()
            .enumerate()
            .map(|(i, row)| SourceLine {
                text: texts.line(&row.file, row.line).map(str::to_string),
                anchor: format!("line-{}-{}", file_no(&row.file), row.line),
                file_order: order[i],
                row,
            })
            .collect();
        self.lines = lines;
        self
    }

    /// The instructions without a source line (pcs, in program order).
    pub fn unattributed(&self) -> Vec<usize> {
        self.instructions
            .iter()
            .filter(|r| r.source.is_none())
            .map(|r| r.pc)
            .collect()
    }

    /// The worst source line: the most bank-conflict cycles, or, when no line has any, the
    /// most issue cycles (ties: the hotter in [`RunReport::lines`] order).
    pub fn worst_line(&self) -> Option<&SourceLine> {
        let conflicted = self
            .lines
            .iter()
            .filter(|l| l.row.stats.conflict_cycles > 0)
            .min_by_key(|l| Reverse(l.row.stats.conflict_cycles));
        conflicted.or_else(|| self.lines.first())
    }

    /// Names the instructions by `base` (a kernel's address in its code object) plus their
    /// offsets: the addresses `llvm-objdump-19 -d` prints.
    pub fn with_base(mut self, base: u64) -> RunReport {
        for i in &mut self.instructions {
            i.address = base.wrapping_add(i.address);
        }
        self
    }

    /// Adds a fact at the top of the header.
    pub fn with_fact(mut self, label: &str, value: &str) -> RunReport {
        self.facts.insert(0, (label.to_string(), value.to_string()));
        self
    }

    /// Records why the run stopped early.
    pub fn with_error(mut self, error: Option<String>) -> RunReport {
        self.error = error;
        self
    }

    /// The instructions hottest first: most issue cycles, then most conflict cycles, then most
    /// stall cycles, then program order.
    pub fn hottest(&self) -> Vec<&InstructionRow> {
        let mut rows: Vec<&InstructionRow> = self.instructions.iter().collect();
        rows.sort_by_key(|r| {
            (
                Reverse(r.stats.cycles),
                Reverse(r.stats.conflict_cycles),
                Reverse(r.stats.stall_cycles),
                r.pc,
            )
        });
        rows
    }

    /// The DS panel with the most conflict cycles, if any instruction conflicted.
    pub fn worst_ds(&self) -> Option<&DsPanel> {
        self.ds.first().filter(|p| p.heat.ways() > 1)
    }

    /// Issue cycles of the whole program and of its bank conflicts.
    pub fn totals(&self) -> (u64, u64) {
        self.instructions.iter().fold((0, 0), |(c, k), r| {
            (c + r.stats.cycles, k + r.stats.conflict_cycles)
        })
    }
}

/// `part` as a percentage of `whole` (0 for an empty whole).
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The heat map of a recorded execution of the DS instruction on `line`.
/// The coalescing pictures of the vector memory instructions the device recorded, one per
/// pattern ([`VmemPanel`]), the most cache lines first.
fn vmem_panels(program: &[AsmLine], device: &Device) -> Vec<VmemPanel> {
    let mut panels: Vec<VmemPanel> = Vec::new();
    let mut patterns: HashMap<VmemPattern, usize> = HashMap::new();
    for (pc, s) in device.vmem_worst().iter().enumerate() {
        let (Some(s), Some(stats), Some(line)) = (s, device.stats().get(pc), program.get(pc))
        else {
            continue;
        };
        let key = VmemPattern {
            wave_size: s.wave_size,
            active: s.active,
            lines: s.lines.iter().map(|l| (l.lanes, l.level)).collect(),
        };
        match patterns.get(&key) {
            Some(&i) => {
                let p = &mut panels[i];
                p.pcs.push(pc);
                p.lines.add(&stats.lines);
                p.executions += stats.executions;
            }
            None => {
                patterns.insert(key, panels.len());
                panels.push(VmemPanel {
                    pcs: vec![pc],
                    text: line.text(),
                    sample: s.clone(),
                    lines: stats.lines,
                    executions: stats.executions,
                });
            }
        }
    }
    panels.sort_by_key(|p| (Reverse(p.lines.requests), p.pcs[0]));
    panels
}

/// What makes two coalescing pictures the same: the lanes on each line, in order, and the
/// level that served it.
#[derive(PartialEq, Eq, Hash)]
struct VmemPattern {
    wave_size: u32,
    active: u64,
    lines: Vec<(u64, crate::vcache::Level)>,
}

fn sample_heat_map(model: &BankModel, line: &AsmLine, s: &DsSample) -> Option<HeatMap> {
    let a = ds_access(line.inst.def()).ok()?;
    let shape = AccessShape {
        width: a.width,
        kind: a.kind,
        active: s.active,
        wave: WaveSize::from_lanes(s.wave_size)?,
    };
    let access = Access {
        shape,
        addrs: &s.addrs,
        addrs1: s.addrs1.as_deref(),
    };
    HeatMap::new(model, &access).ok()
}
