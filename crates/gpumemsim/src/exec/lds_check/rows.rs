//! The address rows of a DS row form (`ds_load_b32`, `ds_store_b32` and the 2addr dword loads
//! and stores),
//! which the checker takes instead of a per-lane trace, and their distinct dwords.

use crate::ds::{DsOutcome, RowAccess};
use crate::exec::access_memo::AccessMemo;
use crate::lds::LdsTouch;

/// The dword accesses of a DS row form ([`DsOutcome::rows`]): lane `l` reads (or writes) the
/// dword at `addrs[0][l]`, then (a 2addr form) the one at `addrs[1][l]`, for the lanes in
/// range.
pub(super) struct AddrRows<'o> {
    pub(super) addrs: [&'o [u32; 64]; 2],
    /// The lanes of each row whose dword lies in the allocation (the others access nothing).
    pub(super) lanes: [u64; 2],
    /// Whether every access is of an aligned dword.
    pub(super) aligned: bool,
    /// Writes, not reads.
    pub(super) write: bool,
}

impl AddrRows<'_> {
    /// The rows of `outcome`, in an allocation of `size` bytes.
    pub(super) fn new(outcome: &DsOutcome, size: u32) -> AddrRows<'_> {
        let (m0, a0) = Self::in_range(outcome.lanes, &outcome.addrs, size);
        let (m1, a1) = Self::in_range(outcome.lanes2, &outcome.addrs2, size);
        AddrRows {
            addrs: [&outcome.addrs, &outcome.addrs2],
            lanes: [m0, m1],
            aligned: (a0 | a1) & 3 == 0,
            write: matches!(outcome.rows, RowAccess::Writes { .. }),
        }
    }

    /// The lanes of `lanes` whose dword at `addrs` lies in `size` bytes, and the OR of their
    /// addresses (or of all up to the highest lane, a superset, when every address is in
    /// range, as is usual).
    #[inline]
    fn in_range(lanes: u64, addrs: &[u32; 64], size: u32) -> (u64, u32) {
        if lanes == 0 {
            return (0, 0);
        }
        let upto = &addrs[..64 - lanes.leading_zeros() as usize];
        // Every dword in range: every address at most `size - 4` (two folds that vectorize).
        if let Some(last) = size.checked_sub(4) {
            if all_within(upto, 0, last) {
                return (lanes, upto.iter().fold(0, |b, &a| b | a));
            }
        }
        let (mut m, mut bits) = (0u64, 0u32);
        for (l, &a) in addrs.iter().enumerate() {
            let ok = lanes >> l & 1 == 1 && u64::from(a) + 4 <= u64::from(size);
            m |= u64::from(ok) << l;
            bits |= if ok { a } else { 0 };
        }
        (m, bits)
    }

    /// Calls `f(lane, row, offset)` for each access, in the trace's order (by lane, then
    /// row).
    #[inline]
    pub(super) fn each(&self, mut f: impl FnMut(u8, usize, u32)) {
        let mut lanes = self.lanes[0] | self.lanes[1];
        while lanes != 0 {
            let l = lanes.trailing_zeros() as usize;
            for k in 0..2 {
                if self.lanes[k] >> l & 1 == 1 {
                    f(l as u8, k, self.addrs[k][l]);
                }
            }
            lanes &= lanes - 1;
        }
    }

    /// The address of the first access in the trace's order (`None`: no lane in range).
    pub(super) fn first(&self) -> Option<u32> {
        let lanes = self.lanes[0] | self.lanes[1];
        (lanes != 0).then(|| {
            let l = lanes.trailing_zeros() as usize;
            self.addrs[usize::from(self.lanes[0] >> l & 1 == 0)][l]
        })
    }

    /// Whether every access's dword lies in bytes `start..end`.
    pub(super) fn within(&self, start: u32, end: u32) -> bool {
        // `a - start <= end - 4 - start` in wrapping arithmetic: one compare per lane.
        let Some(limit) = end.checked_sub(4).and_then(|e| e.checked_sub(start)) else {
            return self.lanes == [0, 0];
        };
        self.lanes.iter().zip(self.addrs).all(|(&m, addrs)| {
            let upto = &addrs[..64 - m.leading_zeros() as usize];
            // Every lane up to the highest inside (the usual case), else lane by lane.
            all_within(upto, start, limit)
                || (0..upto.len()).all(|l| m >> l & 1 == 0 || upto[l].wrapping_sub(start) <= limit)
        })
    }

    /// Whether some read takes in byte `b` (none for writes).
    pub(super) fn reads_byte(&self, b: u32) -> bool {
        let mut hit = false;
        self.each(|_, _, a| hit |= a <= b && b - a < 4);
        hit && !self.write
    }

    /// The trace the rows stand for; `data` gives each row's written values (a lane past a
    /// row wrote 0; reads take 0, the checker does not look at the values read).
    pub(super) fn touches(&self, data: [&[u32]; 2]) -> Vec<LdsTouch> {
        let mut v = Vec::new();
        self.each(|lane, row, offset| {
            let value = if self.write {
                data[row].get(lane as usize).copied().unwrap_or(0).into()
            } else {
                0
            };
            v.push(LdsTouch {
                offset,
                lane,
                size: 4,
                write: self.write,
                value,
            })
        });
        v
    }
}

