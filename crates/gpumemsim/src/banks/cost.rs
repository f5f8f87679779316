//! The fast cost path: counters only, no allocation, for executors and batches.

use super::access::{Access, AccessError, AccessShape, LaneAddress};
use super::counters::{AccessCost, BatchTotals};
use super::groups::GroupSource;
use super::model::{BankModel, SameWord, WidthClass};

/// Most words one group can touch: 64 lanes × 2 addresses × 5 words (a misaligned 16-byte
/// access over 4-byte banks).
const MAX_GROUP_WORDS: usize = 64 * 2 * 5;

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
        mut each: impl FnMut(AccessCost),
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
        for k in 0..count {
            let range = k * lanes..(k + 1) * lanes;
            self.check_alignment(&shape, &batch.addrs[range.clone()], mask_of(k))?;
            if let Some(a1) = batch.addrs1 {
                self.check_alignment(&shape, &a1[range], mask_of(k))?;
            }
        }
        let mut totals = BatchTotals::default();
        for k in 0..count {
            let range = k * lanes..(k + 1) * lanes;
            let shape_k = shape.with_active(mask_of(k));
            let c = self.cost_checked(
                &shape_k,
                class,
                &batch.addrs[range.clone()],
                batch.addrs1.map(|a| &a[range]),
            );
            totals.add(c);
            each(c);
        }
        Ok(totals)
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
        let same = self.same_word.for_kind(shape.kind);
        let mut cost = 0;
        let mut ideal = 0;
        self.for_each_group(shape, class, addrs, addrs1, |g| {
            ideal += 1;
            cost += if g.lanes == 0 {
                1
            } else {
                match (g.source, addrs1) {
                    (GroupSource::Second, Some(a1)) => {
                        self.group_cost(g.lanes, a1, None, shape.width, same)
                    }
                    (GroupSource::Both, Some(a1)) => {
                        self.group_cost(g.lanes, addrs, Some(a1), shape.width, same)
                    }
                    _ => self.group_cost(g.lanes, addrs, None, shape.width, same),
                }
            };
        });
        AccessCost {
            requests: 1,
            cost,
            ideal,
        }
    }

    /// Calls `f` with every word (byte address / bank width) the lanes touch.
    #[inline(always)]
    fn for_each_word<A: LaneAddress>(
        &self,
        lanes: u64,
        a0: &[A],
        a1: Option<&[A]>,
        width: u32,
        mut f: impl FnMut(u64),
    ) {
        let shift = self.bank_shift;
        let mut word_span = |x: u64| {
            let mut w = x >> shift;
            let last = x.saturating_add(width as u64 - 1) >> shift;
            loop {
                f(w);
                if w >= last {
                    break;
                }
                w += 1;
            }
        };
        let mut m = lanes;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            word_span(a0[i].byte_address());
            if let Some(a1) = a1 {
                word_span(a1[i].byte_address());
            }
        }
    }

    /// The cost of one non-empty group: the largest number of words one bank serves.
    #[inline(always)]
    fn group_cost<A: LaneAddress>(
        &self,
        lanes: u64,
        a0: &[A],
        a1: Option<&[A]>,
        width: u32,
        same: SameWord,
    ) -> u32 {
        let bank_mask = self.banks as u64 - 1;
        // Which banks are touched, and by how many words in all: if no bank is touched twice,
        // the group takes one pass.
        let mut touched = 0u64;
        let mut words = 0u32;
        self.for_each_word(lanes, a0, a1, width, |w| {
            touched |= 1 << (w & bank_mask);
            words += 1;
        });
        if touched.count_ones() == words {
            return 1;
        }
        match same {
            SameWord::PerLane => self.max_accesses_per_bank(lanes, a0, a1, width, touched, words),
            SameWord::Once => self.max_distinct_words_per_bank(lanes, a0, a1, width, touched),
        }
    }

    /// Largest number of lane-word accesses one bank serves (no broadcast).
    fn max_accesses_per_bank<A: LaneAddress>(
        &self,
        lanes: u64,
        a0: &[A],
        a1: Option<&[A]>,
        width: u32,
        touched: u64,
        words: u32,
    ) -> u32 {
        if touched.count_ones() == 1 {
            return words;
        }
        let bank_mask = self.banks as u64 - 1;
        let mut counts = [0u16; 64];
        self.for_each_word(lanes, a0, a1, width, |w| {
            counts[(w & bank_mask) as usize] += 1;
        });
        counts.iter().copied().max().unwrap_or(0) as u32
    }

    /// Largest number of distinct words one bank serves (lanes on one word share it). Words of
    /// one bank differ in their row (word / banks); while the group's rows lie within 32 of
    /// the first one's, a 64-bit row set per bank counts them exactly, else sorting does.
    fn max_distinct_words_per_bank<A: LaneAddress>(
        &self,
        lanes: u64,
        a0: &[A],
        a1: Option<&[A]>,
        width: u32,
        touched: u64,
    ) -> u32 {
        let bank_mask = self.banks as u64 - 1;
        let row_shift = self.row_shift;
        let first_lane = lanes.trailing_zeros() as usize;
        let base = (a0[first_lane].byte_address() >> self.bank_shift >> row_shift).wrapping_sub(32);
        let mut in_window = true;
        if touched.count_ones() == 1 {
            let mut rows = 0u64;
            self.for_each_word(lanes, a0, a1, width, |w| {
                let r = (w >> row_shift).wrapping_sub(base);
                in_window &= r < 64;
                rows |= 1u64.wrapping_shl(r as u32);
            });
            if in_window {
                return rows.count_ones();
            }
        } else {
            let mut rows = [0u64; 64];
            self.for_each_word(lanes, a0, a1, width, |w| {
                let r = (w >> row_shift).wrapping_sub(base);
                in_window &= r < 64;
                rows[(w & bank_mask) as usize] |= 1u64.wrapping_shl(r as u32);
            });
            if in_window {
                return rows.iter().map(|r| r.count_ones()).max().unwrap_or(0);
            }
        }
        self.distinct_by_sorting(lanes, a0, a1, width)
    }

    /// The exact count for groups whose rows spread wide: sort the words, count each bank's
    /// distinct ones.
    #[cold]
    fn distinct_by_sorting<A: LaneAddress>(
        &self,
        lanes: u64,
        a0: &[A],
        a1: Option<&[A]>,
        width: u32,
    ) -> u32 {
        let bank_mask = self.banks as u64 - 1;
        let mut keys = [0u64; MAX_GROUP_WORDS];
        let mut n = 0;
        self.for_each_word(lanes, a0, a1, width, |w| {
            if n < MAX_GROUP_WORDS {
                keys[n] = w;
                n += 1;
            }
        });
        let keys = &mut keys[..n];
        keys.sort_unstable();
        let mut counts = [0u32; 64];
        let mut previous = None;
        for &w in keys.iter() {
            if previous != Some(w) {
                counts[(w & bank_mask) as usize] += 1;
                previous = Some(w);
            }
        }
        counts.iter().copied().max().unwrap_or(0)
    }
}
