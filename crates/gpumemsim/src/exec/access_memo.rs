//! Answers remembered for the LDS accesses a run has already met.
//!
//! Some answers about one DS instruction's access are a function of the access alone: the
//! bank model's cycles (of the instruction, the lanes and their allocation-relative
//! addresses, under the run's bank model, [`crate::banks::BankModel::cost`]) and the race
//! checker's list of the distinct dwords its address rows read (`lds_check::rows`).
//! Compiled kernels repeat the same accesses: every workgroup lays out its LDS alike, so the
//! wave in the same position of each workgroup reads the same addresses at the same
//! instruction. An [`AccessMemo`] keeps the last answer for a number of such keys,
//! direct-mapped by a hash, and answers a repeat without working it out again. A key is
//! compared in full, so an answer is only ever the one worked out for exactly these inputs;
//! a collision just replaces the older entry.

/// Entries in a memo (a power of two). gemm's 16×16 tiles meet a few hundred distinct
/// accesses, over and over: at 1,024 entries their collisions made 28,600 misses in 1.1 M
/// look-ups, at 4,096 about 8,600 (0.45% of its host instructions, docs/benchmarks.md).
const ENTRIES: usize = 4096;

/// One remembered key and its answer.
struct Entry<V> {
    tag: [u64; 2],
    /// Where the first row ends in `addrs`.
    split: usize,
    /// The two address rows, one after the other.
    addrs: Vec<u32>,
    value: V,
}

/// Answers by key: two tag words (an instruction, lane masks, ...) and two address rows
/// (either may be empty).
pub(crate) struct AccessMemo<V> {
    entries: Vec<Option<Entry<V>>>,
}

impl<V> Default for AccessMemo<V> {
    fn default() -> Self {
        AccessMemo {
            entries: Vec::new(),
        }
    }
}

/// The key's slot: a hash of the tag and a few of the addresses (the key is compared in full
/// on a hit, so the hash only has to spread the keys).
fn slot(tag: [u64; 2], rows: [&[u32]; 2]) -> usize {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (tag[0] ^ tag[1].rotate_left(17)).wrapping_mul(K);
    for row in rows {
        let n = row.len();
        if n == 0 {
            continue;
        }
        for a in [row[0], row[n / 2], row[n - 1]] {
            h = (h ^ u64::from(a)).wrapping_mul(K);
        }
    }
    (h >> 40) as usize % ENTRIES
}

/// Whether two address rows are equal: after the first word, every word compared without
/// an early exit, in a loop that vectorizes in place. Slice equality calls the C library's
/// `memcmp`, which took 2.7–2.9% of the LDS reduction's time on rows of 32 addresses.
fn same(a: &[u32], b: &[u32]) -> bool {
    a.len() == b.len()
        && a.first() == b.first()
        && a.iter().zip(b).fold(0, |diff, (x, y)| diff | (x ^ y)) == 0
}

