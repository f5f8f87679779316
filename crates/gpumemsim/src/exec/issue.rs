//! When a wave's next instruction can issue (docs/rules/timing.md#issue): after the registers it
//! reads are ready ([`super::deps`]) and once its unit is free ([`super::units`]), on the SIMD
//! placement gave the wave ([`super::placement`]). A wave that cannot issue at its clock moves
//! its clock to when it can and goes back to the queue, so the waves of a SIMD issue in clock
//! order, the lowest (oldest) wave first on a tie.

use rdna3_isa::asm::AsmLine;
use rdna3_isa::{Field, Format, Instruction};

use super::deps::DepShape;
use super::placement::{Placement, PlacementShape};
use super::units::Units;
use super::{Device, RunConfig};
use crate::lds::LdsMode;
use crate::occupancy::{self, RegisterCounts, Resources};
use crate::smem::ClauseClass;
use crate::timeline::{SegmentKind, UnitKind};
use crate::timing::TimingParams;

/// What [`Device::hold_back`] decided for a wave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hold {
    /// It issues now.
    Issue,
    /// Its clock moved to when it can issue: queue it again.
    Later,
}

/// How long an instruction occupies its unit, priced from the run's timing by
/// [`Busy::cycles`]. LDS instructions occupy the LDS pipe for their bank cycles, known once
/// they have run (`super::step`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Busy {
    /// `salu`.
    Salu,
    /// `valu` per pass (`f64_issue` for a double-precision operation, `quarter_issue` for a
    /// quarter-rate one, docs/rules/timing.md#issue). A wave32 issues in one pass; a wave64 in
    /// two — "it may issue twice as two wave32 instructions" (RDNA3 ISA guide 7.2.3.2) —
    /// except for the operations the SIMD's dual-issue ALUs run 64 lanes wide in one pass
    /// ([`one_pass_wave64`], docs/rules/timing.md#wave64-passes).
    Valu {
        /// Its rate.
        rate: Rate,
        /// One pass for a wave64.
        one_pass: bool,
    },
    /// `trans_issue` per pass, on the SIMD's transcendental unit (a wave64 in two passes).
    Trans,
    /// `valu` once (a VOPD pair).
    Vopd,
    /// `gds_issue`.
    Gds,
    /// Nothing at issue (the LDS pipe, priced once the instruction has run).
    Zero,
    /// One cycle (the scalar cache port).
    One,
    /// `vmem_issue` per pass.
    Vmem,
}

impl Busy {
    /// The cycles for a wave of `wave_size` lanes under timing `t`.
    #[inline]
    pub(crate) fn cycles(self, wave_size: u32, t: &TimingParams) -> u64 {
        match self {
            Busy::Salu => t.salu,
            Busy::Valu { rate, one_pass } => {
                let per_pass = match rate {
                    Rate::Full => t.valu,
                    Rate::Quarter => t.quarter_issue,
                    Rate::F64 => t.f64_issue,
                };
                per_pass * if wave_size <= 32 || one_pass { 1 } else { 2 }
            }
            Busy::Trans => t.trans_issue * u64::from(wave_size).div_ceil(32),
            Busy::Vopd => t.valu,
            Busy::Gds => t.gds_issue,
            Busy::Zero => 0,
            Busy::One => 1,
            Busy::Vmem => t.vmem_issue * u64::from(wave_size).div_ceil(32),
        }
    }
}

/// The rate a VALU operation runs at on its SIMD's vector ALU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rate {
    Full,
    /// The quarter-rate operations (`super::deps::is_quarter_rate`).
    Quarter,
    /// Double precision.
    F64,
}

impl Rate {
    fn of(name: &str) -> Rate {
        if super::deps::is_f64(name) {
            Rate::F64
        } else if super::deps::is_quarter_rate(name) {
            Rate::Quarter
        } else {
            Rate::Full
        }
    }
}

