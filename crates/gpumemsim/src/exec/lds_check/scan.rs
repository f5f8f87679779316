//! One instruction execution's LDS accesses checked against the shadow, a byte (or a
//! word-mode dword) at a time, and what they find.

use super::rows::AddrRows;
use super::shadow::{cell, page_of, Access, GroupShadow, Memo, Slot, MULTI, PAGE};
use crate::lds::{Lds, LdsAllocation, LdsTouch};

/// What one instruction execution found.
#[derive(Default)]
pub(super) struct Found {
    pub(super) uninit_lanes: u64,
    pub(super) uninit_at: Option<u32>,
    pub(super) races: Vec<Race>,
    /// Bytes this instruction wrote twice (a lane collision when the values differ).
    pub(super) twice: Vec<u32>,
    /// The races (bit = index in `races`) the touch being checked added a lane to; a race
    /// past index 63 sets bit `index & 63`, another race's, so the mask names its races only
    /// while `races` holds 64 or fewer ([`Found::touch_findings`]).
    pub(super) touch_races: u64,
    /// Whether the touch being checked read a byte nothing wrote.
    pub(super) touch_uninit: bool,
}

/// One race of this instruction with an earlier instruction.
pub(super) struct Race {
    pub(super) earlier_pc: u32,
    pub(super) what: &'static str,
    /// The earlier accesses' waves (indices in the workgroup).
    pub(super) waves: Vec<u32>,
    pub(super) lanes: u64,
    pub(super) address: u32,
    /// Whether the race changed a byte: false while it is a write-after-write race of plain
    /// writes whose bytes this instruction left as they were (the earlier write wrote the
    /// same value), whatever the order.
    pub(super) changed: bool,
}

/// The LDS bytes one instruction wrote, before and after: whether a write left a byte as it
/// was.
pub(super) struct Values<'a> {
    /// [`Lds::overwritten`] of the instruction.
    pub(super) old: &'a [(u32, u8, u64)],
    pub(super) lds: &'a Lds,
    pub(super) alloc: LdsAllocation,
}

impl Values<'_> {
    /// Whether the instruction left the `n` bytes at `b` as they were before it (the first
    /// write of a byte saw its value before the instruction).
    fn unchanged(&self, b: u32, n: u32) -> bool {
        (b..b + n).all(|x| {
            let Some(&(o, _, v)) = self
                .old
                .iter()
                .find(|(o, s, _)| *o <= x && x < o + *s as u32)
            else {
                return false;
            };
            let before = (v >> (8 * (x - o))) as u8;
            self.lds
                .read(self.alloc, x, 1)
                .is_ok_and(|now| now as u8 == before)
        })
    }
}

impl Found {
    /// What the touch just checked found, `(uninit, races)` as [`Found::add_lanes`] takes
    /// them, while its race mask names its races exactly (no race index past 63); `None`
    /// after, when the lanes that would take these findings must be checked themselves.
    /// Races are only ever appended, so a mask exact when taken stays exact.
    #[inline]
    fn touch_findings(&self) -> Option<(bool, u64)> {
        (self.races.len() <= 64).then_some((self.touch_uninit, self.touch_races))
    }

    /// A read by `lane` of bytes whose findings an earlier read gave:
    /// [`Found::add_lanes`] for the one lane.
    #[inline]
    fn add_lane(&mut self, lane: u8, uninit: bool, races: u64) {
        self.add_lanes(1 << (lane & 63), uninit, races);
    }

    /// Reads by `lanes` of bytes whose findings an earlier read gave: `uninit`, and the
    /// races it added a lane to (an exact mask of [`Found::touch_findings`]).
    #[inline]
    fn add_lanes(&mut self, lanes: u64, uninit: bool, races: u64) {
        if uninit {
            self.uninit_lanes |= lanes;
        }
        let mut m = races;
        while m != 0 {
            self.races[m.trailing_zeros() as usize].lanes |= lanes;
            m &= m - 1;
        }
    }

