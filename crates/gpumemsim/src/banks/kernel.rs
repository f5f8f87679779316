//! The per-group cost kernels behind [`BankModel::cost`] and the batch API: a fast path for
//! aligned one-address groups (most accesses), and an exact general path.

use super::access::LaneAddress;
use super::model::{BankModel, SameWord};

/// Most words one group can touch: 64 lanes × 2 addresses × 5 words (a misaligned 16-byte
/// access over 4-byte banks).
const MAX_GROUP_WORDS: usize = 64 * 2 * 5;

/// The lanes of one group and where they point: each active lane accesses `width` bytes at
/// its address in `a0` and, for two-address groups, at its address in `a1`.
#[derive(Clone, Copy)]
struct GroupWords<'a, A> {
    lanes: u64,
    a0: &'a [A],
    a1: Option<&'a [A]>,
    width: u32,
}

impl<A: LaneAddress> GroupWords<'_, A> {
    /// Calls `f` with every word (byte address >> `shift`) the lanes touch.
    #[inline(always)]
    fn for_each_word(&self, shift: u32, mut f: impl FnMut(u64)) {
        let width = self.width;
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
        let mut m = self.lanes;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            word_span(self.a0[i].byte_address());
            if let Some(a1) = self.a1 {
                word_span(a1[i].byte_address());
            }
        }
    }
}

