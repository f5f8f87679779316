//! Sparse, paged global memory with 48-bit virtual addresses.

use std::cell::RefCell;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use super::Allocations;

/// Hashes page numbers with one multiply (Fibonacci hashing). Page numbers are not chosen
/// by an adversary, and the default SipHash took a tenth of a kernel run.
#[derive(Clone, Copy, Debug, Default)]
pub struct PageHasher(u64);

impl Hasher for PageHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
}

/// A map keyed by page number.
/// A map hashed with [`PageHasher`]: for keys the simulator makes (page numbers, addresses,
/// wave ids), looked up on every access.
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<PageHasher>>;

type PageMap<V> = FastMap<u64, V>;

/// Width of a virtual address: the GPU shares the CPU's 48-bit virtual address space
/// (docs/rules/addressing.md#global-address-width).
pub const ADDRESS_BITS: u32 = 48;
/// Bytes per page of the sparse store.
pub const PAGE_BYTES: u64 = 4096;
const ADDRESS_MASK: u64 = (1 << ADDRESS_BITS) - 1;

/// Global memory: little-endian bytes at 48-bit virtual addresses, stored in 4 KiB pages that
/// exist once written. Unwritten memory reads 0, so a test can place data anywhere without
/// allocating gigabytes.
///
/// Addresses are taken modulo 2^48: the bits above 47 of a 64-bit address are ignored here
/// (callers that give them a meaning — the flat apertures — decide before they get here).
///
/// [`GlobalMemory::share`] makes a copy that shares the pages neither writes: a shared page is
/// copied when one of its holders first writes it (the host threads of an apart run each start
/// from one placed memory). A page only one memory holds is written in place, with no atomic
/// reference count to check.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GlobalMemory {
    pages: PageMap<PageSlot>,
    /// Whether accesses are being logged (see [`GlobalMemory::start_log`]).
    logging: bool,
    /// Whether the accesses now made are atomics (logged apart: see [`AccessLog`]).
    atomic: bool,
    /// The bytes read and written since logging started.
    log: RefCell<AccessLog>,
    /// Whether the cache lines accesses touch are being noted ([`GlobalMemory::trace_lines`]).
    tracing_lines: bool,
    /// The lines (addresses / [`crate::vcache::LINE_BYTES`]) touched since, in access order.
    lines: RefCell<Vec<u64>>,
    /// The host's allocations, which vector-memory accesses are checked against.
    pub allocations: Allocations,
    /// Bytes `start..end` that the runtime hands between the waves and the host through
    /// its own protocol (the hostcall buffer: packets passed by acquire/release stacks and
    /// the host's answer): their accesses are logged as atomics, which race with nothing.
    pub synchronised: Option<(u64, u64)>,
}

/// One page of bytes.
type Page = [u8; PAGE_BYTES as usize];

/// A new page holding `part` from byte `off`, zeros elsewhere (all zeros for an empty
/// `part`: a page nothing wrote reads 0). A page written whole is made from the bytes, not
/// zeroed first: a launch writes its buffers so, megabytes of them.
fn new_page(off: usize, part: &[u8]) -> Box<Page> {
    if part.len() == PAGE_BYTES as usize {
        if let Ok(whole) = <Box<Page>>::try_from(Box::<[u8]>::from(part)) {
            return whole;
        }
    }
    let mut p = Box::new([0; PAGE_BYTES as usize]);
    p[off..off + part.len()].copy_from_slice(part);
    p
}

/// A page of one memory, or shared by several ([`GlobalMemory::share`]). A shared page is
/// the box of the memory that owned it, so sharing a memory moves none of its bytes.
#[derive(Clone, Debug)]
enum PageSlot {
    Own(Box<Page>),
    // The small allocation of the Arc is the point: an `Arc<Page>` would copy the page's
    // bytes out of its box when the memory is shared (12 MB for saxpy's three buffers).
    #[allow(clippy::redundant_allocation)]
    Shared(Arc<Box<Page>>),
}

impl std::ops::Deref for PageSlot {
    type Target = Page;
    fn deref(&self) -> &Page {
        match self {
            PageSlot::Own(p) => p,
            PageSlot::Shared(p) => p,
        }
    }
}

/// Pages are equal by their bytes, owned or shared.
impl PartialEq for PageSlot {
    fn eq(&self, other: &PageSlot) -> bool {
        **self == **other
    }
}

impl PageSlot {
    /// The page to write: a shared one is first copied into one of its own.
    #[inline]
    fn own(&mut self) -> &mut Page {
        if let PageSlot::Shared(p) = self {
            *self = PageSlot::Own(Box::clone(p));
        }
        match self {
            PageSlot::Own(p) => p,
            // Not reached (made owned above); correct all the same.
            PageSlot::Shared(p) => Arc::make_mut(p).as_mut(),
        }
    }

    /// This page, shared: an owned page's box moves into the share.
    fn shared(self) -> PageSlot {
        match self {
            PageSlot::Own(p) => PageSlot::Shared(Arc::new(p)),
            s => s,
        }
    }
}

