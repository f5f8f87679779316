//! The common instructions' short path: VALU, VOPD and scalar ALU instructions, hints and
//! branches, classified once per instruction ([`Fast::of`], kept in its
//! [`super::issue::IssueFacts`]) and run in a few lines each, in both kinds of run:
//! - a functional turn runs stretches of them in a loop of its own (`exec::functional`);
//! - a timed run steps one of them through [`Device::quick_step`] instead of the general
//!   [`Device::step`] unless the checker follows an uninitialised LDS value through the
//!   registers ([`Device::quick`]).
//!
//! What the short path does is what the general step does for these instructions, in the
//! same order; `tools/corpus_digest.sh` holds every report to the general step's.

use rdna3_isa::asm::AsmLine;
use rdna3_isa::{Format, Isa};

use super::issue::UnitUse;
use super::step::{
    branch_taken, counter_waited, nop_cycles, program_control, valu_cost, waits_on_a_counter,
    BranchIf, Control, StepEnd,
};
use super::{control, salu, valu, Counter, Device, RunConfig, RunError};
use crate::timeline::UnitKind;
use crate::wave::Wave;

/// How the short path runs one of the common instructions ([`Fast::of`]). Every other
/// instruction goes through [`Device::step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fast {
    /// A gfx11 VOP1, VOP2, VOPC or VOP3 instruction ([`valu::execute_decoded`]).
    Valu,
    /// A VOPD pair.
    Vopd,
    /// A scalar ALU instruction that neither jumps nor waits.
    Salu,
    /// Nothing but its issue cycle: hints, `s_delay_alu`, `s_clause`, messages to the host.
    Nothing,
    /// `s_nop`: its issue takes SIMM16\[3:0\] + 1 cycles (docs/rules/timing.md#s_nop).
    Nop,
    /// A wait on the counters: `s_waitcnt` (`None`: each counter's field of SIMM16) or an
    /// `s_waitcnt_*cnt` (the counter: at most SIMM16). Nothing in a functional run, where
    /// nothing is outstanding.
    Wait(Option<Counter>),
    /// A SOPP branch.
    Branch(BranchIf),
}

impl Fast {
    /// How the short path runs `line`, which issues to `unit` ([`super::issue::IssueFacts`]);
    /// `None` when [`Device::step`] runs it.
    pub(super) fn of(line: &AsmLine, unit: Option<UnitKind>) -> Option<Fast> {
        let inst = &line.inst;
        let d = inst.def();
        if d.isa != Isa::Gfx11 || line.original.is_some() {
            return None;
        }
        let valu_unit = matches!(unit, Some(UnitKind::Valu | UnitKind::Trans));
        match d.format {
            Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3 if valu_unit => {
                Some(Fast::Valu)
            }
            Format::Vopd if valu_unit => Some(Fast::Vopd),
            Format::Sop1 | Format::Sop2 | Format::Sopc | Format::Sopk => {
                if control::jump_of(inst.opcode).is_some() {
                    None
                } else if waits_on_a_counter(d.name) {
                    Some(match counter_waited(d.name) {
                        Some(c) => Fast::Wait(Some(c)),
                        None => Fast::Nothing,
                    })
                } else {
                    Some(Fast::Salu)
                }
            }
            Format::Sopp => match program_control(inst.opcode)? {
                Control::Nothing => Some(Fast::Nothing),
                Control::Nop => Some(Fast::Nop),
                Control::Waitcnt => Some(Fast::Wait(None)),
                Control::Branch(c) => Some(Fast::Branch(c)),
                _ => None,
            },
            _ => None,
        }
    }
}

impl Device {
    /// Whether [`Device::quick_step`] may run the common instructions: not while the checker
    /// follows a poisoned register (`Device::check_poison`, which the general step runs).
    #[inline]
    pub(super) fn quick(&self) -> bool {
        !self.general_only && !self.checker.follows_poison()
    }

    /// Runs wave `wi`'s instruction `line` at `pc`, of kind `f`, which issues to `unit`:
    /// what [`Device::step`] does with it in a timed run.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn quick_step(
        &mut self,
        wi: usize,
        pc: usize,
        line: &AsmLine,
        f: Fast,
        cfg: &RunConfig,
        targets: &[Option<usize>],
        unit: Option<UnitUse>,
    ) -> Result<(), RunError> {
        let t = &cfg.timing;
        let inst = &line.inst;
        // The clause rules, and data that arrived (reported if it was not waited for).
        self.before_issue(wi, pc, inst, self.facts[pc].clause);
        self.check_inflight(wi, pc, inst);
        let start = self.clocks[wi];
        if let Fast::Wait(on) = f {
            self.wait_on_counters(wi, inst, on);
        }
        let w = &mut self.waves[wi];
        let next_pc = execute_fast(w, &mut self.valu, pc, line, f, targets)?;
        let cost = match f {
            Fast::Vopd => t.valu,
            Fast::Valu => valu_cost(unit, t, w.size),
            Fast::Nop => nop_cycles(inst),
            Fast::Salu | Fast::Nothing | Fast::Wait(_) | Fast::Branch(_) => t.salu,
        };
        let end = StepEnd {
            next_pc,
            cost,
            conflict: 0,
            wave_cycles: None,
        };
        self.finish_issue(wi, pc, start, &end, unit, cfg);
        Ok(())
    }
}

