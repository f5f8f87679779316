//! One instruction of one wave: dispatch to the scalar ALU, the DS/LDSDIR models, V_INTERP,
//! and the GWS/ordered-count unit; timing and statistics.

use std::collections::HashMap;
use std::sync::OnceLock;

use rdna3_isa::asm::AsmLine;
use rdna3_isa::{Field, Format, Instruction, Opcode};

use super::{salu, valu, vinterp, Counter, Device, Pending, RunConfig, RunError, Waiting};
use crate::banks;
use crate::ds::{self, DsEnv, DsError, DsKind};
use crate::timeline::{SegmentKind, UnitKind};
use crate::wave::{Wave, RECENT_VALU};

/// How one step ended for the wave.
pub(crate) struct StepEnd {
    /// Next instruction index.
    pub next_pc: usize,
    /// Cycles the instruction occupied its unit (an LDS instruction: its bank cycles in the
    /// LDS pipe).
    pub cost: u64,
    /// Cycles lost to bank conflicts.
    pub conflict: u64,
    /// The cycles the wave itself spends issuing it, when not `cost` (an LDS instruction
    /// issues in `lds_issue` per pass and the wave goes on while the pipe works).
    pub wave_cycles: Option<u64>,
}

impl Device {
    /// Runs wave `wi`'s instruction at `pc` of `program` (an index in it), which issues to
    /// `unit_use` ([`Device::unit_use`]): its work in the unit models, then its timing and
    /// statistics.
    pub(crate) fn step(
        &mut self,
        wi: usize,
        pc: usize,
        program: &[AsmLine],
        cfg: &RunConfig,
        code: &super::control::CodeMap,
        unit_use: Option<super::issue::UnitUse>,
    ) -> Result<(), RunError> {
        let line = &program[pc];
        let inst = &line.inst;
        let d = inst.def();
        let t = cfg.timing;
        let start = self.clocks[wi];
        let unimplemented = || RunError::Unimplemented {
            name: inst.mnemonic(),
            pc,
            line: line.line,
            why: None,
        };
        // Another chip's instruction reaches the executor as it is only when it runs as it
        // is (`crate::target::gfx9::runs_as_is`); any other was not lowered, and says why.
        if d.isa != rdna3_isa::Isa::Gfx11 && !crate::target::gfx9::runs_as_is(d.name) {
            return Err(RunError::Unimplemented {
                name: inst.mnemonic(),
                pc,
                line: line.line,
                why: Some(crate::target::gfx9::refusal(inst)),
            });
        }
        let mut end = StepEnd {
            next_pc: pc + 1,
            cost: t.salu,
            conflict: 0,
            wave_cycles: None,
        };
        let facts = &self.facts[pc];
        let (clause, unit, returns) = (facts.clause, facts.unit, facts.returns);
        let valu_cost = valu_cost(unit_use, &t, self.waves[wi].size);
        self.before_issue(wi, pc, inst, clause);
        if d.format == Format::Vinterp {
            // V_INTERP has a built-in `s_waitcnt expcnt(wait_exp)`, before it reads its
            // parameter VGPRs (docs/rules/ds.md#parameter-interpolation).
            self.wait_for(wi, Counter::Exp, inst.get(Field::WaitExp));
        }
        self.check_inflight(wi, pc, inst);
        self.check_poison(wi, pc, inst);
        if let Some((UnitKind::Valu | UnitKind::Trans, _)) = unit {
            // Every VALU instruction, VOPD and V_INTERP too, enters the wave's recent ones
            // (LDSDIR's `wait_vdst` rule).
            self.waves[wi].recent_valu.push(pc);
        }
        let saved = match (d.format, returns) {
            (Format::Ds, _) if ds::ds_kind(inst.opcode) == Some(DsKind::GlobalSync) => None,
            (Format::Ds, Some(r)) if self.loads_rows(pc) => {
                Some(self.reserve_destination(wi, inst, r))
            }
            _ => self.save_destination(wi, inst, returns),
        };
        match d.format {
            Format::Sopp => {
                let control = program_control(inst.opcode).ok_or_else(unimplemented)?;
                if let Some(target) = self.sopp(wi, pc, line, control, &code.targets, cfg)? {
                    end.next_pc = target;
                }
                if let Control::Nop = control {
                    end.cost = nop_cycles(inst);
                }
            }
            Format::Sop1 | Format::Sop2 | Format::Sopc | Format::Sopk => {
                // The PC-writing ones (calls, returns) run on the program's addresses.
                match super::control::jump_of(inst.opcode) {
                    Some(jump) => {
                        if let Some(to) = self.jump(wi, pc, line, jump, code)? {
                            end.next_pc = to;
                        }
                    }
                    None => self.scalar_alu(wi, inst).ok_or_else(unimplemented)?,
                }
            }
            Format::Ds if ds::ds_kind(inst.opcode) == Some(DsKind::GlobalSync) => {
                match self.global_sync(wi, pc, line, program)? {
                    Some(e) => end = e,
                    // Blocked before processing: the instruction re-issues when woken.
                    None => return Ok(()),
                }
            }
            Format::Ds => {
                let direct = saved
                    .as_ref()
                    .and_then(|s| s.direct_rows(self.waves[wi].size));
                end = self
                    .ds(wi, pc, inst, direct, cfg)
                    .map_err(|_| unimplemented())?
            }
            Format::Smem => self.smem(wi, pc, inst).ok_or_else(unimplemented)?,
            Format::Mubuf if matches!(d.name, "buffer_gl0_inv" | "buffer_gl1_inv") => {
                // The vector caches are not modelled apart from memory: nothing to drop.
            }
            Format::Global | Format::Flat | Format::Scratch | Format::Mubuf | Format::Mtbuf => {
                end.cost = self.global(wi, pc, inst, cfg).ok_or_else(unimplemented)?
            }
            // gfx942's AGPR moves that name an AGPR past v255 (VOP3P, and VOP1 for the mov),
            // which run as they are.
            _ if d.isa == rdna3_isa::Isa::Gfx940 && d.name.starts_with("v_accvgpr_") => {
                valu::execute_accvgpr(inst, &mut self.waves[wi]).map_err(|_| unimplemented())?;
                end.cost = valu_cost;
            }
            // Packed math, dot products and fma_mix (WMMA stops by name).
            Format::Vop3p => {
                valu::execute_vop3p(inst, &mut self.waves[wi]).map_err(|_| unimplemented())?;
                end.cost = valu_cost;
            }
            // A gfx942 SDWA form: its lowering runs on the sources its SDWA dword selects.
            Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3
                if line.original.as_ref().is_some_and(|o| o.sdwa()) =>
            {
                let sdwa = line.original.as_ref().expect("checked");
                valu::execute_sdwa(inst, sdwa, &mut self.waves[wi]).map_err(|_| unimplemented())?;
                end.cost = valu_cost;
            }
            Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3 => {
                let d = valu::decoded_at(&mut self.valu, pc, inst, false);
                let w = &mut self.waves[wi];
                let exec = w.exec();
                valu::execute_decoded(inst, w, d).map_err(|_| unimplemented())?;
                if let Some(o) = &line.original {
                    if let Some(sdst) = crate::target::gfx9::cmpx_also_writes(o) {
                        let exec = w.exec();
                        w.set_sreg64(sdst, exec);
                    }
                    if crate::target::gfx9::zeroes_high_16(o.def().name) {
                        let vdst = inst.get(Field::Vdst);
                        for l in (0..w.size).filter(|l| exec >> l & 1 == 1) {
                            w.set_vgpr(vdst, l, w.vgpr(vdst, l) & 0xffff);
                        }
                    }
                }
                end.cost = valu_cost;
            }
            Format::Vopd => {
                let d = valu::decoded_at(&mut self.valu, pc, inst, true);
                valu::execute_vopd_decoded(inst, &mut self.waves[wi], d)
                    .map_err(|_| unimplemented())?;
                end.cost = t.valu;
            }
            Format::Vinterp => {
                vinterp::execute(inst, &mut self.waves[wi]);
                end.cost = valu_cost;
            }
            Format::Ldsdir => self.ldsdir(wi, pc, program, cfg, &mut end),
        }
        if let Some(saved) = saved {
            let (at, counter, seq) = self.last_issue;
            self.send_return(wi, pc, saved, at, counter, seq);
        }
        if self.functional {
            // A functional run counts executions only, and its clocks count turns
            // (`exec::functional`).
            self.stats[pc].executions += 1;
            self.waves[wi].pc = end.next_pc;
            return Ok(());
        }
        self.finish_issue(wi, pc, start, &end, unit_use, cfg);
        Ok(())
    }