impl BankModel {
    /// The cost of one non-empty group of `lane_count` lanes: the largest number of words one
    /// bank serves (docs/rules/banks.md#conflicts-serialize).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn counted_group_cost<A: LaneAddress, G: Geometry>(
        &self,
        geometry: G,
        lanes: u64,
        lane_count: u32,
        a0: &[A],
        a1: Option<&[A]>,
        width: u32,
        same: SameWord,
    ) -> u32 {
        if a1.is_none() && width.is_power_of_two() {
            let words_per_lane = (width >> geometry.bank_shift()).max(1);
            if words_per_lane <= self.banks {
                let words = lane_count * words_per_lane;
                let aligned = match words_per_lane {
                    1 => aligned_group_cost::<A, G, 1>,
                    2 => aligned_group_cost::<A, G, 2>,
                    4 => aligned_group_cost::<A, G, 4>,
                    8 => aligned_group_cost::<A, G, 8>,
                    _ => aligned_group_cost::<A, G, 16>,
                };
                if let Some(cost) = aligned(geometry, lanes, a0, width, words, same) {
                    return cost;
                }
            }
        }
        self.general_group_cost(lanes, a0, a1, width, same)
    }

    /// [`BankModel::counted_group_cost`] for any group: misaligned, 12-byte or two-address
    /// lanes.
    pub(super) fn general_group_cost<A: LaneAddress>(
        &self,
        lanes: u64,
        a0: &[A],
        a1: Option<&[A]>,
        width: u32,
        same: SameWord,
    ) -> u32 {
        let group = GroupWords {
            lanes,
            a0,
            a1,
            width,
        };
        let bank_mask = self.banks as u64 - 1;
        // Which banks are touched, and by how many words in all: if no bank is touched twice,
        // the group takes one pass.
        let mut touched = 0u64;
        let mut words = 0u32;
        group.for_each_word(self.bank_shift, |w| {
            touched |= 1 << (w & bank_mask);
            words += 1;
        });
        if touched.count_ones() == words {
            return 1;
        }
        match same {
            SameWord::PerLane => self.max_accesses_per_bank(&group, touched, words),
            SameWord::Once => self.max_distinct_words_per_bank(&group, touched),
        }
    }

    /// Largest number of lane-word accesses one bank serves (no broadcast).
    fn max_accesses_per_bank<A: LaneAddress>(
        &self,
        group: &GroupWords<A>,
        touched: u64,
        words: u32,
    ) -> u32 {
        if touched.count_ones() == 1 {
            return words;
        }
        let bank_mask = self.banks as u64 - 1;
        let mut counts = [0u16; 64];
        group.for_each_word(self.bank_shift, |w| {
            counts[(w & bank_mask) as usize] += 1;
        });
        counts.iter().copied().max().unwrap_or(0) as u32
    }

    /// Largest number of distinct words one bank serves (lanes on one word share it). Words of
    /// one bank differ in their row (word / banks); while the group's rows lie within 32 of
    /// the first one's, a 64-bit row set per bank counts them exactly (one set in all when a
    /// single bank is touched), else sorting does.
    fn max_distinct_words_per_bank<A: LaneAddress>(
        &self,
        group: &GroupWords<A>,
        touched: u64,
    ) -> u32 {
        let row_shift = self.row_shift;
        let first_lane = group.lanes.trailing_zeros() as usize;
        let first_row = group.a0[first_lane].byte_address() >> self.bank_shift >> row_shift;
        let base = first_row.wrapping_sub(32);
        // One row set per bank, or a single one for a single bank.
        let mut per_bank = [0u64; 64];
        let set_mask = if touched.count_ones() == 1 {
            0
        } else {
            self.banks as u64 - 1
        };
        let mut in_window = true;
        group.for_each_word(self.bank_shift, |w| {
            let r = (w >> row_shift).wrapping_sub(base);
            in_window &= r < 64;
            per_bank[(w & set_mask) as usize] |= 1u64.wrapping_shl(r as u32);
        });
        if in_window {
            return per_bank.iter().map(|r| r.count_ones()).max().unwrap_or(0);
        }
        self.distinct_by_sorting(group)
    }

    /// The exact count for groups whose rows spread wide: sort the words, count each bank's
    /// distinct ones.
    #[cold]
    fn distinct_by_sorting<A: LaneAddress>(&self, group: &GroupWords<A>) -> u32 {
        let bank_mask = self.banks as u64 - 1;
        let mut keys = [0u64; MAX_GROUP_WORDS];
        let mut n = 0;
        group.for_each_word(self.bank_shift, |w| {
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

/// Bank geometry as the hot loop sees it: constants for the presets' shapes (so shifts are by
/// immediates), runtime values for custom models.
pub(super) trait Geometry: Copy {
    /// log2(bank width).
    fn bank_shift(self) -> u32;
    /// log2(banks).
    fn row_shift(self) -> u32;
    /// banks - 1.
    #[inline(always)]
    fn bank_mask(self) -> u64 {
        (1u64 << self.row_shift()) - 1
    }
}

/// A preset geometry: `2^SHIFT`-byte banks, `2^ROW` of them.
#[derive(Clone, Copy)]
pub(super) struct Fixed<const SHIFT: u32, const ROW: u32>;

impl<const SHIFT: u32, const ROW: u32> Geometry for Fixed<SHIFT, ROW> {
    #[inline(always)]
    fn bank_shift(self) -> u32 {
        SHIFT
    }
    #[inline(always)]
    fn row_shift(self) -> u32 {
        ROW
    }
}

/// A custom model's geometry.
#[derive(Clone, Copy)]
pub(super) struct Dynamic {
    pub(super) shift: u32,
    pub(super) row: u32,
}

impl Geometry for Dynamic {
    #[inline(always)]
    fn bank_shift(self) -> u32 {
        self.shift
    }
    #[inline(always)]
    fn row_shift(self) -> u32 {
        self.row
    }
}

/// `1 << i`, by lookup (a variable shift costs several micro-ops on some cores).
pub(super) const BIT: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = 1 << i;
        i += 1;
    }
    t
};

/// Calls `f` with each lane of `lanes`: as a plain range when the lanes are consecutive (the
/// usual full phase), else bit by bit.
#[inline(always)]
fn for_each_lane<A: LaneAddress>(lanes: u64, addrs: &[A], mut f: impl FnMut(u64)) {
    for_each_indexed_lane(lanes, addrs, |_, x| f(x));
}

/// Calls `f` with each lane of `lanes` and its address, as [`for_each_lane`] does.
#[inline(always)]
fn for_each_indexed_lane<A: LaneAddress>(lanes: u64, addrs: &[A], mut f: impl FnMut(usize, u64)) {
    if let Some(slice) = consecutive_lanes(lanes, addrs) {
        let low = lanes.trailing_zeros() as usize;
        for (i, a) in slice.iter().enumerate() {
            f(low + i, a.byte_address());
        }
        return;
    }
    let mut m = lanes;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        if let Some(a) = addrs.get(i) {
            f(i, a.byte_address());
        }
    }
}