/// Runs `line`, at `pc`, of kind `f` on wave `w`, with the program's decoded VALU forms
/// `valu` and branch targets `targets`: its work on the wave's registers (none for the
/// hints, `s_nop` and the waits, whose work is time). Returns the next instruction's index.
#[inline(always)]
pub(super) fn execute_fast(
    w: &mut Wave,
    valu: &mut [Option<valu::Decoded>],
    pc: usize,
    line: &AsmLine,
    f: Fast,
    targets: &[Option<usize>],
) -> Result<usize, RunError> {
    let inst = &line.inst;
    let unimplemented = || RunError::Unimplemented {
        name: inst.mnemonic(),
        pc,
        line: line.line,
        why: None,
    };
    match f {
        Fast::Valu | Fast::Vopd => {
            // Every VALU instruction enters the wave's recent ones (LDSDIR's rule).
            w.recent_valu.push(pc);
            let vopd = f == Fast::Vopd;
            let d = valu::decoded_at(valu, pc, inst, vopd);
            let done = match vopd {
                true => valu::execute_vopd_decoded(inst, w, d),
                false => valu::execute_decoded(inst, w, d),
            };
            done.map_err(|_| unimplemented())?;
        }
        Fast::Salu => {
            if !salu::execute(inst, w) {
                return Err(unimplemented());
            }
        }
        Fast::Nothing | Fast::Nop | Fast::Wait(_) => {}
        Fast::Branch(cond) => {
            if branch_taken(w, cond) {
                return targets
                    .get(pc)
                    .copied()
                    .flatten()
                    .ok_or(RunError::BadBranch {
                        pc,
                        line: line.line,
                    });
            }
        }
    }
    Ok(pc + 1)
}

#[cfg(test)]
mod tests {
    use crate::exec::{Device, RunConfig};
    use rdna3_isa::asm::assemble;

    /// A loop of every kind the short path runs (full-rate, quarter-rate, transcendental and
    /// double VALU, VOPD, scalar ALU, `s_nop`, `s_delay_alu`, both waits, a branch) beside LDS
    /// stores and loads, so that some of them run while a load is in flight or a store is
    /// outstanding, a wait waits for a store, one reads a load's register before its wait
    /// (a finding), and the waves meet at a barrier.
    const PROGRAM: &str = "
        v_lshlrev_b32 v10, 2, v0
        s_mov_b32 s4, 5
    top:
        v_add_f32 v2, 1.0, v2
        v_mul_lo_u32 v3, v0, v0
        v_rcp_f32 v4, v2
        v_add_f64 v[6:7], v[6:7], 1.0
        s_delay_alu instid0(VALU_DEP_1)
        v_dual_add_f32 v8, v2, v2 :: v_dual_mov_b32 v9, v3
        s_nop 3
        ds_store_b32 v10, v2
        v_add_nc_u32 v11, v0, v11
        ds_load_b32 v12, v10
        v_add_nc_u32 v13, 1, v0
        v_add_nc_u32 v14, v12, 1
        s_waitcnt lgkmcnt(0)
        v_add_nc_u32 v12, v12, v13
        ds_store_b32 v10, v3 offset:256
        s_waitcnt_lgkmcnt null, 0
        s_barrier
        s_sub_u32 s4, s4, 1
        s_cmp_lg_u32 s4, 0
        s_cbranch_scc1 top
        s_waitcnt 0
        s_endpgm
    ";

    /// Everything a run leaves that a report can show: per-instruction statistics, clocks,
    /// events, `s_delay_alu` statistics, the timeline and every wave's registers.
    fn outcome(cfg: &RunConfig, general_only: bool) -> Vec<String> {
        let prog = assemble(PROGRAM);
        assert!(prog.errors.is_empty(), "{:?}", prog.errors);
        let mut dev = Device::new(cfg, prog.lines.len()).expect("config");
        dev.general_only = general_only;
        dev.run(&prog.lines, cfg).expect("runs");
        vec![
            format!("{:?}", dev.stats()),
            format!("{:?}", dev.clocks()),
            format!("{:?}", dev.events()),
            format!("{:?}", dev.delay_alu()),
            format!("{:?}", dev.timeline()),
            format!("{:?}", dev.waves()),
        ]
    }

    /// The short path leaves what the general step leaves, on both wave sizes, with and
    /// without a seed's jitter and a timeline.
    #[test]
    fn the_short_path_leaves_what_the_general_step_leaves() {
        for (wave_size, seed, timeline) in [(32, 0, false), (64, 0, true), (32, 7, true)] {
            let cfg = RunConfig {
                wave_size,
                waves: 4,
                workgroups: 2,
                seed,
                record_timeline: timeline,
                ..RunConfig::default()
            };
            let quick = outcome(&cfg, false);
            let general = outcome(&cfg, true);
            assert!(
                quick[2].contains("missing_wait"),
                "the read before the wait is found: {}",
                quick[2]
            );
            for (q, g) in quick.iter().zip(&general) {
                assert_eq!(q, g, "wave{wave_size}, seed {seed}, timeline {timeline}");
            }
        }
    }
}
