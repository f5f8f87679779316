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
//! heap's 0.15 s on the VALU loop benchmark.

/// A leaf with no wave: more than any entry.
const ABSENT: u128 = u128::MAX;

/// Runnable waves, first the one with the least (key, order).
#[derive(Clone, Debug, Default)]
pub(crate) struct ReadyQueue {
    /// The tree, each node the least entry of its subtree: node 1 the root, node `n`'s
    /// children `2n` and `2n + 1`, slot `s`'s leaf `leaves + s` (node 0 unused). Each entry
    /// is (key, order) as one `u128` (key in the high half), which compares without
    /// branches; the wave slot is the order's low 32 bits.
    tree: Vec<u128>,
    /// Leaves (a power of two, or 0 before the first entry).
    leaves: usize,
}

impl ReadyQueue {
    /// Empties the queue.
    pub(crate) fn clear(&mut self) {
        self.tree.iter_mut().for_each(|e| *e = ABSENT);
    }

    /// The wave slot with the least (key, order), if any.
    #[inline]
    pub(crate) fn first(&self) -> Option<usize> {
        // The order's half alone: a whole `u128` load of the root, just stored as two
        // halves, would wait for the stores.
        let order = *self.tree.get(1)? as u64;
        (order != ABSENT as u64).then(|| slot_of(order))
    }

    /// Queues wave slot `slot_of(order)` at `key`, replacing its entry if it has one.
    #[inline]
    pub(crate) fn set(&mut self, key: u64, order: u64) {
        let wi = slot_of(order);
        if wi >= self.leaves {
            self.grow(wi + 1);
        }
        self.replay(wi, (u128::from(key) << 64) | u128::from(order));
    }

    /// Takes wave slot `wi` out of the queue (nothing if it is not in it).
    pub(crate) fn remove(&mut self, wi: usize) {
        if wi < self.leaves {
            self.replay(wi, ABSENT);
        }
    }

    /// Puts `entry` in slot `wi`'s leaf and recomputes the nodes above it.
    #[inline]
    fn replay(&mut self, wi: usize, entry: u128) {
        let tree = &mut self.tree[..];
        // Every index below is under `tree.len()` (`2 * leaves`, a power of two): the leaf
        // `leaves + wi` is, and the path only moves to smaller nodes. Masking with
        // `len - 1` changes none of them and lets the compiler drop the bounds checks.
        let Some(mask) = tree.len().checked_sub(1) else {
            return;
        };
        let mut at = (self.leaves + wi) & mask;
        let mut least = entry;
        tree[at] = entry;
        while at > 1 {
            let rival = tree[(at ^ 1) & mask];
            // Without a branch: near-lockstep waves' keys compare unpredictably (a cmov
            // once LLVM's x86 cmov-to-branch conversion is off: .cargo/config.toml).
            least = std::hint::select_unpredictable(rival < least, rival, least);
            at >>= 1;
            tree[at & mask] = least;
        }
    }

    /// Makes room for at least `slots` leaves, keeping the entries.
    fn grow(&mut self, slots: usize) {
        let old = std::mem::take(&mut self.tree);
        let old_leaves = self.leaves;
        self.leaves = slots.next_power_of_two().max(2);
        self.tree = vec![ABSENT; 2 * self.leaves];
        for (wi, &e) in old.iter().skip(old_leaves).enumerate() {
            if e != ABSENT {
                self.replay(wi, e);
            }
        }
    }
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
    /// (key, order) of a plain map's entries.
    #[test]
    fn the_first_wave_is_the_least_entry_after_any_changes() {
        let mut rng = crate::xorshift::XorShift::new(0x2545_f491_4f6c_dd1du64);
        let mut next = move |n: u64| rng.below(n);
        let mut q = ReadyQueue::default();
        let mut model: BTreeMap<usize, (u64, u64)> = BTreeMap::new();
        for step in 0..20_000 {
            let wi = next(40) as usize;
            // Orders as the device makes them: a wave id above the slot.
            let order = (next(8) << 32) | wi as u64;
            match next(4) {
                0 => {
                    q.remove(wi);
                    model.remove(&wi);
                }
                _ => {
                    let key = next(50);
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
    }
}