/// The OR of the lanes' addresses and of their bank bits (`WORDS` bits from each lane's
/// first bank; a power of two up to 16). Consecutive lanes OR their addresses in a loop that
/// vectorizes and their bank bits with four accumulators, so the ORs do not form one long
/// dependency chain.
#[inline(always)]
fn scan_banks_of<A: LaneAddress, G: Geometry, const WORDS: u32>(
    geometry: G,
    lanes: u64,
    addrs: &[A],
) -> (u64, u64) {
    let shift = geometry.bank_shift();
    let bank_mask = geometry.bank_mask();
    let lane_bits = (1u64 << WORDS) - 1;
    // (Misaligned lanes may wrap here; their results are thrown away.)
    let bits_of = |x: u64| BIT[((x >> shift) & bank_mask) as usize].wrapping_mul(lane_bits);
    let mut all = [0u64; 4];
    let mut touched = [0u64; 4];
    if let Some(slice) = consecutive_lanes(lanes, addrs) {
        // The usual full phases, at a length the compiler unrolls completely.
        if let Ok(fixed) = <&[A; 32]>::try_from(slice) {
            return scan_fixed(fixed, bits_of);
        }
        if let Ok(fixed) = <&[A; 16]>::try_from(slice) {
            return scan_fixed(fixed, bits_of);
        }
        if let Ok(fixed) = <&[A; 64]>::try_from(slice) {
            return scan_fixed(fixed, bits_of);
        }
        all[0] = A::or_all(slice);
        let mut chunks = slice.chunks_exact(4);
        for chunk in &mut chunks {
            for j in 0..4 {
                touched[j] |= bits_of(chunk[j].byte_address());
            }
        }
        for (j, a) in chunks.remainder().iter().enumerate() {
            touched[j] |= bits_of(a.byte_address());
        }
    } else {
        for_each_lane(lanes, addrs, |x| {
            all[0] |= x;
            touched[0] |= bits_of(x);
        });
    }
    (
        all[0] | all[1] | all[2] | all[3],
        touched[0] | touched[1] | touched[2] | touched[3],
    )
}

/// [`scan_banks_of`] over exactly `N` consecutive lanes (the compiler unrolls it).
#[inline(always)]
pub(super) fn scan_fixed<A: LaneAddress, const N: usize>(
    addrs: &[A; N],
    bits_of: impl Fn(u64) -> u64,
) -> (u64, u64) {
    let mut all = 0u64;
    let mut touched = 0u64;
    for a in addrs {
        let x = a.byte_address();
        all |= x;
        touched |= bits_of(x);
    }
    (all, touched)
}

/// The addresses of `lanes` as one slice, if the lanes are consecutive
/// ([`crate::ranges::lane_block`]).
#[inline(always)]
fn consecutive_lanes<A>(lanes: u64, addrs: &[A]) -> Option<&[A]> {
    addrs.get(crate::ranges::lane_block(lanes)?)
}

/// The cost of a one-address group whose lanes each access `width` bytes (a power of two) at
/// an address aligned to `width`, so that each lane touches `words_per_lane` consecutive words
/// of one row, `words` in all. `None` if some lane is misaligned (the caller then takes the
/// general path).
#[inline(always)]
pub(super) fn aligned_group_cost<A: LaneAddress, G: Geometry, const WORDS: u32>(
    geometry: G,
    lanes: u64,
    addrs: &[A],
    width: u32,
    words: u32,
    same: SameWord,
) -> Option<u32> {
    // The OR of all addresses shows any misaligned one; the OR of the lanes' bank bits has
    // one bit per word exactly when no bank is touched twice.
    let (all, touched) = scan_banks_of::<A, G, WORDS>(geometry, lanes, addrs);
    if all & (width as u64 - 1) != 0 {
        return None;
    }
    // (Every bank once is the common case, and needs no bit count.)
    let bank_mask = geometry.bank_mask();
    if words == bank_mask as u32 + 1 && touched == u64::MAX >> (63 - bank_mask) {
        return Some(1);
    }
    resolve_aligned::<A, G, WORDS>(geometry, lanes, addrs, words, same, touched)
}