    /// The end of wave `wi`'s timed step at `pc`, which began at cycle `start` and ended as
    /// `end` says, on `unit_use`: the wait since `start` (s_waitcnt, the GWS moved the clock),
    /// the issue, the clock, the counters, the instruction's statistics and the next pc.
    /// Shared by [`Device::step`] and the short path ([`Device::quick_step`]).
    #[inline(always)]
    pub(super) fn finish_issue(
        &mut self,
        wi: usize,
        pc: usize,
        start: u64,
        end: &StepEnd,
        unit_use: Option<super::issue::UnitUse>,
        cfg: &RunConfig,
    ) {
        let issue_at = self.clocks[wi];
        self.segment(wi, SegmentKind::Wait, start, issue_at, pc);
        let wave_cycles = end.wave_cycles.unwrap_or(end.cost);
        self.issued(wi, pc, issue_at..issue_at + wave_cycles, unit_use, cfg);
        self.clocks[wi] = issue_at + wave_cycles;
        self.update_counters(wi);
        let s = &mut self.stats[pc];
        s.executions += 1;
        s.cycles += end.cost;
        s.conflict_cycles += end.conflict;
        s.stall_cycles += issue_at - start;
        self.waves[wi].pc = end.next_pc;
    }

    /// Runs the LDSDIR instruction at `pc` of `program` on wave `wi` (out of line: rare, and
    /// kept out of [`Device::step`]'s common path).
    #[inline(never)]
    fn ldsdir(
        &mut self,
        wi: usize,
        pc: usize,
        program: &[AsmLine],
        cfg: &RunConfig,
        end: &mut StepEnd,
    ) {
        let inst = &program[pc].inst;
        let recent_pcs = self.waves[wi].recent_valu.latest(RECENT_VALU);
        let recent: Vec<Instruction> = recent_pcs.map(|i| program[i].inst.clone()).collect();
        let (wave, mut env) = self.ds_env(wi, pc, None);
        env.recent_valu = &recent;
        ds::ldsdir::execute(inst, wave, &mut env);
        self.check_lds(wi, pc, false, false);
        self.lds_issue(wi, pc, cfg.timing.lds_issue, Counter::Exp, false, cfg, end);
    }

