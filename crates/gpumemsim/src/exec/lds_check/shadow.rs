//! The checker's shadow of a workgroup's LDS: per byte, the last write and the reads since,
//! as references to [`Access`]es (pages of them, and read lists that bytes share), and
//! whether one access is ordered before another.

use std::collections::{HashMap, HashSet};

/// LDS bytes per shadow page.
pub(super) const PAGE: usize = 256;
/// A read reference with this bit set: the byte's reads are the list [`GroupShadow::lists`]
/// holds at the index in the other bits.
pub(super) const MULTI: u32 = 1 << 31;
/// One execution of an LDS instruction by a wave.
#[derive(Clone, Copy, Debug)]
pub(super) struct Access {
    pub(super) pc: u32,
    /// The wave's index in its workgroup.
    pub(super) wave: u32,
    pub(super) atomic: bool,
    /// Barrier generation it was made in.
    pub(super) generation: u32,
    /// The wave's `OrderedOps::waited` that proves it complete (its operation number + 1; 0 for
    /// LDSDIR: any later barrier).
    pub(super) need: u64,
}

/// A wave's barrier arrivals: its `count`-th arrival (0-based) was at generation `count`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Arrivals {
    pub(super) count: u32,
    /// `OrderedOps::waited` at the latest arrival.
    pub(super) last: u64,
    /// At the one before.
    pub(super) prev: u64,
}

/// The shadow of one page of LDS: per byte, the last write and the reads since (references
/// into [`GroupShadow::accesses`] plus 1; 0 for none).
///
/// A page starts in word mode: while every access to it is of whole aligned dwords, the four
/// bytes of a dword always share their state, so the page keeps one [`Slot`] per dword (a
/// quarter of the work, and of the memory: a grid's resident workgroups keep their shadows
/// side by side, and a dword's write and reads share a cache line). The first access of
/// part of a dword turns the page into byte mode for good, giving each byte its own copy of
/// its dword's state ([`GroupShadow::split_page`]).
pub(super) struct Page {
    /// One slot per dword in word mode, per byte in byte mode ([`Page::slot`]).
    slots: Vec<Slot>,
    /// Byte mode: every byte's entries are its own.
    pub(super) bytes: bool,
    /// Whether a byte of the page has atomic accesses in [`GroupShadow::atomics`] (the
    /// shortcuts that take one byte's findings for another's are off on such a page).
    pub(super) atomics: bool,
    /// Whether a byte of the page is in [`GroupShadow::poisoned`] (the page is in byte mode,
    /// and the shortcuts are off on it).
    pub(super) poisoned: bool,
}

/// A byte's (or a word-mode dword's) state: its last write and its reads since.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Slot {
    pub(super) write: u32,
    pub(super) read: u32,
}

impl Page {
    /// The index in `slots` of byte `i` of the page (its dword's in word mode).
    #[inline]
    fn entry(&self, i: usize) -> usize {
        if self.bytes {
            i
        } else {
            i >> 2
        }
    }

    /// The state of byte `i` of the page (in word mode, of its dword).
    #[inline]
    pub(super) fn slot(&self, i: usize) -> Slot {
        self.slots[self.entry(i)]
    }

    /// [`Page::slot`], to change.
    #[inline]
    pub(super) fn slot_mut(&mut self, i: usize) -> &mut Slot {
        let e = self.entry(i);
        &mut self.slots[e]
    }

    /// Empties the page in word mode (`bytes`: byte mode), keeping its space.
    fn clear(&mut self, bytes: bool) {
        self.slots.clear();
        self.slots
            .resize(if bytes { PAGE } else { PAGE / 4 }, Slot::default());
        self.bytes = bytes;
        self.atomics = false;
        self.poisoned = false;
    }
}