/// What the executor needs of one instruction of the program at each execution and depends
/// on the instruction alone: worked out once per instruction ([`Device::facts`]) rather than
/// through table look-ups and name comparisons each time it runs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IssueFacts {
    /// What it reads and writes.
    pub shape: DepShape,
    /// Its unit and how long it occupies it, a wave32's and a wave64's cycles under the
    /// run's timing ([`Busy::cycles`]; `None`: the wave's own sequencer).
    pub unit: Option<(UnitKind, [u64; 2])>,
    /// Its place in the SMEM clause and group rules.
    pub clause: ClauseClass,
    /// `s_delay_alu`'s immediate, for an `s_delay_alu`.
    pub delay_alu: Option<u32>,
    /// The VGPRs (first, count) it writes when its memory operation completes
    /// ([`super::inflight::returned_vgprs`]).
    pub returns: Option<(u32, u32)>,
    /// How the short path runs it, if it is one of the common instructions
    /// ([`super::quick::Fast::of`]).
    pub(super) fast: Option<super::quick::Fast>,
    /// A DS instruction's fields, decoded once.
    pub(super) ds: Option<crate::ds::DsFields>,
}

/// [`IssueFacts::of`] every instruction of `program` under `timing`; `functional`: data is
/// in the registers when an instruction issues, so nothing returns later.
pub(crate) fn program_facts(
    program: &[AsmLine],
    timing: &TimingParams,
    functional: bool,
) -> std::sync::Arc<[IssueFacts]> {
    program
        .iter()
        .map(|l| {
            let mut f = IssueFacts::of(l, timing);
            if functional {
                f.returns = None;
            }
            f
        })
        .collect()
}

impl IssueFacts {
    /// Whether the instruction issues to its SIMD's VALU or SALU: work on the wave's own
    /// registers, nothing shared but the unit.
    pub(crate) fn on_simd_alu(&self) -> bool {
        matches!(
            self.unit,
            Some((UnitKind::Valu | UnitKind::Trans | UnitKind::Salu, _))
        )
    }

    /// The facts of the instruction of `line` in a run under `timing`.
    pub(crate) fn of(line: &AsmLine, timing: &TimingParams) -> IssueFacts {
        let inst = &line.inst;
        let t = super::inflight::touched_vgprs(inst);
        let unit = busy_of(inst).map(|(k, b)| (k, [b.cycles(32, timing), b.cycles(64, timing)]));
        IssueFacts {
            shape: DepShape::of(inst, t.reads_bits(), t.writes_bits()),
            unit,
            clause: super::scalar_mem::clause_class_of(inst),
            delay_alu: (inst.def().name == "s_delay_alu").then(|| inst.get(Field::Simm16)),
            returns: super::inflight::returned_vgprs(inst),
            fast: super::quick::Fast::of(line, unit.map(|(k, _)| k)),
            ds: (inst.def().format == Format::Ds).then(|| crate::ds::DsFields::of(inst)),
        }
    }
}

/// The unit an instruction issues to, and how long it occupies it (`None`: the wave's own
/// sequencer: `s_waitcnt`, branches, `s_nop`, ...).
fn busy_of(inst: &Instruction) -> Option<(UnitKind, Busy)> {
    let d = inst.def();
    Some(match d.format {
        Format::Sop1 | Format::Sop2 | Format::Sopc | Format::Sopk => (UnitKind::Salu, Busy::Salu),
        Format::Vop1
        | Format::Vop2
        | Format::Vop3
        | Format::Vopc
        | Format::Vop3p
        | Format::Vinterp
            if super::deps::is_trans(d.name) =>
        {
            // The wave issues it in `valu` cycles per pass and goes on; the SIMD's
            // transcendental unit works on it for `trans_issue` per pass (Mesa ACO,
            // `get_perf_info`: `valu_transcendental32` uses the VALU 1 cycle and
            // `valu_complex` 4). The VALU's issue cycle is not booked: another wave's VALU
            // instruction may issue beside it.
            (UnitKind::Trans, Busy::Trans)
        }
        Format::Vop1
        | Format::Vop2
        | Format::Vop3
        | Format::Vopc
        | Format::Vop3p
        | Format::Vinterp => (
            UnitKind::Valu,
            Busy::Valu {
                rate: Rate::of(d.name),
                one_pass: one_pass_wave64(d.name),
            },
        ),
        Format::Vopd => (UnitKind::Valu, Busy::Vopd),
        Format::Ds if super::grid::is_device_wide(inst) => (UnitKind::Gds, Busy::Gds),
        Format::Ds | Format::Ldsdir => (UnitKind::Lds, Busy::Zero),
        Format::Smem => (UnitKind::Smem, Busy::One),
        Format::Global | Format::Flat | Format::Scratch | Format::Mubuf | Format::Mtbuf => {
            (UnitKind::Vmem, Busy::Vmem)
        }
        Format::Sopp => return None,
    })
}