    /// Runs the program-control (SOPP) instruction `line` at `pc` of wave `wi`, which does
    /// `control`; returns the target instruction index of a taken branch.
    fn sopp(
        &mut self,
        wi: usize,
        pc: usize,
        line: &AsmLine,
        control: Control,
        targets: &[Option<usize>],
        cfg: &RunConfig,
    ) -> Result<Option<usize>, RunError> {
        let inst = &line.inst;
        match control {
            Control::End => self.end_wave(wi),
            Control::Nothing | Control::Nop => {
                // s_sendmsg's messages go to the host (MSG_DEALLOC_VGPRS at a kernel's
                // end, ...): nothing in the memory system changes.
            }
            Control::Sleep => {
                // A sleeping wave may be waiting for the host (hostcall): the host looks.
                if let Some(host) = &cfg.host {
                    host.service(&mut self.memory);
                }
            }
            Control::Waitcnt => self.wait_on_counters(wi, inst, None),
            Control::SetMode { shift } => {
                // s_round_mode / s_denorm_mode: SIMM16[3:0] into MODE.FP_ROUND [3:0] or
                // MODE.FP_DENORM [7:4] (AMD's RDNA3 ISA guide, SOPP instructions). clang
                // brackets a correctly rounded f32 divide with s_denorm_mode when f32
                // denormals are flushed.
                let w = &mut self.waves[wi];
                w.mode = w.mode & !(0xf << shift) | (inst.get(Field::Simm16) & 0xf) << shift;
            }
            Control::Trap => return Err(self.trap(wi, pc, line)),
            Control::Barrier => {
                self.check_barrier_arrival(wi);
                self.waits[wi] = Some(Waiting::Barrier { pc });
                self.try_release_barrier(self.wave_group[wi]);
            }
            Control::Branch(cond) => {
                if branch_taken(&self.waves[wi], cond) {
                    let next = targets[pc].ok_or(RunError::BadBranch {
                        pc,
                        line: line.line,
                    })?;
                    return Ok(Some(next));
                }
            }
        }
        Ok(None)
    }

