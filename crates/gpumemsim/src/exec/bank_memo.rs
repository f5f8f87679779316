//! The bank model's answers for the LDS accesses a run has already priced.
//!
//! A DS instruction's bank cycles are a function of the instruction (its pc), the lanes it
//! accessed and their addresses (allocation-relative), under the run's bank model
//! ([`crate::banks::BankModel::cost`]). Compiled kernels repeat the same accesses: every
//! workgroup lays out its LDS alike, so the wave in the same position of each workgroup
//! reads the same addresses at the same instruction. The memo keeps the last answer for a
//! number of such keys, direct-mapped by a hash, and answers a repeat without running the
//! model again. A key is compared in full, so an answer is only ever the model's own for
//! exactly these inputs; a collision just replaces the older entry.

/// Entries in the table (a power of two).
const ENTRIES: usize = 1024;

/// One remembered access and the model's answer for it.
#[derive(Clone)]
struct Entry {
    pc: u32,
    /// The lanes that accessed.
    lanes: u64,
    /// Whether the access has a second address row.
    two: bool,
    /// The lanes' addresses: the first row, then (`two`) the second, each of the wave's size.
    addrs: Vec<u32>,
    /// (cycles, ideal cycles), or `None` when the model does not price the access.
    cost: Option<(u64, u64)>,
}

/// Remembered bank-model answers, by (pc, lanes, addresses).
#[derive(Clone, Default)]
pub(crate) struct BankMemo {
    entries: Vec<Option<Entry>>,
}

/// The key's slot: a hash of the pc, the lanes and a few of the addresses (the key is
/// compared in full on a hit, so the hash only has to spread the keys).
fn slot(pc: u32, lanes: u64, first: &[u32], second: Option<&[u32]>) -> usize {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (u64::from(pc) ^ lanes.rotate_left(17)).wrapping_mul(K);
    for row in std::iter::once(first).chain(second) {
        let n = row.len();
        for &a in [row[0], row[n / 4], row[n / 2], row[3 * n / 4], row[n - 1]].iter() {
            h = (h ^ u64::from(a)).wrapping_mul(K);
        }
    }
    (h >> 40) as usize % ENTRIES
}

impl BankMemo {
    /// Forgets every answer (a run with another bank model may follow).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    /// The answer for the access of instruction `pc` by `lanes` at `first` (and `second`),
    /// worked out by `price` the first time and remembered.
    pub(crate) fn cost(
        &mut self,
        pc: usize,
        lanes: u64,
        first: &[u32],
        second: Option<&[u32]>,
        price: impl FnOnce() -> Option<(u64, u64)>,
    ) -> Option<(u64, u64)> {
        if first.is_empty() || second.is_some_and(|s| s.len() != first.len()) {
            return price();
        }
        let pc = pc as u32;
        let i = slot(pc, lanes, first, second);
        if self.entries.is_empty() {
            self.entries = vec![None; ENTRIES];
        }
        let n = first.len();
        if let Some(e) = &self.entries[i] {
            let same = e.pc == pc
                && e.lanes == lanes
                && e.two == second.is_some()
                && e.addrs[..n] == *first
                && second.is_none_or(|s| e.addrs[n..] == *s);
            if same {
                return e.cost;
            }
        }
        let cost = price();
        let mut addrs = match self.entries[i].take() {
            Some(e) => e.addrs,
            None => Vec::with_capacity(2 * n),
        };
        addrs.clear();
        addrs.extend_from_slice(first);
        addrs.extend_from_slice(second.unwrap_or(&[]));
        self.entries[i] = Some(Entry {
            pc,
            lanes,
            two: second.is_some(),
            addrs,
            cost,
        });
        cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift::XorShift;

    /// An access: pc, lanes, first row, second row.
    type Key = (usize, u64, Vec<u32>, Option<Vec<u32>>);

    /// Random accesses, many repeated: every answer is the pricing function's for exactly
    /// the access asked about (keys that differ in the pc, the lanes, one address or the
    /// second row are told apart), and repeats are answered without it.
    #[test]
    fn the_memo_answers_what_the_model_answers() {
        let mut rng = XorShift::new(0x6a09_e667_f3bc_c908);
        let mut memo = BankMemo::default();
        let model = |pc: usize, lanes: u64, a: &[u32], b: Option<&[u32]>| {
            let mut h = pc as u64 ^ lanes;
            for &x in a.iter().chain(b.unwrap_or(&[])) {
                h = h.wrapping_mul(31).wrapping_add(u64::from(x));
            }
            (!h.is_multiple_of(7)).then_some((h % 64, h % 5))
        };
        let mut keys: Vec<Key> = Vec::new();
        let (mut priced, mut asked) = (0, 0);
        for _ in 0..20_000 {
            let key = if !keys.is_empty() && rng.below(4) != 0 {
                let mut k = keys[rng.below(keys.len() as u64) as usize].clone();
                match rng.below(16) {
                    0 => k.0 += 1,
                    1 => k.1 ^= 1 << rng.below(32),
                    2 => {
                        let l = rng.below(k.2.len() as u64) as usize;
                        k.2[l] ^= 4;
                    }
                    3 => {
                        k.3 = if k.3.is_some() {
                            None
                        } else {
                            Some(k.2.clone())
                        }
                    }
                    _ => {}
                }
                k
            } else {
                let n = if rng.below(2) == 0 { 32 } else { 64 };
                let a: Vec<u32> = (0..n).map(|_| 4 * rng.below(64) as u32).collect();
                let b = (rng.below(2) == 0).then(|| a.iter().map(|x| x + 8).collect());
                (rng.below(6) as usize, rng.next_u64(), a, b)
            };
            let (pc, lanes, a, b) = &key;
            let want = model(*pc, *lanes, a, b.as_deref());
            let mut ran = false;
            let got = memo.cost(*pc, *lanes, a, b.as_deref(), || {
                ran = true;
                model(*pc, *lanes, a, b.as_deref())
            });
            assert_eq!(got, want, "{key:?}");
            asked += 1;
            priced += usize::from(ran);
            if keys.len() < 300 {
                keys.push(key);
            }
        }
        // Repeats are answered from the memo (the test is not vacuous).
        assert!(priced < asked * 2 / 3, "{priced} of {asked}");
    }
}
