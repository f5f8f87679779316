//! The global race check's shadow memory, checked in the one run: per dword of global memory a
//! plain access touched, its last plain write (and the value that write left) and the plain
//! reads since, as ThreadSanitizer keeps shadow cells beside application memory. Each
//! instruction's accesses are checked against the shadow as the instruction completes
//! ([`GlobalShadow::visit`]), so a grid runs once, and the cost per access is an array index
//! (one map lookup per 4 KiB page, cached between accesses), not a hash per byte.
//!
//! A dword every access of which covers it whole keeps one cell. The first access to part of a
//! dword splits it into four byte cells, kept apart ([`GlobalShadow::split`]): exact per byte,
//! slower (byte and 16-bit accesses).
//!
//! A page keeps its cells packed ([`PackedCell`], 12 bytes a dword where a cell naming its
//! accesses whole takes 40): the accesses they name are indices into the page's table of
//! accesses, which an instruction's accesses to the page enter once; when the table fills,
//! it is rebuilt from the accesses the cells still name.
//!
//! A cell keeps [`READ_SLOTS`] reads. A read the new reader knows complete (its own included)
//! makes room; a read that finds no room is not kept. The reads kept are the earliest that
//! nothing ordered yet, so a later write unordered with one of them is found; a write ordered
//! after all of them but not after a read that was not kept is missed. Sanitizers accept the
//! same bound (ThreadSanitizer keeps four accesses per 8 bytes); a dword read by more than two
//! waves nothing orders is still reported when it is written, naming two of them.

use crate::addr::{AccessLog, FastMap, GlobalMemory};

/// Reads kept per cell.
pub(super) const READ_SLOTS: usize = 2;

/// Dwords per shadow page (4 KiB of global memory).
const PAGE_DWORDS: usize = 1024;

// A shadow page covers one page of global memory ([`GlobalShadow::visit`] reads what the
// writes left a page at a time).
const _: () = assert!(PAGE_DWORDS as u64 * 4 == crate::addr::PAGE_BYTES);

/// The bits of [`Acc::op`] that hold the operation's number on its counter.
const SEQ_BITS: u32 = 30;

/// One plain access in the shadow: the wave (its id), the instruction, and the operation's
/// wait counter (0 VMcnt, 1 VScnt, 2 LGKMcnt) and number there, packed into 12 bytes.
///
/// The number saturates at 2^30 - 1: a wave past a billion memory operations on one counter
/// would have its later ones ordered as its billionth (the default step limit stops a wave
/// after ten million instructions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Acc {
    pub(super) wave: u32,
    pub(super) pc: u32,
    op: u32,
}

impl Acc {
    /// No access.
    const NONE: Acc = Acc {
        wave: u32::MAX,
        pc: 0,
        op: 0,
    };

    /// Wave `wave`'s access at `pc`, operation `seq` on counter `counter`.
    pub(super) fn new(wave: u32, pc: usize, counter: u8, seq: u64) -> Acc {
        let seq = seq.min((1 << SEQ_BITS) - 1) as u32;
        Acc {
            wave,
            pc: pc as u32,
            op: (u32::from(counter) << SEQ_BITS) | seq,
        }
    }

    /// The wait counter (index into [`super::order::WaveNow::done`]).
    pub(super) fn counter(&self) -> usize {
        (self.op >> SEQ_BITS) as usize
    }

    /// The operation's number on its counter.
    pub(super) fn seq(&self) -> u64 {
        u64::from(self.op & ((1 << SEQ_BITS) - 1))
    }
}

/// How an access races with an earlier one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RaceKind {
    WriteAfterWrite,
    ReadAfterWrite,
    WriteAfterRead,
}

impl RaceKind {
    /// The words messages use.
    pub(super) fn text(self) -> &'static str {
        match self {
            RaceKind::WriteAfterWrite => "write-after-write",
            RaceKind::ReadAfterWrite => "read-after-write",
            RaceKind::WriteAfterRead => "write-after-read",
        }
    }
}