    /// Runs the scalar ALU instruction `inst` (SOP1, SOP2, SOPC, SOPK) on wave `wi`: the
    /// `s_waitcnt_*` forms wait on their counter; `None` when the instruction is not
    /// implemented.
    fn scalar_alu(&mut self, wi: usize, inst: &Instruction) -> Option<()> {
        let name = inst.def().name;
        if waits_on_a_counter(name) {
            if let Some(c) = counter_waited(name) {
                self.wait_on_counters(wi, inst, Some(c));
            }
            Some(())
        } else {
            salu::execute(inst, &mut self.waves[wi]).then_some(())
        }
    }

    /// Wave `wi` waits as the wait `inst` says: on `counter` until it is at most SIMM16 (an
    /// `s_waitcnt_*cnt`), or, with no counter (`s_waitcnt`), on each counter until it is at
    /// most its field of SIMM16 (gfx11: vmcnt \[15:10\], lgkmcnt \[9:4\], expcnt \[2:0\];
    /// AMD's RDNA3 ISA guide, SOPP `S_WAITCNT`).
    pub(super) fn wait_on_counters(
        &mut self,
        wi: usize,
        inst: &Instruction,
        counter: Option<Counter>,
    ) {
        let v = inst.get(Field::Simm16);
        match counter {
            Some(c) => self.wait_for_each(wi, &[(c, v)]),
            None => self.wait_for_each(
                wi,
                &[
                    (Counter::Vm, (v >> 10) & 63),
                    (Counter::Lgkm, (v >> 4) & 63),
                    (Counter::Exp, v & 7),
                ],
            ),
        }
    }

    /// Whether the DS instruction at `pc` runs as a row-form load (`ds::loads_rows`), which
    /// writes its results straight into the data in flight.
    fn loads_rows(&self, pc: usize) -> bool {
        let rows = self.checker.row_forms();
        self.facts[pc].ds.is_some_and(|f| ds::loads_rows(&f, rows))
    }

    /// Wave `wi` and what its LDS-unit instruction at `pc` may touch: its workgroup's LDS,
    /// the GDS and the event log; `direct`: the rows of the wave's data in flight (start,
    /// words) a row-form load writes into instead of its registers
    /// ([`Device::reserve_destination`]).
    fn ds_env(
        &mut self,
        wi: usize,
        pc: usize,
        direct: Option<(usize, usize)>,
    ) -> (&mut Wave, DsEnv<'_>) {
        let g = self.wave_group[wi];
        let env = DsEnv {
            lds: &mut self.lds[g],
            alloc: self.alloc,
            gds: &mut self.gds,
            events: &mut self.events,
            pc,
            rows: self.checker.row_forms(),
            recent_valu: &[],
            dst: direct.map(|rows| self.inflight[wi].rows_mut(rows)),
        };
        (&mut self.waves[wi], env)
    }