/// [`aligned_group_cost`] after the scan, for groups that may conflict: `touched` has the
/// lanes' bank bits. Tries the cheap shapes first (arithmetic progressions, one slot, scattered
/// lanes, shared words), then counts each slot's lanes exactly.
#[inline(never)]
pub(super) fn resolve_aligned<A: LaneAddress, G: Geometry, const WORDS: u32>(
    geometry: G,
    lanes: u64,
    addrs: &[A],
    words: u32,
    same: SameWord,
    touched: u64,
) -> Option<u32> {
    let banks_touched = touched.count_ones();
    if banks_touched == words {
        return Some(1);
    }
    // Lanes in arithmetic progression (broadcasts, columns, strides): a closed form.
    if let Some(cost) = progression_cost(geometry, lanes, addrs, same) {
        return Some(cost);
    }
    // Two halves that read the same words, or one word each (16-wide tiles).
    if let Some(cost) = halves_cost::<A, G, WORDS>(geometry, lanes, addrs, words, same, touched) {
        return Some(cost);
    }
    if banks_touched == WORDS {
        return one_slot_cost(geometry, lanes, addrs, words / WORDS, same);
    }
    if let Some(cost) = scattered_cost(geometry, lanes, addrs, same) {
        return Some(cost);
    }
    if same == SameWord::Once && !slots_mixed(geometry, lanes, addrs) {
        return Some(1);
    }
    Some(chained_cost(geometry, lanes, addrs, same, touched))
}

/// Consecutive lanes in two halves under [`SameWord::Once`] (a 16-wide tile read by two
/// rows of lanes), `None` otherwise. When the second half repeats the first half's addresses,
/// the group touches the first half's words, and a cost that counts distinct words is the
/// first half's. When each half reads one address (`x` and `y`, a row broadcast per half),
/// the two lanes' words share banks only when their slots are equal (aligned lanes' slots are
/// equal or disjoint): 2 when they do on different words, else 1.
#[inline(always)]
fn halves_cost<A: LaneAddress, G: Geometry, const WORDS: u32>(
    geometry: G,
    lanes: u64,
    addrs: &[A],
    words: u32,
    same: SameWord,
    touched: u64,
) -> Option<u32> {
    if same != SameWord::Once {
        return None;
    }
    let slice = consecutive_lanes(lanes, addrs)?;
    let half = slice.len() / 2;
    if half == 0 || !slice.len().is_multiple_of(2) {
        return None;
    }
    let (lo, hi) = slice.split_at(half);
    let (x, y) = (lo[0].byte_address(), hi[0].byte_address());
    if x == y {
        if lo
            .iter()
            .zip(hi)
            .any(|(a, b)| a.byte_address() != b.byte_address())
        {
            return None;
        }
        let low = lanes & !(lanes << half);
        return resolve_aligned::<A, G, WORDS>(geometry, low, addrs, words / 2, same, touched);
    }
    if lo.iter().any(|a| a.byte_address() != x) || hi.iter().any(|a| a.byte_address() != y) {
        return None;
    }
    let shift = geometry.bank_shift();
    let shared = slot_of(geometry, x) == slot_of(geometry, y) && x >> shift != y >> shift;
    Some(1 + u32::from(shared))
}

/// The slot (first bank) of an aligned lane's address.
#[inline(always)]
fn slot_of<G: Geometry>(geometry: G, x: u64) -> usize {
    ((x >> geometry.bank_shift()) & geometry.bank_mask()) as usize
}