/// An earlier access the one being checked races with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Hit {
    pub(super) earlier: Acc,
    pub(super) kind: RaceKind,
    /// Whether the later access changed the byte: false for a write-after-write that left
    /// the value the earlier write left (a note, not a finding).
    pub(super) changed: bool,
    /// The first byte of the cell.
    pub(super) address: u64,
}

/// How a cell names an access: the access itself ([`Acc`], a split dword's byte cells), or
/// its index in its page's table of accesses (`u16`, a page's cells), 0 for none.
trait AccRef: Copy + PartialEq {
    const NONE: Self;
}

impl AccRef for Acc {
    const NONE: Acc = Acc::NONE;
}

impl AccRef for u16 {
    const NONE: u16 = 0;
}

/// A cell: the last plain write, the value it left (`V`: a dword's or a byte's), and the
/// reads since, each access named as `R` says ([`AccRef`]).
#[derive(Clone, Copy, Debug)]
struct Cell<V, R = Acc> {
    write: R,
    reads: [R; READ_SLOTS],
    value: V,
}

impl<V: Copy + PartialEq, R: AccRef> Cell<V, R> {
    const fn empty(value: V) -> Cell<V, R> {
        Cell {
            write: R::NONE,
            reads: [R::NONE; READ_SLOTS],
            value,
        }
    }

    /// Access `me` of this cell (a write leaving `now`), `acc` giving the access a name
    /// stands for and `known` whether `me`'s wave knows an earlier access complete; each
    /// earlier access it races with goes to `hit`.
    fn visit(
        &mut self,
        me: R,
        write: bool,
        now: V,
        acc: impl Fn(R) -> Acc,
        known: &impl Fn(&Acc) -> bool,
        mut hit: impl FnMut(Acc, RaceKind, bool),
    ) {
        if self.write != R::NONE {
            let w = acc(self.write);
            if !known(&w) {
                if write {
                    hit(w, RaceKind::WriteAfterWrite, self.value != now);
                } else {
                    hit(w, RaceKind::ReadAfterWrite, true);
                }
            }
        }
        if write {
            for &r in self.reads.iter().filter(|&&r| r != R::NONE) {
                let r = acc(r);
                if !known(&r) {
                    hit(r, RaceKind::WriteAfterRead, true);
                }
            }
            *self = Cell {
                write: me,
                reads: [R::NONE; READ_SLOTS],
                value: now,
            };
            return;
        }
        let mut free = None;
        for (i, r) in self.reads.iter_mut().enumerate() {
            if *r == R::NONE || known(&acc(*r)) {
                *r = R::NONE;
                free = free.or(Some(i));
            }
        }
        if let Some(i) = free {
            self.reads[i] = me;
        }
    }
}

/// A page's cell: its accesses are indices into the page's table ([`Page::accs`]).
type PackedCell = Cell<u32, u16>;

/// Entries a page's table of accesses holds at most (indices are `u16`).
const TABLE_ENTRIES: usize = 1 << 16;

/// One page of cells, which of its dwords are split, and the accesses its cells name.
struct Page {
    cells: Vec<PackedCell>,
    split: [u64; PAGE_DWORDS / 64],
    /// Entry 0 is [`Acc::NONE`]; the others, accesses cells name or named.
    accs: Vec<Acc>,
}

impl Page {
    fn new() -> Page {
        Page {
            cells: vec![PackedCell::empty(0); PAGE_DWORDS],
            split: [0; PAGE_DWORDS / 64],
            accs: vec![Acc::NONE],
        }
    }

    /// The access index `i` names.
    fn acc(&self, i: u16) -> Acc {
        self.accs[usize::from(i)]
    }

