//! Opt-in recording of DS accesses for the bank heat maps ([`RunConfig::record_samples`]): for each
//! DS instruction of the program, the lane addresses of its costliest execution.
//!
//! Why the costliest execution and not a sum over executions: a heat map shows which lanes
//! hit which bank in which phase, and only one execution has one set of lanes and addresses.
//! The one that cost the most bank cycles is the one that explains the instruction's conflict
//! cycles (the per-instruction statistics still add up every execution). Ties go to the wave
//! created first, then to its earliest execution, so a grid run apart records what the same
//! grid run together records.
//!
//! [`RunConfig::record_samples`]: super::RunConfig::record_samples

use super::Device;
use crate::banks::ds_access;
use crate::ds::DsOutcome;
use crate::isa::Instruction;

/// One execution of a DS instruction as the bank model priced it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DsSample {
    /// The wave that executed it (its id: index in creation order over the whole grid).
    pub wave: u32,
    /// The wave's size (32 or 64): `addrs` has one entry per lane.
    pub wave_size: u32,
    /// The lanes that accessed the LDS.
    pub active: u64,
    /// Each lane's byte address in the LDS allocation (the first address of a 2addr
    /// instruction); 0 for inactive lanes.
    pub addrs: Vec<u32>,
    /// The second address of each lane of a 2addr instruction.
    pub addrs1: Option<Vec<u32>>,
    /// Bank cycles the model charged.
    pub cycles: u64,
    /// Cycles it would take without conflicts.
    pub ideal_cycles: u64,
}

impl Device {
    /// Keeps this execution of the DS instruction at `pc` as its sample if it is the costliest
    /// so far (see the module text for ties).
    pub(crate) fn record_samples_sample(
        &mut self,
        pc: usize,
        wi: usize,
        inst: &Instruction,
        outcome: &DsOutcome,
        (cycles, ideal_cycles): (u64, u64),
    ) {
        let wave = self.waves[wi].id;
        let Some(slot) = self.ds_worst.get(pc) else {
            return;
        };
        if let Some(old) = slot {
            if cycles < old.cycles || (cycles == old.cycles && wave >= old.wave) {
                return;
            }
        }
        let two_addr = ds_access(inst.def()).is_ok_and(|a| a.kind.is_two_addr());
        let size = self.waves[wi].size;
        let n = size as usize;
        let active = outcome.lanes & self.waves[wi].lane_mask();
        let addrs = outcome.addrs[..n].to_vec();
        let addrs1 = outcome.addrs2[..n].to_vec();
        self.ds_worst[pc] = Some(DsSample {
            wave,
            wave_size: size,
            active,
            addrs,
            addrs1: two_addr.then_some(addrs1),
            cycles,
            ideal_cycles,
        });
    }

    /// Merges the samples of `other` (a device holding later workgroups) into `self`'s.
    pub(crate) fn absorb_ds_samples(&mut self, other: Vec<Option<DsSample>>) {
        if self.ds_worst.len() < other.len() {
            self.ds_worst.resize(other.len(), None);
        }
        for (mine, theirs) in self.ds_worst.iter_mut().zip(other) {
            let Some(t) = theirs else { continue };
            // Their waves were created after ours: they win only by costing more.
            if mine.as_ref().is_none_or(|m| t.cycles > m.cycles) {
                *mine = Some(t);
            }
        }
    }
}