/// Every lane on one slot (a column read), `count` lanes: count distinct rows as bits of one
/// word while they lie within 32 rows of the first lane's.
fn one_slot_cost<A: LaneAddress, G: Geometry>(
    geometry: G,
    lanes: u64,
    addrs: &[A],
    count: u32,
    same: SameWord,
) -> Option<u32> {
    if same == SameWord::PerLane {
        return Some(count);
    }
    let shift = geometry.bank_shift();
    let row_shift = geometry.row_shift();
    let first = addrs.get(lanes.trailing_zeros() as usize)?.byte_address();
    let base = (first >> shift >> row_shift).wrapping_sub(32);
    let mut in_window = true;
    let mut rows = 0u64;
    for_each_lane(lanes, addrs, |x| {
        let r = (x >> shift >> row_shift).wrapping_sub(base);
        in_window &= r < 64;
        rows |= BIT[(r & 63) as usize];
    });
    if in_window {
        return Some(rows.count_ones());
    }
    let slot = slot_of(geometry, first);
    Some(distinct_in_slot::<A, G, 64>(
        geometry, lanes, addrs, slot, count,
    ))
}

/// Scattered lanes (random addresses): which slots hold at least 1, 2, ... lanes, as bit masks
/// kept in registers, gives the lanes of the fullest slot when it holds fewer than `LEVELS`;
/// when that slot has no repeated word, that is the answer. `None` when it is not.
#[inline(always)]
fn scattered_cost<A: LaneAddress, G: Geometry>(
    geometry: G,
    lanes: u64,
    addrs: &[A],
    same: SameWord,
) -> Option<u32> {
    let level = slot_levels(lanes, addrs, |x| BIT[slot_of(geometry, x)]);
    if level[LEVELS - 1] != 0 {
        return None;
    }
    let most = level.iter().take_while(|&&l| l != 0).count() as u32;
    if same == SameWord::PerLane {
        return Some(most);
    }
    let fullest = level[(most as usize).saturating_sub(1)].trailing_zeros() as u64;
    (distinct_few(geometry, lanes, addrs, fullest) == most).then_some(most)
}

/// Whether some slot sees two different words. When none does (lanes sharing words, as a
/// tiled kernel's broadcast reads do), every bank serves one word: each lane's word is checked
/// against the one the last lane of its slot left.
fn slots_mixed<A: LaneAddress, G: Geometry>(geometry: G, lanes: u64, addrs: &[A]) -> bool {
    let shift = geometry.bank_shift();
    let mut last = [0u64; 64];
    for_each_lane(lanes, addrs, |x| last[slot_of(geometry, x)] = x >> shift);
    let mut mixed = false;
    for_each_lane(lanes, addrs, |x| {
        mixed |= last[slot_of(geometry, x)] != x >> shift
    });
    mixed
}

/// The exact cost from the lanes per slot (an aligned lane's words start at its slot's first
/// bank, and two lanes' slots are equal or disjoint): an upper bound on the distinct words each
/// bank serves, and the answer when every lane is served on its own. Each slot also chains its
/// lanes (`head`, then `next`; only the first `counts[slot]` links are read, so nothing needs
/// clearing), and the distinct words of the fullest slots are counted along the chains.
fn chained_cost<A: LaneAddress, G: Geometry>(
    geometry: G,
    lanes: u64,
    addrs: &[A],
    same: SameWord,
    touched: u64,
) -> u32 {
    let mut counts = [0u8; 64];
    let mut head = [0u8; 64];
    let mut next = [0u8; 64];
    for_each_indexed_lane(lanes, addrs, |lane, x| {
        let slot = slot_of(geometry, x);
        next[lane & 63] = head[slot];
        head[slot] = lane as u8;
        counts[slot] += 1;
    });
    // (The reduction over the 64 counts vectorizes.)
    let most = counts.iter().copied().max().unwrap_or(0) as u32;
    if same == SameWord::PerLane {
        return most;
    }
    let chain = Chains {
        head: &head,
        next: &next,
        addrs,
        shift: geometry.bank_shift(),
    };
    // Usually the first fullest slot has no repeated word (random addresses): then it is the
    // answer.
    let mut fullest = 0;
    let mut m = touched;
    while m != 0 {
        let bank = m.trailing_zeros() as usize;
        m &= m - 1;
        if u32::from(counts[bank]) == most {
            fullest = bank;
            break;
        }
    }
    let mut best = chain.distinct(geometry, fullest, most);
    // Repeated words (shared reads): a slot serves no more distinct words than it has lanes,
    // so only slots that could beat the best so far are counted.
    let mut m = touched;
    while m != 0 && best < most {
        let slot = m.trailing_zeros() as usize;
        m &= m - 1;
        let count = u32::from(counts[slot]);
        if count > best && slot != fullest {
            best = best.max(chain.distinct(geometry, slot, count));
        }
    }
    best
}