    /// The cell at `slot` with its accesses looked up (to split it into byte cells).
    fn cell(&self, slot: usize) -> Cell<u32> {
        let c = self.cells[slot];
        Cell {
            write: self.acc(c.write),
            reads: c.reads.map(|i| self.acc(i)),
            value: c.value,
        }
    }

    /// The index of access `me` in the table, entered now unless it is the last entry:
    /// an instruction's accesses to the page enter it once. When the table is full, it is
    /// first rebuilt from the accesses the cells name (at most 3 per dword).
    fn enter(&mut self, me: Acc) -> u16 {
        if self.accs.last() != Some(&me) {
            if self.accs.len() == TABLE_ENTRIES {
                self.rebuild();
            }
            self.accs.push(me);
        }
        (self.accs.len() - 1) as u16
    }

    /// Keeps only the accesses the cells name, renumbered in the order cells name them.
    fn rebuild(&mut self) {
        let mut new_index = vec![0u16; self.accs.len()];
        let mut kept = vec![Acc::NONE];
        for c in &mut self.cells {
            for i in std::iter::once(&mut c.write).chain(c.reads.iter_mut()) {
                let old = usize::from(*i);
                if old != 0 && new_index[old] == 0 {
                    kept.push(self.accs[old]);
                    new_index[old] = (kept.len() - 1) as u16;
                }
                *i = new_index[old];
            }
        }
        self.accs = kept;
    }
}

/// The shadow of global memory.
#[derive(Default)]
pub(super) struct GlobalShadow {
    pages: Vec<Page>,
    /// Page number (address / 4 KiB) to its index in `pages`.
    index: FastMap<u64, usize>,
    /// The last page looked up: (page number, index).
    last: Option<(u64, usize)>,
    /// Split dwords (by address): a cell per byte.
    split: FastMap<u64, [Cell<u8>; 4]>,
}

impl GlobalShadow {
    /// The index of the page holding `dword` (an address), made when new.
    fn page(&mut self, dword: u64) -> usize {
        let number = dword / (PAGE_DWORDS as u64 * 4);
        if let Some((n, i)) = self.last {
            if n == number {
                return i;
            }
        }
        let pages = &mut self.pages;
        let i = *self.index.entry(number).or_insert_with(|| {
            pages.push(Page::new());
            pages.len() - 1
        });
        self.last = Some((number, i));
        i
    }