    /// Occupies the workgroup's LDS for `busy` cycles and queues the completion of the
    /// instruction at `pc`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn lds_issue(
        &mut self,
        wi: usize,
        pc: usize,
        busy: u64,
        counter: Counter,
        gds: bool,
        cfg: &RunConfig,
        end: &mut StepEnd,
    ) {
        // The wave issues the instruction in `lds_issue` cycles per pass and goes on; the LDS
        // pipe takes it when it is free (its queue), busy for its bank cycles, and its data
        // lands `lds_latency` after that: latency = queue + bank cycles + pipe latency
        // (docs/rules/timing.md#one-lds-instruction-at-a-time). A GDS instruction's unit is
        // booked when it issues (`Device::issued`).
        let clock = self.clocks[wi];
        let done_at = if gds {
            end.cost = busy;
            clock + busy + cfg.timing.gds_latency
        } else {
            // An allocation across both halves of the WGP's LDS takes both pipes at once
            // (docs/rules/timing.md#lds-halves).
            let pipes = self.placement.as_ref().map_or(0..1, |p| p.pipes(wi));
            let begin = pipes
                .clone()
                .map(|i| self.units.free_at(UnitKind::Lds, i))
                .fold(clock, u64::max);
            for pipe in pipes {
                self.units.occupy(UnitKind::Lds, pipe, begin, busy);
                self.pipe_busy(wi, pipe, begin, begin + busy);
            }
            let passes = u64::from(self.waves[wi].size).div_ceil(32);
            end.cost = busy;
            end.wave_cycles = Some(cfg.timing.lds_issue * passes);
            begin + busy + cfg.timing.lds_latency
        };
        let seq = self.count_issued(wi, counter);
        self.last_issue = (done_at, counter, seq);
        self.stats[pc].latency_cycles += done_at - clock;
        self.add_pending(
            wi,
            Pending {
                counter,
                done_at,
                gds,
                weight: 1,
            },
        );
    }

    // Out of line: inlined into `Device::step`, it made the VALU/SALU path save and spill
    // for its registers (docs/benchmarks.md, fifth pass).
    #[inline(never)]
    fn ds(
        &mut self,
        wi: usize,
        pc: usize,
        inst: &Instruction,
        direct: Option<(usize, usize)>,
        cfg: &RunConfig,
    ) -> Result<StepEnd, DsError> {
        let passes = (self.waves[wi].size as u64).div_ceil(32);
        // The outcome buffer is the device's, lent for the instruction (a box moved out and
        // back: the outcome's rows are not copied).
        let mut outcome = self.ds_outcome.take().unwrap_or_default();
        // Every DS instruction's facts hold its fields (`IssueFacts::of`).
        let fields = self.facts[pc].ds.unwrap_or_else(|| ds::DsFields::of(inst));
        let (wave, mut env) = self.ds_env(wi, pc, direct);
        let done = ds::execute_fields(inst, &fields, wave, &mut env, &mut outcome);
        debug_assert!(env.dst.is_none(), "a row-form load writes its rows");
        let end = done.map(|()| match self.functional {
            // No checks, no bank cycles, no pipe: the data is in its registers already.
            true => StepEnd {
                next_pc: pc + 1,
                cost: 0,
                conflict: 0,
                wave_cycles: None,
            },
            false => self.after_ds(wi, pc, inst, &outcome, passes, cfg),
        });
        self.ds_outcome = Some(outcome);
        end
    }

    /// The checks, bank cycles and LDS-pipe timing of the DS instruction `inst` at `pc` of
    /// wave `wi`, which did `outcome` in `passes` passes.
    fn after_ds(
        &mut self,
        wi: usize,
        pc: usize,
        inst: &Instruction,
        outcome: &ds::DsOutcome,
        passes: u64,
        cfg: &RunConfig,
    ) -> StepEnd {
        let atomic = matches!(
            ds::ds_kind(inst.opcode),
            Some(
                DsKind::Atomic { .. }
                    | DsKind::Xchg2 { .. }
                    | DsKind::Condxchg32
                    | DsKind::Append
                    | DsKind::Consume
            )
        );
        if outcome.rows != ds::RowAccess::Traced {
            self.check_lds_rows(wi, pc, outcome);
        } else {
            self.check_lds(wi, pc, atomic, true);
        }
        let priced = self.bank_cycles(pc, inst, outcome, wi, cfg);
        if cfg.record_samples {
            if let Some(cost) = priced {
                self.record_samples_sample(pc, wi, inst, outcome, cost);
            }
        }
        let unpriced = if outcome.gds {
            cfg.timing.gds_issue
        } else {
            cfg.timing.lds_issue * passes
        };
        let (busy, ideal) = priced.unwrap_or((unpriced, unpriced));
        let mut end = StepEnd {
            next_pc: pc + 1,
            cost: 0,
            conflict: busy - ideal,
            wave_cycles: None,
        };
        self.lds_issue(wi, pc, busy, Counter::Lgkm, outcome.gds, cfg, &mut end);
        end
    }

    /// (cycles, ideal cycles) of the DS instruction `inst` at `pc`'s LDS access from the
    /// run's bank model (asked once per distinct access: [`super::access_memo`]), or `None`
    /// when it is no bank access (GDS, permutes, swizzle, append/consume, the BVH stack: they
    /// take their ideal issue cycles).
    fn bank_cycles(
        &mut self,
        pc: usize,
        inst: &Instruction,
        outcome: &ds::DsOutcome,
        wi: usize,
        cfg: &RunConfig,
    ) -> Option<(u64, u64)> {
        if outcome.gds || outcome.is_empty() {
            return None;
        }
        let banks::DsAccess { width, kind } = ds_bank_access(inst.opcode)?;
        let two = matches!(
            ds::ds_kind(inst.opcode),
            Some(DsKind::Load2 { .. } | DsKind::Store2 { .. } | DsKind::Xchg2 { .. })
        );
        let (addrs, addrs1, active) = (&outcome.addrs, &outcome.addrs2, outcome.lanes);
        let size = self.waves[wi].size as usize;
        let wave = if size == 64 {
            banks::WaveSize::Wave64
        } else {
            banks::WaveSize::Wave32
        };
        let (first, second) = (&addrs[..size], two.then_some(&addrs1[..size]));
        let tag = [pc as u64, active];
        *self
            .bank_memo
            .get_or_make(tag, [first, second.unwrap_or(&[])], |_| {
                let access = banks::Access {
                    shape: banks::AccessShape {
                        width,
                        kind,
                        active,
                        wave,
                    },
                    addrs: first,
                    addrs1: second,
                };
                let c = cfg.banks.cost(&access).ok()?;
                Some((c.cost as u64, c.ideal as u64))
            })
    }

    /// Outstanding GDS/GWS operations of wave `wi`.
    pub(crate) fn outstanding_gds(&self, wi: usize) -> usize {
        let now = self.clocks[wi];
        self.pending[wi]
            .iter()
            .filter(|p| p.gds && p.done_at > now)
            .count()
    }

    /// Outstanding LGKM operations of wave `wi`.
    pub(crate) fn outstanding_lgkm(&self, wi: usize) -> usize {
        let now = self.clocks[wi];
        self.pending[wi]
            .iter()
            .filter(|p| p.counter == Counter::Lgkm && p.done_at > now)
            .count()
    }
}

