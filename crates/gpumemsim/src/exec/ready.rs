//! The scheduler's queue of runnable waves: a tournament (winner) tree with one leaf per
//! wave slot, ordered by (key, order) — the wave's clock plus the seed's jitter, then its
//! wave id above its slot (`Device::order_of`).
//!
//! The wave that runs stays in the queue while it runs: after its step its key is raised
//! in place ([`ReadyQueue::set`]), and it runs again as long as it is still first. Every
//! change replays the matches on its leaf's path to the root: one comparison per level,
//! without branches and without an index of positions (a slot's leaf is fixed). Waves run
//! in near lockstep, so a raised key sinks to the bottom of a binary heap through two
//! comparisons and unpredictable branches per level; the tree measured 0.12 s against the
//! heap's 0.15 s on the VALU loop benchmark. An entry is packed in one `u64` while the run's
//! clocks, wave ids and slots fit in it together (a `u128` after that): the VALU loop's
//! replays went from about 150 to 100 host instructions.

/// A leaf with no wave in a narrow tree: more than any entry ([`Narrow::fits`] keeps every
/// entry below it).
const ABSENT: u64 = u64::MAX;
/// A leaf with no wave in a wide tree.
const ABSENT_WIDE: u128 = u128::MAX;

/// Runnable waves, first the one with the least (key, order).
#[derive(Clone, Debug, Default)]
pub(crate) struct ReadyQueue {
    tree: Tree,
    /// Leaves (a power of two, or 0 before the first entry).
    leaves: usize,
}

/// The tree, each node the least entry of its subtree: node 1 the root, node `n`'s children
/// `2n` and `2n + 1`, slot `s`'s leaf `leaves + s` (node 0 unused).
#[derive(Clone, Debug)]
enum Tree {
    /// Each entry (key, wave id, slot) packed in one `u64` ([`Narrow`]): half the bytes of a
    /// wide entry and one compare a level. A run's keys, wave ids and slots fit in 64 bits
    /// together until its clock passes about 2^40 cycles.
    Narrow(Vec<u64>, Narrow),
    /// Each entry (key, order) as one `u128`, the key in the high half: any key and order.
    Wide(Vec<u128>),
}

impl Default for Tree {
    fn default() -> Tree {
        Tree::Narrow(Vec::new(), Narrow::default())
    }
}

/// How a narrow tree packs an entry: the key above the wave id above the slot, each field
/// as wide as the largest it has held, so that packed entries order as (key, order) does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Narrow {
    slot_bits: u32,
    /// The bits below the key.
    shift: u32,
    /// Wave ids and keys below these fit.
    id_limit: u64,
    key_limit: u64,
}

impl Narrow {
    /// Fields of `slot_bits` and `id_bits`, or `None` when they leave the key no room.
    fn new(slot_bits: u32, id_bits: u32) -> Option<Narrow> {
        let shift = slot_bits + id_bits;
        (shift < 64).then(|| Narrow {
            slot_bits,
            shift,
            id_limit: 1 << id_bits,
            key_limit: ABSENT >> shift,
        })
    }

    /// Whether (`key`, `order`) packs below [`ABSENT`], for an order whose slot is a leaf.
    #[inline(always)]
    fn fits(self, key: u64, order: u64) -> bool {
        order >> 32 < self.id_limit && key < self.key_limit
    }

    #[inline(always)]
    fn pack(self, key: u64, order: u64) -> u64 {
        let (id, slot) = (order >> 32, order as u32 as u64);
        key << self.shift | id << self.slot_bits | slot
    }

    /// (key, order) of a packed entry.
    fn unpack(self, e: u64) -> (u64, u64) {
        let slot = e & ((1 << self.slot_bits) - 1);
        let id = (e & ((1 << self.shift) - 1)) >> self.slot_bits;
        (e >> self.shift, id << 32 | slot)
    }
}

impl ReadyQueue {
    /// Empties the queue.
    pub(crate) fn clear(&mut self) {
        match &mut self.tree {
            Tree::Narrow(t, _) => t.fill(ABSENT),
            Tree::Wide(t) => t.fill(ABSENT_WIDE),
        }
    }

    /// The wave slot with the least (key, order), if any.
    #[inline(always)]
    pub(crate) fn first(&self) -> Option<usize> {
        match &self.tree {
            Tree::Narrow(t, n) => {
                let e = *t.get(1)?;
                (e != ABSENT).then_some((e & ((1 << n.slot_bits) - 1)) as usize)
            }
            Tree::Wide(t) => {
                // The order's half alone: a whole `u128` load of the root, just stored as
                // two halves, would wait for the stores.
                let order = *t.get(1)? as u64;
                (order != ABSENT_WIDE as u64).then(|| slot_of(order))
            }
        }
    }

    /// Queues wave slot `slot_of(order)` at `key`, replacing its entry if it has one.
    #[inline(always)]
    pub(crate) fn set(&mut self, key: u64, order: u64) {
        let wi = slot_of(order);
        match &mut self.tree {
            Tree::Narrow(t, n) if wi < self.leaves && n.fits(key, order) => {
                replay(t, self.leaves, wi, n.pack(key, order));
            }
            Tree::Wide(t) if wi < self.leaves => replay(t, self.leaves, wi, wide(key, order)),
            _ => self.set_rebuilt(key, order),
        }
    }

    /// [`ReadyQueue::set`] of an entry with no leaf yet, or one the narrow tree's fields do
    /// not hold: the tree is made again, larger, with wider fields, or wide.
    #[cold]
    #[inline(never)]
    fn set_rebuilt(&mut self, key: u64, order: u64) {
        let wi = slot_of(order);
        self.rebuild(wi + 1, order >> 32, key);
        match &mut self.tree {
            // The rebuilt fields hold this entry (`ReadyQueue::rebuild`).
            Tree::Narrow(t, n) => replay(t, self.leaves, wi, n.pack(key, order)),
            Tree::Wide(t) => replay(t, self.leaves, wi, wide(key, order)),
        }
    }