    /// A race of `lane` with `earlier` found at byte `address`; the race's index.
    fn race(&mut self, earlier: &Access, what: &'static str, lane: u8, address: u32) -> usize {
        let i = match self.races.iter().position(|r| r.earlier_pc == earlier.pc) {
            Some(i) => i,
            None => {
                self.races.push(Race {
                    earlier_pc: earlier.pc,
                    what,
                    waves: Vec::new(),
                    lanes: 0,
                    address,
                    changed: what != "write-after-write",
                });
                self.races.len() - 1
            }
        };
        self.touch_races |= 1 << (i & 63);
        let r = &mut self.races[i];
        if !r.waves.contains(&earlier.wave) {
            r.waves.push(earlier.wave);
        }
        r.lanes |= 1 << (lane & 63);
        i
    }

    /// `lane` found race `i` again (with the same earlier access).
    #[inline]
    fn again(&mut self, i: usize, lane: u8) {
        self.touch_races |= 1 << (i & 63);
        self.races[i].lanes |= 1 << (lane & 63);
    }
}

/// The bytes of one access `r` of wave `me`, checked against the shadow one at a time; what
/// they show collects in `found`.
pub(super) struct ByteScan<'s> {
    pub(super) sh: &'s mut GroupShadow,
    pub(super) memo: Memo,
    pub(super) r: u32,
    pub(super) me: u32,
    pub(super) found: Found,
    /// Whether bytes with the same reads share one read list (always, but for the tests that
    /// compare the shortcuts with checking every read).
    pub(super) share: bool,
    /// The last `(x, list)` of [`ByteScan::pair_list`].
    pub(super) pair: (u32, u32),
    /// The last plain read since this access's last write (when sharing is on).
    pub(super) last_read: Option<LastRead>,
    pub(super) values: Values<'s>,
}

/// What a plain read of a byte found and made of its state, by the state it found: a read of
/// another byte in the same state (the dwords of a row one store wrote and the same waves
/// read) finds the same and makes the same. Within one access, with no write between, the
/// lists it names stay live: a list this access made ends with its read, so no read of it
/// lets go of it, and only a write frees one; a list freed and made again has a new `epoch`.
#[derive(Clone, Copy)]
pub(super) struct LastRead {
    /// The byte's last write and reads before.
    pub(super) w: u32,
    pub(super) rd: u32,
    /// `rd`'s epoch when it is a list.
    pub(super) epoch: u32,
    /// The reads after.
    pub(super) to: u32,
    /// The race with the write it found (an index in [`Found::races`]).
    pub(super) race: Option<usize>,
}

