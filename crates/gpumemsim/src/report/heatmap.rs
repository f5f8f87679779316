//! The data behind one bank heat map: an access, the bank model's per-group breakdown of it,
//! and the questions the pictures ask of it (how many ways the worst bank conflicts, which
//! word a lane touches in a bank, whether two accesses have the same pattern).

use crate::banks::{
    Access, AccessError, AccessReport, BankModel, CostUnits, GroupReport, GroupSource, LaneAddress,
};

/// One access as the bank model sees it, ready to draw: rows are banks, columns the lanes of
/// each group (phase) the model serves together.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatMap {
    /// The bank model's name (`rdna3`, `sm80`, ...).
    pub model: String,
    /// Banks of the model.
    pub banks: u32,
    /// Bytes per bank word.
    pub bank_width: u32,
    /// Bytes each lane accesses at each address.
    pub width: u32,
    /// Lanes in the wave.
    pub wave_lanes: u32,
    /// Each lane's byte address (the first one of a 2addr access).
    pub addrs: Vec<u64>,
    /// Each lane's second address (2addr accesses).
    pub addrs1: Option<Vec<u64>>,
    /// The model's breakdown: groups in the order they are served, each bank's lanes, words
    /// and passes.
    pub report: AccessReport,
}

impl HeatMap {
    /// Analyzes `access` with `model`.
    pub fn new<A: LaneAddress>(
        model: &BankModel,
        access: &Access<A>,
    ) -> Result<HeatMap, AccessError> {
        let report = model.analyze(access)?;
        let widen = |a: &[A]| a.iter().map(|x| x.byte_address()).collect::<Vec<u64>>();
        Ok(HeatMap {
            model: model.name().to_string(),
            banks: model.banks(),
            bank_width: model.bank_width(),
            width: access.shape.width,
            wave_lanes: access.shape.wave.lanes(),
            addrs: widen(access.addrs),
            addrs1: access.addrs1.map(widen),
            report,
        })
    }

    /// How the costs read: cycles (AMD) or wavefronts (NVIDIA).
    pub fn units(&self) -> CostUnits {
        self.report.units
    }