/// The lanes of each slot, chained: `head[slot]`, then `next[lane]`.
struct Chains<'a, A> {
    head: &'a [u8; 64],
    next: &'a [u8; 64],
    addrs: &'a [A],
    shift: u32,
}

impl<A: LaneAddress> Chains<'_, A> {
    /// The number of distinct words among the `count` lanes chained from `slot`.
    fn distinct<G: Geometry>(&self, geometry: G, slot: usize, count: u32) -> u32 {
        if count <= 4 {
            self.distinct_n::<G, 4>(geometry, slot, count)
        } else {
            self.distinct_n::<G, 64>(geometry, slot, count)
        }
    }

    fn distinct_n<G: Geometry, const CAP: usize>(
        &self,
        geometry: G,
        slot: usize,
        count: u32,
    ) -> u32 {
        let mut words = [0u64; CAP];
        let n = (count as usize).min(CAP);
        let mut lane = self.head[slot & 63];
        for w in words[..n].iter_mut() {
            *w = self
                .addrs
                .get(lane as usize)
                .map_or(0, |a| a.byte_address() >> self.shift);
            lane = self.next[lane as usize & 63];
        }
        distinct_words(geometry, &mut words[..n])
    }
}

/// The cost of a group whose lanes are consecutive and whose addresses step by one stride
/// that is a multiple of the bank width (a broadcast's is zero), `None` otherwise. Lane `i`'s
/// first word is `w0 + i * s`: lanes `i` and `j` share a slot exactly when `(i - j) * s` is a
/// multiple of the banks `B`, which repeats with period `p = B / gcd(s, B)`, so the fullest
/// slot holds `ceil(n / p)` lanes, on distinct words while `|s|` is small enough that no two
/// of them wrap round onto one address.
#[inline(always)]
fn progression_cost<A: LaneAddress, G: Geometry>(
    geometry: G,
    lanes: u64,
    addrs: &[A],
    same: SameWord,
) -> Option<u32> {
    let slice = consecutive_lanes(lanes, addrs)?;
    let (first, rest) = slice.split_first()?;
    let a0 = first.byte_address();
    let step = rest.first()?.byte_address().wrapping_sub(a0);
    // (Differences of neighbours, ORed as XORs with the first: a loop that vectorizes.)
    let mut odd = 0u64;
    let mut previous = a0;
    for a in rest {
        let x = a.byte_address();
        odd |= x.wrapping_sub(previous) ^ step;
        previous = x;
    }
    if odd != 0 {
        return None;
    }
    let n = slice.len() as u32;
    if step == 0 {
        return Some(match same {
            SameWord::Once => 1,
            SameWord::PerLane => n,
        });
    }
    let shift = geometry.bank_shift();
    // Strides of whole words only (sub-word lanes may share a word), and small: n * |step|
    // stays far below 2^32, so no two lanes' addresses coincide.
    if step & ((1 << shift) - 1) != 0 || (step as i64).unsigned_abs() >= 1 << 24 {
        return None;
    }
    let row_shift = geometry.row_shift();
    let s = (step as i64) >> shift;
    let gcd_log = (s.trailing_zeros()).min(row_shift);
    let period = 1u32 << (row_shift - gcd_log);
    Some(n.div_ceil(period))
}