/// Bytes per block of an access log: a log keeps one bit per byte of each block an access
/// touched. Smaller than a memory page, so that a workgroup touching a strided tile (128
/// bytes of each of 32 rows, say) logs 32 small blocks, not 32 pages: a grid's logs are
/// kept for every WGP's block of a grid run apart until they are compared.
const LOG_BLOCK: u64 = 512;

/// One bit per byte of a log block, kept in the map's entry (no allocation of its own).
type PageBits = [u64; LOG_BLOCK as usize / 64];

/// Which bytes of global memory were read and which were written, one bit per byte, kept
/// while a workgroup runs on its own so the executor can check afterwards that no other
/// workgroup touched what it wrote ([`AccessLog::first_conflict`]).
///
/// Bytes an atomic read-modify-write touched are logged apart from plain reads and writes
/// ([`GlobalMemory::set_atomic`]): for running apart they count as both (the order of two
/// workgroups' atomics on one byte matters to what each returns), while for the race check
/// ([`AccessLog::plain_dwords`]) atomics do not race with one another.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AccessLog {
    reads: PageMap<PageBits>,
    writes: PageMap<PageBits>,
    atomics: PageMap<PageBits>,
}

/// The runs of the `n` bytes from `addr` (wrapping at 2^48) that each lie in one page, in
/// order: `(page number, offset in the page, offset in the run, length)`.
fn page_spans(addr: u64, n: u64) -> impl Iterator<Item = (u64, usize, usize, usize)> {
    block_spans(addr, n, PAGE_BYTES)
}

/// [`page_spans`] for blocks of `block` bytes.
fn block_spans(addr: u64, n: u64, block: u64) -> impl Iterator<Item = (u64, usize, usize, usize)> {
    let mut i = 0u64;
    std::iter::from_fn(move || {
        (i < n).then(|| {
            let a = addr.wrapping_add(i) & ADDRESS_MASK;
            let off = (a % block) as usize;
            let len = (block - off as u64).min(n - i);
            let span = (a / block, off, i as usize, len as usize);
            i += len;
            span
        })
    })
}

/// Sets the bits of the `n` bytes from `addr` (wrapping at 2^48), one lookup per block.
fn mark(map: &mut PageMap<PageBits>, addr: u64, n: u64) {
    for (page, off, _, len) in block_spans(addr, n, LOG_BLOCK) {
        let bits = map.entry(page).or_insert([0; LOG_BLOCK as usize / 64]);
        let (mut b, end) = (off, off + len);
        while b < end {
            let k = (end - b).min(64 - b % 64);
            let ones = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
            bits[b / 64] |= ones << (b % 64);
            b += k;
        }
    }
}

impl AccessLog {
    /// Adds `other`'s bytes to this log's (the accesses of both).
    pub fn merge(&mut self, other: &AccessLog) {
        for (mine, theirs) in [
            (&mut self.reads, &other.reads),
            (&mut self.writes, &other.writes),
            (&mut self.atomics, &other.atomics),
        ] {
            for (page, bits) in theirs {
                let m = mine.entry(*page).or_insert([0; LOG_BLOCK as usize / 64]);
                for (a, b) in m.iter_mut().zip(bits.iter()) {
                    *a |= b;
                }
            }
        }
    }

