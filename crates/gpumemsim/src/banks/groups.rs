//! Checking an access and splitting it into groups (phases, after merging): shared by the fast
//! cost path and the detailed report.

use super::access::{AccessError, AccessShape, Direction, LaneAddress};
use super::model::{
    Alignment, BankModel, EmptyGroups, MergeRule, MergeScope, TwoAddrRule, WidthClass,
};

/// Which addresses a group's lanes use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GroupSource {
    /// The only address, or the first of a 2addr access.
    First,
    /// The second address of a 2addr access ([`TwoAddrRule::SequentialPasses`]).
    Second,
    /// Both addresses of a 2addr access ([`TwoAddrRule::CombinedWidth`]).
    Both,
}

/// One group of lanes served together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Group {
    pub source: GroupSource,
    /// The first phase's number, counting the phases of the whole wave in order.
    pub phase: u32,
    /// Whether the group is two merged phases (`phase` and `phase + 1`).
    pub merged: bool,
    /// Its active lanes (zero only under [`EmptyGroups::Count`], or for an empty half under
    /// [`BankModel::empty_halves`]).
    pub lanes: u64,
}

impl BankModel {
    /// Checks an access against the model: width, wave size, active lanes, address counts,
    /// alignment.
    pub(crate) fn check_access<A: LaneAddress>(
        &self,
        shape: &AccessShape,
        addrs: &[A],
        addrs1: Option<&[A]>,
        accesses: usize,
    ) -> Result<WidthClass, AccessError> {
        let class =
            WidthClass::of_width(shape.width).ok_or(AccessError::UnsupportedWidth(shape.width))?;
        if !self.waves.allows(shape.wave) {
            return Err(AccessError::UnsupportedWave {
                preset: self.name.to_string(),
                lanes: shape.wave.lanes(),
            });
        }
        if shape.active & !shape.wave.lane_mask() != 0 {
            return Err(AccessError::ActiveOutsideWave(shape.active));
        }
        let expected = accesses * shape.wave.lanes() as usize;
        match (shape.kind.is_two_addr(), addrs1) {
            (true, None) => return Err(AccessError::MissingSecondAddresses),
            (false, Some(_)) => return Err(AccessError::UnexpectedSecondAddresses),
            _ => {}
        }
        for slice_len in std::iter::once(addrs.len()).chain(addrs1.map(|a| a.len())) {
            if slice_len != expected {
                return Err(AccessError::AddressCount {
                    expected,
                    got: slice_len,
                });
            }
        }
        Ok(class)
    }

    /// Under [`Alignment::Natural`], the first active lane whose address is not a multiple of
    /// the width (12-byte accesses: of 4).
    pub(crate) fn check_alignment<A: LaneAddress>(
        &self,
        shape: &AccessShape,
        addrs: &[A],
        active: u64,
    ) -> Result<(), AccessError> {
        if self.alignment == Alignment::Any {
            return Ok(());
        }
        let align = if shape.width.is_power_of_two() {
            shape.width
        } else {
            4
        };
        let mut m = active;
        while m != 0 {
            let lane = m.trailing_zeros();
            m &= m - 1;
            let address = addrs[lane as usize].byte_address();
            if !address.is_multiple_of(align as u64) {
                return Err(AccessError::Misaligned {
                    lane,
                    address,
                    width: align,
                });
            }
        }
        Ok(())
    }

    /// The merge distances and scope that apply to a table of `phases` phases in `dir`.
    fn merge_for(&self, dir: Direction, phases: usize) -> Option<(&[u32], MergeScope)> {
        match &self.merge {
            MergeRule::XorPartners {
                distances,
                scope,
                merge_stores,
            } if phases > 1 && (dir == Direction::Read || *merge_stores) => {
                Some((distances.as_slice(), *scope))
            }
            _ => None,
        }
    }

    /// The groups of every access of this shape, as lane masks before the active mask is
    /// applied, if they do not depend on the addresses (no merge rule applies).
    pub(crate) fn static_groups(
        &self,
        shape: &AccessShape,
        class: WidthClass,
    ) -> Option<Vec<(u64, GroupSource)>> {
        let dir = shape.kind.direction();
        let combined = shape.kind.is_two_addr() && self.two_addr == TwoAddrRule::CombinedWidth;
        let table_class = if combined { class.doubled() } else { class };
        let phases = self.phases[dir as usize][table_class.index()].len();
        if self.merge_for(dir, phases).is_some() {
            return None;
        }
        let everything = shape.with_active(shape.wave.lane_mask());
        let no_addrs: [u64; 0] = [];
        let second = shape.kind.is_two_addr().then_some(&no_addrs[..]);
        let mut groups = Vec::new();
        self.for_each_group(&everything, class, &no_addrs, second, |g| {
            groups.push((g.lanes, g.source))
        });
        Some(groups)
    }