    /// The unit's name, plural (`cycles`, `wavefronts`).
    pub fn unit_name(&self) -> &'static str {
        match self.report.units {
            CostUnits::Cycles => "cycles",
            CostUnits::Wavefronts => "wavefronts",
        }
    }

    /// `n` and the unit, singular for 1: `1 cycle`, `32 cycles`, `2 wavefronts`.
    pub fn amount(&self, n: u64) -> String {
        let unit = self.unit_name();
        if n == 1 {
            format!("1 {}", &unit[..unit.len() - 1])
        } else {
            format!("{n} {unit}")
        }
    }

    /// The most passes any one bank needs in any group: 1 for a conflict-free access, 32 for a
    /// wave32 column read of a 32-bank LDS (an "N-way" conflict). 0 when no lane was active.
    pub fn ways(&self) -> u32 {
        self.report
            .groups
            .iter()
            .flat_map(|g| g.banks.iter().map(|b| b.accesses))
            .max()
            .unwrap_or(0)
    }

    /// The banks that need more than one pass in some group, ascending.
    pub fn conflicting_banks(&self) -> Vec<u32> {
        let mut banks: Vec<u32> = self
            .report
            .groups
            .iter()
            .flat_map(|g| g.conflicts().map(|b| b.bank))
            .collect();
        banks.sort_unstable();
        banks.dedup();
        banks
    }

    /// The lanes of group `g` in increasing order.
    pub fn group_lanes(g: &GroupReport) -> Vec<u32> {
        (0..64).filter(|l| g.lanes >> l & 1 == 1).collect()
    }

    /// The addresses lane `lane` uses in group `g` (one, or both of a 2addr lane when the
    /// model serves both together).
    pub fn lane_addresses(&self, g: &GroupReport, lane: u32) -> Vec<u64> {
        let l = lane as usize;
        let first = self.addrs.get(l).copied();
        let second = self.addrs1.as_ref().and_then(|a| a.get(l).copied());
        match g.source {
            GroupSource::First => first.into_iter().collect(),
            GroupSource::Second => second.into_iter().collect(),
            GroupSource::Both => first.into_iter().chain(second).collect(),
        }
    }

    /// The word (byte address / bank width) lane `lane` touches in `bank` within group `g`.
    pub fn lane_word(&self, g: &GroupReport, lane: u32, bank: u32) -> Option<u64> {
        let bw = self.bank_width as u64;
        self.lane_addresses(g, lane).into_iter().find_map(|start| {
            let end = start.saturating_add(self.width as u64 - 1);
            (start / bw..=end / bw).find(|w| w % self.banks as u64 == bank as u64)
        })
    }

    /// Whether `other` has the same pattern: the same picture once the banks are rotated (bank
    /// `b` drawn as bank `(b + r) mod banks` for some `r`, the same `r` for every group): the
    /// same groups, and in each the same lanes on the same banks needing the same passes. So the
    /// 32 column reads of a transpose, one per column, are one pattern, and so are the 32
    /// diagonals of a padded one. Words are not compared. Identical pictures always have the
    /// same pattern.
    pub fn same_pattern(&self, other: &HeatMap) -> bool {
        self.pattern_key() == other.pattern_key()
    }

    /// A key of the picture up to a rotation of the banks: two maps have the same key exactly
    /// when they have the same pattern ([`HeatMap::same_pattern`]). It is the least, over the
    /// rotations that bring a bank of the first non-empty group to bank 0, of the groups with
    /// their banks renumbered.
    pub(crate) fn pattern_key(&self) -> PatternKey {
        let groups = &self.report.groups;
        let banks = self.banks.max(1);
        let at = |r: u32| -> Vec<GroupKey> {
            groups
                .iter()
                .map(|g| {
                    let mut uses: Vec<(u32, u64, u32)> = g
                        .banks
                        .iter()
                        .map(|u| ((u.bank % banks + banks - r) % banks, u.lanes, u.accesses))
                        .collect();
                    uses.sort_unstable();
                    GroupKey {
                        source: match g.source {
                            GroupSource::First => 0,
                            GroupSource::Second => 1,
                            GroupSource::Both => 2,
                        },
                        phases: g.phases.clone(),
                        lanes: g.lanes,
                        cost: g.cost,
                        uses,
                    }
                })
                .collect()
        };
        let candidates: Vec<u32> = groups.iter().find(|g| !g.banks.is_empty()).map_or_else(
            || vec![0],
            |g| g.banks.iter().map(|u| u.bank % banks).collect(),
        );
        let groups = candidates.into_iter().map(at).min().unwrap_or_default();
        PatternKey {
            banks: self.banks,
            groups,
        }
    }
}

/// What `HeatMap::pattern_key` gives: the banks and each group with its banks renumbered.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct PatternKey {
    banks: u32,
    groups: Vec<GroupKey>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct GroupKey {
    source: u8,
    phases: Vec<u32>,
    lanes: u64,
    cost: u32,
    /// (bank after the rotation, its lanes, its passes), ascending.
    uses: Vec<(u32, u64, u32)>,
}

