//! GWS and ordered-count instructions in the executor: the single-lane and EXEC rules, the
//! programming rules as diagnostics, blocking and waking.
//!
//! - One lane (docs/rules/gds-gws.md#exec-handling): the lowest in EXEC. With EXEC = 0,
//!   ORDERED_COUNT, GWS_INIT, SEMA_BR and GWS_BARRIER act as if EXEC were ...001 (lane 0);
//!   the other GWS opcodes do nothing.
//! - Each must be issued as its own clause
//!   (docs/rules/gds-gws.md#gws-and-ordered-count-programming-rules): `s_waitcnt
//!   lgkmcnt(0)` before it when GDS work may be outstanding, and `s_waitcnt lgkmcnt(0)` right
//!   after it (`s_waitcnt_lgkmcnt null, 0` is the same wait), and the instruction after that
//!   wait must not be `s_endpgm` (pad with `s_nop`): the sequence is GWS instruction, wait,
//!   any instruction but `s_endpgm`. Both `s_endpgm` directly after the instruction and
//!   `s_endpgm` directly after its wait are breaches; no GDS instruction may be outstanding
//!   when it issues (else NACKs may arrive out of order); an ordered count must not use the
//!   same VGPR as source and destination. Each breach is an event of kind `gws_rule`; the
//!   instruction still executes (the hardware does not check these rules either).
//! - DS_ORDERED_COUNT once and only once per wave, per counter
//!   (docs/rules/gds-gws.md#once-per-wave, see [`crate::gws`]): a wave's second request on a
//!   counter, and a wave that ended without releasing a counter later waves use, are events
//!   of kind `ordered_count_rule` (the second request is still processed; the ended wave does
//!   not block the others).
//! - A resource id that must be clamped to the VMID's range gets a NACK
//!   (docs/rules/gds-gws.md#gws-resources): the wave rewinds to the instruction and stalls
//!   (an event of kind `gws_nack`). We keep it stalled: nothing changes the VMID range during
//!   a run, so a retry would be clamped again; the deadlock report names it.

use rdna3_isa::asm::AsmLine;
use rdna3_isa::{Field, Instruction};

use super::step::StepEnd;
use super::{Counter, Device, Pending, RunError, Waiting};
use crate::event::{Event, EventDetail};
use crate::gws::GwsResult;

/// Whether `inst` waits for LGKMcnt to reach 0: `s_waitcnt` with lgkmcnt(0) (simm16 \[9:4\]),
/// or `s_waitcnt_lgkmcnt null, 0`.
fn waits_for_lgkm_zero(inst: &Instruction) -> bool {
    match inst.def().name {
        "s_waitcnt" => (inst.get(Field::Simm16) >> 4) & 63 == 0,
        "s_waitcnt_lgkmcnt" => {
            inst.get(Field::Simm16) & 63 == 0 && inst.get(Field::Sdst) == rdna3_isa::regs::NULL
        }
        _ => false,
    }
}

/// Whether an instruction with EXEC = 0 acts on lane 0 (the others do nothing)
/// (docs/rules/gds-gws.md#exec-handling).
fn exec_zero_acts_on_lane_0(name: &str) -> bool {
    matches!(
        name,
        "ds_ordered_count" | "ds_gws_init" | "ds_gws_sema_br" | "ds_gws_barrier"
    )
}

impl Device {
    /// An `ordered_count_rule` event at `pc` of wave `wi`, naming `other` wave if any.
    fn ordered_rule(&mut self, wi: usize, pc: usize, message: String, other: Option<u32>) {
        let mut e = Event::new("ordered_count_rule", self.waves[wi].id, pc, message);
        if let Some(o) = other {
            e = e.with_detail(EventDetail {
                waves: vec![o],
                ..Default::default()
            });
        }
        self.events.push(e);
    }

    /// A `gws_rule` event at `pc` of wave `wi`.
    fn rule(&mut self, wi: usize, pc: usize, message: String) {
        self.wave_event("gws_rule", wi, pc, message);
    }