/// One workgroup's checker state.
pub(super) struct GroupShadow {
    pub(super) generation: u32,
    pub(super) arrivals: Vec<Arrivals>,
    /// The pc each ended wave ended at.
    pub(super) ended_at: Vec<Option<usize>>,
    /// Ended waves already reported as leaving a barrier.
    pub(super) left_reported: Vec<bool>,
    /// What LDS atomics handed over, as the global check's atomics do (`super::order`):
    /// `synced[me * waves + w]` is the `OrderedOps::waited` of wave `w` that wave `me` knows
    /// complete, because `me`'s atomic on a location followed `w`'s.
    pub(super) synced: Vec<u64>,
    /// Per LDS dword an atomic accessed: what its atomics handed on, per wave.
    pub(super) handed: HashMap<u32, Vec<u64>>,
    pub(super) accesses: Vec<Access>,
    pub(super) pages: Vec<Option<Page>>,
    /// Per byte (a word-mode page's dword: its first byte) that atomics wrote: the latest
    /// atomic access of each wave since the byte's last plain write that is not ordered
    /// before it. Atomics do not race with one another, so the byte's last write alone would
    /// lose them: a plain access after wave A's atomic must still race with wave B's earlier
    /// one, and a wave's own atomic must not hide its plain store from the others' atomics
    /// (that write stays the byte's last write).
    pub(super) atomics: HashMap<u32, Vec<u32>>,
    /// Bytes a DS store wrote from a VGPR holding an uninitialised value (`super::poison`):
    /// written, but as uninitialised as before.
    pub(super) poisoned: HashSet<u32>,
    /// Reads of bytes that more than one wave read with none ordered before the others: lists
    /// indexed by the byte's read reference (without [`MULTI`]).
    pub(super) lists: ReadLists,
    /// The table of [`Memo::listed`] between instructions.
    pub(super) listed: Vec<u64>,
    /// Pages of an earlier workgroup in this slot, for [`GroupShadow::page`] to reuse (a
    /// page moves between these and `pages` with its slots' allocation).
    spare_pages: Vec<Page>,
}

impl GroupShadow {
    pub(super) fn new(waves: usize, lds_bytes: u32) -> GroupShadow {
        GroupShadow {
            generation: 0,
            arrivals: vec![Arrivals::default(); waves],
            ended_at: vec![None; waves],
            left_reported: vec![false; waves],
            synced: vec![0; waves * waves],
            handed: HashMap::new(),
            accesses: Vec::new(),
            pages: (0..(lds_bytes as usize).div_ceil(PAGE))
                .map(|_| None)
                .collect(),
            atomics: HashMap::new(),
            poisoned: HashSet::new(),
            lists: ReadLists::new(waves),
            listed: Vec::new(),
            spare_pages: Vec::new(),
        }
    }

    /// Whether this shadow is for workgroups of `waves` waves and `lds_bytes` of LDS.
    pub(super) fn fits(&self, waves: usize, lds_bytes: u32) -> bool {
        self.arrivals.len() == waves && self.pages.len() == (lds_bytes as usize).div_ceil(PAGE)
    }

    /// Makes this the shadow of a new workgroup, as [`GroupShadow::new`] would, keeping its
    /// allocations: a slot's workgroups follow one another, and making each one's shadow
    /// anew spent a reduction over 4,096 workgroups' time in the allocator.
    /// Every field is named, so one added later has to be reset here too.
    pub(super) fn reset(&mut self) {
        let GroupShadow {
            generation,
            arrivals,
            ended_at,
            left_reported,
            synced,
            handed,
            accesses,
            pages,
            atomics,
            poisoned,
            lists,
            listed,
            spare_pages,
        } = self;
        *generation = 0;
        arrivals.fill(Arrivals::default());
        ended_at.fill(None);
        left_reported.fill(false);
        synced.fill(0);
        handed.clear();
        accesses.clear();
        spare_pages.extend(pages.iter_mut().filter_map(Option::take));
        atomics.clear();
        poisoned.clear();
        lists.reset();
        listed.clear();
    }

    /// A page with no access on it (`bytes`: in byte mode), reusing a spare one.
    pub(super) fn page(&mut self, bytes: bool) -> Page {
        let mut p = self.spare_pages.pop().unwrap_or_else(|| Page {
            slots: Vec::new(),
            bytes,
            atomics: false,
            poisoned: false,
        });
        p.clear(bytes);
        p
    }