    /// Checks access `me`'s plain accesses `log` (one instruction's) against the shadow and
    /// records them; `memory` holds what the writes left, `known` says whether `me`'s wave
    /// knows an earlier access complete. The races found go to `found`, by ascending
    /// address: each earlier access `me` races with at least once, at the first byte where
    /// it does, and again only where it says more — a write-after-write that changed the
    /// value after ones that did not (most instructions' races are one earlier
    /// instruction's, found at every dword, and a report of each would only repeat it).
    pub(super) fn visit(
        &mut self,
        me: Acc,
        log: &AccessLog,
        memory: &GlobalMemory,
        known: &impl Fn(&Acc) -> bool,
        mut found: impl FnMut(Hit),
    ) {
        // The page changes once per 4 KiB (a shadow page covers a page of memory): `me`
        // enters each page's table once, and the memory page is looked up once.
        let mut current: Option<(u64, usize, u16, Option<&[u8; PAGE_DWORDS * 4]>)> = None;
        let mut replay: Option<Replay> = None;
        let mut dwords = log.plain_dwords();
        while let Some((dword, read, written, run)) = dwords.next_run() {
            let number = dword / (PAGE_DWORDS as u64 * 4);
            let (p, me_index, bytes) = match current {
                Some((n, i, m, b)) if n == number => (i, m, b),
                _ => {
                    let i = self.page(dword);
                    let m = self.pages[i].enter(me);
                    let b = memory.page_bytes(dword);
                    current = Some((number, i, m, b));
                    // A replay names accesses by the last page's indices.
                    replay = None;
                    (i, m, b)
                }
            };
            let slot = ((dword / 4) as usize) % PAGE_DWORDS;
            let page = &mut self.pages[p];
            let write = written != 0;
            // `run` whole dwords (a 64-byte run lies in one page, at a multiple of 16
            // cells), all read or all written, none split: cell by cell, no more looking.
            let mask = u64::MAX >> (64 - run);
            let whole = read | written;
            let plain = whole == 0xf && (read == 0 || written == 0);
            if plain && page.split[slot / 64] >> (slot % 64) & mask == 0 {
                let mut j = 0;
                while j < run as usize {
                    let n = run as usize - j;
                    j += page.replay_quietly((slot + j, n, write), bytes, &replay);
                    if j == run as usize {
                        break;
                    }
                    let now = if write { word_at(bytes, slot + j) } else { 0 };
                    let at = dword + 4 * j as u64;
                    let visit = (slot + j, write, now, me_index);
                    page.visit_whole(visit, &mut replay, known, &mut hit_at(&mut found, at));
                    j += 1;
                }
                continue;
            }
            for j in 0..run as usize {
                let (dword, slot) = (dword + 4 * j as u64, slot + j);
                let page = &mut self.pages[p];
                let is_split = page.split[slot / 64] >> (slot % 64) & 1 == 1;
                if !is_split && plain {
                    let now = if write { word_at(bytes, slot) } else { 0 };
                    let visit = (slot, write, now, me_index);
                    page.visit_whole(visit, &mut replay, known, &mut hit_at(&mut found, dword));
                    continue;
                }
                if !is_split {
                    page.split[slot / 64] |= 1 << (slot % 64);
                    let c = page.cell(slot);
                    let bytes = c.value.to_le_bytes();
                    self.split.insert(
                        dword,
                        std::array::from_fn(|b| Cell {
                            write: c.write,
                            reads: c.reads,
                            value: bytes[b],
                        }),
                    );
                }
                let cells = self
                    .split
                    .get_mut(&dword)
                    .expect("a split dword has byte cells");
                for (b, cell) in cells.iter_mut().enumerate() {
                    if whole >> b & 1 == 0 {
                        continue;
                    }
                    let address = dword + b as u64;
                    let write = written >> b & 1 == 1;
                    let now = match bytes {
                        Some(page) if write => page[slot * 4 + b],
                        _ => 0,
                    };
                    cell.visit(me, write, now, |a| a, known, hit_at(&mut found, address));
                }
            }
        }
    }
}

/// The dword of cell `slot` in a page of memory's bytes (`None`: never written, 0).
#[inline(always)]
fn word_at(bytes: Option<&[u8; PAGE_DWORDS * 4]>, slot: usize) -> u32 {
    bytes.map_or(0, |b| {
        let at = slot * 4;
        u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
    })
}

impl Page {
    /// Replays `replay` on the cells from `slot` on (at most `n`, whole and not split; the
    /// access a write when `write`) for as long as they are in the state it was made in and
    /// its replay would report nothing — what [`Page::visit_whole`] does with each of them,
    /// in a loop of its own: an instruction's dwords are mostly in one state. A replay
    /// reports again only a write-after-write where the write changed the value
    /// ([`Replay::apply`]): most instructions race with nothing, and a grid whose workgroups
    /// all write one output writes the values already there. `bytes`: the page of memory
    /// (what a write left). Returns the cells replayed.
    #[inline(always)]
    fn replay_quietly(
        &mut self,
        (slot, n, write): (usize, usize, bool),
        bytes: Option<&[u8; PAGE_DWORDS * 4]>,
        replay: &Option<Replay>,
    ) -> usize {
        let Some(r) = replay.as_ref().filter(|r| r.write == write) else {
            return 0;
        };
        let loud = (r.hits[..r.found].iter()).any(|&(_, k)| k == RaceKind::WriteAfterWrite);
        let cells = &mut self.cells[slot..slot + n];
        let mut done = 0;
        for (j, cell) in cells.iter_mut().enumerate() {
            if !r.applies(cell, write) {
                break;
            }
            if write {
                let now = word_at(bytes, slot + j);
                if loud && cell.value != now {
                    break;
                }
                cell.value = now;
            }
            (cell.write, cell.reads) = r.after;
            done += 1;
        }
        done
    }