    /// Each dword plain reads or writes touched, by ascending address: the dword's address,
    /// the bytes read (bit `i`: byte `i` of the dword) and the bytes written.
    pub fn plain_dwords(&self) -> PlainDwords<'_> {
        // One instruction's accesses mostly lie in one block, read or written: no list of
        // blocks then.
        let (blocks, first) = match (self.reads.len(), self.writes.len()) {
            (0, 0) => (Vec::new(), None),
            (1, 0) => (
                Vec::new(),
                self.reads.iter().next().map(|(&b, r)| (b, r, NONE)),
            ),
            (0, 1) => (
                Vec::new(),
                self.writes.iter().next().map(|(&b, w)| (b, NONE, w)),
            ),
            _ => (blocks_of(&self.reads, &self.writes), None),
        };
        // With a list, the first block comes from it (as the next after a last word).
        let k = if first.is_some() { 0 } else { BLOCK_WORDS - 1 };
        let (block, r, w) = first.unwrap_or((0, NONE, NONE));
        PlainDwords {
            log: self,
            blocks,
            next: 0,
            block,
            r,
            w,
            k,
            m: r[k] | w[k],
        }
    }

    /// Forgets every access, keeping the space (a log reused for one instruction after
    /// another).
    pub fn clear(&mut self) {
        self.reads.clear();
        self.writes.clear();
        self.atomics.clear();
    }

    /// Whether plain reads or writes touched any byte.
    pub fn has_plain(&self) -> bool {
        !self.reads.is_empty() || !self.writes.is_empty()
    }

    /// The dwords (addresses, 4-aligned, ascending) atomics touched.
    pub fn atomic_dwords(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for (page, bits) in &self.atomics {
            for_bits(bits, |b| out.push((page * LOG_BLOCK + b as u64) & !3));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Bytes written.
    pub fn written_bytes(&self) -> u64 {
        count(&self.writes)
    }

    /// Bytes read.
    pub fn read_bytes(&self) -> u64 {
        count(&self.reads)
    }

    /// The written bytes' addresses (plain writes and atomics), ascending.
    pub fn written(&self) -> Vec<u64> {
        let mut pages: Vec<_> = self.writes.iter().chain(&self.atomics).collect();
        pages.sort_unstable_by_key(|(p, _)| **p);
        let mut out = Vec::new();
        for (page, bits) in pages {
            for_bits(bits, |b| out.push(page * LOG_BLOCK + b as u64));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Calls `f(address, length)` for each run of written bytes (plain writes and atomics),
    /// ascending; a run never crosses a log block, so never a page.
    fn for_written_runs(&self, mut f: impl FnMut(u64, usize)) {
        for block in blocks_of(&self.writes, &self.atomics) {
            let bits = or(bits_at(&self.writes, block), bits_at(&self.atomics, block));
            for_runs(&bits, |start, len| f(block * LOG_BLOCK + start as u64, len));
        }
    }

    /// The first pair of logs `(earlier, later)` where one wrote a byte the other read or
    /// wrote — where the order of the two matters — or `None` when every log's writes are its
    /// own. "First" in the order logs are taken one by one: the first log that clashes with
    /// any before it, and the first of those it clashes with. A run apart checks its blocks in
    /// that order as they end (`exec::grid`), so it can stop at the first clash, and the pair
    /// named does not depend on which block ended first.
    pub fn first_conflict(logs: &[&AccessLog]) -> Option<(usize, usize)> {
        let mut seen = AccessLog::default();
        for (b, log) in logs.iter().enumerate() {
            if let Some(a) = seen.first_clash(&logs[..b], log) {
                return Some((a, b));
            }
            seen.merge(log);
        }
        None
    }

    /// With this log the union of `earlier`: the first of `earlier` that clashes with `log`
    /// ([`AccessLog::clashes_with`]), if any (one union test when none does).
    pub fn first_clash(&self, earlier: &[&AccessLog], log: &AccessLog) -> Option<usize> {
        if !self.clashes_with(log) {
            return None;
        }
        earlier.iter().position(|e| e.clashes_with(log))
    }

    /// Whether one of this log and `other` wrote a byte the other touched (an atomic both
    /// reads and writes its bytes). For a union of logs: whether any of them clashes with
    /// `other`, as each test is an and of `other`'s bits with an or of theirs.
    pub fn clashes_with(&self, other: &AccessLog) -> bool {
        let written = |l: &AccessLog, b: u64| or(bits_at(&l.writes, b), bits_at(&l.atomics, b));
        let touched = |l: &AccessLog, b: u64| or(bits_at(&l.reads, b), written(l, b));
        let blocks = other
            .reads
            .keys()
            .chain(other.writes.keys())
            .chain(other.atomics.keys());
        blocks.into_iter().any(|&b| {
            any(and(written(self, b), touched(other, b)))
                || any(and(written(other, b), touched(self, b)))
        })
    }
}

/// Words of a log block's bits.
const BLOCK_WORDS: usize = LOG_BLOCK as usize / 64;

/// A log block's bits, by value.
type Block = [u64; BLOCK_WORDS];

/// The bits of a block with no access of a kind.
const NONE: &Block = &[0; BLOCK_WORDS];

/// The dwords of an [`AccessLog`]'s plain accesses ([`AccessLog::plain_dwords`]).
pub struct PlainDwords<'a> {
    log: &'a AccessLog,
    /// The blocks still to go after the current one, from `next` (empty: only the current).
    blocks: Vec<u64>,
    next: usize,
    /// The current block, its bits, its word `k` and the bits of that word not yet given.
    block: u64,
    r: &'a Block,
    w: &'a Block,
    k: usize,
    m: u64,
}

impl PlainDwords<'_> {
    /// Moves to the next word of bits with a bit set; false past the last.
    #[inline]
    fn advance(&mut self) -> bool {
        loop {
            if self.k + 1 < BLOCK_WORDS {
                self.k += 1;
            } else {
                let Some(&block) = self.blocks.get(self.next) else {
                    return false;
                };
                self.next += 1;
                self.block = block;
                self.r = self.log.reads.get(&block).unwrap_or(NONE);
                self.w = self.log.writes.get(&block).unwrap_or(NONE);
                self.k = 0;
            }
            self.m = self.r[self.k] | self.w[self.k];
            if self.m != 0 {
                return true;
            }
        }
    }

    /// The address of the current word's dword `shift / 4`.
    #[inline]
    fn address(&self, shift: u32) -> u64 {
        self.block * LOG_BLOCK + (self.k * 64) as u64 + u64::from(shift)
    }

    /// The next dword as [`Iterator::next`] gives it, with a count of 1; or, where a whole
    /// word of the log (16 dwords, 64 bytes) is read whole and not written, or written whole
    /// and not read, its first dword with a count of 16 (each of them accessed alike).
    #[inline]
    pub fn next_run(&mut self) -> Option<(u64, u8, u8, u32)> {
        if self.m == 0 && !self.advance() {
            return None;
        }
        let (r, w) = (self.r[self.k], self.w[self.k]);
        if self.m == r | w && (r | w) == u64::MAX && (r == 0 || w == 0) {
            self.m = 0;
            return Some((self.address(0), r as u8 & 0xf, w as u8 & 0xf, 16));
        }
        self.next().map(|(at, r, w)| (at, r, w, 1))
    }
}

impl Iterator for PlainDwords<'_> {
    type Item = (u64, u8, u8);

    #[inline]
    fn next(&mut self) -> Option<(u64, u8, u8)> {
        if self.m == 0 && !self.advance() {
            return None;
        }
        // The lowest dword with a bit set, by its nibble.
        let shift = self.m.trailing_zeros() & !3;
        self.m &= !(0xf << shift);
        let (r, w) = (self.r[self.k] >> shift, self.w[self.k] >> shift);
        Some((self.address(shift), r as u8 & 0xf, w as u8 & 0xf))
    }
}