/// The number of distinct words among the (at most `count`, at most `CAP`) lanes whose slot
/// (first bank) is `slot`: one pass over the lanes gathers their words, stopping at the
/// `count`-th.
fn distinct_in_slot<A: LaneAddress, G: Geometry, const CAP: usize>(
    geometry: G,
    lanes: u64,
    addrs: &[A],
    slot: usize,
    count: u32,
) -> u32 {
    let shift = geometry.bank_shift();
    let bank_mask = geometry.bank_mask();
    let mut words = [0u64; CAP];
    let want = (count as usize).min(CAP);
    let mut n = 0usize;
    let mut take = |x: u64| {
        let w = x >> shift;
        if (w & bank_mask) as usize == slot {
            if let Some(entry) = words.get_mut(n) {
                *entry = w;
            }
            n += 1;
        }
        n < want
    };
    if let Some(slice) = consecutive_lanes(lanes, addrs) {
        for a in slice {
            if !take(a.byte_address()) {
                break;
            }
        }
    } else {
        let mut m = lanes;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if !addrs.get(i).is_some_and(|a| take(a.byte_address())) {
                break;
            }
        }
    }
    distinct_words(geometry, &mut words[..n.min(want)])
}

/// The number of distinct words among the lanes whose slot is `slot`, which holds fewer than
/// [`LEVELS`] of them: one branch-free pass gathers their words (each lane writes its word at the next
/// free place, which only a lane of the slot claims), then they are compared pairwise.
#[inline(always)]
fn distinct_few<A: LaneAddress, G: Geometry>(
    geometry: G,
    lanes: u64,
    addrs: &[A],
    slot: u64,
) -> u32 {
    let shift = geometry.bank_shift();
    let bank_mask = geometry.bank_mask();
    let mut words = [0u64; LEVELS];
    let mut n = 0usize;
    let mut take = |x: u64| {
        let w = x >> shift;
        words[n.min(LEVELS - 1)] = w;
        n += usize::from(w & bank_mask == slot);
    };
    match consecutive_lanes(lanes, addrs) {
        Some(slice) => {
            if let Ok(fixed) = <&[A; 32]>::try_from(slice) {
                for a in fixed {
                    take(a.byte_address());
                }
            } else {
                for a in slice {
                    take(a.byte_address());
                }
            }
        }
        None => for_each_lane(lanes, addrs, take),
    }
    let n = n.min(LEVELS - 1);
    let mut distinct = 0;
    for i in 0..n {
        distinct += u32::from(words[i + 1..n].iter().all(|&w| w != words[i]));
    }
    distinct
}

/// For `k` in `1..=LEVELS`, the slots (as the bits `bit_of` gives a lane's address) holding at least
/// `k` of `lanes`. Register-only, so scattered lanes cost no stores.
#[inline(always)]
fn slot_levels<A: LaneAddress>(
    lanes: u64,
    addrs: &[A],
    bit_of: impl Fn(u64) -> u64,
) -> [u64; LEVELS] {
    let mut l = [0u64; LEVELS];
    let mut add = |b: u64| {
        for k in (1..LEVELS).rev() {
            l[k] |= l[k - 1] & b;
        }
        l[0] |= b;
    };
    match consecutive_lanes(lanes, addrs) {
        Some(slice) => {
            if let Ok(fixed) = <&[A; 32]>::try_from(slice) {
                for a in fixed {
                    add(bit_of(a.byte_address()));
                }
            } else {
                for a in slice {
                    add(bit_of(a.byte_address()));
                }
            }
        }
        None => for_each_lane(lanes, addrs, |x| add(bit_of(x))),
    }
    l
}

/// How many lanes per slot [`slot_levels`] tells apart (32 lanes over 32 banks at random put 8
/// on one bank in about 3 waves in 10,000).
const LEVELS: usize = 8;

/// The number of distinct words among `words`, all of one slot (so they differ only in their
/// rows): as bits of one row window when the rows lie within 64 of the lowest, else by sorting.
fn distinct_words<G: Geometry>(geometry: G, words: &mut [u64]) -> u32 {
    match words {
        [] => 0,
        [_] => 1,
        [a, b] => 1 + u32::from(a != b),
        _ => {
            let row_shift = geometry.row_shift();
            let low = words.iter().copied().min().unwrap_or(0) >> row_shift;
            let mut in_window = true;
            let mut rows = 0u64;
            for &w in words.iter() {
                let r = (w >> row_shift).wrapping_sub(low);
                in_window &= r < 64;
                rows |= BIT[(r & 63) as usize];
            }
            if in_window {
                return rows.count_ones();
            }
            words.sort_unstable();
            1 + words.windows(2).filter(|p| p[0] != p[1]).count() as u32
        }
    }
}