/// The unit an instruction of one wave issues to: its kind, the wave's instance of it and the
/// cycles the instruction occupies it. Worked out once per step (`Device::unit_use`) and
/// handed to [`Device::hold_back`], [`Device::step`] and [`Device::issued`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct UnitUse {
    pub kind: UnitKind,
    pub instance: usize,
    /// [`Busy::cycles`] for the wave's size under the run's timing.
    pub busy: u64,
}

impl Device {
    /// The unit wave `wi`'s instruction at `pc` issues to (`None`: the wave's own sequencer,
    /// or no instruction there).
    #[inline]
    pub(crate) fn unit_use(&self, wi: usize, pc: usize) -> Option<UnitUse> {
        let (kind, busy) = self.facts.get(pc)?.unit?;
        Some(UnitUse {
            kind,
            instance: self.unit_instance(wi, kind),
            busy: busy[usize::from(self.waves[wi].size > 32)],
        })
    }

    /// The instance of `kind` wave `wi` issues to.
    #[inline]
    fn unit_instance(&self, wi: usize, kind: UnitKind) -> usize {
        let p = self.placement.as_ref().expect("placed before running");
        match kind {
            UnitKind::Valu | UnitKind::Trans | UnitKind::Salu => p.simd(wi),
            UnitKind::Lds => p.pipes(wi).start,
            UnitKind::Vmem => p.cu(wi),
            UnitKind::Smem => p.wgp(wi),
            UnitKind::Gds => 0,
        }
    }

    /// Whether wave `wi` must wait before it issues its instruction at `pc` (to `unit`): then
    /// its clock moves to when it can, the wait is counted as stall, and the caller queues it
    /// again. A wave waits first for the registers it reads, then for its unit, which is
    /// booked for it at once, so a wave queueing for a unit is held back once, not once per
    /// wave ahead of it. The LDS pipe is the exception: the wave hands its instruction to the
    /// pipe's queue and goes on ([`Device::lds_issue`]).
    pub(crate) fn hold_back(&mut self, wi: usize, pc: usize, unit: Option<UnitUse>) -> Hold {
        if self.booked[wi] {
            return Hold::Issue;
        }
        let clock = self.clocks[wi];
        let facts = &self.facts[pc];
        let deps = self.scoreboards[wi].ready_at(&facts.shape);
        let ready = if deps > clock {
            let declared = self.scoreboards[wi].declared_now();
            self.scoreboards[wi].dep_waited = true;
            // A wait nothing declared holds the SIMD's unit: other waves cannot issue to it.
            if let (
                false,
                Some(
                    u @ UnitUse {
                        kind: UnitKind::Valu | UnitKind::Trans | UnitKind::Salu,
                        ..
                    },
                ),
            ) = (declared, unit)
            {
                self.units.hold(u.kind, u.instance, deps);
            }
            deps
        } else {
            match unit {
                // The LDS pipe queues its instructions itself (`Device::lds_issue`): the wave
                // issues at once.
                Some(u)
                    if u.kind != UnitKind::Lds
                        && self.units.free_at(u.kind, u.instance) > clock =>
                {
                    self.booked[wi] = true;
                    self.units.occupy(u.kind, u.instance, clock, u.busy)
                }
                _ => return Hold::Issue,
            }
        };
        self.stall(wi, pc, ready);
        Hold::Later
    }

    /// Wave `wi` waits at the instruction at `pc` until `until`.
    fn stall(&mut self, wi: usize, pc: usize, until: u64) {
        let clock = self.clocks[wi];
        self.stats[pc].stall_cycles += until - clock;
        self.segment(wi, SegmentKind::Stall, clock, until, pc);
        self.clocks[wi] = until;
    }