/// Whether every address of `addrs` lies at most `limit` bytes past `start` (`a - start <=
/// limit` in wrapping arithmetic): one compare a lane, a fold that vectorises.
#[inline]
fn all_within(addrs: &[u32], start: u32, limit: u32) -> bool {
    !addrs
        .iter()
        .fold(false, |past, &a| past | (a.wrapping_sub(start) > limit))
}

/// The distinct aligned dwords of one instruction's read rows, in the order the trace first
/// reads them, each with the lanes that read it: a read of the bytes an earlier read of the
/// instruction read (no write between) finds what that one found
/// ([`super::scan::ByteScan::touches`]), so each is checked once. Kept by the checker from one
/// instruction to the next, so only its first use allocates.
///
/// The list is a function of the rows alone (the lanes in range and their addresses), and a
/// kernel's waves read the same rows over and over (every workgroup lays out its LDS alike):
/// the lists of recent rows are remembered ([`AccessMemo`]), and a repeat takes its list from
/// there.
#[derive(Default)]
pub(super) struct RowDwords {
    lister: Lister,
    /// The lists of recent rows, by the lanes of each row and the addresses of the first up
    /// to the highest lane and (when its lanes are not empty) of the second.
    listed: AccessMemo<Vec<(u32, u64)>>,
}

/// What working a list out keeps between instructions.
#[derive(Default)]
struct Lister {
    /// Per dword of the allocation: the stamp of the instruction that last listed it, and
    /// its index in `list`.
    seen: Vec<(u32, u32)>,
    stamp: u32,
    /// (offset, lanes).
    list: Vec<(u32, u64)>,
}

impl RowDwords {
    /// The dwords of `rows` (aligned reads, in an allocation of `size` bytes), as (offset,
    /// lanes): the remembered list itself when the rows are ones met lately (no copy), else
    /// worked out and remembered.
    pub(super) fn list(&mut self, rows: &AddrRows, size: u32) -> &[(u32, u64)] {
        let hi = 64 - (rows.lanes[0] | rows.lanes[1]).leading_zeros() as usize;
        let first = &rows.addrs[0][..hi];
        let second: &[u32] = if rows.lanes[1] != 0 {
            &rows.addrs[1][..hi]
        } else {
            &[]
        };
        let RowDwords { lister, listed } = self;
        listed.get_or_make(rows.lanes, [first, second], |old| {
            lister.work_out(rows, size);
            let mut kept = old.unwrap_or_default();
            kept.clone_from(&lister.list);
            kept
        })
    }
}

