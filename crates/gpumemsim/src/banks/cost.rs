//! The fast cost path: counters only, no allocation, for executors and batches.

use super::access::{Access, AccessError, AccessShape, LaneAddress};
use super::counters::{AccessCost, BatchTotals};
use super::groups::GroupSource;
use super::kernel::{
    aligned_group_cost, resolve_aligned, scan_fixed, Dynamic, Fixed, Geometry, BIT,
};
use super::model::{Alignment, BankModel, EmptyGroups, WidthClass};

/// Many accesses of one shape, laid out one wave after another: access `k` is lanes
/// `addrs[k * lanes .. (k + 1) * lanes]`.
#[derive(Clone, Copy, Debug)]
pub struct Batch<'a, A: LaneAddress> {
    /// Width, kind, wave size, and the active lanes of every access unless `masks` is given.
    pub shape: AccessShape,
    /// First addresses, one wave's worth per access.
    pub addrs: &'a [A],
    /// Second addresses (2addr kinds), laid out like `addrs`.
    pub addrs1: Option<&'a [A]>,
    /// One active mask per access, replacing `shape.active`.
    pub masks: Option<&'a [u64]>,
}

impl<'a, A: LaneAddress> Batch<'a, A> {
    /// A batch of one-address accesses, all with `shape.active` lanes.
    pub fn new(shape: AccessShape, addrs: &'a [A]) -> Batch<'a, A> {
        Batch {
            shape,
            addrs,
            addrs1: None,
            masks: None,
        }
    }

    /// Adds second addresses (2addr kinds).
    pub fn with_second_addresses(self, addrs1: &'a [A]) -> Batch<'a, A> {
        Batch {
            addrs1: Some(addrs1),
            ..self
        }
    }

    /// Gives each access its own active mask.
    pub fn with_masks(self, masks: &'a [u64]) -> Batch<'a, A> {
        Batch {
            masks: Some(masks),
            ..self
        }
    }

    /// The number of accesses (whole waves of addresses).
    pub fn len(&self) -> usize {
        self.addrs.len() / self.shape.wave.lanes() as usize
    }

    /// Whether the batch has no accesses.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first and second addresses of access `k`.
    fn wave_addrs(&self, k: usize) -> (&'a [A], Option<&'a [A]>) {
        let lanes = self.shape.wave.lanes() as usize;
        let range = k * lanes..(k + 1) * lanes;
        (&self.addrs[range.clone()], self.addrs1.map(|a| &a[range]))
    }
}

impl BankModel {
    /// The cost of one access (counters only; see [`BankModel::analyze`] for the breakdown).
    pub fn cost<A: LaneAddress>(&self, access: &Access<A>) -> Result<AccessCost, AccessError> {
        let shape = &access.shape;
        let class = self.check_access(shape, access.addrs, access.addrs1, 1)?;
        self.check_alignment(shape, access.addrs, shape.active)?;
        if let Some(a1) = access.addrs1 {
            self.check_alignment(shape, a1, shape.active)?;
        }
        Ok(self.cost_checked(shape, class, access.addrs, access.addrs1))
    }

    /// Costs every access of a batch and returns the sums.
    pub fn cost_batch<A: LaneAddress>(&self, batch: &Batch<A>) -> Result<BatchTotals, AccessError> {
        self.batch_each(batch, |_| {})
    }

    /// Costs every access of a batch, appending each cost to `out`, and returns the sums.
    pub fn cost_batch_into<A: LaneAddress>(
        &self,
        batch: &Batch<A>,
        out: &mut Vec<AccessCost>,
    ) -> Result<BatchTotals, AccessError> {
        out.reserve(batch.len());
        self.batch_each(batch, |c| out.push(c))
    }

    fn batch_each<A: LaneAddress>(
        &self,
        batch: &Batch<A>,
        each: impl FnMut(AccessCost),
    ) -> Result<BatchTotals, AccessError> {
        let shape = batch.shape;
        let lanes = shape.wave.lanes() as usize;
        let count = batch.addrs.len().div_ceil(lanes);
        let class = self.check_access(&shape, batch.addrs, batch.addrs1, count)?;
        if let Some(masks) = batch.masks {
            if masks.len() != count {
                return Err(AccessError::MaskCount {
                    expected: count,
                    got: masks.len(),
                });
            }
            if let Some(&m) = masks.iter().find(|&&m| m & !shape.wave.lane_mask() != 0) {
                return Err(AccessError::ActiveOutsideWave(m));
            }
        }
        let mask_of = |k: usize| batch.masks.map_or(shape.active, |m| m[k]);
        for k in (0..count).filter(|_| self.alignment == Alignment::Natural) {
            let range = k * lanes..(k + 1) * lanes;
            self.check_alignment(&shape, &batch.addrs[range.clone()], mask_of(k))?;
            if let Some(a1) = batch.addrs1 {
                self.check_alignment(&shape, &a1[range], mask_of(k))?;
            }
        }
        match (self.bank_shift, self.row_shift) {
            (2, 5) => Ok(self.batch_with(Fixed::<2, 5>, batch, class, count, each)),
            (2, 6) => Ok(self.batch_with(Fixed::<2, 6>, batch, class, count, each)),
            (shift, row) => Ok(self.batch_with(Dynamic { shift, row }, batch, class, count, each)),
        }
    }

    /// Costs a checked batch. Where the groups do not depend on the addresses (no merging),
    /// they are worked out once for the whole batch.
    fn batch_with<A: LaneAddress, G: Geometry>(
        &self,
        geometry: G,
        batch: &Batch<A>,
        class: WidthClass,
        count: usize,
        each: impl FnMut(AccessCost),
    ) -> BatchTotals {
        let shape = batch.shape;
        let plan = self.static_groups(&shape, class);
        match (&plan, batch.masks) {
            (Some(groups), None) => self.one_mask_batch(geometry, batch, groups, count, each),
            _ => self.per_mask_batch(geometry, batch, plan.as_deref(), class, count, each),
        }
    }

    /// [`BankModel::batch_with`] when every access has the same active lanes and the groups
    /// do not depend on the addresses: the groups' lanes, and how many, are known up front.
    fn one_mask_batch<A: LaneAddress, G: Geometry>(
        &self,
        geometry: G,
        batch: &Batch<A>,
        groups: &[(u64, GroupSource)],
        count: usize,
        mut each: impl FnMut(AccessCost),
    ) -> BatchTotals {
        let shape = batch.shape;
        let skip_empty = self.empty_groups == EmptyGroups::Skip;
        let active = shape.active;
        let groups: Vec<(u64, u32, GroupSource)> = groups
            .iter()
            .map(|&(g, source)| (g & active, (g & active).count_ones(), source))
            .filter(|&(lanes, _, _)| lanes != 0 || !skip_empty)
            .collect();
        let empty_halves = self.empty_halves_of(&shape);
        let words_per_lane = (shape.width >> self.bank_shift).max(1);
        if batch.addrs1.is_none()
            && shape.width.is_power_of_two()
            && words_per_lane <= self.banks
            && active != 0
        {
            let run = match words_per_lane {
                1 => Self::one_address_batch::<A, G, 1>,
                2 => Self::one_address_batch::<A, G, 2>,
                4 => Self::one_address_batch::<A, G, 4>,
                8 => Self::one_address_batch::<A, G, 8>,
                _ => Self::one_address_batch::<A, G, 16>,
            };
            return run(self, geometry, batch, &groups, empty_halves, each);
        }
        let mut totals = BatchTotals::default();
        for k in 0..count {
            let (a0, a1) = batch.wave_addrs(k);
            let mut c = AccessCost {
                requests: u32::from(active != 0),
                cost: empty_halves,
                ideal: empty_halves,
            };
            if active != 0 {
                for &(lanes, lane_count, source) in &groups {
                    c.ideal += 1;
                    c.cost += self
                        .sourced_group_cost(geometry, lanes, lane_count, source, &shape, a0, a1);
                }
            }
            let c = self.capped(c);
            totals.add(c);
            each(c);
        }
        totals
    }

    /// [`BankModel::batch_with`] when each access has its own active lanes, or the groups
    /// depend on the addresses (`plan` is `None`: merging).
    fn per_mask_batch<A: LaneAddress, G: Geometry>(
        &self,
        geometry: G,
        batch: &Batch<A>,
        plan: Option<&[(u64, GroupSource)]>,
        class: WidthClass,
        count: usize,
        mut each: impl FnMut(AccessCost),
    ) -> BatchTotals {
        let shape = batch.shape;
        let skip_empty = self.empty_groups == EmptyGroups::Skip;
        let mut totals = BatchTotals::default();
        for k in 0..count {
            let active = batch.masks.map_or(shape.active, |m| m[k]);
            let (a0, a1) = batch.wave_addrs(k);
            let c = match plan {
                _ if active == 0 => AccessCost::default(),
                Some(groups) => {
                    let empty_halves = self.empty_halves_of(&shape.with_active(active));
                    let mut c = AccessCost {
                        requests: 1,
                        cost: empty_halves,
                        ideal: empty_halves,
                    };
                    for &(group, source) in groups {
                        let lanes = group & active;
                        if lanes == 0 && skip_empty {
                            continue;
                        }
                        c.ideal += 1;
                        let count = lanes.count_ones();
                        c.cost +=
                            self.sourced_group_cost(geometry, lanes, count, source, &shape, a0, a1);
                    }
                    self.capped(c)
                }
                None => self.cost_with(geometry, &shape.with_active(active), class, a0, a1),
            };
            totals.add(c);
            each(c);
        }
        totals
    }

    /// The cost of one group of `lane_count` lanes whose addresses come from `source`: 1 for a
    /// group with no lanes (one counted though empty), else its bank cost.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn sourced_group_cost<A: LaneAddress, G: Geometry>(
        &self,
        geometry: G,
        lanes: u64,
        lane_count: u32,
        source: GroupSource,
        shape: &AccessShape,
        a0: &[A],
        a1: Option<&[A]>,
    ) -> u32 {
        let same = self.same_word.for_kind(shape.kind);
        let width = shape.width;
        match (lanes, source, a1) {
            (0, _, _) => 1,
            (_, GroupSource::Second, Some(a1)) => {
                self.counted_group_cost(geometry, lanes, lane_count, a1, None, width, same)
            }
            (_, GroupSource::Both, Some(a1)) => {
                self.counted_group_cost(geometry, lanes, lane_count, a0, Some(a1), width, same)
            }
            _ => self.counted_group_cost(geometry, lanes, lane_count, a0, None, width, same),
        }
    }

    /// [`BankModel::batch_with`] for one-address accesses of a power-of-two width, one
    /// active mask and address-independent `groups` (lanes, lane count, source): the loop the
    /// throughput target is about.
    fn one_address_batch<A: LaneAddress, G: Geometry, const WORDS: u32>(
        &self,
        geometry: G,
        batch: &Batch<A>,
        groups: &[(u64, u32, GroupSource)],
        empty_halves: u32,
        mut each: impl FnMut(AccessCost),
    ) -> BatchTotals {
        let shape = batch.shape;
        let same = self.same_word.for_kind(shape.kind);
        let lanes = shape.wave.lanes();
        if let [(group, count, _)] = groups {
            if *count == lanes && lanes == 32 {
                return self.whole_wave_batch::<A, G, WORDS, 32>(geometry, batch, *group, each);
            }
            if *count == lanes && lanes == 64 {
                return self.whole_wave_batch::<A, G, WORDS, 64>(geometry, batch, *group, each);
            }
        }
        let mut totals = BatchTotals::default();
        for a0 in batch.addrs.chunks_exact(lanes as usize) {
            let mut c = AccessCost {
                requests: 1,
                cost: empty_halves,
                ideal: groups.len() as u32 + empty_halves,
            };
            for &(lanes, lane_count, _) in groups {
                c.cost += if lanes == 0 {
                    1
                } else {
                    aligned_group_cost::<A, G, WORDS>(
                        geometry,
                        lanes,
                        a0,
                        shape.width,
                        lane_count * WORDS,
                        same,
                    )
                    .unwrap_or_else(|| self.general_group_cost(lanes, a0, None, shape.width, same))
                };
            }
            let c = self.capped(c);
            totals.add(c);
            each(c);
        }
        totals
    }

    /// [`BankModel::one_address_batch`] when one group holds all `N` lanes of the wave (`b32`
    /// on RDNA, NVIDIA and CDNA4): a loop the compiler unrolls completely.
    fn whole_wave_batch<A: LaneAddress, G: Geometry, const WORDS: u32, const N: usize>(
        &self,
        geometry: G,
        batch: &Batch<A>,
        group: u64,
        mut each: impl FnMut(AccessCost),
    ) -> BatchTotals {
        let shape = batch.shape;
        let same = self.same_word.for_kind(shape.kind);
        let shift = geometry.bank_shift();
        let bank_mask = geometry.bank_mask();
        let lane_bits = (1u64 << WORDS) - 1;
        let align_mask = shape.width as u64 - 1;
        let words = N as u32 * WORDS;
        let all_banks = u64::MAX >> (63 - bank_mask);
        let every_bank_once = words == bank_mask as u32 + 1;
        let bits_of = |x: u64| BIT[((x >> shift) & bank_mask) as usize].wrapping_mul(lane_bits);
        let wave_cost = |chunk: &[A]| {
            let Ok(wave) = <&[A; N]>::try_from(chunk) else {
                return self.general_group_cost(group, chunk, None, shape.width, same);
            };
            let (all, touched) = scan_fixed(wave, bits_of);
            // One bit per word: no bank touched twice (with as many words as banks, that is
            // every bit set, which needs no bit count).
            let conflict_free = if every_bank_once {
                touched == all_banks
            } else {
                touched.count_ones() == words
            };
            if all & align_mask != 0 {
                self.general_group_cost(group, chunk, None, shape.width, same)
            } else if conflict_free {
                1
            } else {
                resolve_aligned::<A, G, WORDS>(geometry, group, chunk, words, same, touched)
                    .unwrap_or_else(|| {
                        self.general_group_cost(group, chunk, None, shape.width, same)
                    })
            }
        };
        let mut totals = BatchTotals::default();
        let mut add = |cost: u32| {
            let c = self.capped(AccessCost {
                requests: 1,
                cost,
                ideal: 1,
            });
            totals.add(c);
            each(c);
        };
        #[cfg(target_arch = "x86_64")]
        if let (1, 32, Some(waves)) = (WORDS, N, vector_waves(batch.addrs)) {
            let one_word = super::avx2::OneWordShape {
                bank_shift: shift,
                bank_mask: bank_mask as u32,
                align_mask: align_mask as u32,
                same,
            };
            let exact = |k: usize| wave_cost(&batch.addrs[k * N..(k + 1) * N]);
            if super::avx2::one_word_waves(waves, one_word, exact, &mut add) {
                return totals;
            }
        }
        for chunk in batch.addrs.chunks_exact(N) {
            add(wave_cost(chunk));
        }
        totals
    }

    /// The cost of an access that passed [`BankModel::check_access`].
    #[inline]
    pub(crate) fn cost_checked<A: LaneAddress>(
        &self,
        shape: &AccessShape,
        class: WidthClass,
        addrs: &[A],
        addrs1: Option<&[A]>,
    ) -> AccessCost {
        if shape.active == 0 {
            return AccessCost::default();
        }
        match (self.bank_shift, self.row_shift) {
            (2, 5) => self.cost_with(Fixed::<2, 5>, shape, class, addrs, addrs1),
            (2, 6) => self.cost_with(Fixed::<2, 6>, shape, class, addrs, addrs1),
            (shift, row) => self.cost_with(Dynamic { shift, row }, shape, class, addrs, addrs1),
        }
    }

    #[inline(always)]
    fn cost_with<A: LaneAddress, G: Geometry>(
        &self,
        geometry: G,
        shape: &AccessShape,
        class: WidthClass,
        addrs: &[A],
        addrs1: Option<&[A]>,
    ) -> AccessCost {
        let mut cost = 0;
        let mut ideal = 0;
        self.for_each_group(shape, class, addrs, addrs1, |g| {
            ideal += 1;
            let count = g.lanes.count_ones();
            cost +=
                self.sourced_group_cost(geometry, g.lanes, count, g.source, shape, addrs, addrs1);
        });
        self.capped(AccessCost {
            requests: 1,
            cost,
            ideal,
        })
    }

    /// `c` held to the model's most cycles per access, never below its ideal
    /// (docs/rules/banks.md#at-most-64-cycles).
    #[inline(always)]
    pub(crate) fn capped(&self, c: AccessCost) -> AccessCost {
        match self.max_cost {
            Some(most) => AccessCost {
                cost: c.cost.min(most).max(c.ideal),
                ..c
            },
            None => c,
        }
    }

    /// The halves of a wave with active lanes elsewhere but none of their own, each taking one
    /// cycle under [`BankModel::empty_halves`] (docs/rules/banks.md#wave64-in-two-halves):
    /// what the address-independent group plans leave out, as they drop empty groups.
    pub(crate) fn empty_halves_of(&self, shape: &AccessShape) -> u32 {
        let reps = shape.wave.lanes() / self.phase_lanes;
        if reps < 2
            || shape.active == 0
            || self.empty_halves == EmptyGroups::Skip
            || self.empty_groups == EmptyGroups::Count
        {
            return 0;
        }
        let half = (1u64 << self.phase_lanes) - 1;
        (0..reps)
            .filter(|r| (shape.active >> (r * self.phase_lanes)) & half == 0)
            .count() as u32
    }
}

/// A batch's addresses as the vector kernel reads them.
#[cfg(target_arch = "x86_64")]
fn vector_waves<A: LaneAddress>(addrs: &[A]) -> Option<super::avx2::Waves<'_>> {
    use super::avx2::Waves;
    A::as_u32s(addrs)
        .map(Waves::U32)
        .or_else(|| A::as_u64s(addrs).map(Waves::U64))
}