    /// After wave `wi` issued its instruction at `pc` over the cycles `span` (from its
    /// issue): its unit (`unit`) is busy, its results will be ready after their latency,
    /// `s_delay_alu` takes effect.
    pub(crate) fn issued(
        &mut self,
        wi: usize,
        pc: usize,
        span: std::ops::Range<u64>,
        unit: Option<UnitUse>,
        cfg: &RunConfig,
    ) {
        let at = span.start;
        let booked = std::mem::take(&mut self.booked[wi]);
        if let Some(u) = unit {
            if u.kind != UnitKind::Lds && !booked {
                self.units.occupy(u.kind, u.instance, at, u.busy);
            }
        }
        let facts = &self.facts[pc];
        let sb = &mut self.scoreboards[wi];
        let declared = sb.declared_now();
        let waited = std::mem::take(&mut sb.dep_waited);
        sb.issued();
        sb.write(&facts.shape, at, &cfg.timing);
        if let Some(simm16) = facts.delay_alu {
            sb.delay_alu(simm16);
        }
        let vector_reader = facts.shape.vector_reader;
        let s = &mut self.delay_alu;
        if declared {
            s.declared += 1;
            s.declared_and_waited += u64::from(waited);
        } else if waited && vector_reader {
            s.undeclared_waits += 1;
            s.note_undeclared(pc);
        }
        self.segment(wi, SegmentKind::Issue, at, span.end, pc);
    }

    /// Places the device's workgroups (once, at the start of the first run) and starts
    /// those that fit; waves of workgroups not started stay off the queue.
    pub(crate) fn place(&mut self, program: &[AsmLine], cfg: &RunConfig) {
        if self.placement.is_some() {
            return;
        }
        let shape = PlacementShape {
            wgps: cfg.wgps.max(1),
            grid_groups: cfg.workgroups.max(self.first_group + self.group_count),
            first_group: self.first_group,
            groups: self.group_count,
            reuse_slots: self.wave_init.is_some(),
            group_waves: self.group_waves as u32,
            cus: cfg.chip.cus_per_unit,
            // A unit of one CU (CDNA3) has nothing to split: its workgroups use all of it.
            cu_mode: cfg.lds_mode == LdsMode::Cu && cfg.chip.cus_per_unit > 1,
            waves_per_simd: waves_per_simd(program, cfg),
            lds_bytes: cfg.lds_size,
            lds_pool: if cfg.lds_mode == LdsMode::Cu {
                cfg.chip.limits.lds_bytes_per_cu
            } else {
                cfg.chip.limits.lds_bytes_per_wgp
            },
        };
        let mut p = Placement::new(shape);
        self.units = Units::new(p.wgps(), shape.wgps as usize, p.cus());
        let cache = self.kcache.first().cloned();
        if let Some(c) = cache {
            self.kcache = vec![c; p.wgps()];
        }
        let started: Vec<(u32, u32)> = (0..p.wgps()).flat_map(|k| p.dispatch(k)).collect();
        self.placement = Some(p);
        for (g, slot) in started {
            self.start_group(g as usize, slot as usize, 0, None);
        }
    }

    /// Starts device workgroup `g`'s waves in workgroup slot `slot` at cycle `at`, in the
    /// SIMD slots wave `by` freed.
    fn start_group(&mut self, g: usize, slot: usize, at: u64, by: Option<usize>) {
        self.occupy_slot(g, slot);
        if self.release_finished && !self.lds[slot].is_allocated() {
            let grid_g = self.first_group + g as u32;
            let spare = self.spare_lds.pop();
            let lds = &mut self.lds[slot];
            lds.allocate(spare, self.alloc);
            lds.initialize(self.alloc, self.lds_init, grid_g);
            if self.check_lds_trace {
                lds.trace = Some(Vec::new());
            }
        }
        for wi in slot * self.group_waves..(slot + 1) * self.group_waves {
            self.started[wi] = true;
            self.clocks[wi] = at;
            self.start_life(wi, at, by);
            if !self.waves[wi].done && self.waits[wi].is_none() {
                self.queue(wi);
            }
        }
    }