/// What a program-control (SOPP) instruction does in the executor.
#[derive(Clone, Copy)]
pub(super) enum Control {
    /// Ends the wave.
    End,
    /// Nothing the memory system sees (hints, priorities, messages to the host, ...).
    Nothing,
    /// `s_nop`: nothing but time.
    Nop,
    /// `s_waitcnt`.
    Waitcnt,
    /// `s_round_mode` (shift 0) and `s_denorm_mode` (shift 4): a 4-bit field of MODE.
    SetMode {
        /// The field's first bit.
        shift: u32,
    },
    /// `s_barrier`.
    Barrier,
    /// `s_trap`: the run stops ([`Device::trap`]).
    Trap,
    /// `s_sleep`: nothing in the memory system; the host (`RunConfig::host`) services the
    /// device's requests.
    Sleep,
    /// A branch, taken when the condition holds.
    Branch(BranchIf),
}

/// A branch's condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BranchIf {
    Always,
    Scc0,
    Scc1,
    Vccz,
    Vccnz,
    Execz,
    Execnz,
}

/// Whether the SOP instruction called `name` is an `s_waitcnt_*` form (a wait on one counter,
/// `Device::scalar_alu`), which the scalar ALU does not run.
pub(super) fn waits_on_a_counter(name: &str) -> bool {
    name.starts_with("s_waitcnt_")
}

/// A VALU instruction's cost on `unit_use` for a wave of `size` lanes: its unit's busy
/// cycles; a transcendental's, the VALU's issue cycles (its own unit goes on working on it:
/// `issue::busy_of`).
#[inline(always)]
pub(super) fn valu_cost(
    unit_use: Option<super::issue::UnitUse>,
    t: &crate::timing::TimingParams,
    size: u32,
) -> u64 {
    match unit_use {
        Some(u) if u.kind == UnitKind::Trans => t.valu * u64::from(size).div_ceil(32),
        Some(u) => u.busy,
        None => 0,
    }
}

