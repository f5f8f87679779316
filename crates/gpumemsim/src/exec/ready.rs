//! The scheduler's queue of runnable waves: an indexed binary min-heap with one entry per
//! wave slot, ordered by (key, order) — the wave's clock plus the seed's jitter, then its
//! wave id above its slot (`Device::order_of`).
//!
//! The wave that runs stays in the queue while it runs: after its step its key is raised
//! in place ([`ReadyQueue::set`]), and it runs again as long as it is still first. A wave
//! that runs several instructions before another wave's turn costs one comparison each,
//! and a change of wave one sift, instead of a pop and a push of a heap entry per
//! instruction.

/// No entry.
const ABSENT: u32 = u32::MAX;

/// Children per heap node. Four halve the depth a raised wave sinks through, but measured
/// slower on the VALU loop benchmark (0.17 s against 0.15 s): two.
const ARITY: usize = 2;

/// Runnable waves, first the one with the least (key, order).
#[derive(Clone, Debug, Default)]
pub(crate) struct ReadyQueue {
    /// The heap of entries, each (key, order) as one `u128` (key in the high half), which
    /// compares without branches; the wave slot is the order's low 32 bits.
    heap: Vec<u128>,
    /// Each wave slot's index in `heap`, or [`ABSENT`].
    pos: Vec<u32>,
}

impl ReadyQueue {
    /// Empties the queue.
    pub(crate) fn clear(&mut self) {
        self.heap.clear();
        self.pos.iter_mut().for_each(|p| *p = ABSENT);
    }

    /// The wave slot with the least (key, order), if any.
    #[inline]
    pub(crate) fn first(&self) -> Option<usize> {
        self.heap.first().map(|&e| slot_of(e as u64))
    }

    /// Queues wave slot `slot_of(order)` at `key`, replacing its entry if it has one.
    #[inline]
    pub(crate) fn set(&mut self, key: u64, order: u64) {
        let wi = slot_of(order);
        if wi >= self.pos.len() {
            self.pos.resize(wi + 1, ABSENT);
        }
        let entry = (u128::from(key) << 64) | u128::from(order);
        match self.pos[wi] {
            ABSENT => {
                self.heap.push(entry);
                self.sift_up(self.heap.len() - 1);
            }
            at => {
                let at = at as usize;
                let old = std::mem::replace(&mut self.heap[at], entry);
                if entry < old {
                    self.sift_up(at);
                } else {
                    self.sift_down(at);
                }
            }
        }
    }

    /// Takes wave slot `wi` out of the queue (nothing if it is not in it).
    pub(crate) fn remove(&mut self, wi: usize) {
        let Some(&at) = self.pos.get(wi) else { return };
        if at == ABSENT {
            return;
        }
        let at = at as usize;
        self.pos[wi] = ABSENT;
        let last = self.heap.pop().expect("an entry is in the heap");
        if at < self.heap.len() {
            let old = std::mem::replace(&mut self.heap[at], last);
            self.pos[slot_of(last as u64)] = at as u32;
            if last < old {
                self.sift_up(at);
            } else {
                self.sift_down(at);
            }
        }
    }

    fn sift_up(&mut self, mut at: usize) {
        let entry = self.heap[at];
        while at > 0 {
            let parent = (at - 1) / ARITY;
            if self.heap[parent] <= entry {
                break;
            }
            self.heap[at] = self.heap[parent];
            self.pos[slot_of(self.heap[at] as u64)] = at as u32;
            at = parent;
        }
        self.heap[at] = entry;
        self.pos[slot_of(entry as u64)] = at as u32;
    }

    fn sift_down(&mut self, mut at: usize) {
        let entry = self.heap[at];
        let n = self.heap.len();
        loop {
            let first = ARITY * at + 1;
            if first >= n {
                break;
            }
            let mut child = first;
            for c in first + 1..(first + ARITY).min(n) {
                // Branch-free: the keys of near-lockstep waves compare unpredictably.
                child = if self.heap[c] < self.heap[child] {
                    c
                } else {
                    child
                };
            }
            if entry <= self.heap[child] {
                break;
            }
            self.heap[at] = self.heap[child];
            self.pos[slot_of(self.heap[at] as u64)] = at as u32;
            at = child;
        }
        self.heap[at] = entry;
        self.pos[slot_of(entry as u64)] = at as u32;
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
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
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