    /// Turns word-mode page `n` into byte mode: each byte of a dword gets a copy of the state
    /// the dword held (its first byte keeps the dword's read list; with `share` the others
    /// share it, else each gets a copy of its own), and so does each byte's atomic set.
    pub(super) fn split_page(&mut self, n: usize, share: bool) {
        let page = self.pages[n].as_mut().expect("the page exists");
        debug_assert!(!page.bytes, "a page in byte mode stays so");
        let words = std::mem::take(&mut page.slots);
        let atomics = page.atomics;
        let mut bytes = Vec::with_capacity(PAGE);
        for s in &words {
            bytes.push(*s);
            for _ in 1..4 {
                let read = if s.read & MULTI == 0 {
                    s.read
                } else if share {
                    self.lists.share(s.read);
                    s.read
                } else {
                    let copy = self.lists.get(s.read).to_vec();
                    self.lists.alloc(&copy)
                };
                bytes.push(Slot {
                    write: s.write,
                    read,
                });
            }
        }
        let page = self.pages[n].as_mut().expect("the page exists");
        page.slots = bytes;
        page.bytes = true;
        if atomics {
            let base = (n * PAGE) as u32;
            for w in (base..base + PAGE as u32).step_by(4) {
                if let Some(set) = self.atomics.get(&w).cloned() {
                    for k in 1..4 {
                        self.atomics.insert(w + k, set.clone());
                    }
                }
            }
        }
    }

    /// Whether access `r` (a reference) is ordered before what wave `me` does now.
    #[inline]
    fn ordered(&self, r: u32, me: u32) -> bool {
        let a = &self.accesses[r as usize - 1];
        if a.wave == me {
            return true;
        }
        // Handed over by atomics on one location (`GroupShadow::synced`).
        let n = self.arrivals.len();
        if a.need > 0 && self.synced[me as usize * n + a.wave as usize] >= a.need {
            return true;
        }
        self.ordered_by_barrier(r, me)
    }

    /// Whether access `r` of another wave is ordered before what wave `me` does now by a
    /// barrier (after the waits that complete it). A plain access and an atomic of one byte
    /// are ordered only so: the atomics' hand-over stands for release and acquire fences,
    /// which cannot be told in machine code from a wait the compiler put there for another
    /// reason (`count = 0` by one work-item, then everyone's `atomic_inc(&count)`, with no
    /// barrier between, is a race whichever wave runs first).
    #[inline]
    pub(super) fn ordered_by_barrier(&self, r: u32, me: u32) -> bool {
        let a = &self.accesses[r as usize - 1];
        if a.wave == me {
            return true;
        }
        let arr = &self.arrivals[a.wave as usize];
        // The latest arrival at a generation before the current one.
        let (h, waited) = match arr.count {
            0 => return false,
            n if n - 1 < self.generation => (n - 1, arr.last),
            1 => return false,
            n => (n - 2, arr.prev),
        };
        h >= a.generation && waited >= a.need
    }

    /// Wave `me`'s atomic at the LDS dwords `locations` (`waited`: its wave's
    /// `OrderedOps::waited`): it takes what each location's earlier atomics handed on, then
    /// hands on what its wave proved complete by waiting before it (a release: the
    /// `s_waitcnt lgkmcnt` LLVM puts before a release atomic or after a release fence) and
    /// what it knows. The atomic itself is ordered before the wave's later plain accesses of
    /// its bytes by `scan::ByteScan::atomic_set`; a relaxed atomic with no wait before it
    /// orders nothing, so a plain store its wave made just before it still races with the
    /// other waves' atomics, whichever runs first.
    pub(super) fn atomic_handover(&mut self, me: u32, locations: &[u32], waited: u64) {
        let n = self.arrivals.len();
        let row = me as usize * n..(me as usize + 1) * n;
        for l in locations {
            if let Some(c) = self.handed.get(l) {
                for (k, v) in self.synced[row.clone()].iter_mut().zip(c) {
                    *k = (*k).max(*v);
                }
            }
        }
        let mut mine = self.synced[row].to_vec();
        mine[me as usize] = mine[me as usize].max(waited);
        for l in locations {
            let c = self.handed.entry(*l).or_insert_with(|| vec![0; n]);
            for (k, v) in c.iter_mut().zip(&mine) {
                *k = (*k).max(*v);
            }
        }
    }

    /// Whether byte `b` holds nothing this launch wrote (or only an uninitialised value).
    pub(super) fn unwritten(&self, b: u32) -> bool {
        let Some(p) = self.pages[b as usize / PAGE].as_ref() else {
            return true;
        };
        p.slot(b as usize % PAGE).write == 0 || (p.poisoned && self.poisoned.contains(&b))
    }