    /// Wave `wi` ended: its slot, and with the last wave its workgroup's LDS, go to the
    /// workgroups waiting for its WGP, which start at its clock.
    pub(crate) fn release_slot(&mut self, wi: usize) {
        let Some(p) = self.placement.as_mut() else {
            return;
        };
        let g = self.wave_group[wi];
        let k = p.end_wave(wi, g);
        if self.release_finished && p.group_ended(g) {
            let storage = self.lds[g].release();
            if !storage.is_empty() {
                self.spare_lds.push(storage);
            }
            let reused = self.wave_init.is_some();
            for w in g * self.group_waves..(g + 1) * self.group_waves {
                if reused {
                    // The slot's next wave takes the VGPR storage, and the scoreboard is
                    // reset with the rest of the slot (`Device::occupy_slot`).
                    self.waves[w].clear_vgprs();
                } else {
                    // An up-front device's waves never run again: their storage goes.
                    self.waves[w].release_vgprs();
                    self.scoreboards[w] = super::deps::Scoreboard::default();
                }
            }
        }
        let started = p.dispatch(k);
        let at = self.clocks[wi];
        self.end_life(wi, at);
        for (g, slot) in started {
            self.start_group(g as usize, slot as usize, at, Some(wi));
        }
    }
}

/// Whether the VALU operation `name` (with or without its `_e32`/`_e64` suffix) runs a wave64
/// in one pass: the FP32/FP16 add, multiply, FMA, min/max, moves, `v_cndmask`, 16-bit integer
/// operations and the dot2 forms. The list is Mesa's (ACO `aco_statistics.cpp`,
/// `is_dual_issue_capable`, GFX11); AMD's guide says only that a wave64 instruction "may"
/// issue twice (docs/rules/timing.md#wave64-passes).
fn one_pass_wave64(name: &str) -> bool {
    let base = name
        .strip_suffix("_e32")
        .or_else(|| name.strip_suffix("_e64"))
        .unwrap_or(name);
    const ONE_PASS: &[&str] = &[
        "v_fma_f32",
        "v_fmac_f32",
        "v_fmaak_f32",
        "v_fmamk_f32",
        "v_fma_f16",
        "v_fmac_f16",
        "v_fmaak_f16",
        "v_fmamk_f16",
        "v_mul_f32",
        "v_add_f32",
        "v_sub_f32",
        "v_subrev_f32",
        "v_mul_f16",
        "v_add_f16",
        "v_sub_f16",
        "v_subrev_f16",
        "v_mul_dx9_zero_f32",
        "v_fma_dx9_zero_f32",
        "v_mov_b32",
        "v_movreld_b32",
        "v_movrels_b32",
        "v_movrelsd_b32",
        "v_movrelsd_2_b32",
        "v_cndmask_b32",
        "v_cndmask_b16",
        "v_writelane_b32",
        "v_mov_b16",
        "v_max_f32",
        "v_min_f32",
        "v_max_f16",
        "v_min_f16",
        "v_add_nc_u16",
        "v_sub_nc_u16",
        "v_add_nc_i16",
        "v_sub_nc_i16",
        "v_mad_u16",
        "v_mad_i16",
        "v_mul_lo_u16",
        "v_not_b16",
        "v_and_b16",
        "v_or_b16",
        "v_xor_b16",
        "v_lshlrev_b16",
        "v_lshrrev_b16",
        "v_ashrrev_i16",
        "v_max_i16",
        "v_max_u16",
        "v_min_i16",
        "v_min_u16",
        "v_dot2_bf16_bf16",
        "v_dot2_f32_bf16",
        "v_dot2_f16_f16",
        "v_dot2_f32_f16",
        "v_dot2acc_f32_f16",
    ];
    ONE_PASS.contains(&base)
}