impl<V> AccessMemo<V> {
    /// Forgets every answer.
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    /// The answer for (`tag`, `rows`), worked out by `make` the first time and remembered.
    /// `make` is given the answer it replaces, if any, to reuse its allocation.
    pub(crate) fn get_or_make(
        &mut self,
        tag: [u64; 2],
        rows: [&[u32]; 2],
        make: impl FnOnce(Option<V>) -> V,
    ) -> &V {
        let i = slot(tag, rows);
        if self.entries.is_empty() {
            self.entries.resize_with(ENTRIES, || None);
        }
        let [first, second] = rows;
        let hit = self.entries[i].as_ref().is_some_and(|e| {
            e.tag == tag && same(&e.addrs[..e.split], first) && same(&e.addrs[e.split..], second)
        });
        if !hit {
            let (mut addrs, old) = match self.entries[i].take() {
                Some(e) => (e.addrs, Some(e.value)),
                None => (Vec::new(), None),
            };
            addrs.clear();
            addrs.extend_from_slice(first);
            addrs.extend_from_slice(second);
            self.entries[i] = Some(Entry {
                tag,
                split: first.len(),
                addrs,
                value: make(old),
            });
        }
        &self.entries[i].as_ref().expect("the entry is there").value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift::XorShift;

    /// An access: tag, first row, second row.
    type Key = ([u64; 2], Vec<u32>, Vec<u32>);

    /// Random accesses, many repeated: every answer is the function's for exactly the access
    /// asked about (keys that differ in a tag word, one address, the second row or where the
    /// rows split are told apart), and repeats are answered without it.
    #[test]
    fn the_memo_answers_what_the_function_answers() {
        let mut rng = XorShift::new(0x6a09_e667_f3bc_c908);
        let mut memo = AccessMemo::default();
        let f = |k: &Key| {
            let mut h = k.0[0] ^ k.0[1].rotate_left(7) ^ (k.1.len() as u64) << 50;
            for &x in k.1.iter().chain(&k.2) {
                h = h.wrapping_mul(31).wrapping_add(u64::from(x));
            }
            (!h.is_multiple_of(7)).then_some((h % 64, h % 5))
        };
        let mut keys: Vec<Key> = Vec::new();
        let (mut made, mut asked) = (0, 0);
        for _ in 0..20_000 {
            let key = if !keys.is_empty() && rng.below(4) != 0 {
                let mut k = keys[rng.below(keys.len() as u64) as usize].clone();
                match rng.below(20) {
                    0 => k.0[0] += 1,
                    1 => k.0[1] ^= 1 << rng.below(32),
                    2 => {
                        let l = rng.below(k.1.len() as u64) as usize;
                        k.1[l] ^= 4;
                    }
                    3 => {
                        k.2 = if k.2.is_empty() {
                            k.1.clone()
                        } else {
                            Vec::new()
                        }
                    }
                    // The same addresses split elsewhere between the rows.
                    4 if !k.2.is_empty() => {
                        let moved = k.2.remove(0);
                        k.1.push(moved);
                    }
                    _ => {}
                }
                k
            } else {
                let n = if rng.below(2) == 0 { 32 } else { 64 };
                let a: Vec<u32> = (0..n).map(|_| 4 * rng.below(64) as u32).collect();
                let b = if rng.below(2) == 0 {
                    a.iter().map(|x| x + 8).collect()
                } else {
                    Vec::new()
                };
                ([rng.below(6), rng.next_u64()], a, b)
            };
            let want = f(&key);
            let mut ran = false;
            let got = *memo.get_or_make(key.0, [&key.1, &key.2], |_| {
                ran = true;
                f(&key)
            });
            assert_eq!(got, want, "{key:?}");
            asked += 1;
            made += usize::from(ran);
            if keys.len() < 300 {
                keys.push(key);
            }
        }
        // Repeats are answered from the memo (the test is not vacuous).
        assert!(made < asked * 2 / 3, "{made} of {asked}");
    }

    /// Keys that land in one slot and differ only in a tag word, in one address, or in where
    /// the same addresses split between the two rows: the second is never given the first's
    /// answer.
    #[test]
    fn keys_sharing_a_slot_are_told_apart() {
        let mut rng = XorShift::new(0x3c6e_f372_fe94_f82b);
        let mut found = [0; 3];
        for _ in 0..200_000 {
            let a: Vec<u32> = (0..8).map(|_| 4 * rng.below(16) as u32).collect();
            let b: Vec<u32> = (0..8).map(|_| 4 * rng.below(16) as u32).collect();
            let x: Key = ([rng.below(4), rng.below(4)], a.clone(), b.clone());
            let kind = rng.below(3) as usize;
            let mut y = x.clone();
            match kind {
                0 => y.0 = [rng.next_u64(), rng.next_u64()],
                1 => y.1[rng.below(8) as usize] ^= 4,
                _ => {
                    let moved = y.2.remove(0);
                    y.1.push(moved);
                }
            }
            if x == y || slot(x.0, [&x.1, &x.2]) != slot(y.0, [&y.1, &y.2]) {
                continue;
            }
            found[kind] += 1;
            let mut memo = AccessMemo::default();
            let name = |k: &Key| format!("{k:?}");
            assert_eq!(*memo.get_or_make(x.0, [&x.1, &x.2], |_| name(&x)), name(&x));
            assert_eq!(*memo.get_or_make(y.0, [&y.1, &y.2], |_| name(&y)), name(&y));
        }
        // Each kind of near miss met a shared slot (the test is not vacuous).
        assert!(found.iter().all(|&n| n > 5), "{found:?}");
    }
}
