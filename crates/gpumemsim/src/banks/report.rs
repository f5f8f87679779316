//! The detailed result: each group's lanes, banks, words and collisions. Computed
//! independently of the fast path (with ordered maps), which the tests compare against.

use std::collections::{BTreeMap, BTreeSet};

use super::access::{Access, AccessError, LaneAddress};
use super::counters::AccessCost;
use super::groups::GroupSource;
use super::model::{BankModel, CostUnits, SameWord};

/// One bank's work within a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankUse {
    /// The bank.
    pub bank: u32,
    /// Lanes that touch it.
    pub lanes: u64,
    /// The distinct words it serves (byte address / bank width), ascending.
    pub words: Vec<u64>,
    /// Passes it needs: `words.len()`, or under [`SameWord::PerLane`] one per lane and word.
    pub accesses: u32,
}

impl BankUse {
    /// Whether the bank needs more than one pass (a conflict).
    pub fn conflicts(&self) -> bool {
        self.accesses > 1
    }
}

/// One group of lanes served together, and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupReport {
    /// Which addresses the lanes use (a 2addr access's second pass says
    /// [`GroupSource::Second`]).
    pub source: GroupSource,
    /// The phases in the group, numbered over the whole wave in order: one, or two merged.
    pub phases: Vec<u32>,
    /// Its active lanes.
    pub lanes: u64,
    /// Cycles or wavefronts it takes: the largest [`BankUse::accesses`] (1 if empty).
    pub cost: u32,
    /// Every bank it touches, ascending.
    pub banks: Vec<BankUse>,
}

impl GroupReport {
    /// The banks that need more than one pass: which lanes collided on which bank.
    pub fn conflicts(&self) -> impl Iterator<Item = &BankUse> {
        self.banks.iter().filter(|b| b.conflicts())
    }

    /// Whether two phases were merged into this group.
    pub fn merged(&self) -> bool {
        self.phases.len() > 1
    }
}

/// An access's cost with its per-group breakdown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessReport {
    /// The totals (as [`BankModel::cost`] returns them): the groups' costs added, held to
    /// [`BankModel::max_cost`], so under that bound the groups may add up to more.
    pub cost: AccessCost,
    /// How to read them.
    pub units: CostUnits,
    /// The groups in the order they are served.
    pub groups: Vec<GroupReport>,
}

impl BankModel {
    /// The cost of one access with its per-group breakdown.
    pub fn analyze<A: LaneAddress>(&self, access: &Access<A>) -> Result<AccessReport, AccessError> {
        let shape = &access.shape;
        let class = self.check_access(shape, access.addrs, access.addrs1, 1)?;
        self.check_alignment(shape, access.addrs, shape.active)?;
        if let Some(a1) = access.addrs1 {
            self.check_alignment(shape, a1, shape.active)?;
        }
        let mut groups = Vec::new();
        if shape.active != 0 {
            let same = self.same_word.for_kind(shape.kind);
            self.for_each_group(shape, class, access.addrs, access.addrs1, |g| {
                let sources: Vec<&[A]> = match (g.source, access.addrs1) {
                    (GroupSource::Second, Some(a1)) => vec![a1],
                    (GroupSource::Both, Some(a1)) => vec![access.addrs, a1],
                    _ => vec![access.addrs],
                };
                let phases = if g.merged {
                    vec![g.phase, g.phase + 1]
                } else {
                    vec![g.phase]
                };
                groups.push(self.group_report(
                    g.source,
                    phases,
                    g.lanes,
                    &sources,
                    shape.width,
                    same,
                ));
            });
        }
        // The groups' costs add, up to the model's most cycles per access
        // (docs/rules/banks.md#at-most-64-cycles).
        let cost = self.capped(AccessCost {
            requests: u32::from(shape.active != 0),
            cost: groups.iter().map(|g| g.cost).sum(),
            ideal: groups.len() as u32,
        });
        Ok(AccessReport {
            cost,
            units: self.units,
            groups,
        })
    }

    fn group_report<A: LaneAddress>(
        &self,
        source: GroupSource,
        phases: Vec<u32>,
        lanes: u64,
        sources: &[&[A]],
        width: u32,
        same: SameWord,
    ) -> GroupReport {
        // bank -> (lanes, distinct words, lane-word accesses)
        let mut banks: BTreeMap<u32, (u64, BTreeSet<u64>, u32)> = BTreeMap::new();
        for lane in 0..64u32 {
            if lanes >> lane & 1 == 0 {
                continue;
            }
            for addrs in sources {
                let start = addrs[lane as usize].byte_address();
                let end = start.saturating_add(width as u64 - 1);
                let bw = self.bank_width as u64;
                for word in start / bw..=end / bw {
                    let bank = (word % self.banks as u64) as u32;
                    let e = banks.entry(bank).or_default();
                    e.0 |= 1 << lane;
                    e.1.insert(word);
                    e.2 += 1;
                }
            }
        }
        let banks: Vec<BankUse> = banks
            .into_iter()
            .map(|(bank, (lanes, words, lane_words))| BankUse {
                bank,
                lanes,
                accesses: match same {
                    SameWord::Once => words.len() as u32,
                    SameWord::PerLane => lane_words,
                },
                words: words.into_iter().collect(),
            })
            .collect();
        GroupReport {
            source,
            phases,
            lanes,
            cost: banks.iter().map(|b| b.accesses).max().unwrap_or(1),
            banks,
        }
    }
}