/// The occupancy limit of a run: [`RunConfig::waves_per_simd`] when set, else the occupancy
/// rule ([`occupancy::occupancy`]) on what the program uses (its highest VGPR) and the
/// run's workgroup shape and LDS allocation.
pub(crate) fn waves_per_simd(program: &[AsmLine], cfg: &RunConfig) -> u32 {
    if cfg.waves_per_simd != 0 {
        return cfg.waves_per_simd;
    }
    let vgprs = program
        .iter()
        .flat_map(|l| l.inst.vgpr_operands())
        .map(|o| o.first + o.count)
        .max()
        .unwrap_or(0);
    let r = Resources {
        vgprs,
        agprs: 0,
        allocated_vgprs: vgprs,
        sgprs: 0,
        static_lds_bytes: cfg.lds_size,
        dynamic_lds_bytes: 0,
        scratch_bytes_per_lane: cfg.scratch_size,
        wave_size: cfg.wave_size,
        workgroup_size: cfg.waves * cfg.wave_size,
        wgp_mode: cfg.lds_mode == LdsMode::Wgp,
        register_counts: RegisterCounts::Metadata,
    };
    occupancy::occupancy(&r, &cfg.chip.limits)
        .waves_per_simd
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdna3_isa::Opcode;
    use std::sync::OnceLock;

    /// The unit an instruction issues to and the cycles it occupies it for, as the executor
    /// worked them out at each execution before [`IssueFacts`] kept them per instruction:
    /// the reference the facts must match.
    fn unit_of(inst: &Instruction, wave_size: u32, t: &TimingParams) -> Option<(UnitKind, u64)> {
        let d = inst.def();
        let passes = u64::from(wave_size).div_ceil(32);
        Some(match d.format {
            Format::Sop1 | Format::Sop2 | Format::Sopc | Format::Sopk => (UnitKind::Salu, t.salu),
            // Transcendentals on their own unit, every pass (docs/rules/timing.md#issue).
            Format::Vop1 | Format::Vop3 if super::super::deps::is_trans(d.name) => {
                (UnitKind::Trans, t.trans_issue * passes)
            }
            Format::Vop1
            | Format::Vop2
            | Format::Vop3
            | Format::Vopc
            | Format::Vop3p
            | Format::Vinterp => (UnitKind::Valu, valu_cycles(inst, wave_size, t)),
            // A VOPD pair issues once (docs/rules/timing.md#issue).
            Format::Vopd => (UnitKind::Valu, t.valu),
            Format::Ds if super::super::grid::is_device_wide(inst) => (UnitKind::Gds, t.gds_issue),
            Format::Ds | Format::Ldsdir => (UnitKind::Lds, 0),
            Format::Smem => (UnitKind::Smem, 1),
            Format::Global | Format::Flat | Format::Scratch | Format::Mubuf | Format::Mtbuf => {
                (UnitKind::Vmem, t.vmem_issue * passes)
            }
            Format::Sopp => return None,
        })
    }

    /// Issue cycles of a VALU instruction (not VOPD): `valu` per pass, `f64_issue` per pass for a
    /// double-precision operation, `quarter_issue` for a quarter-rate one
    /// (docs/rules/timing.md#issue).
    fn valu_cycles(inst: &Instruction, wave_size: u32, t: &crate::timing::TimingParams) -> u64 {
        static F64: OnceLock<Vec<bool>> = OnceLock::new();
        let f64 = F64.get_or_init(|| {
            rdna3_isa::def::every()
                .map(|(_, d)| d)
                .map(|d| super::super::deps::is_f64(d.name))
                .collect()
        });
        let name = inst.def().name;
        let per_pass = if f64[inst.opcode.0 as usize] {
            t.f64_issue
        } else if super::super::deps::is_quarter_rate(name) {
            t.quarter_issue
        } else {
            t.valu
        };
        per_pass * valu_passes(inst, wave_size)
    }

    /// Passes of a VALU instruction: one for wave32; for wave64 two — "it may issue twice as two
    /// wave32 instructions" (RDNA3 ISA guide 7.2.3.2) — except for the operations the SIMD's
    /// dual-issue ALUs run 64 lanes wide in one pass (docs/rules/timing.md#wave64-passes).
    fn valu_passes(inst: &Instruction, wave_size: u32) -> u64 {
        if wave_size <= 32 {
            return 1;
        }
        static ONE_PASS: OnceLock<Vec<bool>> = OnceLock::new();
        let table = ONE_PASS.get_or_init(|| {
            rdna3_isa::def::every()
                .map(|(_, d)| d)
                .map(|d| one_pass_wave64(d.name))
                .collect()
        });
        if table[inst.opcode.0 as usize] {
            1
        } else {
            2
        }
    }

    /// The quarter-rate class and the transcendentals are the instructions Mesa's ACO puts in
    /// `valu_quarter_rate32` and `valu_transcendental32`, in every encoding the table has, and
    /// nothing else that shares a prefix with them.
    #[test]
    fn quarter_rate_and_transcendental_classes_are_acos() {
        let names: Vec<&str> = rdna3_isa::def::every().map(|(_, d)| d.name).collect();
        let quarter: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| super::super::deps::is_quarter_rate(n))
            .collect();
        for n in [
            "v_mul_lo_u32",
            "v_mul_hi_u32",
            "v_mul_hi_i32",
            "v_mqsad_u32_u8",
        ] {
            assert!(quarter.contains(&n), "{n} in {quarter:?}");
        }
        assert!(quarter
            .iter()
            .all(|n| !n.contains("u24") && !n.contains("u16")));
        let is_trans = super::super::deps::is_trans;
        for n in [
            "v_rcp_f32_e32",
            "v_exp_f16_e64",
            "v_rcp_iflag_f32_e32",
            "v_sqrt_f32_e32",
        ] {
            assert!(is_trans(n), "{n}");
        }
        for n in [
            "v_rcp_f64_e32",
            "v_sqrt_f64_e64",
            "v_add_f32_e32",
            "v_mul_lo_u32",
        ] {
            assert!(!is_trans(n), "{n}");
        }
        let t = TimingParams::RDNA3;
        let facts = |text: &str| {
            let p = rdna3_isa::asm::assemble(text);
            IssueFacts::of(&p.lines[0], &t).unit
        };
        assert_eq!(
            facts("v_mul_lo_u32 v1, v2, v3"),
            Some((UnitKind::Valu, [4, 8]))
        );
        assert_eq!(facts("v_rcp_f32 v1, v2"), Some((UnitKind::Trans, [4, 8])));
        assert_eq!(
            facts("v_add_f32 v1, v2, v3"),
            Some((UnitKind::Valu, [1, 1]))
        );
    }

    /// The facts are worked out for every instruction of a program when a run starts, run or
    /// not (`Device::run_steps`): every instruction of the table, DS ones with and without
    /// GDS, has them, and an `s_delay_alu` keeps its immediate.
    #[test]
    fn every_instruction_has_facts() {
        for op in 0..rdna3_isa::table::INSTRUCTIONS.len() {
            let mut inst = Instruction::new(Opcode(op as _));
            let delay = inst.def().name == "s_delay_alu";
            if delay {
                inst.set(Field::Simm16, 0x91);
            }
            for gds in [0, 1] {
                if inst.def().format == Format::Ds {
                    inst.set(Field::Gds, gds);
                }
                let line = AsmLine {
                    line: 1,
                    address: 0,
                    inst: inst.clone(),
                    hints: Default::default(),
                    original: None,
                };
                let facts = IssueFacts::of(&line, &TimingParams::default());
                assert_eq!(
                    facts.delay_alu,
                    delay.then_some(0x91),
                    "{}",
                    inst.mnemonic()
                );
            }
        }
    }

    /// Every instruction of the table, DS ones with and without GDS, on both wave sizes and
    /// under timings whose parameters all differ: the facts' unit and cycles are the
    /// reference's.
    #[test]
    fn the_facts_unit_and_cycles_are_those_worked_out_per_execution() {
        let t = TimingParams {
            salu: 3,
            valu: 5,
            f64_issue: 7,
            gds_issue: 11,
            vmem_issue: 13,
            ..TimingParams::default()
        };
        for op in 0..rdna3_isa::table::INSTRUCTIONS.len() {
            let mut inst = Instruction::new(Opcode(op as _));
            for gds in [0, 1] {
                if inst.def().format == Format::Ds {
                    inst.set(Field::Gds, gds);
                }
                let facts = busy_of(&inst);
                for size in [32, 64] {
                    let cached = facts.map(|(k, b)| (k, b.cycles(size, &t)));
                    assert_eq!(cached, unit_of(&inst, size, &t), "{}", inst.mnemonic());
                }
            }
        }
    }
}