    /// Marks byte `b` as holding an uninitialised value (its page turns to byte mode, each
    /// byte taking its dword's state as the scan's split does with sharing on).
    pub(super) fn poison_byte(&mut self, b: u32) {
        let i = b as usize / PAGE;
        match self.pages[i].as_ref() {
            None => self.pages[i] = Some(self.page(true)),
            Some(p) if !p.bytes => self.split_page(i, true),
            Some(_) => {}
        }
        self.pages[i].as_mut().expect("the page").poisoned = true;
        self.poisoned.insert(b);
    }

    /// Whether access `r` is an atomic.
    #[inline]
    pub(super) fn atomic(&self, r: u32) -> bool {
        self.accesses[r as usize - 1].atomic
    }
}

/// The read lists of a workgroup's shadow, in one flat array of fixed slots of `stride`
/// entries: a length, then the reads. A list holds at most one read per wave (a wave's read
/// drops the list's earlier reads of the same wave, which are ordered before it), so a slot of
/// waves + 1 entries always holds it; a tile read by every wave makes and drops lists all the
/// time, and slots are reused (`free`) without allocating.
///
/// A list may be shared by many bytes (`refs` counts them): the bytes an instruction's reads
/// gave the same reads, as the dwords of a row every wave reads. A read of a shared list
/// makes the new list once per instruction (`derived`) and moves each byte holding the old
/// one onto it, instead of walking the list for every byte; a list held by one byte is changed
/// in place.
pub(super) struct ReadLists {
    pub(super) cells: Vec<u32>,
    pub(super) stride: usize,
    pub(super) free: Vec<u32>,
    /// Per list: the bytes (and byte-mode copies) holding it; 0 when free.
    pub(super) refs: Vec<u32>,
    /// Per list: bumped each time it is freed, so a remembered list id that was freed (and
    /// perhaps reused) since is told apart.
    pub(super) epoch: Vec<u32>,
    /// Per list: (the access that read it, the read reference that read made of it, that
    /// target's epoch when it is a list). An entry of another access is stale.
    pub(super) derived: Vec<(u32, u32, u32)>,
}

impl ReadLists {
    fn new(waves: usize) -> ReadLists {
        ReadLists {
            cells: Vec::new(),
            stride: waves + 1,
            free: Vec::new(),
            refs: Vec::new(),
            epoch: Vec::new(),
            derived: Vec::new(),
        }
    }

    /// Empties the lists, as [`ReadLists::new`] makes them, keeping the allocations (every
    /// field named, so one added later has to be reset here too; `stride` is the
    /// workgroup's size, which a reused shadow keeps: [`GroupShadow::fits`]).
    fn reset(&mut self) {
        let ReadLists {
            cells,
            stride: _,
            free,
            refs,
            epoch,
            derived,
        } = self;
        cells.clear();
        free.clear();
        refs.clear();
        epoch.clear();
        derived.clear();
    }

    /// A new list holding `reads`, held once; its read reference.
    pub(super) fn alloc(&mut self, reads: &[u32]) -> u32 {
        let i = match self.free.pop() {
            Some(i) => i,
            None => {
                self.cells.resize(self.cells.len() + self.stride, 0);
                self.refs.push(0);
                self.epoch.push(0);
                self.derived.push((0, 0, 0));
                (self.cells.len() / self.stride - 1) as u32
            }
        };
        self.refs[i as usize] = 1;
        self.derived[i as usize] = (0, 0, 0);
        let base = i as usize * self.stride;
        self.cells[base] = reads.len() as u32;
        self.cells[base + 1..base + 1 + reads.len()].copy_from_slice(reads);
        i | MULTI
    }

    /// The reads of list `rd` (a reference with [`MULTI`]).
    #[inline]
    pub(super) fn get(&self, rd: u32) -> &[u32] {
        let base = (rd & !MULTI) as usize * self.stride;
        &self.cells[base + 1..base + 1 + self.cells[base] as usize]
    }

    /// Sets read `k` of list `rd` (extending it when `k` is its length).
    #[inline]
    pub(super) fn set(&mut self, rd: u32, k: usize, x: u32) {
        assert!(k + 1 < self.stride, "a read list holds one read per wave");
        let base = (rd & !MULTI) as usize * self.stride;
        self.cells[base + 1 + k] = x;
    }

    /// Cuts list `rd` to `len` reads.
    #[inline]
    pub(super) fn set_len(&mut self, rd: u32, len: usize) {
        self.cells[(rd & !MULTI) as usize * self.stride] = len as u32;
    }