    /// Checks the programming rules for the GWS or ordered-count instruction at `pc`
    /// (docs/rules/gds-gws.md#gws-and-ordered-count-programming-rules): nothing outstanding
    /// before it, a wait for LGKMcnt = 0 after it and no `s_endpgm` right after either, and
    /// distinct source and destination VGPRs for an ordered count.
    fn check_gws_rules(&mut self, wi: usize, pc: usize, inst: &Instruction, program: &[AsmLine]) {
        let name = inst.def().name;
        let outstanding = self.outstanding_gds(wi);
        if outstanding > 0 {
            self.rule(wi, pc, format!(
                "{name} issued with {outstanding} GDS operation(s) outstanding: precede it with s_waitcnt lgkmcnt(0) (NACKs may arrive out of order)"
            ));
        } else if self.outstanding_lgkm(wi) > 0 {
            self.rule(wi, pc, format!(
                "{name} issued with LGKM operations outstanding: it must follow s_waitcnt lgkmcnt(0)"
            ));
        }
        match program.get(pc + 1) {
            Some(next) if next.inst.def().name == "s_endpgm" => self.rule(wi, pc, format!(
                "{name} is followed directly by s_endpgm: follow it with s_waitcnt lgkmcnt(0) and pad with s_nop"
            )),
            Some(next) if waits_for_lgkm_zero(&next.inst) => {
                if program
                    .get(pc + 2)
                    .is_some_and(|after| after.inst.def().name == "s_endpgm")
                {
                    self.rule(wi, pc, format!(
                        "{name}: its s_waitcnt lgkmcnt(0) is followed directly by s_endpgm: pad with s_nop before s_endpgm"
                    ));
                }
            }
            _ => self.rule(wi, pc, format!(
                "{name} is not followed by s_waitcnt lgkmcnt(0): it must be a clause of its own"
            )),
        }
        if name == "ds_ordered_count" && inst.get(Field::Vdst) == inst.get(Field::Addr) {
            self.rule(wi, pc, format!(
                "{name} uses v{} as both source and destination: a NACKed ordered count cannot then be replayed",
                inst.get(Field::Vdst)
            ));
        }
    }

    /// Counts the instruction at `pc` on wave `wi`'s LGKMcnt (a GDS operation that completes
    /// the next cycle) and moves the wave on.
    fn gds_issued(&mut self, wi: usize, pc: usize) -> StepEnd {
        let t = self.timing;
        self.add_pending(
            wi,
            Pending {
                counter: Counter::Lgkm,
                done_at: self.clocks[wi] + t.gws_latency,
                gds: true,
                weight: 1,
            },
        );
        StepEnd {
            next_pc: pc + 1,
            cost: t.gds_issue,
            conflict: 0,
            wave_cycles: None,
        }
    }

    /// Executes a GWS or ordered-count instruction. `Ok(None)`: the wave blocked before the
    /// instruction was processed (it re-issues when woken).
    // Out of line: inlined into `Device::step`, it made the VALU/SALU path save and spill
    // for its registers (docs/benchmarks.md, fifth pass).
    #[inline(never)]
    pub(crate) fn global_sync(
        &mut self,
        wi: usize,
        pc: usize,
        line: &AsmLine,
        program: &[AsmLine],
    ) -> Result<Option<StepEnd>, RunError> {
        let inst = &line.inst;
        let name = inst.def().name;
        let waiting_again = matches!(self.waits[wi], Some(Waiting::Ordered { .. }));
        // The programming rules, checked once per issue.
        if !waiting_again {
            self.check_gws_rules(wi, pc, inst, program);
        }
        let exec = self.waves[wi].exec();
        let lane = if exec != 0 {
            exec.trailing_zeros()
        } else if exec_zero_acts_on_lane_0(name) {
            0
        } else {
            // EXEC = 0: sent with nothing to do; LGKMcnt still moves.
            return Ok(Some(self.gds_issued(wi, pc)));
        };
        let value = self.waves[wi].vgpr(inst.get(Field::Addr), lane);
        Ok(if name == "ds_ordered_count" {
            self.ordered_count(wi, pc, inst, lane, value, waiting_again)
        } else {
            self.gws_operation(wi, pc, inst, value)
        })
    }