impl ByteScan<'_> {
    /// Whether the page of byte `b` is in byte mode (a page not made yet is not).
    #[inline]
    fn bytes_at(&self, b: u32) -> bool {
        self.sh.pages[b as usize / PAGE]
            .as_ref()
            .is_some_and(|p| p.bytes)
    }

    /// Turns the page of byte `b` into byte mode ([`GroupShadow::split_page`]; a read list is
    /// shared when sharing is on, else copied).
    fn split_into_bytes(&mut self, b: u32) {
        let sh = &mut *self.sh;
        let n = b as usize / PAGE;
        match sh.pages[n].as_ref() {
            // A page first touched in part of a dword starts in byte mode.
            None => sh.pages[n] = Some(sh.page(true)),
            Some(p) if !p.bytes => sh.split_page(n, self.share),
            Some(_) => {}
        }
    }

    /// The atomics of other waves in byte `b`'s atomic set ([`GroupShadow::atomics`]) that
    /// are not ordered before this access race with it when it is plain (a read, or a write
    /// when `write`); a write then updates the set: an atomic replaces its wave's entry (and
    /// drops those ordered before it), a plain write empties it.
    fn atomic_set(&mut self, b: u32, lane: u8, write: bool) {
        let ByteScan {
            sh,
            r,
            me,
            found: f,
            ..
        } = self;
        let (r, me) = (*r, *me);
        let atomic = sh.atomic(r);
        let Some(mut set) = sh.atomics.remove(&b) else {
            if atomic && write {
                sh.atomics.insert(b, vec![r]);
                page_of(sh, b).atomics = true;
            }
            return;
        };
        let mut unordered = Vec::new();
        // This wave's own latest atomic of the byte: the atomics of others before it on the
        // byte are ordered before what this wave does after it.
        let own = set
            .iter()
            .copied()
            .filter(|&y| y != r && sh.accesses[y as usize - 1].wave == me)
            .max();
        for &x in &set {
            let a = sh.accesses[x as usize - 1];
            let before_own = own.is_some_and(|y| y > x);
            if x != r && a.wave != me && !before_own && !sh.ordered_by_barrier(x, me) {
                unordered.push(x);
                if !atomic {
                    let what = if write {
                        "write-after-atomic"
                    } else {
                        "read-after-atomic"
                    };
                    let k = f.race(&a, what, lane, b);
                    f.races[k].changed = true;
                }
            }
        }
        if !write {
            sh.atomics.insert(b, set);
        } else if atomic {
            set.retain(|x| unordered.contains(x));
            set.push(r);
            sh.atomics.insert(b, set);
        }
    }

    /// A read of byte `b` by lane `lane` (an atomic's read when `atomic`).
    #[inline]
    fn read_byte(&mut self, b: u32, lane: u8, atomic: bool) {
        let ByteScan {
            sh,
            r,
            me,
            found: f,
            ..
        } = self;
        let (r, me) = (*r, *me);
        let (page, i) = cell(sh, b);
        let Slot { write: w, read: rd } = page.slot(i);
        let (poisoned, page_atomics) = (page.poisoned, page.atomics);
        if w == 0 || (poisoned && sh.poisoned.contains(&b)) {
            f.touch_uninit = true;
            f.uninit_lanes |= 1 << (lane & 63);
            f.uninit_at.get_or_insert(b);
        }
        // An atomic's read is checked with its write (the write follows in the trace).
        if atomic {
            return;
        }
        // A byte that atomics wrote: its own set to check, and no sharing of findings with
        // another byte (their sets may differ).
        let atomics = page_atomics || poisoned;
        if atomics {
            self.last_read = None;
            self.atomic_set(b, lane, false);
        }
        let epoch = self.sh.lists.epoch_of(rd);
        if let Some(k) = self
            .last_read
            .filter(|k| (k.w, k.rd, k.epoch) == (w, rd, epoch))
        {
            self.read_again(b, lane, k);
            return;
        }
        let ByteScan {
            sh, memo, found: f, ..
        } = self;
        let mut race = None;
        if w != 0 && w != r && memo.write_races(sh, w, r, me) {
            let a = sh.accesses[w as usize - 1];
            race = Some(f.race(&a, "read-after-write", lane, b));
        }
        // Keep the reads not yet ordered before what follows, one per wave (a wave's own reads
        // count as ordered).
        let to = if rd == 0 || rd == r {
            r
        } else if rd & MULTI == 0 {
            if memo.read_unordered(sh, rd, me) {
                self.pair_list(rd)
            } else {
                r
            }
        } else if self.sh.lists.get(rd).last() == Some(&r) {
            // Another lane of this access read the byte already.
            rd
        } else {
            self.read_list(rd)
        };
        page_of(self.sh, b).slot_mut(i).read = to;
        if self.share && !atomics {
            self.last_read = Some(LastRead {
                w,
                rd,
                epoch,
                to,
                race,
            });
        }
    }

    /// A read by `lane` of byte `b`, whose state is the one the last read `k` found: it finds
    /// what that one found and leaves the byte as that one left its byte.
    fn read_again(&mut self, b: u32, lane: u8, k: LastRead) {
        if let Some(i) = k.race {
            self.found.again(i, lane);
        }
        let lists = &mut self.sh.lists;
        if k.to != k.rd {
            lists.share(k.to);
            if k.rd & MULTI != 0 {
                lists.release(k.rd);
            }
        }
        page_of(self.sh, b).slot_mut(b as usize % PAGE).read = k.to;
    }

    /// Reads of the aligned dwords at the head of `dwords` (offset, lanes), each an entry of
    /// one word-mode page in the state the last read found: [`ByteScan::read_again`] for all
    /// their lanes at once, with no checking. How many it took (0: the first is not such a
    /// dword, nothing done). A tile's rows read by a wave are such a run: gemm's
    /// `ds_load_2addr_b32` of two rows of B is 32 dwords in one (docs/benchmarks.md, fifth
    /// session).
    #[inline]
    fn read_words_again(&mut self, dwords: &[(u32, u64)]) -> usize {
        let (Some(k), Some(&(first, _))) = (self.last_read, dwords.first()) else {
            return 0;
        };
        let sh = &mut *self.sh;
        let Some(page) = sh.pages[first as usize / PAGE].as_mut() else {
            return 0;
        };
        let was = Slot {
            write: k.w,
            read: k.rd,
        };
        if page.bytes
            || page.atomics
            || page.poisoned
            || page.slot(first as usize % PAGE) != was
            || sh.lists.epoch_of(k.rd) != k.epoch
        {
            return 0;
        }
        // The first dword is one (checked above): the run takes at least it.
        let (mut n, mut lanes) = (0, 0);
        for &(offset, l) in dwords {
            if offset as usize / PAGE != first as usize / PAGE {
                break;
            }
            let slot = page.slot_mut(offset as usize % PAGE);
            if *slot != was {
                break;
            }
            slot.read = k.to;
            lanes |= l;
            n += 1;
        }
        // Each dword that held `k.rd` now holds `k.to`.
        if k.to != k.rd {
            sh.lists.share_n(k.to, n);
            if k.rd & MULTI != 0 {
                sh.lists.release_n(k.rd, n);
            }
        }
        let f = &mut self.found;
        if k.w == 0 {
            f.uninit_lanes |= lanes;
            f.uninit_at.get_or_insert(first);
        }
        if let Some(r) = k.race {
            f.races[r].lanes |= lanes;
        }
        n as usize
    }

    /// A read of the aligned dword at `offset` when it is an entry of a word-mode page
    /// without atomics or poisoned bytes, written by a write ordered before this access and
    /// not read since: what [`ByteScan::read_byte`] does with such a dword (no finding, the
    /// dword's reads become this one, the last read noted), without its general steps. A
    /// transposed tile's column is such a read: each dword another store's, read once
    /// (docs/benchmarks.md, fifth session). False (nothing done) otherwise.
    #[inline]
    fn read_fresh(&mut self, offset: u32) -> bool {
        let ByteScan {
            sh, memo, r, me, ..
        } = self;
        let Some(page) = sh.pages[offset as usize / PAGE].as_ref() else {
            return false;
        };
        let i = offset as usize % PAGE;
        let Slot { write: w, read: rd } = page.slot(i);
        if page.bytes || page.atomics || page.poisoned || w == 0 || rd != 0 {
            return false;
        }
        if w == *r || memo.write_races(sh, w, *r, *me) {
            return false;
        }
        let to = *r;
        page_of(sh, offset).slot_mut(i).read = to;
        if self.share {
            self.last_read = Some(LastRead {
                w,
                rd: 0,
                epoch: 0,
                to,
                race: None,
            });
        }
        true
    }

    /// The list `[x, r]` for a byte whose one read `x` is not ordered before this access `r`:
    /// the one made for the last such byte when it is still that list (and sharing is on).
    fn pair_list(&mut self, x: u32) -> u32 {
        let (sh, r) = (&mut *self.sh, self.r);
        if self.share && self.pair.0 == x && sh.lists.pair_is(self.pair.1, x, r) {
            sh.lists.share(self.pair.1);
            return self.pair.1;
        }
        let list = sh.lists.alloc(&[x, r]);
        self.pair = (x, list);
        list
    }

    /// What a read by this access makes of a byte's read list `rd` (held, not ending with
    /// this access): the reads not ordered before this one, in order, and this one. The byte
    /// lets go of `rd` and holds the result.
    fn read_list(&mut self, rd: u32) -> u32 {
        let share = self.share;
        let ByteScan {
            sh, memo, r, me, ..
        } = self;
        let (r, me) = (*r, *me);
        if share {
            if let Some(to) = sh.lists.derived(rd, r) {
                sh.lists.share(to);
                sh.lists.release(rd);
                return to;
            }
        }
        let n = sh.lists.get(rd).len();
        // A list only this byte holds changes in place; a shared one is copied.
        let alone = sh.lists.alone(rd);
        let dst = if alone { rd } else { sh.lists.alloc(&[]) };
        let mut k = 0;
        for j in 0..n {
            let x = sh.lists.get(rd)[j];
            if x != r && !memo.ordered(sh, x, me) {
                sh.lists.set(dst, k, x);
                k += 1;
            }
        }
        let to = if k == 0 {
            sh.lists.release(dst);
            r
        } else {
            sh.lists.set(dst, k, r);
            sh.lists.set_len(dst, k + 1);
            dst
        };
        if !alone {
            sh.lists.release(rd);
            sh.lists.derive(rd, r, to);
        }
        to
    }

    /// A write of byte `b` by lane `lane` (of the `len` bytes from `b` that share its state:
    /// 4 for a dword of a word-mode page).
    #[inline]
    fn write_byte(&mut self, b: u32, lane: u8, len: u32) {
        let ByteScan {
            sh,
            memo,
            r,
            me,
            found: f,
            ..
        } = self;
        let (r, me) = (*r, *me);
        self.last_read = None;
        let (page, i) = cell(sh, b);
        let Slot { write: w, read: rd } = page.slot(i);
        let (atomics, poisoned) = (page.atomics, page.poisoned);
        if poisoned {
            // A write makes the bytes written (a store of an uninitialised value marks
            // them again after: Device::check_lds).
            for x in b..b + len {
                sh.poisoned.remove(&x);
            }
        }
        // An atomic leaves a plain last write in place: GroupShadow::atomics.
        let atomic = sh.atomic(r);
        let keep = atomic && w != 0 && w != r && !sh.atomic(w);
        let slot = page_of(sh, b).slot_mut(i);
        if !keep {
            slot.write = r;
        }
        slot.read = 0;
        if w == r {
            f.twice.push(b);
        } else if w != 0 && memo.write_races(sh, w, r, me) {
            let a = sh.accesses[w as usize - 1];
            let what = match (a.atomic, atomic) {
                (true, _) => "write-after-atomic",
                (false, true) => "atomic-after-write",
                (false, false) => "write-after-write",
            };
            let k = f.race(&a, what, lane, b);
            // An atomic reads what it changes: its order matters whatever it writes.
            if !f.races[k].changed && (atomic || a.atomic || !self.values.unchanged(b, len)) {
                f.races[k].changed = true;
            }
        }
        if atomics || atomic {
            self.atomic_set(b, lane, true);
        }
        let ByteScan {
            sh, memo, found: f, ..
        } = self;
        if rd == 0 || rd == r {
            return;
        }
        if rd & MULTI == 0 {
            if memo.read_unordered(sh, rd, me) {
                let a = sh.accesses[rd as usize - 1];
                f.race(&a, "write-after-read", lane, b);
            }
            return;
        }
        for j in 0..sh.lists.get(rd).len() {
            let x = sh.lists.get(rd)[j];
            if x != r && !memo.ordered(sh, x, me) {
                let a = sh.accesses[x as usize - 1];
                f.race(&a, "write-after-read", lane, b);
            }
        }
        sh.lists.release(rd);
    }
}