#[cfg(test)]
mod tests {
    //! The fast cost path against the per-bank breakdown ([`BankModel::analyze`], which
    //! counts every lane's words one by one) on the patterns the closed forms single out.

    use crate::banks::{
        Access, AccessKind, AccessShape, BankModel, LaneAddress, WaveSize, PRESET_NAMES,
    };

    use crate::xorshift::XorShift;

    /// One wave's element indices (addresses are these times the width): a progression (a
    /// broadcast when the stride is 0), random elements of a small or a wide window, then
    /// maybe folded so that blocks repeat the first block (halves, quarters) or each block
    /// reads one element (a row broadcast per block).
    fn pattern(rng: &mut XorShift) -> Vec<u64> {
        let base = rng.next_u64() % 4096;
        let stride = rng.pick(&[0i64, 1, 2, 3, 4, 8, 16, 17, 32, 33, 64, -1, -4]);
        let window = rng.pick(&[4u64, 64, 1 << 14, 1 << 30]);
        let mut e: Vec<u64> = match rng.next_u64() % 3 {
            0 => (0..64)
                .map(|l| (base as i64 + 4096 + stride * l) as u64)
                .collect(),
            _ => (0..64).map(|_| base + rng.next_u64() % window).collect(),
        };
        let block = rng.pick(&[2usize, 4, 8, 16, 32]);
        match rng.next_u64() % 4 {
            0 => {
                for l in block..64 {
                    e[l] = e[l % block];
                }
            }
            1 => {
                for l in 0..64 {
                    e[l] = e[l - l % block];
                }
            }
            _ => {}
        }
        e
    }

    /// Active lanes: all, a run of lanes (a half, a quarter), or random.
    fn active(rng: &mut XorShift, lanes: u32) -> u64 {
        let all = u64::MAX >> (64 - lanes);
        match rng.next_u64() % 4 {
            0 | 1 => all,
            2 => {
                let len = rng.pick(&[1u32, 2, 8, 16, 32]).min(lanes);
                let start = rng.next_u64() as u32 % (lanes - len + 1);
                (u64::MAX >> (64 - len)) << start
            }
            _ => rng.next_u64() & all,
        }
    }

    #[test]
    fn fast_cost_matches_breakdown_on_blocked_patterns() {
        let models: Vec<BankModel> = PRESET_NAMES
            .iter()
            .filter_map(|n| BankModel::preset(n))
            .collect();
        let kinds = [
            AccessKind::Load,
            AccessKind::Store,
            AccessKind::Atomic,
            AccessKind::Load2Addr,
            AccessKind::Store2Addr,
        ];
        let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
        let mut costed = 0;
        for case in 0..40_000u32 {
            let model = &models[case as usize % models.len()];
            let width = rng.pick(&[1u32, 2, 4, 8, 12, 16]);
            let kind = rng.pick(&kinds);
            let wave = rng.pick(&[WaveSize::Wave32, WaveSize::Wave64]);
            let align = if width == 12 { 4 } else { width } as u64;
            let a0: Vec<u64> = pattern(&mut rng).iter().map(|e| e * align).collect();
            let a1: Vec<u64> = pattern(&mut rng).iter().map(|e| e * align).collect();
            let n = wave.lanes() as usize;
            let shape = AccessShape {
                width,
                kind,
                active: active(&mut rng, wave.lanes()),
                wave,
            };
            let access = Access {
                shape,
                addrs: &a0[..n],
                addrs1: kind.is_two_addr().then_some(&a1[..n]),
            };
            let fast = model.cost(&access);
            let exact = model.analyze(&access).map(|r| r.cost);
            assert_eq!(
                fast,
                exact,
                "case {case}: {} {shape:?} {:?}",
                model.name(),
                access
                    .addrs
                    .iter()
                    .map(|a| a.byte_address())
                    .collect::<Vec<_>>()
            );
            costed += usize::from(fast.is_ok());
        }
        assert!(costed > 10_000, "{costed}");
    }
}