    /// `ds_ordered_count` of wave `wi` with its lane's `value`
    /// (docs/rules/gds-gws.md#ordered-count): `None` while an earlier wave still holds the
    /// counter; otherwise the old pointer lands in `lane` of the destination.
    fn ordered_count(
        &mut self,
        wi: usize,
        pc: usize,
        inst: &Instruction,
        lane: u32,
        value: u32,
        waiting_again: bool,
    ) -> Option<StepEnd> {
        let name = inst.def().name;
        let off1 = inst.get(Field::Offset1);
        let index = ((inst.get(Field::Offset0) >> 2) & 3) as usize;
        if !waiting_again && self.ordered.issued(index, wi) {
            self.ordered_rule(wi, pc, format!(
                "{name}: this wave has already issued ds_ordered_count on counter {index}: it must be issued once and only once per wave (the request is processed again)"
            ), None);
        }
        let release = off1 & 3 != 0; // wave_release or wave_done
        let swap = (off1 >> 4) & 1 == 1;
        let ended: Vec<bool> = self.waves.iter().map(|w| w.done).collect();
        if !self.ordered.is_turn(index, wi, &ended) {
            self.waits[wi] = Some(Waiting::Ordered { index, pc });
            self.ordered_waited = true;
            return None;
        }
        self.waits[wi] = None;
        for w in self.ordered.take_unreleased(index, wi, &ended) {
            let other = self.waves[w].id;
            self.ordered_rule(wi, pc, format!(
                "wave {other} ended without releasing ordered counter {index} (ds_ordered_count with wave_release or wave_done, once per wave): this wave did not wait for it"
            ), Some(other));
        }
        let old = self.ordered.process(index, wi, value, swap, release);
        self.waves[wi].set_vgpr(inst.get(Field::Vdst), lane, old);
        let e = self.gds_issued(wi, pc);
        if release {
            self.wake_ordered();
        }
        Some(e)
    }

    /// A `ds_gws_*` instruction of wave `wi` with its lane's `value`
    /// (docs/rules/gds-gws.md#gws-operations): `None` when the resource id was clamped (NACK:
    /// the wave stalls at the instruction); the wave may wait in the resource's queue, and the
    /// waves the operation releases wake.
    fn gws_operation(
        &mut self,
        wi: usize,
        pc: usize,
        inst: &Instruction,
        value: u32,
    ) -> Option<StepEnd> {
        let name = inst.def().name;
        let off0 = inst.get(Field::Offset0);
        let m0 = self.waves[wi].m0();
        let rid = match self.gws.resource_id(m0, off0) {
            Ok(r) => r,
            Err(clamped) => {
                let message = format!(
                    "{name}: resource id (VMID base {} + M0[21:16] {} + offset0 {}) mod 64 is outside the VMID's {} resources: clamped to {clamped}, NACK; the wave rewinds and stalls",
                    self.gws.config.base,
                    (m0 >> 16) & 0x3f,
                    off0 & 0x3f,
                    self.gws.config.size
                );
                self.wave_event("gws_nack", wi, pc, message);
                self.waits[wi] = Some(Waiting::Nack { rid: clamped, pc });
                return None;
            }
        };
        let result = match name {
            "ds_gws_init" => self.gws.init(rid, value),
            "ds_gws_sema_v" => self.gws.sema_release(rid, 1),
            "ds_gws_sema_br" => self.gws.sema_release(rid, value),
            "ds_gws_sema_p" => self.gws.sema_p(rid, wi),
            "ds_gws_sema_release_all" => self.gws.release_all(rid),
            _ => self.gws.barrier(rid, wi, value),
        };
        let e = self.gds_issued(wi, pc);
        match result {
            GwsResult::Done { released } => self.release_gws_waiters(wi, &released),
            GwsResult::Wait => self.waits[wi] = Some(Waiting::Gws { rid, pc }),
        }
        Some(e)
    }

    /// Wakes the `released` waves at wave `wi`'s clock, charging the cycles each waited to
    /// the instruction it waited at.
    fn release_gws_waiters(&mut self, wi: usize, released: &[usize]) {
        let now = self.clocks[wi];
        for &w in released {
            if let Some(p) = self.waves[w].pc.checked_sub(1) {
                self.stats[p].stall_cycles += now.saturating_sub(self.clocks[w]);
            }
            self.clocks[w] = self.clocks[w].max(now);
            self.wake(w);
        }
    }
}