impl ByteScan<'_> {
    /// Checks `touches` (one instruction's, in lane order) against the shadow. `repeats`, when
    /// given, lets a read of exactly the bytes an earlier read of this instruction read (with
    /// no write between them) take that read's findings instead of checking its bytes again;
    /// without it every touch is checked.
    pub(super) fn touches(
        &mut self,
        touches: &[LdsTouch],
        atomic: bool,
        mut repeats: Option<&mut Repeats>,
    ) {
        let mut last: Option<(&LdsTouch, bool, u64)> = None;
        for t in touches {
            // A read of the bytes the previous lane read (a broadcast) finds what that
            // one found: only the lane is new. (With `repeats` only, the shortcuts.)
            if let Some((p, uninit, races)) = last {
                if !t.write && !p.write && p.offset == t.offset && p.size == t.size {
                    self.found.add_lane(t.lane, uninit, races);
                    continue;
                }
            }
            // The same for a read of bytes an earlier lane read: that read left the bytes'
            // state as this one would (this access's own read), and found the same write, the
            // same races and the same uninitialised bytes. (Both keep only findings whose race
            // mask is exact: Found::touch_findings.)
            if let Some(rep) = repeats.as_deref_mut() {
                if t.write {
                    rep.clear();
                } else if let Some((uninit, races)) = rep.get(t.offset, t.size) {
                    self.found.add_lane(t.lane, uninit, races);
                    last = Some((t, uninit, races));
                    continue;
                }
            }
            self.touch(t, atomic);
            let findings = self.found.touch_findings();
            if let (Some(rep), false, Some((uninit, races))) =
                (repeats.as_deref_mut(), t.write, findings)
            {
                rep.insert(t.offset, t.size, uninit, races);
            }
            if repeats.is_some() {
                last = findings.map(|(uninit, races)| (t, uninit, races));
            }
        }
    }

    /// Checks the reads of `dwords` ([`super::rows::RowDwords::list`]): each dword for its
    /// first lane, whose findings the other lanes take.
    pub(super) fn dwords(&mut self, dwords: &[(u32, u64)]) {
        let mut at = 0;
        while let Some(&(offset, lanes)) = dwords.get(at) {
            let again = self.read_words_again(&dwords[at..]);
            if again > 0 {
                at += again;
                continue;
            }
            at += 1;
            if self.read_fresh(offset) {
                continue;
            }
            let mut t = LdsTouch {
                offset,
                lane: lanes.trailing_zeros() as u8,
                size: 4,
                write: false,
                value: 0,
            };
            self.touch(&t, false);
            let rest = lanes & (lanes - 1);
            if let Some((uninit, races)) = self.found.touch_findings() {
                self.found.add_lanes(rest, uninit, races);
                continue;
            }
            // Past 64 races a touch's race mask cannot tell them apart: check every lane.
            let mut m = rest;
            while m != 0 {
                t.lane = m.trailing_zeros() as u8;
                self.touch(&t, false);
                m &= m - 1;
            }
        }
    }

    /// Checks the writes of the address rows `rows` (aligned dwords, [`AddrRows::each`]'s
    /// order, as the trace would have them). A lane writing a dword this access wrote
    /// already only writes its bytes twice, and a dword in the state the last one checked was
    /// in takes its findings ([`Self::write_word_again`]).
    pub(super) fn write_rows(&mut self, rows: &AddrRows) {
        if rows.lanes[1] == 0 {
            return self.write_row(rows.lanes[0], rows.addrs[0]);
        }
        let mut last = None;
        let done = self.write_two_blocks(rows, &mut last);
        rows.each(|lane, row, offset| {
            if done[row] >> lane & 1 == 0 {
                self.write_dword(lane, offset, &mut last);
            }
        });
    }

    /// The usual two-address store first (`ds_store_2addr_b32` of a tile's two rows): both
    /// rows EXEC's one block of lanes at ascending consecutive dwords, the two blocks apart.
    /// The trace's first write is checked ([`ByteScan::write_dword`]); when it found no
    /// race, each row's lanes from the lowest whose dwords are in the state it was in are
    /// taken together ([`ByteScan::write_words_again`]). The lanes of each row it wrote
    /// (none when the rows are not so); [`ByteScan::write_rows`] writes the others in the
    /// trace's order. Taking these first changes nothing the others find: no dword is
    /// written twice, and they find no race and make no list, as each would one at a time.
    fn write_two_blocks(
        &mut self,
        rows: &AddrRows,
        last: &mut Option<((u32, u32), u64)>,
    ) -> [u64; 2] {
        let lanes = rows.lanes[0];
        let block = |addrs: &[u32; 64]| crate::ranges::stepped_block(lanes, addrs, 4);
        if lanes != rows.lanes[1] || !block(rows.addrs[0]) || !block(rows.addrs[1]) {
            return [0, 0];
        }
        let first = lanes.trailing_zeros() as usize;
        let n = 4 * lanes.count_ones();
        let (a, b) = (rows.addrs[0][first], rows.addrs[1][first]);
        if a < b + n && b < a + n {
            return [0, 0];
        }
        self.write_dword(first as u8, a, last);
        let mut done = [1u64 << first, 0];
        if let Some((was, 0)) = *last {
            let rest = lanes & !done[0];
            if rest != 0 {
                done[0] |= self.write_words_again(rest, rows.addrs[0], was);
            }
            done[1] |= self.write_words_again(lanes, rows.addrs[1], was);
        }
        #[cfg(test)]
        TWO_BLOCK_LANES.with(|n| {
            let taken = (done[0] & !(1 << first)).count_ones() + done[1].count_ones();
            n.set(n.get() + u64::from(taken));
        });
        done
    }

    /// [`ByteScan::write_rows`] of one row: the writes of `lanes` at their `addrs`, lowest
    /// lane first; after a dword that found no race, the lanes after it whose dwords are in
    /// the state it was in are taken together ([`ByteScan::write_words_again`]).
    fn write_row(&mut self, lanes: u64, addrs: &[u32; 64]) {
        let mut last: Option<((u32, u32), u64)> = None;
        let mut m = lanes;
        while m != 0 {
            if let Some((was, 0)) = last {
                let done = self.write_words_again(m, addrs, was);
                if done != 0 {
                    m &= !done;
                    continue;
                }
            }
            let lane = m.trailing_zeros() as u8;
            m &= m - 1;
            self.write_dword(lane, addrs[usize::from(lane)], &mut last);
        }
    }

    /// The write by `lane` of the aligned dword at `offset`: its bytes written twice when
    /// this access wrote it already, else the findings of `last` (the state the last dword
    /// checked was in, and its races) when it is in that state, else checked, becoming
    /// `last`.
    #[inline(always)]
    fn write_dword(&mut self, lane: u8, offset: u32, last: &mut Option<((u32, u32), u64)>) {
        let state = self.word_state(offset);
        if state.is_some_and(|(w, _)| w == self.r) {
            // What the write of a byte this access wrote finds (write_byte).
            self.last_read = None;
            self.found.twice.extend(offset..offset + 4);
        } else if !self.write_word_again(offset, lane, state, *last) {
            let t = LdsTouch {
                offset,
                lane,
                size: 4,
                write: true,
                value: 0,
            };
            self.touch(&t, false);
            let races = self.found.touch_findings().map(|(_, races)| races);
            *last = state.zip(races);
        }
    }

    /// Writes by the lowest lanes of `lanes` (at their `addrs`) of dwords of one word-mode
    /// page without atomics that are in the state `was` (write, reads), which a write of
    /// this access found no race in: [`ByteScan::write_word_again`] for each at once, the
    /// read list's count moved once. The lanes it took (none when the lowest lane's dword is
    /// not such a one).
    fn write_words_again(&mut self, lanes: u64, addrs: &[u32; 64], was: (u32, u32)) -> u64 {
        let first = addrs[lanes.trailing_zeros() as usize];
        let sh = &mut *self.sh;
        let Some(page) = sh.pages[first as usize / PAGE].as_mut() else {
            return 0;
        };
        // (A poisoned page is in byte mode too: excluded twice over.)
        if page.bytes || page.atomics || page.poisoned {
            return 0;
        }
        let (w, rd) = was;
        let (mut done, mut n, mut m) = (0u64, 0u32, lanes);
        while m != 0 {
            let l = m.trailing_zeros();
            let offset = addrs[l as usize];
            if offset as usize / PAGE != first as usize / PAGE {
                break;
            }
            let slot = page.slot_mut(offset as usize % PAGE);
            if *slot != (Slot { write: w, read: rd }) {
                break;
            }
            *slot = Slot {
                write: self.r,
                read: 0,
            };
            done |= 1 << l;
            n += 1;
            m &= m - 1;
        }
        if n > 0 {
            self.last_read = None;
            if rd & MULTI != 0 {
                sh.lists.release_n(rd, n);
            }
        }
        done
    }

    /// The (write, read) state of the aligned dword at `offset` when it is one entry of a
    /// word-mode page ((0, 0) on a page not made yet), `None` on a byte-mode page.
    #[inline]
    fn word_state(&self, offset: u32) -> Option<(u32, u32)> {
        match self.sh.pages[offset as usize / PAGE].as_ref() {
            None => Some((0, 0)),
            Some(p) if p.bytes => None,
            Some(p) => {
                let s = p.slot(offset as usize % PAGE);
                Some((s.write, s.read))
            }
        }
    }

    /// A write by `lane` of the aligned dword at `offset`, in `state` ([`Self::word_state`]),
    /// when that is the state `last` (the state the last dword fully checked was in, and the
    /// races its write added a lane to, an exact mask) says: it finds what that write found
    /// and leaves the dword as that one left its own, with no checking. False (nothing done)
    /// otherwise.
    ///
    /// A byte holding the same read reference holds the same list: writes make no lists, and
    /// a list one frees is held by no other byte.
    #[inline]
    fn write_word_again(
        &mut self,
        offset: u32,
        lane: u8,
        state: Option<(u32, u32)>,
        last: Option<((u32, u32), u64)>,
    ) -> bool {
        let Some(((w, rd), races)) = last else {
            return false;
        };
        if state != Some((w, rd))
            || self.sh.pages[offset as usize / PAGE]
                .as_ref()
                .is_some_and(|p| p.atomics)
        {
            return false;
        }
        self.last_read = None;
        let (page, i) = cell(self.sh, offset);
        *page.slot_mut(i) = Slot {
            write: self.r,
            read: 0,
        };
        if rd & MULTI != 0 {
            self.sh.lists.release(rd);
        }
        self.found.add_lanes(1 << (lane & 63), false, races);
        // The races it found may change bytes here that the last dword's did not.
        let mut m = races;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            if !self.found.races[k].changed && !self.values.unchanged(offset, 4) {
                self.found.races[k].changed = true;
            }
        }
        true
    }

    /// Checks one lane's access, byte by byte (a dword at a time on word-mode pages).
    fn touch(&mut self, t: &LdsTouch, atomic: bool) {
        self.found.touch_races = 0;
        self.found.touch_uninit = false;
        let whole_dwords = t.offset.is_multiple_of(4) && t.size.is_multiple_of(4);
        let (mut b, end) = (t.offset, t.offset + t.size as u32);
        while b < end {
            // A whole dword of a word-mode page is one entry; anything else is
            // checked byte by byte (and turns the page into byte mode).
            let step = if whole_dwords && !self.bytes_at(b) {
                4
            } else {
                self.split_into_bytes(b);
                1
            };
            if t.write {
                let twice = self.found.twice.len();
                self.write_byte(b, t.lane, step);
                if step == 4 && self.found.twice.len() > twice {
                    self.found.twice.extend([b + 1, b + 2, b + 3]);
                }
            } else {
                self.read_byte(b, t.lane, atomic);
            }
            b += step;
        }
    }
}