    /// The epoch of `rd` when it is a list, else 0.
    #[inline]
    pub(super) fn epoch_of(&self, rd: u32) -> u32 {
        if rd & MULTI != 0 {
            self.epoch[(rd & !MULTI) as usize]
        } else {
            0
        }
    }

    /// Whether list `rd` is held by one byte only (so it may change in place).
    #[inline]
    pub(super) fn alone(&self, rd: u32) -> bool {
        self.refs[(rd & !MULTI) as usize] == 1
    }

    /// One more byte holds read reference `rd` (a list or a single read).
    #[inline]
    pub(super) fn share(&mut self, rd: u32) {
        self.share_n(rd, 1);
    }

    /// [`ReadLists::share`] by `n` bytes.
    #[inline]
    pub(super) fn share_n(&mut self, rd: u32, n: u32) {
        if rd & MULTI != 0 {
            self.refs[(rd & !MULTI) as usize] += n;
        }
    }

    /// A byte lets go of list `rd`; the last one frees it.
    #[inline]
    pub(super) fn release(&mut self, rd: u32) {
        self.release_n(rd, 1);
    }

    /// [`ReadLists::release`] by `n` bytes (the last of them may free it; one byte's
    /// reference cannot outlast the count, so none before the last does).
    #[inline]
    pub(super) fn release_n(&mut self, rd: u32, n: u32) {
        let i = (rd & !MULTI) as usize;
        debug_assert!(
            self.refs[i] >= n,
            "a list let go of more often than it is held"
        );
        self.refs[i] -= n;
        if self.refs[i] == 0 {
            self.epoch[i] = self.epoch[i].wrapping_add(1);
            self.free.push(i as u32);
        }
    }

    /// What access `r` made of list `rd` when it read it earlier, if it did and that is
    /// still live.
    #[inline]
    pub(super) fn derived(&self, rd: u32, r: u32) -> Option<u32> {
        let (by, to, epoch) = self.derived[(rd & !MULTI) as usize];
        let live = to & MULTI == 0 || self.epoch[(to & !MULTI) as usize] == epoch;
        (by == r && live).then_some(to)
    }

    /// Notes that access `r` made `to` of list `rd`.
    #[inline]
    pub(super) fn derive(&mut self, rd: u32, r: u32, to: u32) {
        let epoch = if to & MULTI != 0 {
            self.epoch[(to & !MULTI) as usize]
        } else {
            0
        };
        self.derived[(rd & !MULTI) as usize] = (r, to, epoch);
    }

    /// Whether `to` is still the live list of exactly the reads `[x, r]`.
    #[inline]
    pub(super) fn pair_is(&self, to: u32, x: u32, r: u32) -> bool {
        self.refs[(to & !MULTI) as usize] > 0 && self.get(to) == [x, r]
    }
}

/// The page of byte `b` (made if need be) and the byte's index in it.
#[inline(always)]
pub(super) fn cell(sh: &mut GroupShadow, b: u32) -> (&mut Page, usize) {
    let i = b as usize / PAGE;
    if sh.pages[i].is_none() {
        make_page(sh, i);
    }
    let p = sh.pages[i].as_mut().expect("the page was just made");
    (p, b as usize % PAGE)
}

/// Makes page `i` (word mode), the first time one of its bytes is accessed.
#[cold]
#[inline(never)]
fn make_page(sh: &mut GroupShadow, i: usize) {
    sh.pages[i] = Some(sh.page(false));
}

/// The page holding byte `b`, which [`cell`] made (it outlives the borrow `cell` returned).
#[inline]
pub(super) fn page_of(sh: &mut GroupShadow, b: u32) -> &mut Page {
    sh.pages[b as usize / PAGE]
        .as_mut()
        .expect("the page exists")
}

/// Within one instruction the shadow's generation and arrivals do not change, so whether an
/// earlier access is ordered before this one is the same for every byte: the last answers,
/// kept (a 4-byte lane access asks four times about the same access).
pub(super) struct Memo {
    /// (reference, unordered) for the last write and the last read asked about.
    pub(super) write: (u32, bool),
    pub(super) read: (u32, bool),
    /// For the reads of read lists asked about: per earlier access (its reference - 1), the
    /// answer this instruction found, as `r << 1 | ordered` (`r` the instruction's own
    /// reference, so answers of earlier instructions never match). Taken from and given back
    /// to [`GroupShadow::listed`], so it is allocated once per workgroup, not per instruction.
    pub(super) listed: Vec<u64>,
    /// `r << 1`: the stamp of this instruction's answers.
    pub(super) stamp: u64,
}