/// The blocks `a` or `b` holds bits of, ascending.
fn blocks_of(a: &PageMap<PageBits>, b: &PageMap<PageBits>) -> Vec<u64> {
    let mut blocks: Vec<u64> = a.keys().chain(b.keys()).copied().collect();
    blocks.sort_unstable();
    blocks.dedup();
    blocks
}

/// The bits `map` holds for `block` (none: all zero).
fn bits_at(map: &PageMap<PageBits>, block: u64) -> Block {
    map.get(&block).map_or([0; BLOCK_WORDS], |b| *b)
}

fn or(a: Block, b: Block) -> Block {
    std::array::from_fn(|k| a[k] | b[k])
}

fn and(a: Block, b: Block) -> Block {
    std::array::from_fn(|k| a[k] & b[k])
}

fn any(a: Block) -> bool {
    a.iter().any(|&w| w != 0)
}

/// Calls `f` with the index of every set bit of `bits`.
fn for_bits(bits: &PageBits, mut f: impl FnMut(usize)) {
    for (w, &word) in bits.iter().enumerate() {
        let mut m = word;
        while m != 0 {
            f(w * 64 + m.trailing_zeros() as usize);
            m &= m - 1;
        }
    }
}

/// Calls `f(first bit, length)` for each run of set bits of `bits`, ascending.
fn for_runs(bits: &PageBits, mut f: impl FnMut(usize, usize)) {
    let mut run: Option<(usize, usize)> = None;
    for (w, &word) in bits.iter().enumerate() {
        let (mut m, mut pos) = (word, 0);
        while m != 0 {
            let zeros = m.trailing_zeros() as usize;
            m >>= zeros;
            pos += zeros;
            let ones = m.trailing_ones() as usize;
            let (s, e) = (w * 64 + pos, w * 64 + pos + ones);
            run = match run {
                Some((rs, re)) if re == s => Some((rs, e)),
                Some((rs, re)) => {
                    f(rs, re - rs);
                    Some((s, e))
                }
                None => Some((s, e)),
            };
            m = m.checked_shr(ones as u32).unwrap_or(0);
            pos += ones;
        }
    }
    if let Some((rs, re)) = run {
        f(rs, re - rs);
    }
}

fn count(map: &PageMap<PageBits>) -> u64 {
    map.values()
        .map(|b| b.iter().map(|w| w.count_ones() as u64).sum::<u64>())
        .sum()
}

impl GlobalMemory {
    /// Empty memory (every byte 0).
    pub fn new() -> GlobalMemory {
        GlobalMemory::default()
    }

    /// Number of pages that have been written.
    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    /// Starts logging which bytes are read and written, from an empty log.
    pub fn start_log(&mut self) {
        self.logging = true;
        self.log = RefCell::default();
    }

    /// Stops logging and returns the log.
    pub fn take_log(&mut self) -> AccessLog {
        self.logging = false;
        self.log.take()
    }

    /// Swaps `log` with the memory's log and logs (`logging`) or not from now on: the
    /// executor keeps one log per running workgroup this way.
    pub fn swap_log(&mut self, log: &mut AccessLog, logging: bool) {
        self.logging = logging;
        std::mem::swap(self.log.get_mut(), log);
    }

    /// Notes (or, with `false`, stops noting) the cache lines the accesses that follow touch,
    /// for the vector caches ([`crate::vcache`]): one vector memory instruction's accesses.
    pub fn trace_lines(&mut self, on: bool) {
        self.tracing_lines = on;
    }

    /// How many lines have been noted since [`GlobalMemory::trace_lines`] (a line noted
    /// twice counts twice): marks between lanes in [`GlobalMemory::traced_lines`].
    pub fn traced_len(&self) -> usize {
        self.lines.borrow().len()
    }

    /// The lines noted so far, in the order they were noted (a line once per access).
    pub fn traced_lines(&self) -> Vec<u64> {
        self.lines.borrow().clone()
    }

    /// The lines noted since [`GlobalMemory::trace_lines`], into `out` (emptied first),
    /// sorted and each once; the memory's list is left empty.
    pub fn take_lines(&mut self, out: &mut Vec<u64>) {
        out.clear();
        std::mem::swap(self.lines.get_mut(), out);
        out.sort_unstable();
        out.dedup();
    }

