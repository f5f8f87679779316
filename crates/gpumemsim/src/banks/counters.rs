//! Costs and the counters they are read as.

use super::model::CostUnits;

/// The cost of one access, in the model's units (cycles for AMD, wavefronts for NVIDIA).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AccessCost {
    /// 1 if any lane is active, else 0 (NVIDIA's `requests`).
    pub requests: u32,
    /// Cycles or wavefronts taken: over the groups, the largest number of words one bank
    /// serves.
    pub cost: u32,
    /// What a conflict-free access of the same shape takes: the number of groups.
    pub ideal: u32,
}

impl AccessCost {
    /// Cost above the ideal: `conflict_cycles` or `bank_conflicts`.
    pub const fn conflicts(&self) -> u32 {
        self.cost - self.ideal
    }

    /// The counters, named as `units` reads them.
    pub const fn counters(&self, units: CostUnits) -> Counters {
        counters(
            units,
            self.requests as u64,
            self.cost as u64,
            self.ideal as u64,
        )
    }
}

/// Sums over a batch of accesses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BatchTotals {
    /// Accesses costed.
    pub accesses: u64,
    /// Sum of [`AccessCost::requests`].
    pub requests: u64,
    /// Sum of [`AccessCost::cost`].
    pub cost: u64,
    /// Sum of [`AccessCost::ideal`].
    pub ideal: u64,
}

impl BatchTotals {
    /// Adds one access.
    #[inline]
    pub fn add(&mut self, c: AccessCost) {
        self.accesses += 1;
        self.requests += c.requests as u64;
        self.cost += c.cost as u64;
        self.ideal += c.ideal as u64;
    }

    /// Cost above the ideal.
    pub const fn conflicts(&self) -> u64 {
        self.cost - self.ideal
    }

    /// The counters, named as `units` reads them.
    pub const fn counters(&self, units: CostUnits) -> Counters {
        counters(units, self.requests, self.cost, self.ideal)
    }
}

const fn counters(units: CostUnits, requests: u64, cost: u64, ideal: u64) -> Counters {
    match units {
        CostUnits::Cycles => Counters::Cycles {
            cycles: cost,
            ideal_cycles: ideal,
            conflict_cycles: cost - ideal,
        },
        CostUnits::Wavefronts => Counters::Wavefronts {
            requests,
            wavefronts: cost,
            ideal_wavefronts: ideal,
            bank_conflicts: cost - ideal,
        },
    }
}

/// Counters under the names people read them by (docs/rules/banks.md#counters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counters {
    /// AMD: `conflict_cycles` is what `SQ_LDS_BANK_CONFLICT` counts.
    Cycles {
        /// Cycles the access takes.
        cycles: u64,
        /// Cycles without conflicts (one per phase).
        ideal_cycles: u64,
        /// `cycles − ideal_cycles`.
        conflict_cycles: u64,
    },
    /// NVIDIA, as Nsight Compute names them.
    Wavefronts {
        /// Instructions with an active lane.
        requests: u64,
        /// Transactions.
        wavefronts: u64,
        /// Transactions without conflicts (one per group).
        ideal_wavefronts: u64,
        /// `wavefronts − ideal_wavefronts`.
        bank_conflicts: u64,
    },
}

impl Counters {
    /// The counters under the names the vendors' profilers give them, for an access of
    /// `kind`: rocprof's `SQ_LDS_BANK_CONFLICT` (AMD); Nsight Compute's shared-memory bank
    /// conflicts and wavefronts of loads (`..._op_ld.sum`), stores (`..._op_st.sum`) or
    /// atomics (`..._op_atom.sum`) (NVIDIA; docs/counters.md).
    pub fn profiler_entries(&self, kind: super::AccessKind) -> Vec<(&'static str, u64)> {
        use super::AccessKind::{Atomic, Atomic2Addr, Load, Load2Addr, Store, Store2Addr};
        match *self {
            Counters::Cycles {
                conflict_cycles, ..
            } => vec![("SQ_LDS_BANK_CONFLICT", conflict_cycles)],
            Counters::Wavefronts {
                wavefronts,
                bank_conflicts,
                ..
            } => {
                let [conflicts, waves] = match kind {
                    Load | Load2Addr => [
                        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                    ],
                    Store | Store2Addr => [
                        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                    ],
                    Atomic | Atomic2Addr => [
                        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
                    ],
                };
                vec![(conflicts, bank_conflicts), (waves, wavefronts)]
            }
        }
    }

    /// `(name, value)` pairs in the order above.
    pub fn entries(&self) -> Vec<(&'static str, u64)> {
        match *self {
            Counters::Cycles {
                cycles,
                ideal_cycles,
                conflict_cycles,
            } => vec![
                ("cycles", cycles),
                ("ideal_cycles", ideal_cycles),
                ("conflict_cycles", conflict_cycles),
            ],
            Counters::Wavefronts {
                requests,
                wavefronts,
                ideal_wavefronts,
                bank_conflicts,
            } => vec![
                ("requests", requests),
                ("wavefronts", wavefronts),
                ("ideal_wavefronts", ideal_wavefronts),
                ("bank_conflicts", bank_conflicts),
            ],
        }
    }
}