    /// Takes wave slot `wi` out of the queue (nothing if it is not in it).
    pub(crate) fn remove(&mut self, wi: usize) {
        if wi >= self.leaves {
            return;
        }
        match &mut self.tree {
            Tree::Narrow(t, _) => replay(t, self.leaves, wi, ABSENT),
            Tree::Wide(t) => replay(t, self.leaves, wi, ABSENT_WIDE),
        }
    }

    /// The entries (key, order) of the leaves.
    fn entries(&self) -> Vec<(u64, u64)> {
        let leaves = self.leaves;
        match &self.tree {
            Tree::Narrow(t, n) => (t.iter().skip(leaves))
                .filter(|&&e| e != ABSENT)
                .map(|&e| n.unpack(e))
                .collect(),
            Tree::Wide(t) => (t.iter().skip(leaves))
                .filter(|&&e| e != ABSENT_WIDE)
                .map(|&e| ((e >> 64) as u64, e as u64))
                .collect(),
        }
    }

    /// Makes the tree again with at least `slots` leaves and fields that hold wave id `id`
    /// and key `key` too, keeping the entries: narrow if they all fit, else wide (for good).
    fn rebuild(&mut self, slots: usize, id: u64, key: u64) {
        let entries = self.entries();
        let bits = |x: u64| 64 - x.leading_zeros();
        let id_bits = entries
            .iter()
            .map(|&(_, o)| bits(o >> 32))
            .fold(bits(id), u32::max);
        self.leaves = slots.max(self.leaves).next_power_of_two().max(2);
        let narrow = Narrow::new(self.leaves.trailing_zeros(), id_bits).filter(|n| {
            matches!(self.tree, Tree::Narrow(..))
                && n.fits(key, id << 32)
                && entries.iter().all(|&(k, o)| n.fits(k, o))
        });
        self.tree = match narrow {
            Some(n) => Tree::Narrow(vec![ABSENT; 2 * self.leaves], n),
            None => Tree::Wide(vec![ABSENT_WIDE; 2 * self.leaves]),
        };
        for (key, order) in entries {
            let wi = slot_of(order);
            match &mut self.tree {
                Tree::Narrow(t, n) => replay(t, self.leaves, wi, n.pack(key, order)),
                Tree::Wide(t) => replay(t, self.leaves, wi, wide(key, order)),
            }
        }
    }
}

/// Puts `entry` in slot `wi`'s leaf of `tree` (of `leaves` leaves) and recomputes the nodes
/// above it.
#[inline(always)]
fn replay<T: Copy + Ord>(tree: &mut [T], leaves: usize, wi: usize, entry: T) {
    // Every index below is under `tree.len()` (`2 * leaves`, a power of two): the leaf
    // `leaves + wi` is, and the path only moves to smaller nodes. Masking with `len - 1`
    // changes none of them and lets the compiler drop the bounds checks.
    let Some(mask) = tree.len().checked_sub(1) else {
        return;
    };
    let mut at = (leaves + wi) & mask;
    let mut least = entry;
    tree[at] = entry;
    while at > 1 {
        let rival = tree[(at ^ 1) & mask];
        // Without a branch: near-lockstep waves' keys compare unpredictably (a cmov once
        // LLVM's x86 cmov-to-branch conversion is off: .cargo/config.toml).
        least = std::hint::select_unpredictable(rival < least, rival, least);
        at >>= 1;
        tree[at & mask] = least;
    }
}

/// A wide tree's entry.
fn wide(key: u64, order: u64) -> u128 {
    u128::from(key) << 64 | u128::from(order)
}

/// The wave slot of an order (its low 32 bits).
#[inline]
fn slot_of(order: u64) -> usize {
    order as u32 as usize
}
#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Random sets, raises, lowers and removals: the first slot is always the least
    /// (key, order) of a plain map's entries. Small keys and ids (a narrow tree throughout),
    /// ids that outgrow their packed field, and keys past 2^40 (the tree turns wide midway).
    #[test]
    fn the_first_wave_is_the_least_entry_after_any_changes() {
        for (ids, wide_at) in [(8, None), (1 << 20, None), (8, Some(9_000))] {
            let mut rng = crate::xorshift::XorShift::new(0x2545_f491_4f6c_dd1du64);
            let mut next = move |n: u64| rng.below(n);
            let mut q = ReadyQueue::default();
            let mut model: BTreeMap<usize, (u64, u64)> = BTreeMap::new();
            for step in 0..20_000 {
                let wi = next(40) as usize;
                // Orders as the device makes them: a wave id above the slot.
                let order = (next(ids) << 32) | wi as u64;
                match next(4) {
                    0 => {
                        q.remove(wi);
                        model.remove(&wi);
                    }
                    _ => {
                        let far = wide_at.is_some_and(|at| step >= at);
                        let key = next(50) + if far { (1 << 62) - 100 } else { 0 };
                        q.set(key, order);
                        model.insert(wi, (key, order));
                    }
                }
                if step % 1000 == 0 {
                    q.clear();
                    model.clear();
                }
                let least = model.values().min().map(|&(_, o)| slot_of(o));
                assert_eq!(q.first(), least, "step {step}");
            }
            let wide = matches!(q.tree, Tree::Wide(_));
            assert_eq!(wide, wide_at.is_some(), "{ids} {wide_at:?}");
        }
    }
}