impl Lister {
    /// [`RowDwords::list`] worked out.
    fn work_out(&mut self, rows: &AddrRows, size: u32) {
        let n = size.div_ceil(4) as usize;
        if self.seen.len() < n {
            self.seen.resize(n, (0, 0));
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill((0, 0));
            self.stamp = 1;
        }
        self.list.clear();
        let Lister { seen, stamp, list } = self;
        // Each row's last dword and its index in `list` (a broadcast reads it again).
        let mut last = [(u32::MAX, 0usize); 2];
        let mut lanes = rows.lanes[0] | rows.lanes[1];
        while lanes != 0 {
            let l = lanes.trailing_zeros() as usize;
            let bit = 1u64 << l;
            for (k, last) in last.iter_mut().enumerate() {
                if rows.lanes[k] & bit == 0 {
                    continue;
                }
                let offset = rows.addrs[k][l];
                if offset != last.0 {
                    let s = &mut seen[offset as usize / 4];
                    if s.0 != *stamp {
                        *s = (*stamp, list.len() as u32);
                        list.push((offset, 0));
                    }
                    *last = (offset, s.1 as usize);
                }
                list[last.1].1 |= bit;
            }
            lanes &= lanes - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{AddrRows, RowDwords};
    use crate::ds::DsOutcome;
    use crate::xorshift::XorShift;

    /// [`AddrRows::first`] is the trace's first access and [`AddrRows::within`] says whether
    /// every access's dword lies in a span, as the trace does: random rows (full and partial
    /// lanes, one row or two, none), spans around them, spans too small for a dword.
    #[test]
    fn first_and_within_are_the_traces() {
        let mut rng = XorShift::new(0x3c6e_f372_fe94_f82b);
        let (mut inside, mut outside) = (0, 0);
        for case in 0..4000 {
            let mut o = DsOutcome::default();
            let base = 4 * rng.below(64) as u32;
            for l in 0..64 {
                o.addrs[l] = base + 4 * rng.below(16) as u32;
                o.addrs2[l] = base + 4 * rng.below(16) as u32;
            }
            o.lanes =
                rng.pick(&[u64::MAX, 0xffff_ffff, 0]) & (rng.next_u64() | rng.pick(&[0, u64::MAX]));
            o.lanes2 = if case % 3 == 0 { o.lanes } else { 0 };
            let rows = AddrRows::new(&o, 1024);
            let trace = rows.touches([&[], &[]]);
            assert_eq!(rows.first(), trace.first().map(|t| t.offset), "case {case}");
            let start = base + 4 * rng.below(6) as u32 - 8 * u32::from(base >= 8);
            let end = start + rng.pick(&[0u32, 2, 4, 32, 64, 68, 200]);
            let want = trace
                .iter()
                .all(|t| t.offset >= start && t.offset + 4 <= end);
            assert_eq!(rows.within(start, end), want, "case {case}: {start}..{end}");
            inside += usize::from(want && !trace.is_empty());
            outside += usize::from(!want);
        }
        assert!(inside > 200 && outside > 200, "{inside} {outside}");
    }

    /// [`RowDwords::list`] gives the distinct dwords of random read rows (broadcasts, repeats,
    /// rows reading each other's dwords, lanes out of range) in the order the trace first
    /// reads them, each with exactly the lanes whose reads take it in.
    #[test]
    fn row_dwords_are_the_traces_distinct_dwords() {
        let mut rng = XorShift::new(0x51_7cc1_b727_220a);
        let mut dwords = RowDwords::default();
        let size = 512;
        // Rows met before, asked again as they were or with one lane's address or the
        // lanes changed (the remembered lists must tell those apart).
        let mut met: Vec<DsOutcome> = Vec::new();
        let mut repeats = 0;
        for case in 0..4000 {
            let mut o = DsOutcome::default();
            if !met.is_empty() && case % 2 == 1 {
                o = met[rng.below(met.len() as u64) as usize].clone();
                let l = rng.below(64) as usize;
                match rng.below(4) {
                    0 => o.addrs[l] ^= 4,
                    1 => o.addrs2[l] ^= 8,
                    2 => o.lanes ^= 1 << l,
                    _ => repeats += 1,
                }
            } else {
                let spread = rng.pick(&[1u32, 2, 4, 16, 160]);
                for l in 0..64 {
                    o.addrs[l] = 4 * (rng.next_u64() as u32 % spread);
                    o.addrs2[l] = 4 * (rng.next_u64() as u32 % spread);
                }
                o.lanes = rng.next_u64() & rng.pick(&[u64::MAX, 0xffff_ffff]);
                o.lanes2 = if case % 4 == 0 { o.lanes } else { 0 };
                if met.len() < 40 {
                    met.push(o.clone());
                }
            }
            let rows = AddrRows::new(&o, size);
            let got = dwords.list(&rows, size).to_vec();
            let mut want: Vec<(u32, u64)> = Vec::new();
            for t in rows.touches([&[], &[]]) {
                assert!(t.offset + 4 <= size, "case {case}: {t:?} is in range");
                match want.iter_mut().find(|(a, _)| *a == t.offset) {
                    Some(e) => e.1 |= 1 << t.lane,
                    None => want.push((t.offset, 1 << t.lane)),
                }
            }
            assert_eq!(got, want, "case {case}");
            let outside = (0..64).filter(|&l| o.lanes >> l & 1 == 1 && o.addrs[l] + 4 > size);
            assert_eq!(
                rows.lanes[0].count_ones(),
                o.lanes.count_ones() - outside.count() as u32
            );
        }
        assert!(repeats > 400, "{repeats}");
    }
}