    /// A whole-dword plain access of cell `slot`, not split — `visit`: (slot, whether a
    /// write, the value it left, the access's index in the table) — replaying `replay` when
    /// the cell is in the state it was made in, else visiting and keeping the visit as
    /// `replay`; races to `hit`.
    #[inline(always)]
    fn visit_whole(
        &mut self,
        (slot, write, now, me_index): (usize, bool, u32, u16),
        replay: &mut Option<Replay>,
        known: &impl Fn(&Acc) -> bool,
        hit: &mut impl FnMut(Acc, RaceKind, bool),
    ) {
        let cell = &mut self.cells[slot];
        if let Some(r) = replay.as_ref().filter(|r| r.applies(cell, write)) {
            r.apply(cell, now, hit);
            return;
        }
        let mut r = Replay::before(cell, write);
        let (accs, cells) = (&self.accs, &mut self.cells);
        let acc = |i: u16| accs[usize::from(i)];
        cells[slot].visit(me_index, write, now, acc, known, |e, k, ch| {
            r.hits[r.found] = (e, k);
            r.found += 1;
            hit(e, k, ch)
        });
        r.after = (cells[slot].write, cells[slot].reads);
        *replay = Some(r);
    }
}

/// One packed cell's [`Cell::visit`] by the access being checked, kept to be replayed on
/// the next cell found in the same state (the accesses it names, as indices of the same
/// page): what a visit finds and leaves depends on that state alone, but for whether a
/// write changed the value. An instruction's neighbouring dwords are mostly in one state
/// (one earlier instruction's lanes wrote them), so most are replayed.
struct Replay {
    /// The write and reads the cell named, and whether the access wrote.
    before: (u16, [u16; READ_SLOTS]),
    write: bool,
    /// The write and reads it left.
    after: (u16, [u16; READ_SLOTS]),
    /// The races found: the earlier access and how (the first `found`).
    hits: [(Acc, RaceKind); READ_SLOTS + 1],
    found: usize,
}

impl Replay {
    /// A replay of a visit (a write when `write`) of `cell`, about to be made.
    fn before(cell: &PackedCell, write: bool) -> Replay {
        Replay {
            before: (cell.write, cell.reads),
            write,
            after: (0, [0; READ_SLOTS]),
            hits: [(Acc::NONE, RaceKind::WriteAfterWrite); READ_SLOTS + 1],
            found: 0,
        }
    }

    /// Whether a visit (a write when `write`) of `cell` is this one again.
    #[inline(always)]
    fn applies(&self, cell: &PackedCell, write: bool) -> bool {
        self.write == write && self.before == (cell.write, cell.reads)
    }

    /// The visit again, on `cell` (a write leaving `now`), its races to `hit` where they
    /// say more than the visit replayed said of them: only a write-after-write that changed
    /// the value ([`GlobalShadow::visit`]).
    #[inline(always)]
    fn apply(&self, cell: &mut PackedCell, now: u32, hit: &mut impl FnMut(Acc, RaceKind, bool)) {
        if self.write && self.found > 0 && cell.value != now {
            for &(earlier, kind) in &self.hits[..self.found] {
                if kind == RaceKind::WriteAfterWrite {
                    hit(earlier, kind, true);
                }
            }
        }
        (cell.write, cell.reads) = self.after;
        if self.write {
            cell.value = now;
        }
    }
}