    /// Marks the accesses that follow as atomics (or, with `false`, plain again) in the log.
    pub fn set_atomic(&mut self, atomic: bool) {
        self.atomic = atomic;
    }

    /// Logs a read (or, with `write`, a write) of the `n` bytes from `addr` while logging:
    /// into the atomics' log while [`GlobalMemory::set_atomic`] is on.
    #[inline]
    fn log(&self, addr: u64, n: u64, write: bool) {
        if self.tracing_lines {
            // Every line the access covers (wrapping at 2^48, as the access does).
            let mut lines = self.lines.borrow_mut();
            lines.extend(block_spans(addr, n, crate::vcache::LINE_BYTES).map(|(line, ..)| line));
        }
        if self.logging {
            let mut log = self.log.borrow_mut();
            let handed = self
                .synchronised
                .is_some_and(|(start, end)| addr >= start && addr < end);
            let map = match (self.atomic || handed, write) {
                (true, _) => &mut log.atomics,
                (false, true) => &mut log.writes,
                (false, false) => &mut log.reads,
            };
            mark(map, addr, n);
        }
    }

    /// Copies from `from` every byte `log` says was written (plain writes and atomics), a
    /// run of consecutive bytes at a time.
    pub fn copy_written(&mut self, from: &GlobalMemory, log: &AccessLog) {
        let mut buf = [0u8; LOG_BLOCK as usize];
        log.for_written_runs(|addr, len| {
            from.read_into(addr, &mut buf[..len]);
            self.write_bytes(addr, &buf[..len]);
        });
    }

    /// The bytes `log` says were written (plain writes and atomics), as runs: each run's
    /// address and length, ascending, and their bytes one run after another.
    pub fn written_runs(&self, log: &AccessLog) -> (Vec<(u64, u32)>, Vec<u8>) {
        let (mut runs, mut bytes) = (Vec::new(), Vec::new());
        log.for_written_runs(|addr, len| {
            let at = bytes.len();
            bytes.resize(at + len, 0);
            self.read_into(addr, &mut bytes[at..]);
            runs.push((addr, len as u32));
        });
        (runs, bytes)
    }

    /// Reads a byte.
    #[inline]
    pub fn read_u8(&self, addr: u64) -> u8 {
        self.log(addr, 1, false);
        let a = addr & ADDRESS_MASK;
        self.pages
            .get(&(a / PAGE_BYTES))
            .map_or(0, |p| p[(a % PAGE_BYTES) as usize])
    }

    /// Writes a byte.
    #[inline]
    pub fn write_u8(&mut self, addr: u64, v: u8) {
        self.log(addr, 1, true);
        let a = addr & ADDRESS_MASK;
        self.page_mut(a / PAGE_BYTES)[(a % PAGE_BYTES) as usize] = v;
    }

    /// Page `page` to write: made (zeroed) if it does not exist, copied if it is shared.
    #[inline]
    fn page_mut(&mut self, page: u64) -> &mut Page {
        self.pages
            .entry(page)
            .or_insert_with(|| PageSlot::Own(new_page(0, &[])))
            .own()
    }

    /// A copy of this memory that shares its pages with it (each page here becomes shared
    /// too): a page is copied when one of its holders first writes it.
    pub fn share(&mut self) -> GlobalMemory {
        let pages = std::mem::take(&mut self.pages);
        self.pages = pages.into_iter().map(|(n, p)| (n, p.shared())).collect();
        self.clone()
    }

    /// The bytes of the 4 KiB page holding `addr` (`None` while nothing wrote it: it reads 0),
    /// not logged: for an observer that reads what accesses left, page by page.
    #[inline]
    pub fn page_bytes(&self, addr: u64) -> Option<&[u8; PAGE_BYTES as usize]> {
        let a = addr & ADDRESS_MASK;
        self.pages.get(&(a / PAGE_BYTES)).map(|p| &**p)
    }

    /// Reads `N` bytes starting at `addr` (wrapping at 2^48).
    #[inline]
    pub fn read_bytes<const N: usize>(&self, addr: u64) -> [u8; N] {
        let a = addr & ADDRESS_MASK;
        let off = (a % PAGE_BYTES) as usize;
        if off + N <= PAGE_BYTES as usize {
            self.log(a, N as u64, false);
            return match self.pages.get(&(a / PAGE_BYTES)) {
                Some(p) => {
                    let mut out = [0; N];
                    out.copy_from_slice(&p[off..off + N]);
                    out
                }
                None => [0; N],
            };
        }
        std::array::from_fn(|i| self.read_u8(a + i as u64))
    }

    /// Fills `out` with the bytes from `addr` (wrapping at 2^48), one page lookup per page.
    pub fn read_into(&self, addr: u64, out: &mut [u8]) {
        self.log(addr, out.len() as u64, false);
        for (page, off, i, len) in page_spans(addr, out.len() as u64) {
            match self.pages.get(&page) {
                Some(p) => out[i..i + len].copy_from_slice(&p[off..off + len]),
                None => out[i..i + len].fill(0),
            }
        }
    }