    /// Calls `f` for each group of a checked access, in the order the hardware serves them.
    #[inline(always)]
    pub(crate) fn for_each_group<A: LaneAddress, F: FnMut(Group)>(
        &self,
        shape: &AccessShape,
        class: WidthClass,
        addrs: &[A],
        addrs1: Option<&[A]>,
        mut f: F,
    ) {
        match (shape.kind.is_two_addr(), addrs1) {
            (true, Some(a1)) => match self.two_addr {
                TwoAddrRule::SequentialPasses => {
                    self.pass_groups(shape, class, addrs, None, GroupSource::First, &mut f);
                    self.pass_groups(shape, class, a1, None, GroupSource::Second, &mut f);
                }
                TwoAddrRule::CombinedWidth => {
                    self.pass_groups(
                        shape,
                        class.doubled(),
                        addrs,
                        Some(a1),
                        GroupSource::Both,
                        &mut f,
                    );
                }
            },
            _ => self.pass_groups(shape, class, addrs, None, GroupSource::First, &mut f),
        }
    }

    #[inline(always)]
    fn pass_groups<A: LaneAddress, F: FnMut(Group)>(
        &self,
        shape: &AccessShape,
        class: WidthClass,
        a0: &[A],
        a1: Option<&[A]>,
        source: GroupSource,
        f: &mut F,
    ) {
        let dir = shape.kind.direction();
        let table = &self.phases[dir as usize][class.index()];
        let active = shape.active;
        let skip_empty = self.empty_groups == EmptyGroups::Skip;
        let merge = self.merge_for(dir, table.len());
        let wave_merge = match merge {
            Some((d, MergeScope::Wave)) => partners_agree(d, active, active, a0, a1),
            _ => false,
        };
        let lanes = shape.wave.lanes();
        let reps = (lanes / self.phase_lanes).max(1);
        let step = if merge.is_some() { 2 } else { 1 };
        // An RDNA wave64 half with no active lane still takes its cycle, once per access
        // (docs/rules/banks.md#wave64-in-two-halves).
        let count_empty_half = reps > 1
            && skip_empty
            && self.empty_halves == EmptyGroups::Count
            && source != GroupSource::Second;
        let half_mask = if self.phase_lanes >= 64 {
            u64::MAX
        } else {
            (1u64 << self.phase_lanes) - 1
        };
        for rep in 0..reps {
            let shift = rep * self.phase_lanes;
            let base = rep * table.len() as u32;
            if count_empty_half && (active >> shift) & half_mask == 0 {
                f(Group {
                    source,
                    phase: base,
                    merged: false,
                    lanes: 0,
                });
                continue;
            }
            let mut j = 0;
            while j < table.len() {
                let mut emit = |phase: u32, merged: bool, group: u64| {
                    let lanes = group & active;
                    if lanes != 0 || !skip_empty {
                        f(Group {
                            source,
                            phase: base + phase,
                            merged,
                            lanes,
                        });
                    }
                };
                let g0 = table[j] << shift;
                match (merge, table.get(j + 1)) {
                    (Some((d, scope)), Some(&next)) => {
                        let g1 = next << shift;
                        let together = match scope {
                            MergeScope::Wave => wave_merge,
                            MergeScope::Pair => {
                                partners_agree(d, (g0 | g1) & active, active, a0, a1)
                            }
                        };
                        // The partner test alone decides: a merged group may conflict and
                        // costs like any group
                        // (docs/rules/banks.md#merged-transactions-can-conflict).
                        if together {
                            emit(j as u32, true, g0 | g1);
                        } else {
                            emit(j as u32, false, g0);
                            emit(j as u32 + 1, false, g1);
                        }
                    }
                    _ => emit(j as u32, false, g0),
                }
                j += step;
            }
        }
    }
}

/// [`MergeRule::XorPartners`]'s condition over `lanes`: for some distance `d`, every lane `i`
/// has lane `i ^ d` inactive (or outside the wave) or at the same address(es).
fn partners_agree<A: LaneAddress>(
    distances: &[u32],
    lanes: u64,
    active: u64,
    a0: &[A],
    a1: Option<&[A]>,
) -> bool {
    let same = |i: usize, j: usize| {
        a0[i].byte_address() == a0[j].byte_address()
            && a1.is_none_or(|a| a[i].byte_address() == a[j].byte_address())
    };
    distances.iter().any(|&d| {
        let mut m = lanes;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let j = i ^ d as usize;
            if j < 64 && active >> j & 1 == 1 && j < a0.len() && !same(i, j) {
                return false;
            }
        }
        true
    })
}