/// What [`Cell::visit`] calls with each race it finds: a [`Hit`] at `address` to `found`.
fn hit_at(found: &mut impl FnMut(Hit), address: u64) -> impl FnMut(Acc, RaceKind, bool) + '_ {
    move |earlier, kind, changed| {
        found(Hit {
            earlier,
            kind,
            changed,
            address,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn acc(wave: u32, seq: u64) -> Acc {
        Acc::new(wave, wave as usize * 10, 0, seq)
    }

    /// Nothing ordered: a write after another wave's read and write races with both; a read
    /// after it races with the write; a wave's own accesses never race.
    #[test]
    fn a_cell_reports_what_nothing_ordered() {
        let mut c = Cell::<u32>::empty(0);
        let own = |me: u32| move |a: &Acc| a.wave == me;
        let mut hits = Vec::new();
        c.visit(
            acc(1, 0),
            false,
            0,
            |a| a,
            &own(1),
            |a, k, _| hits.push((a.wave, k)),
        );
        c.visit(
            acc(1, 1),
            true,
            5,
            |a| a,
            &own(1),
            |a, k, _| hits.push((a.wave, k)),
        );
        assert!(hits.is_empty(), "one wave's accesses are in program order");
        c.visit(
            acc(2, 0),
            false,
            5,
            |a| a,
            &own(2),
            |a, k, _| hits.push((a.wave, k)),
        );
        assert_eq!(hits, [(1, RaceKind::ReadAfterWrite)]);
        hits.clear();
        c.visit(
            acc(3, 0),
            true,
            5,
            |a| a,
            &own(3),
            |a, k, ch| {
                hits.push((a.wave, k));
                assert_eq!(
                    ch,
                    k != RaceKind::WriteAfterWrite,
                    "wave 3 wrote the same value"
                );
            },
        );
        assert_eq!(
            hits,
            [
                (1, RaceKind::WriteAfterWrite),
                (2, RaceKind::WriteAfterRead)
            ]
        );
    }

    /// Reads fill the slots; a read the new reader knows complete makes room, and when none
    /// does the new read is not kept (the earliest unordered reads stay).
    #[test]
    fn reads_keep_the_earliest_unordered() {
        let mut c = Cell::<u8>::empty(0);
        let none = |_: &Acc| false;
        for w in 1..=3 {
            c.visit(acc(w, 0), false, 0, |a| a, &none, |_, _, _| {});
        }
        assert_eq!(c.reads.map(|r| r.wave), [1, 2]);
        c.visit(
            acc(4, 0),
            false,
            0,
            |a| a,
            &|a: &Acc| a.wave == 1,
            |_, _, _| {},
        );
        assert_eq!(c.reads.map(|r| r.wave), [4, 2]);
        let mut hits = Vec::new();
        c.visit(
            acc(5, 0),
            true,
            1,
            |a| a,
            &|a: &Acc| a.wave == 2,
            |a, k, _| hits.push((a.wave, k)),
        );
        assert_eq!(hits, [(4, RaceKind::WriteAfterRead)]);
    }

    /// One access through the memory's log: wave `wave` writes `bytes` at `addr` (or reads
    /// `bytes.len()` bytes there when `write` is false); the races found, as
    /// (earlier wave, kind, first byte).
    fn access(
        shadow: &mut GlobalShadow,
        memory: &mut GlobalMemory,
        wave: u32,
        addr: u64,
        bytes: &[u8],
        write: bool,
    ) -> Vec<(u32, RaceKind, u64)> {
        memory.start_log();
        if write {
            memory.write_bytes(addr, bytes);
        } else {
            let mut out = vec![0; bytes.len()];
            memory.read_into(addr, &mut out);
        }
        let log = memory.take_log();
        let known = |a: &Acc| a.wave == wave;
        let mut hits = Vec::new();
        shadow.visit(acc(wave, 0), &log, memory, &known, |h| {
            hits.push((h.earlier.wave, h.kind, h.address))
        });
        hits
    }

    /// Bytes of one dword written by different waves do not race; the same byte does; a
    /// whole-dword read after them races with each writer, byte by byte (the dword split).
    #[test]
    fn byte_accesses_split_a_dword_and_race_per_byte() {
        let (mut sh, mut mem) = (GlobalShadow::default(), GlobalMemory::new());
        let w = RaceKind::WriteAfterWrite;
        assert!(access(&mut sh, &mut mem, 1, 0x100, &[1, 2, 3, 4], true).is_empty());
        // Wave 2 writes byte 1: it races with wave 1's write of that byte only.
        assert_eq!(
            access(&mut sh, &mut mem, 2, 0x101, &[9], true),
            [(1, w, 0x101)]
        );
        // Wave 3 writes byte 2 with the value it holds: a same-value race (not changed).
        mem.start_log();
        mem.write_bytes(0x102, &[3]);
        let log = mem.take_log();
        let mut hits = Vec::new();
        sh.visit(acc(3, 0), &log, &mem, &|a: &Acc| a.wave == 3, |h| {
            hits.push(h)
        });
        assert_eq!(hits.len(), 1);
        assert!(!hits[0].changed && hits[0].earlier.wave == 1);
        // Wave 4 reads the dword: byte 0 from wave 1, byte 1 from wave 2, 2 from 3, 3 from 1.
        let r = RaceKind::ReadAfterWrite;
        assert_eq!(
            access(&mut sh, &mut mem, 4, 0x100, &[0; 4], false),
            [(1, r, 0x100), (2, r, 0x101), (3, r, 0x102), (1, r, 0x103)]
        );
        // A dword of whole accesses keeps one cell: a second write races once, at its start.
        assert!(access(&mut sh, &mut mem, 1, 0x200, &[1, 0, 0, 0], true).is_empty());
        assert_eq!(
            access(&mut sh, &mut mem, 2, 0x200, &[2, 0, 0, 0], true),
            [(1, w, 0x200)]
        );
        assert!(sh.split.len() == 1, "only the dword at 0x100 is split");
    }

    /// A page's packed cells find what unpacked cells find, through more distinct accesses
    /// than its table holds (the table is rebuilt, and stays small).
    #[test]
    fn packed_cells_find_what_cells_find_past_a_full_table() {
        let mut rng = crate::xorshift::XorShift::new(0x5eed_1234_abcd_0042);
        let mut page = Page::new();
        let mut reference = vec![Cell::<u32>::empty(0); PAGE_DWORDS];
        let mut rebuilt = 0;
        for step in 0..200_000u64 {
            // Mostly a new access each step (wave `step`), on a few dwords, so the table
            // fills three times over; waves know the accesses of waves 7 below them.
            let slot = rng.below(8) as usize;
            let me = Acc::new(step as u32, (step % 97) as usize, 0, step);
            let write = rng.below(3) == 0;
            let now = rng.below(4) as u32;
            let known = |a: &Acc| a.wave + 7 >= me.wave && a.wave <= me.wave;
            let (mut got, mut want) = (Vec::new(), Vec::new());
            let entries = page.accs.len();
            let me_index = page.enter(me);
            rebuilt += usize::from(page.accs.len() < entries);
            let (accs, cells) = (&page.accs, &mut page.cells);
            let acc = |i: u16| accs[usize::from(i)];
            cells[slot].visit(me_index, write, now, acc, &known, |a, k, ch| {
                got.push((a, k, ch))
            });
            reference[slot].visit(
                me,
                write,
                now,
                |a| a,
                &known,
                |a, k, ch| want.push((a, k, ch)),
            );
            assert_eq!(got, want, "step {step}");
            let back = page.cell(slot);
            assert_eq!(
                (back.write, back.reads, back.value),
                (
                    reference[slot].write,
                    reference[slot].reads,
                    reference[slot].value
                ),
                "step {step}"
            );
        }
        assert!(rebuilt >= 2, "the table was rebuilt {rebuilt} times");
    }

    /// Races by earlier access, in the order first found: how, where first found, and
    /// whether any changed a value.
    fn summary(hits: &[Hit]) -> Vec<(Acc, RaceKind, u64, bool)> {
        let mut out: Vec<(Acc, RaceKind, u64, bool)> = Vec::new();
        for h in hits {
            match out.iter_mut().find(|o| o.0 == h.earlier) {
                Some(o) => o.3 |= h.changed,
                None => out.push((h.earlier, h.kind, h.address, h.changed)),
            }
        }
        out
    }

    /// Whole instructions through [`GlobalShadow::visit`], whose neighbouring dwords in one
    /// state replay the first one's visit ([`Replay`]), find what visiting an unpacked cell
    /// per dword finds (each earlier access first where it is first found, how, and whether
    /// any of its races changed a value), and leave the same cells: runs of dwords with
    /// one writer, reads and writes of runs half-covered by earlier ones, values the same or
    /// not, two pages.
    #[test]
    fn replayed_visits_find_what_visiting_each_dword_finds() {
        let mut rng = crate::xorshift::XorShift::new(0x7e91_aa02_5c3d_1177);
        let (mut sh, mut mem) = (GlobalShadow::default(), GlobalMemory::new());
        let mut reference: HashMap<u64, Cell<u32>> = HashMap::new();
        let (mut replayed, mut hits) = (0, 0);
        for step in 0..20_000u64 {
            let wave = rng.below(6) as u32;
            let me = Acc::new(wave, (step % 13) as usize, 0, step);
            let write = rng.below(2) == 0;
            // 1 to 32 dwords from a dword near a page boundary.
            let first = 4096 - 64 + 4 * rng.below(32);
            let n = 1 + rng.below(32);
            let value = rng.below(3) as u32;
            let known = |a: &Acc| a.wave == wave || (a.wave + 1 == wave && a.seq() + 50 < step);
            mem.start_log();
            for d in 0..n {
                let a = first + 4 * d;
                if write {
                    mem.write_u32(a, value + (d % 2) as u32 * rng.below(2) as u32);
                } else {
                    mem.read_u32(a);
                }
            }
            let log = mem.take_log();
            let mut got = Vec::new();
            sh.visit(me, &log, &mem, &known, |h| got.push(h));
            let mut want = Vec::new();
            for d in 0..n {
                let a = first + 4 * d;
                let now = if write { mem.read_u32(a) } else { 0 };
                let cell = reference.entry(a).or_insert(Cell::empty(0));
                cell.visit(
                    me,
                    write,
                    now,
                    |x| x,
                    &known,
                    |earlier, kind, changed| {
                        want.push(Hit {
                            earlier,
                            kind,
                            changed,
                            address: a,
                        })
                    },
                );
            }
            assert_eq!(summary(&got), summary(&want), "step {step}");
            assert!(got.iter().all(|h| want.contains(h)), "step {step}");
            hits += want.len();
            replayed += usize::from(n > 1 && !got.is_empty());
        }
        for (&a, c) in &reference {
            let i = sh.index[&(a / 4096)];
            let back = sh.pages[i].cell(((a / 4) as usize) % PAGE_DWORDS);
            assert_eq!(
                (back.write, back.reads, back.value),
                (c.write, c.reads, c.value)
            );
        }
        assert!(hits > 10_000 && replayed > 1_000, "{hits} {replayed}");
    }

    /// The packed operation keeps the counter and number, saturating the number.
    #[test]
    fn an_access_packs_its_operation() {
        let a = Acc::new(7, 3, 2, 41);
        assert_eq!((a.wave, a.pc, a.counter(), a.seq()), (7, 3, 2, 41));
        let big = Acc::new(7, 3, 1, u64::MAX);
        assert_eq!((big.counter(), big.seq()), (1, (1 << SEQ_BITS) - 1));
    }
}