impl Memo {
    /// The memo of access `r`, keeping its answers in `listed` (a table from an earlier
    /// instruction, or empty).
    pub(super) fn new(r: u32, listed: Vec<u64>) -> Memo {
        Memo {
            write: (0, false),
            read: (0, false),
            listed,
            stamp: u64::from(r) << 1,
        }
    }

    /// Whether the earlier read `x` (of a read list) is ordered before what wave `me` does
    /// now.
    #[inline]
    pub(super) fn ordered(&mut self, sh: &GroupShadow, x: u32, me: u32) -> bool {
        let i = x as usize - 1;
        if let Some(&e) = self.listed.get(i) {
            if e & !1 == self.stamp {
                return e & 1 == 1;
            }
        } else {
            self.listed.resize(sh.accesses.len(), 0);
        }
        let o = sh.ordered(x, me);
        self.listed[i] = self.stamp | u64::from(o);
        o
    }

    /// Whether the earlier write `w` is not ordered before this access `r` of wave `me`,
    /// and they are not both atomics: a race.
    #[inline]
    pub(super) fn write_races(&mut self, sh: &GroupShadow, w: u32, r: u32, me: u32) -> bool {
        if self.write.0 != w {
            let (wa, ra) = (sh.atomic(w), sh.atomic(r));
            let races = match (wa, ra) {
                (true, true) => false,
                // A plain write and an atomic, or the other way round.
                (false, true) | (true, false) => !sh.ordered_by_barrier(w, me),
                (false, false) => !sh.ordered(w, me),
            };
            self.write = (w, races);
        }
        self.write.1
    }

    /// Whether the earlier read `x` is not ordered before what wave `me` does now.
    #[inline]
    pub(super) fn read_unordered(&mut self, sh: &GroupShadow, x: u32, me: u32) -> bool {
        if self.read.0 != x {
            self.read = (x, !sh.ordered(x, me));
        }
        self.read.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recycled shadow holds nothing of its last workgroup (no accesses, pages, lists or
    /// arrivals kept to grow over a long grid) and hands its pages out again zeroed.
    #[test]
    fn a_recycled_shadow_is_a_new_one() {
        let mut sh = GroupShadow::new(2, 1024);
        sh.generation = 3;
        sh.arrivals[1] = Arrivals {
            count: 2,
            last: 5,
            prev: 4,
        };
        sh.ended_at[0] = Some(7);
        sh.left_reported[1] = true;
        sh.accesses.push(Access {
            pc: 1,
            wave: 0,
            atomic: false,
            generation: 0,
            need: 1,
        });
        let (page, i) = cell(&mut sh, 300);
        page.slot_mut(i).write = 1;
        page.bytes = true;
        let list = sh.lists.alloc(&[1, 2]);
        sh.listed.push(9);
        assert_ne!(list, 0);
        sh.reset();
        assert!(sh.fits(2, 1024) && !sh.fits(3, 1024) && !sh.fits(2, 2048));
        assert_eq!(sh.generation, 0);
        assert!(sh
            .arrivals
            .iter()
            .all(|a| (a.count, a.last, a.prev) == (0, 0, 0)));
        assert!(sh.ended_at.iter().all(Option::is_none));
        assert!(!sh.left_reported.iter().any(|&r| r));
        assert!(sh.accesses.is_empty() && sh.listed.is_empty());
        assert!(sh.pages.iter().all(Option::is_none));
        let l = &sh.lists;
        assert!(l.cells.is_empty() && l.free.is_empty() && l.refs.is_empty());
        assert!(l.epoch.is_empty() && l.derived.is_empty());
        assert_eq!(sh.spare_pages.len(), 1);
        let (page, i) = cell(&mut sh, 300);
        assert_eq!((page.slot(i).write, page.bytes), (0, false));
        assert_eq!(
            page.slots,
            vec![Slot::default(); PAGE / 4],
            "a word-mode page, zeroed"
        );
        assert!(sh.spare_pages.is_empty());
    }
}