/// A group's name: `phase 0`, `phases 0+1`, with `· addr1` for the second address of a 2addr
/// access served in a pass of its own and `· both` for both addresses served together.
pub fn group_label(g: &GroupReport) -> String {
    let phases: Vec<String> = g.phases.iter().map(|p| p.to_string()).collect();
    let mut s = format!(
        "{} {}",
        if phases.len() > 1 { "phases" } else { "phase" },
        phases.join("+")
    );
    match g.source {
        GroupSource::First => {}
        GroupSource::Second => s.push_str(" · addr1"),
        GroupSource::Both => s.push_str(" · both"),
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::banks::{AccessKind, AccessShape, WaveSize};

    fn map(model: &BankModel, width: u32, addrs: &[u32]) -> HeatMap {
        let shape = AccessShape::new(width, AccessKind::Load, WaveSize::Wave32);
        HeatMap::new(model, &Access::new(shape, addrs)).expect("a valid access")
    }

    #[test]
    fn a_column_read_is_a_32_way_conflict_on_one_bank() {
        let column: Vec<u32> = (0..32).map(|t| t * 128 + 8).collect();
        let h = map(&BankModel::rdna3(), 4, &column);
        assert_eq!(h.ways(), 32);
        assert_eq!(h.conflicting_banks(), vec![2]);
        assert_eq!(h.report.cost.cost, 32);
        let g = &h.report.groups[0];
        assert_eq!(group_label(g), "phase 0");
        assert_eq!(h.lane_word(g, 5, 2), Some((5 * 128 + 8) / 4));
        assert_eq!(h.lane_word(g, 5, 3), None);
    }

    #[test]
    fn a_row_read_is_conflict_free() {
        let row: Vec<u32> = (0..32).map(|t| t * 4).collect();
        let h = map(&BankModel::rdna3(), 4, &row);
        assert_eq!(h.ways(), 1);
        assert!(h.conflicting_banks().is_empty());
    }

    #[test]
    fn patterns_compare_up_to_a_rotation_of_the_banks() {
        let model = BankModel::rdna3();
        let col = |c: u32| -> Vec<u32> { (0..32).map(|t| t * 128 + 4 * c).collect() };
        let (a, b) = (map(&model, 4, &col(0)), map(&model, 4, &col(7)));
        assert!(a.same_pattern(&b));
        let row: Vec<u32> = (0..32).map(|t| t * 4).collect();
        assert!(!a.same_pattern(&map(&model, 4, &row)));
        // Same banks, different lanes on them: lanes 0 and 1 swapped.
        let mut swapped: Vec<u32> = (0..32).map(|t| t * 4).collect();
        swapped.swap(0, 1);
        let plain = map(&model, 4, &row);
        assert!(!plain.same_pattern(&map(&model, 4, &swapped)));
    }

    #[test]
    fn diagonals_that_cover_every_bank_are_one_pattern() {
        // A padded transpose: lane t on bank (t + c) mod 32, every bank touched, so the first
        // bank touched is always bank 0; the pattern is still found up to the rotation.
        let model = BankModel::rdna3();
        let diag = |c: u32| -> Vec<u32> { (0..32).map(|t| (t * 33 + c) * 4).collect() };
        let maps: Vec<HeatMap> = (0..32).map(|c| map(&model, 4, &diag(c))).collect();
        for m in &maps {
            assert!(maps[0].same_pattern(m));
            assert_eq!(maps[0].pattern_key(), m.pattern_key());
        }
        // The XOR swizzles are different pictures (no rotation maps one onto another).
        let xor = |c: u32| -> Vec<u32> { (0..32).map(|t| (t * 32 + (t ^ c)) * 4).collect() };
        assert!(!map(&model, 4, &xor(1)).same_pattern(&map(&model, 4, &xor(2))));
        assert!(map(&model, 4, &xor(3)).same_pattern(&map(&model, 4, &xor(3))));
    }

    #[test]
    fn two_addr_groups_say_which_address() {
        let model = BankModel::rdna3();
        let a0: Vec<u32> = (0..32).map(|t| t * 128).collect();
        let a1: Vec<u32> = (0..32).map(|t| t * 128 + 4).collect();
        let shape = AccessShape::new(4, AccessKind::Load2Addr, WaveSize::Wave32);
        let access = Access {
            shape,
            addrs: &a0,
            addrs1: Some(&a1),
        };
        let h = HeatMap::new(&model, &access).expect("valid");
        let labels: Vec<String> = h.report.groups.iter().map(group_label).collect();
        assert_eq!(labels, ["phase 0", "phase 0 · addr1"]);
        assert_eq!(h.conflicting_banks(), vec![0, 1]);
        assert_eq!(
            h.lane_word(&h.report.groups[1], 3, 1),
            Some((3 * 128 + 4) / 4)
        );
    }
}