/// `s_nop`'s issue cycles: "delay issue of next instruction" by SIMM16\[3:0\] + 1 clocks,
/// the pseudocode running nop() for i in 0 .. SIMM16\[3:0\] (docs/rules/timing.md#s_nop).
pub(super) fn nop_cycles(inst: &Instruction) -> u64 {
    u64::from(inst.get(Field::Simm16) & 0xf) + 1
}

/// The counter the `s_waitcnt_*cnt` instruction called `name` waits on (`None` for any
/// other name).
pub(super) fn counter_waited(name: &str) -> Option<Counter> {
    Some(match name {
        "s_waitcnt_lgkmcnt" => Counter::Lgkm,
        "s_waitcnt_expcnt" => Counter::Exp,
        "s_waitcnt_vmcnt" => Counter::Vm,
        "s_waitcnt_vscnt" => Counter::Vs,
        _ => return None,
    })
}

/// Whether a branch on `cond` is taken in wave `w`'s state.
pub(super) fn branch_taken(w: &Wave, cond: BranchIf) -> bool {
    let vccz = w.vcc() & w.lane_mask() == 0;
    match cond {
        BranchIf::Always => true,
        BranchIf::Scc0 => !w.scc,
        BranchIf::Scc1 => w.scc,
        BranchIf::Vccz => vccz,
        BranchIf::Vccnz => !vccz,
        BranchIf::Execz => w.exec() == 0,
        BranchIf::Execnz => w.exec() != 0,
    }
}

/// Where each instruction of `program` branches to when it is a SOPP branch whose target is
/// an instruction of the program (its index), worked out once per run: the target of a
/// branch at byte address `a` is `a + 4 + 4 * simm16` (signed). `None` elsewhere; a branch
/// taken with no instruction at its target is a [`RunError::BadBranch`].
pub(crate) fn branch_targets(program: &[AsmLine]) -> Vec<Option<usize>> {
    let by_address: HashMap<u32, usize> = program
        .iter()
        .enumerate()
        .map(|(i, l)| (l.address, i))
        .collect();
    program
        .iter()
        .map(|l| {
            if !matches!(program_control(l.inst.opcode), Some(Control::Branch(_))) {
                return None;
            }
            let off = l.inst.get(Field::Simm16) as u16 as i16 as i64;
            let target = l.address as i64 + 4 + off * 4;
            u32::try_from(target)
                .ok()
                .and_then(|a| by_address.get(&a).copied())
        })
        .collect()
}

/// [`Control`] of each SOPP instruction the executor runs (`None`: not implemented), looked
/// up once per process.
pub(super) fn program_control(op: Opcode) -> Option<Control> {
    static TABLE: OnceLock<Vec<Option<Control>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        rdna3_isa::def::every()
            .map(|(_, d)| d)
            .map(|d| {
                Some(match d.name {
                    "s_endpgm" | "s_endpgm_saved" | "s_code_end" => Control::End,
                    "s_nop" => Control::Nop,
                    "s_clause"
                    | "s_delay_alu"
                    | "s_waitcnt_depctr"
                    | "s_set_inst_prefetch_distance"
                    | "s_setprio"
                    | "s_icache_inv"
                    | "s_wait_idle"
                    | "s_wakeup"
                    | "s_ttracedata"
                    | "s_ttracedata_imm"
                    | "s_incperflevel"
                    | "s_decperflevel"
                    | "s_sendmsg" => Control::Nothing,
                    "s_sleep" => Control::Sleep,
                    "s_waitcnt" => Control::Waitcnt,
                    "s_round_mode" => Control::SetMode { shift: 0 },
                    "s_denorm_mode" => Control::SetMode { shift: 4 },
                    "s_barrier" => Control::Barrier,
                    "s_trap" => Control::Trap,
                    "s_branch" => Control::Branch(BranchIf::Always),
                    "s_cbranch_scc0" => Control::Branch(BranchIf::Scc0),
                    "s_cbranch_scc1" => Control::Branch(BranchIf::Scc1),
                    "s_cbranch_vccz" => Control::Branch(BranchIf::Vccz),
                    "s_cbranch_vccnz" => Control::Branch(BranchIf::Vccnz),
                    "s_cbranch_execz" => Control::Branch(BranchIf::Execz),
                    "s_cbranch_execnz" => Control::Branch(BranchIf::Execnz),
                    _ => return None,
                })
            })
            .collect()
    })[op.0 as usize]
}