/// Slots of [`Repeats`] (a power of two).
pub(super) const REPEAT_SLOTS: usize = 256;

/// One read's findings in [`Repeats`].
#[derive(Clone, Copy, Default)]
pub(super) struct Repeat {
    pub(super) offset: u32,
    pub(super) size: u8,
    /// [`Repeats::stamp`] when it was stored (older entries are empty).
    pub(super) stamp: u32,
    pub(super) uninit: bool,
    pub(super) races: u64,
}

/// The findings of an instruction's reads since its last write, by the bytes they read
/// (offset, size): a direct-mapped table (a read whose slot another took is simply checked
/// again), emptied in O(1) by a new stamp. Kept by the checker from one instruction to the
/// next, so only its first use allocates it.
#[derive(Default)]
pub(super) struct Repeats {
    pub(super) slots: Vec<Repeat>,
    pub(super) stamp: u32,
}

impl Repeats {
    /// Forgets every entry (and makes the table, the first time).
    pub(super) fn clear(&mut self) {
        if self.slots.is_empty() {
            self.slots = vec![Repeat::default(); REPEAT_SLOTS];
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill(Repeat::default());
            self.stamp = 1;
        }
    }

    #[inline]
    fn slot(offset: u32) -> usize {
        ((offset >> 2) ^ (offset >> 10)) as usize % REPEAT_SLOTS
    }

    /// The findings (uninitialised, race mask) of the read of `size` bytes at `offset`, if
    /// kept.
    #[inline]
    fn get(&self, offset: u32, size: u8) -> Option<(bool, u64)> {
        let e = &self.slots[Self::slot(offset)];
        (e.stamp == self.stamp && e.offset == offset && e.size == size)
            .then_some((e.uninit, e.races))
    }

    #[inline]
    fn insert(&mut self, offset: u32, size: u8, uninit: bool, races: u64) {
        self.slots[Self::slot(offset)] = Repeat {
            offset,
            size,
            stamp: self.stamp,
            uninit,
            races,
        };
    }
}

#[cfg(test)]
thread_local! {
    /// Lanes [`ByteScan::write_two_blocks`] took together on this thread (beyond the first
    /// write): the two-row test's proof that the path ran.
    pub(super) static TWO_BLOCK_LANES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}