    /// Writes bytes starting at `addr` (wrapping at 2^48).
    pub fn write_bytes(&mut self, addr: u64, bytes: &[u8]) {
        self.log(addr, bytes.len() as u64, true);
        for (page, off, i, len) in page_spans(addr, bytes.len() as u64) {
            let part = &bytes[i..i + len];
            match self.pages.entry(page) {
                Entry::Occupied(e) => e.into_mut().own()[off..off + len].copy_from_slice(part),
                Entry::Vacant(e) => {
                    e.insert(PageSlot::Own(new_page(off, part)));
                }
            }
        }
    }

    /// Reads a little-endian dword at any byte address.
    #[inline]
    pub fn read_u32(&self, addr: u64) -> u32 {
        u32::from_le_bytes(self.read_bytes::<4>(addr))
    }

    /// Writes a little-endian dword at any byte address.
    pub fn write_u32(&mut self, addr: u64, v: u32) {
        self.write_bytes(addr, &v.to_le_bytes());
    }

    /// Writes `words` as consecutive little-endian dwords from `addr`.
    pub fn write_words(&mut self, addr: u64, words: &[u32]) {
        for (i, w) in words.iter().enumerate() {
            self.write_u32(addr.wrapping_add(4 * i as u64), *w);
        }
    }

    /// Fills `out` with the consecutive dwords from `addr`, one page lookup per page.
    pub fn read_words(&self, addr: u64, out: &mut [u32]) {
        let mut i = 0;
        while i < out.len() {
            let a = addr.wrapping_add(4 * i as u64) & ADDRESS_MASK;
            let off = (a % PAGE_BYTES) as usize;
            // Whole dwords left in this page from `a`.
            let n = ((PAGE_BYTES as usize - off) / 4).min(out.len() - i);
            if n == 0 {
                out[i] = self.read_u32(a);
                i += 1;
                continue;
            }
            self.log(a, 4 * n as u64, false);
            match self.pages.get(&(a / PAGE_BYTES)) {
                Some(p) => {
                    for (k, w) in out[i..i + n].iter_mut().enumerate() {
                        let b = off + 4 * k;
                        *w = u32::from_le_bytes([p[b], p[b + 1], p[b + 2], p[b + 3]]);
                    }
                }
                None => out[i..i + n].fill(0),
            }
            i += n;
        }
    }