/// How each table entry touches the LDS banks ([`banks::ds_access`]), classified once per
/// process: the classification matches on names, too slow to repeat per executed instruction.
fn ds_bank_access(op: Opcode) -> Option<banks::DsAccess> {
    static CACHE: OnceLock<Vec<Option<banks::DsAccess>>> = OnceLock::new();
    CACHE.get_or_init(|| {
        rdna3_isa::def::every()
            .map(|(_, d)| d)
            .map(|d| banks::ds_access(d).ok())
            .collect()
    })[op.0 as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::Device;
    use rdna3_isa::asm::{assemble, AsmLine};

    /// A branch's target is the instruction at its byte address + 4 + 4 × simm16; a branch
    /// to an address with no instruction, and every other instruction, has none.
    #[test]
    fn branch_targets_are_the_instructions_the_branches_reach() {
        let prog = assemble("s_cbranch_scc1 far\ns_nop 0\nfar:\ns_branch 100\ns_endpgm\n");
        assert!(prog.errors.is_empty(), "{:?}", prog.errors);
        assert_eq!(branch_targets(&prog.lines), [Some(2), None, None, None]);
    }

    /// gfx942's v_cmpx writes its result to EXEC and to VCC (e32) or its SGPR pair (e64), as
    /// GFX9 does; the lowered gfx1100 v_cmpx writes EXEC, the step the rest.
    #[test]
    fn gfx942_cmpx_writes_exec_and_its_sgpr_pair() {
        use crate::target::gfx9;
        // v_cmpx_gt_u32_e32 vcc, 5, v0 and v_cmpx_gt_u32_e64 s[4:5], 5, v0 (llvm-mc-19
        // -mcpu=gfx942), each alone before s_endpgm.
        let e32 = [0x85, 0x00, 0xb8, 0x7d];
        let e64 = [0x04, 0x00, 0xdc, 0xd0, 0x85, 0x00, 0x02, 0x00];
        for (bytes, sgpr) in [(&e32[..], 106), (&e64[..], 4)] {
            let (orig, _) = rdna3_isa::gfx9::decode::decode(bytes).expect("decodes");
            let low = gfx9::lower_code(std::slice::from_ref(&orig), &gfx9::Kernel::default());
            let inst = low[0].clone().expect("lowers");
            let end = assemble("s_endpgm\n").lines.remove(0);
            let prog = vec![
                AsmLine {
                    line: 1,
                    address: 0,
                    inst,
                    hints: Default::default(),
                    original: Some(orig),
                },
                AsmLine {
                    line: 2,
                    address: bytes.len() as u32,
                    ..end
                },
            ];
            let cfg = RunConfig {
                wave_size: 64,
                ..RunConfig::default()
            };
            let mut dev = Device::new(&cfg, prog.len()).expect("config");
            dev.run(&prog, &cfg).expect("runs");
            let w = dev.wave(0);
            // v0 = the lane id: 5 > lane for lanes 0-4.
            assert_eq!(w.exec(), 0x1f, "{}", prog[0].text());
            assert_eq!(w.sreg64(sgpr), 0x1f, "{}", prog[0].text());
        }
    }

    /// Taking a branch to no instruction stops the run with the branch's line; not taking
    /// it runs on.
    #[test]
    fn a_taken_branch_to_no_instruction_is_a_bad_branch() {
        let run = |scc: u32| {
            let text = format!("s_cmp_eq_u32 0, {scc}\ns_cbranch_scc1 100\ns_endpgm\n");
            let prog = assemble(&text);
            assert!(prog.errors.is_empty(), "{:?}", prog.errors);
            let cfg = RunConfig::default();
            let mut dev = Device::new(&cfg, prog.lines.len()).expect("config");
            dev.run(&prog.lines, &cfg)
        };
        assert!(
            matches!(run(0), Err(RunError::BadBranch { pc: 1, line: 2 })),
            "{:?}",
            run(0)
        );
        assert!(run(1).is_ok(), "{:?}", run(1));
    }
}