    /// The dwords from byte `start` up to byte `end` (exclusive; a trailing partial dword is
    /// read whole).
    pub fn words(&self, start: u64, end: u64) -> Vec<u32> {
        (0..end.saturating_sub(start).div_ceil(4))
            .map(|i| self.read_u32(start.wrapping_add(4 * i)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shared copies share pages until one writes: a write through either never shows in the
    /// other, whether it lands on a shared page, a page only one has, or across two pages.
    #[test]
    fn shared_copies_write_their_own_copies_of_shared_pages() {
        let mut a = GlobalMemory::new();
        a.write_bytes(0x1000, &[7; 8192]);
        let mut b = a.share();
        assert_eq!(a, b);
        b.write_u32(0x1ffe, 0xdead_beef);
        a.write_u8(0x1000, 1);
        b.write_u8(0x9000, 2);
        assert_eq!(
            (a.read_u32(0x1ffe), b.read_u32(0x1ffe)),
            (0x0707_0707, 0xdead_beef)
        );
        assert_eq!((a.read_u8(0x1000), b.read_u8(0x1000)), (1, 7));
        assert_eq!((a.read_u8(0x9000), b.read_u8(0x9000)), (0, 2));
        assert_eq!((a.pages(), b.pages()), (2, 3));
        assert_eq!(a.read_u8(0x2fff), b.read_u8(0x2fff));
    }

    /// Writes of whole new pages (made from the bytes), of parts of pages and across pages
    /// leave what writing their bytes one at a time leaves.
    #[test]
    fn writes_of_whole_pages_and_parts_leave_what_byte_writes_leave() {
        let mut rng = crate::xorshift::XorShift::new(0x2545_f491_4f6c_dd1d);
        let (mut fast, mut slow) = (GlobalMemory::new(), GlobalMemory::new());
        for _ in 0..60 {
            let page = rng.below(6) * PAGE_BYTES;
            let (addr, len) = match rng.below(3) {
                0 => (page, PAGE_BYTES as usize * (1 + rng.below(2) as usize)),
                1 => (
                    page + rng.below(PAGE_BYTES),
                    1 + rng.below(3 * PAGE_BYTES) as usize,
                ),
                _ => (page + rng.below(PAGE_BYTES - 8), 1 + rng.below(8) as usize),
            };
            let bytes: Vec<u8> = (0..len).map(|_| 1 + rng.below(255) as u8).collect();
            fast.write_bytes(addr, &bytes);
            for (k, &b) in bytes.iter().enumerate() {
                slow.write_u8(addr + k as u64, b);
            }
        }
        let end = 9 * PAGE_BYTES;
        assert_eq!(fast.words(0, end), slow.words(0, end));
        assert_eq!(fast.pages(), slow.pages());
    }

    /// `copy_written` moves exactly the bytes `written` lists: random plain and atomic writes
    /// of 1 to 700 bytes, across log blocks and pages, single bits and whole blocks.
    #[test]
    fn copy_written_copies_the_written_bytes_and_no_others() {
        let mut rng = crate::xorshift::XorShift::new(0x9e37_79b9_7f4a_7c15);
        for round in 0..200 {
            // Bytes nobody wrote under the log hold 0xab in `from`: copying one shows.
            let mut from = GlobalMemory::new();
            from.write_bytes(0x1_0000, &[0xab; 4 * PAGE_BYTES as usize]);
            from.start_log();
            for _ in 0..1 + rng.below(12) {
                from.set_atomic(rng.below(4) == 0);
                let addr = 0x1_0000 + rng.below(3 * PAGE_BYTES);
                let most = if rng.below(3) == 0 { 700 } else { 9 };
                let len = 1 + rng.below(most) as usize;
                let bytes: Vec<u8> = (0..len).map(|_| 1 + rng.below(255) as u8).collect();
                from.write_bytes(addr, &bytes);
            }
            from.set_atomic(false);
            let log = from.take_log();
            let mut want = GlobalMemory::new();
            for a in log.written() {
                want.write_u8(a, from.read_u8(a));
            }
            let mut got = GlobalMemory::new();
            got.copy_written(&from, &log);
            let (lo, hi) = (0x1_0000, 0x1_0000 + 4 * PAGE_BYTES);
            assert_eq!(got.words(lo, hi), want.words(lo, hi), "round {round}");
            assert!(got.words(lo, hi).iter().any(|&w| w != 0), "round {round}");
        }
    }

    /// A log of what `f` did to a fresh logging memory.
    fn logged(f: impl FnOnce(&mut GlobalMemory)) -> AccessLog {
        let mut m = GlobalMemory::new();
        m.start_log();
        f(&mut m);
        m.take_log()
    }

    #[test]
    fn the_access_log_counts_bytes_across_pages() {
        let log = logged(|m| {
            m.write_bytes(PAGE_BYTES - 3, &[1; 8]);
            let mut buf = [0; 100];
            m.read_into(0x5000 - 50, &mut buf);
            m.read_u32(0x9000);
        });
        assert_eq!(log.written_bytes(), 8);
        assert_eq!(log.read_bytes(), 104);
        let w: Vec<u64> = (PAGE_BYTES - 3..PAGE_BYTES + 5).collect();
        assert_eq!(log.written(), w);
    }

    #[test]
    fn conflicts_are_shared_written_bytes_and_reads_of_others_writes() {
        let a = logged(|m| m.write_u32(0x100, 1));
        let b = logged(|m| m.write_u32(0x104, 2));
        let reads_a = logged(|m| {
            m.read_u8(0x103);
        });
        let reads_own = logged(|m| {
            m.write_u8(0x200, 1);
            m.read_u8(0x200);
        });
        let writes_a = logged(|m| m.write_u8(0x102, 7));
        assert_eq!(AccessLog::first_conflict(&[&a, &b, &reads_own]), None);
        assert_eq!(AccessLog::first_conflict(&[&a, &b, &reads_a]), Some((0, 2)));
        assert_eq!(AccessLog::first_conflict(&[&reads_a, &b, &a]), Some((0, 2)));
        assert_eq!(
            AccessLog::first_conflict(&[&b, &writes_a, &a]),
            Some((1, 2))
        );
        // Logging off: nothing is logged.
        let mut m = GlobalMemory::new();
        m.write_u32(0, 1);
        assert_eq!(m.take_log().written_bytes(), 0);
    }

    /// `next_run` gives what the iterator gives, a whole word read alone or written alone
    /// as one run of 16 dwords: random whole-word and partial accesses over two blocks.
    #[test]
    fn runs_are_the_dwords_of_whole_words() {
        let mut rng = crate::xorshift::XorShift::new(0x51f1_0a4c_77e2_9b03);
        let mut runs = 0;
        for _ in 0..300 {
            let mut m = GlobalMemory::new();
            m.start_log();
            for _ in 0..rng.below(5) {
                let addr = 0x2000 + 64 * rng.below(16) + [0, 0, 4, 1][rng.below(4) as usize];
                let n = [64, 64, 128, 4, 60][rng.below(5) as usize];
                if rng.below(2) == 0 {
                    m.read_into(addr, &mut vec![0; n]);
                } else {
                    m.write_bytes(addr, &vec![1; n]);
                }
            }
            let log = m.take_log();
            let want: Vec<(u64, u8, u8)> = log.plain_dwords().collect();
            let mut got = Vec::new();
            let mut it = log.plain_dwords();
            while let Some((at, r, w, n)) = it.next_run() {
                if n == 16 {
                    assert!(at % 64 == 0 && (r, w) != (0xf, 0xf) && r | w == 0xf);
                    runs += 1;
                }
                got.extend((0..u64::from(n)).map(|k| (at + 4 * k, r, w)));
            }
            assert_eq!(got, want);
        }
        assert!(runs > 100, "{runs}");
    }

    /// Random logs of plain reads, writes and atomics over a few blocks: the plain dwords
    /// and the first conflicting pair are those a byte-by-byte reference finds.
    #[test]
    fn races_and_conflicts_agree_with_a_byte_by_byte_reference() {
        use std::collections::{BTreeSet, HashMap};
        let mut rng = crate::xorshift::XorShift::new(0x9e37_79b9_7f4a_7c15u64);
        let mut next = move |n: u64| rng.below(n);
        for _ in 0..300 {
            let count = 1 + next(5) as usize;
            // Per log: (kind 0 read / 1 write / 2 atomic, address, length).
            let mut logs = Vec::new();
            let mut acc: Vec<HashMap<u64, [bool; 3]>> = vec![HashMap::new(); count];
            for a in acc.iter_mut() {
                let mut m = GlobalMemory::new();
                m.start_log();
                for _ in 0..next(6) {
                    let (kind, addr, n) = (next(3), 0x1000 + next(3 * LOG_BLOCK), 1 + next(9));
                    m.set_atomic(kind == 2);
                    if kind == 0 {
                        let mut out = vec![0; n as usize];
                        m.read_into(addr, &mut out);
                    } else {
                        m.write_bytes(addr, &vec![1; n as usize]);
                    }
                    for b in addr..addr + n {
                        a.entry(b).or_default()[kind as usize] = true;
                    }
                }
                logs.push(m.take_log());
            }
            let refs: Vec<&AccessLog> = logs.iter().collect();
            let bytes: BTreeSet<u64> = acc.iter().flat_map(|a| a.keys().copied()).collect();
            let mut first = None;
            for &b in &bytes {
                let k = |i: usize, kind: usize| acc[i].get(&b).is_some_and(|f| f[kind]);
                for i in 0..count {
                    for j in 0..count {
                        let (w, r) = (k(i, 1) || k(i, 2), k(j, 0) || k(j, 1) || k(j, 2));
                        // The first log to clash with an earlier one, then the earliest.
                        let pair = (i.max(j), i.min(j));
                        if i != j && w && r && first.is_none_or(|f| pair < f) {
                            first = Some(pair);
                        }
                    }
                }
            }
            for (i, log) in logs.iter().enumerate() {
                let mut seen = Vec::new();
                for (d, r, w) in log.plain_dwords() {
                    for b in 0..4 {
                        if (r | w) >> b & 1 == 1 {
                            seen.push((d + b, w >> b & 1 == 1));
                        }
                    }
                }
                let want: Vec<(u64, bool)> = bytes
                    .iter()
                    .filter_map(|&b| {
                        let f = acc[i].get(&b)?;
                        (f[0] || f[1]).then_some((b, f[1]))
                    })
                    .collect();
                assert_eq!(seen, want);
            }
            let first = first.map(|(later, earlier)| (earlier, later));
            assert_eq!(AccessLog::first_conflict(&refs), first);
        }
    }

    /// The lines traced are every 128-byte line an access covers, once each, sorted; a
    /// wrapping access covers the last line and the first.
    #[test]
    fn traced_lines_are_the_lines_accesses_cover() {
        let mut m = GlobalMemory::new();
        m.trace_lines(true);
        m.write_bytes(124, &[1; 8]);
        m.read_u8(130);
        let mut out = vec![99];
        m.read_into((1u64 << 48) - 4, &mut [0; 8]);
        m.trace_lines(false);
        m.read_u8(4096);
        m.take_lines(&mut out);
        assert_eq!(out, vec![0, 1, ((1u64 << 48) - 4) / 128]);
        m.take_lines(&mut out);
        assert!(out.is_empty(), "taken once");
    }

    #[test]
    fn unwritten_memory_reads_zero_and_allocates_nothing() {
        let m = GlobalMemory::new();
        assert_eq!(m.read_u32(0x7fff_ffff_f000), 0);
        assert_eq!(m.pages(), 0);
    }

    #[test]
    fn dwords_are_little_endian_and_may_straddle_pages() {
        let mut m = GlobalMemory::new();
        m.write_u32(0x1ffe, 0x1122_3344);
        assert_eq!(m.read_u8(0x1ffe), 0x44);
        assert_eq!(m.read_u8(0x2001), 0x11);
        assert_eq!(m.read_u32(0x1ffe), 0x1122_3344);
        assert_eq!(m.pages(), 2);
        assert_eq!(m.words(0x1ffc, 0x2004), vec![0x3344_0000, 0x0000_1122]);
        // read_words agrees with dword reads across the page boundary, aligned or not.
        for start in [0x1ff0u64, 0x1ff2, 0x1ffe] {
            let mut out = [0u32; 6];
            m.read_words(start, &mut out);
            let want: Vec<u32> = (0..6).map(|i| m.read_u32(start + 4 * i)).collect();
            assert_eq!(out.to_vec(), want, "{start:#x}");
        }
    }

    #[test]
    fn addresses_wrap_at_48_bits() {
        let mut m = GlobalMemory::new();
        m.write_u32(0xffff_0000_0000_0010, 7);
        assert_eq!(m.read_u32(0x10), 7);
        // A dword at the top of the address space wraps to address 0.
        m.write_u32((1 << 48) - 2, 0xaabb_ccdd);
        assert_eq!(m.read_u8(0), 0xbb);
        assert_eq!(m.read_u32((1 << 48) - 2), 0xaabb_ccdd);
    }
}
