//! The checker (`gpumemsim check`, issue 20): observers of the executor that find what
//! CUDA's compute-sanitizer finds — LDS races (racecheck), lanes of one store colliding,
//! waves at different barriers or at a barrier others left (synccheck), reads of LDS nothing
//! wrote (initcheck) — and plain global accesses of one byte by two workgroups. They watch;
//! they never change what the executor computes. All of it runs only with
//! [`RunConfig::check`](super::RunConfig::check).
//!
//! # LDS: the shadow
//! Each workgroup gets a shadow of its LDS allocation, made when it first needs one and
//! dropped when its last wave ends; the shadow's pages (256 bytes of LDS each) exist only once
//! touched. Per byte it keeps the last write and the reads since then, each a reference to an
//! [`Access`]: one per execution of an LDS instruction by a wave (its pc, wave, whether it is
//! an atomic, and what proves it complete), not one per lane. The DS model, LDSDIR and the
//! vector-memory model report every in-range lane access through [`crate::lds::Lds::touch`];
//! the executor hands the trace here after each instruction. The DS row forms' dword loads
//! come instead as their address rows ([`crate::ds::DsOutcome::row_reads`]): each distinct
//! dword is checked once, for all the lanes that read it ([`RowDwords`]).
//!
//! # Ordering: barriers after waits
//! LDS operations of a wave complete in order, and the wave's waits prove them complete
//! ([`super::OrderedOps`]: operation `k` is proven once `waited > k`). Barrier generation `g` of a
//! workgroup is the span between its `g`-th and `g+1`-th release; every live wave arrives once
//! per generation, so a wave's `n`-th arrival is at generation `n`. Access A (wave w,
//! operation k, generation g) is ordered before access B of another wave made in generation
//! `g'` iff w arrived at some barrier of generation `h`, `g <= h < g'`, having waited past k.
//! Arrivals only grow later and waits only grow, so only w's latest arrival before `g'` needs
//! checking, and an access once ordered before a later one stays ordered before every
//! access after it: that is why a byte keeps only the last write and the reads since it.
//!
//! Two accesses of one byte race when they come from different waves, at least one is a
//! write, not both are atomics, and the earlier is not ordered before the later. A wave's own
//! accesses never race (they are in program order). LDSDIR reads (`lds_param_load`,
//! `lds_direct_load`) count on EXPcnt, which this model does not follow: a choice, they count
//! as complete at the wave's next barrier (a missing `expcnt` wait is not reported).
//!
//! One event per (instruction execution, earlier instruction): the event's pc is the later
//! access, `detail.pcs` the earlier one, `detail.waves` the earlier access's waves,
//! `detail.lanes` the later instruction's lanes involved and `detail.address` the first byte
//! (an offset in the workgroup's allocation).
//!
//! # Barriers
//! At each release the workgroup's waiting waves are compared: waiting at different
//! `s_barrier` instructions is `barrier_divergence`. On gfx11 a wave that ended no longer
//! counts toward the barrier, so no barrier is ever left unsatisfiable in the hardware's
//! sense; what compute-sanitizer's synccheck would call a barrier error is a wave that took
//! part in the workgroup's barriers and then ended while the others went on to a barrier it
//! never reached (a barrier in code the ending wave skipped). A wave that ends before any
//! barrier — a whole wave past the end of the data returning early, which clang-built
//! kernels do — is not reported: only waves that arrived at one barrier or more.
//!
//! # Global races
//! Workgroups share nothing but global memory, so plain accesses (not atomics) of one byte by
//! two workgroups, one of them a write, race whatever the schedule. The grid runner already
//! logs every byte each workgroup touches ([`AccessLog`]) to decide whether workgroups may run
//! apart; atomics are logged apart, and [`AccessLog::plain_races`] gives the racing bytes.
//! To name the instructions, the grid runs again together watching only those bytes
//! ([`GlobalWatch`]): a grid without races never pays for that second run.

use std::collections::HashMap;

use super::{Device, Waiting};
use crate::addr::{AccessLog, RaceBytes};
use crate::ds::DsOutcome;
use crate::event::{Event, EventDetail};
use crate::lds::LdsTouch;

/// LDS bytes per shadow page.
const PAGE: usize = 256;
/// A read reference with this bit set: the byte's reads are the list [`GroupShadow::lists`]
/// holds at the index in the other bits.
const MULTI: u32 = 1 << 31;
/// Reads of one global byte kept for the race check (distinct workgroups).
const GLOBAL_READS_KEPT: usize = 16;

/// One execution of an LDS instruction by a wave.
#[derive(Clone, Copy, Debug)]
struct Access {
    pc: u32,
    /// The wave's index in its workgroup.
    wave: u32,
    atomic: bool,
    /// Barrier generation it was made in.
    generation: u32,
    /// The wave's `OrderedOps::waited` that proves it complete (its operation number + 1; 0 for
    /// LDSDIR: any later barrier).
    need: u64,
}

/// A wave's barrier arrivals: its `count`-th arrival (0-based) was at generation `count`.
#[derive(Clone, Copy, Debug, Default)]
struct Arrivals {
    count: u32,
    /// `OrderedOps::waited` at the latest arrival.
    last: u64,
    /// At the one before.
    prev: u64,
}

/// The shadow of one page of LDS: per byte, the last write and the reads since (references
/// into [`GroupShadow::accesses`] plus 1; 0 for none).
///
/// A page starts in word mode: while every access to it is of whole aligned dwords, the four
/// bytes of a dword always share their state, so only each dword's first byte is kept and
/// checked (a quarter of the work). The first access of part of a dword turns the page into
/// byte mode for good, giving each byte its own copy of its dword's state.
struct Page {
    write: [u32; PAGE],
    read: [u32; PAGE],
    /// Byte mode: every byte's entries are its own.
    bytes: bool,
}

/// One workgroup's checker state.
struct GroupShadow {
    generation: u32,
    arrivals: Vec<Arrivals>,
    /// The pc each ended wave ended at.
    ended_at: Vec<Option<usize>>,
    /// Ended waves already reported as leaving a barrier.
    left_reported: Vec<bool>,
    accesses: Vec<Access>,
    pages: Vec<Option<Box<Page>>>,
    /// Reads of bytes that more than one wave read with none ordered before the others: lists
    /// indexed by the byte's read reference (without [`MULTI`]).
    lists: ReadLists,
    /// The table of [`Memo::listed`] between instructions.
    listed: Vec<u64>,
}

impl GroupShadow {
    fn new(waves: usize, lds_bytes: u32) -> GroupShadow {
        GroupShadow {
            generation: 0,
            arrivals: vec![Arrivals::default(); waves],
            ended_at: vec![None; waves],
            left_reported: vec![false; waves],
            accesses: Vec::new(),
            pages: (0..(lds_bytes as usize).div_ceil(PAGE))
                .map(|_| None)
                .collect(),
            lists: ReadLists::new(waves),
            listed: Vec::new(),
        }
    }

    /// Whether access `r` (a reference) is ordered before what wave `me` does now.
    #[inline]
    fn ordered(&self, r: u32, me: u32) -> bool {
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

    /// Whether `r` and `x` are both atomics.
    #[inline]
    fn both_atomic(&self, r: u32, x: u32) -> bool {
        self.accesses[r as usize - 1].atomic && self.accesses[x as usize - 1].atomic
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
struct ReadLists {
    cells: Vec<u32>,
    stride: usize,
    free: Vec<u32>,
    /// Per list: the bytes (and byte-mode copies) holding it; 0 when free.
    refs: Vec<u32>,
    /// Per list: bumped each time it is freed, so a remembered list id that was freed (and
    /// perhaps reused) since is told apart.
    epoch: Vec<u32>,
    /// Per list: (the access that read it, the read reference that read made of it, that
    /// target's epoch when it is a list). An entry of another access is stale.
    derived: Vec<(u32, u32, u32)>,
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

    /// A new list holding `reads`, held once; its read reference.
    fn alloc(&mut self, reads: &[u32]) -> u32 {
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
    fn get(&self, rd: u32) -> &[u32] {
        let base = (rd & !MULTI) as usize * self.stride;
        &self.cells[base + 1..base + 1 + self.cells[base] as usize]
    }

    /// Sets read `k` of list `rd` (extending it when `k` is its length).
    #[inline]
    fn set(&mut self, rd: u32, k: usize, x: u32) {
        assert!(k + 1 < self.stride, "a read list holds one read per wave");
        let base = (rd & !MULTI) as usize * self.stride;
        self.cells[base + 1 + k] = x;
    }

    /// Cuts list `rd` to `len` reads.
    #[inline]
    fn set_len(&mut self, rd: u32, len: usize) {
        self.cells[(rd & !MULTI) as usize * self.stride] = len as u32;
    }

    /// The epoch of `rd` when it is a list, else 0.
    #[inline]
    fn epoch_of(&self, rd: u32) -> u32 {
        if rd & MULTI != 0 {
            self.epoch[(rd & !MULTI) as usize]
        } else {
            0
        }
    }

    /// Whether list `rd` is held by one byte only (so it may change in place).
    #[inline]
    fn alone(&self, rd: u32) -> bool {
        self.refs[(rd & !MULTI) as usize] == 1
    }

    /// One more byte holds read reference `rd` (a list or a single read).
    #[inline]
    fn share(&mut self, rd: u32) {
        if rd & MULTI != 0 {
            self.refs[(rd & !MULTI) as usize] += 1;
        }
    }

    /// A byte lets go of list `rd`; the last one frees it.
    #[inline]
    fn release(&mut self, rd: u32) {
        let i = (rd & !MULTI) as usize;
        self.refs[i] -= 1;
        if self.refs[i] == 0 {
            self.epoch[i] = self.epoch[i].wrapping_add(1);
            self.free.push(i as u32);
        }
    }

    /// What access `r` made of list `rd` when it read it earlier, if it did and that is
    /// still live.
    #[inline]
    fn derived(&self, rd: u32, r: u32) -> Option<u32> {
        let (by, to, epoch) = self.derived[(rd & !MULTI) as usize];
        let live = to & MULTI == 0 || self.epoch[(to & !MULTI) as usize] == epoch;
        (by == r && live).then_some(to)
    }

    /// Notes that access `r` made `to` of list `rd`.
    #[inline]
    fn derive(&mut self, rd: u32, r: u32, to: u32) {
        let epoch = if to & MULTI != 0 {
            self.epoch[(to & !MULTI) as usize]
        } else {
            0
        };
        self.derived[(rd & !MULTI) as usize] = (r, to, epoch);
    }

    /// Whether `to` is still the live list of exactly the reads `[x, r]`.
    #[inline]
    fn pair_is(&self, to: u32, x: u32, r: u32) -> bool {
        self.refs[(to & !MULTI) as usize] > 0 && self.get(to) == [x, r]
    }
}

/// What one instruction execution found.
#[derive(Default)]
struct Found {
    uninit_lanes: u64,
    uninit_at: Option<u32>,
    races: Vec<Race>,
    /// Bytes this instruction wrote twice (a lane collision when the values differ).
    twice: Vec<u32>,
    /// The races (bit = index in `races`) the touch being checked added a lane to.
    touch_races: u64,
    /// Whether the touch being checked read a byte nothing wrote.
    touch_uninit: bool,
}

/// One race of this instruction with an earlier instruction.
struct Race {
    earlier_pc: u32,
    what: &'static str,
    /// The earlier accesses' waves (indices in the workgroup).
    waves: Vec<u32>,
    lanes: u64,
    address: u32,
}

impl Found {
    /// A read by `lane` of bytes whose findings an earlier read gave: `uninit`, and the races
    /// (bit = index in `races`) it added a lane to.
    #[inline]
    fn add_lane(&mut self, lane: u8, uninit: bool, races: u64) {
        let bit = 1u64 << (lane & 63);
        if uninit {
            self.uninit_lanes |= bit;
        }
        for (i, r) in self.races.iter_mut().enumerate() {
            if races >> (i & 63) & 1 == 1 {
                r.lanes |= bit;
            }
        }
    }

    /// [`Found::add_lane`] for each lane of `lanes` (while no race index is past 63).
    #[inline]
    fn add_lanes(&mut self, lanes: u64, uninit: bool, races: u64) {
        debug_assert!(self.races.len() <= 64);
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

/// One plain access of a watched global byte.
#[derive(Clone, Copy, Debug)]
struct GlobalAccess {
    group: u32,
    wave: u32,
    pc: u32,
}

/// A race of one instruction execution with an earlier instruction of other workgroups:
/// (earlier pc, what, earlier waves, earlier workgroups, first address).
type GlobalRace = (u32, &'static str, Vec<u32>, Vec<u32>, u64);

/// The racing global bytes a rerun watches, and what it has seen of each.
#[derive(Default)]
pub(crate) struct GlobalWatch {
    bytes: RaceBytes,
    /// Per byte: the last plain write and the plain reads since (distinct workgroups).
    seen: HashMap<u64, (Option<GlobalAccess>, Vec<GlobalAccess>)>,
    /// Per byte: the value its last plain write left.
    written: HashMap<u64, u8>,
}

impl GlobalWatch {
    /// A watch of `bytes`.
    pub(crate) fn new(bytes: RaceBytes) -> GlobalWatch {
        GlobalWatch {
            bytes,
            seen: HashMap::new(),
            written: HashMap::new(),
        }
    }
}

/// How the global accesses of the running grid are logged for the race check.
enum GlobalMode {
    /// Not at all (or by the grid runner, one workgroup per device).
    Off,
    /// One log per workgroup that made a global access, by its index in the device (the
    /// grid runs together; a grid can have billions of workgroups).
    PerGroup(std::collections::BTreeMap<usize, AccessLog>),
    /// The racing bytes are known: watch them.
    Watch(Box<GlobalWatch>),
}

/// The checker state of a device.
pub(crate) struct Checker {
    enabled: bool,
    /// Each workgroup slot's shadow.
    groups: Vec<Option<Box<GroupShadow>>>,
    global: GlobalMode,
    /// Each wave's `lane_collision` not yet reported, and its byte: see
    /// [`Device::settle_collision`].
    held: HashMap<usize, (Event, u32)>,
    /// The reads of the instruction being checked ([`ByteScan::touches`]).
    repeats: Repeats,
    /// The dwords of the read rows being checked ([`Device::check_lds_rows`]).
    dwords: RowDwords,
    /// Whether repeated reads take their earlier read's findings (always, but for the tests
    /// that compare the shortcut with checking every read).
    shortcuts: bool,
}

impl Checker {
    /// The state for `slots` workgroup slots; `enabled` is
    /// [`RunConfig::check`](super::RunConfig).
    pub(crate) fn new(enabled: bool, slots: usize) -> Checker {
        Checker {
            enabled,
            groups: (0..slots).map(|_| None).collect(),
            global: GlobalMode::Off,
            held: HashMap::new(),
            repeats: Repeats::default(),
            dwords: RowDwords::default(),
            shortcuts: true,
        }
    }

    /// Appends the workgroups of `o` (a device holding the workgroups that follow).
    pub(crate) fn absorb(&mut self, o: Checker) {
        self.groups.extend(o.groups);
    }

    /// One more workgroup slot.
    pub(crate) fn add_slot(&mut self) {
        self.groups.push(None);
    }

    /// Logs each workgroup's global accesses (a grid running together).
    pub(crate) fn log_per_group(&mut self) {
        if self.enabled {
            self.global = GlobalMode::PerGroup(Default::default());
        }
    }

    /// Watches `watch`'s bytes.
    pub(crate) fn watch(&mut self, watch: GlobalWatch) {
        if self.enabled {
            self.global = GlobalMode::Watch(Box::new(watch));
        }
    }

    /// The per-workgroup logs, when [`Checker::log_per_group`] asked for them: those of the
    /// workgroups that made a global access, in workgroup order.
    pub(crate) fn take_group_logs(&mut self) -> Option<Vec<AccessLog>> {
        match std::mem::replace(&mut self.global, GlobalMode::Off) {
            GlobalMode::PerGroup(logs) => Some(logs.into_values().collect()),
            other => {
                self.global = other;
                None
            }
        }
    }
}

/// Lanes as `0-3, 7` text.
/// `lane 5` or `lanes 0-3, 7`.
fn lanes_text(lanes: u64) -> String {
    let word = if lanes.count_ones() == 1 {
        "lane"
    } else {
        "lanes"
    };
    format!("{word} {}", crate::banks::lane_ranges(lanes))
}

impl Device {
    /// The shadow of workgroup `g` (made on first use).
    fn shadow(&mut self, g: usize) -> &mut GroupShadow {
        let (waves, size) = (self.group_waves, self.alloc.size);
        self.checker.groups[g].get_or_insert_with(|| Box::new(GroupShadow::new(waves, size)))
    }

    /// Checks the LDS accesses wave `wi`'s instruction at `pc` just made (the trace its
    /// workgroup's LDS holds): races, lane collisions, reads of bytes nothing wrote. `atomic`:
    /// the instruction is an atomic; `lgkm`: it counts on LGKMcnt (DS, FLAT, buffer loads to
    /// LDS; called before its count is taken), else it is an LDSDIR read.
    pub(crate) fn check_lds(&mut self, wi: usize, pc: usize, atomic: bool, lgkm: bool) {
        if !self.checker.enabled {
            return;
        }
        let g = self.wave_group[wi];
        let touches = match self.lds[g].trace.as_mut() {
            Some(t) if !t.is_empty() => std::mem::take(t),
            _ => return,
        };
        self.settle_collision(wi, |b| read_back(&touches, b));
        let access = self.lds_access(wi, pc, atomic, lgkm);
        let found = self.scan_lds(g, access, Scan::Touches(&touches));
        self.report_lds(wi, pc, atomic, &touches, found);
        let mut touches = touches;
        touches.clear();
        self.lds[g].trace = Some(touches);
    }

    /// [`Device::check_lds`] for a DS row form's dword loads (`outcome`'s
    /// [`DsOutcome::row_reads`]), from the lanes' address rows instead of a trace.
    pub(crate) fn check_lds_rows(&mut self, wi: usize, pc: usize, outcome: &DsOutcome) {
        let g = self.wave_group[wi];
        if !self.checker.enabled || self.lds[g].trace.is_none() {
            return;
        }
        let rows = ReadRows::new(outcome, self.alloc.size);
        if rows.lanes == [0, 0] {
            return;
        }
        self.settle_collision(wi, |b| rows.reads_byte(b));
        let access = self.lds_access(wi, pc, false, true);
        let found = self.scan_lds(g, access, Scan::Rows(&rows));
        self.report_lds(wi, pc, false, &[], found);
    }

    /// The [`Access`] of wave `wi`'s instruction at `pc` (see [`Device::check_lds`]), given
    /// the barrier generation it is made in.
    fn lds_access(&self, wi: usize, pc: usize, atomic: bool, lgkm: bool) -> impl Fn(u32) -> Access {
        let wave = (wi % self.group_waves) as u32;
        let need = if lgkm { self.lds_ops[wi].issued + 1 } else { 0 };
        move |generation| Access {
            pc: pc as u32,
            wave,
            atomic,
            generation,
            need,
        }
    }

    /// Checks `what`, the accesses of one instruction execution of workgroup `g` (`access`
    /// gives its [`Access`] from the current barrier generation), against the workgroup's
    /// shadow, and notes them there.
    fn scan_lds(&mut self, g: usize, access: impl FnOnce(u32) -> Access, what: Scan) -> Found {
        let mut repeats = std::mem::take(&mut self.checker.repeats);
        let mut dwords = std::mem::take(&mut self.checker.dwords);
        let shortcuts = self.checker.shortcuts;
        let size = self.alloc.size;
        let sh = self.shadow(g);
        let a = access(sh.generation);
        sh.accesses.push(a);
        let r = sh.accesses.len() as u32;
        let listed = std::mem::take(&mut sh.listed);
        let mut scan = ByteScan {
            sh,
            memo: Memo::new(r, listed),
            r,
            me: a.wave,
            found: Found::default(),
            share: shortcuts,
            pair: (0, 0),
            last_read: None,
        };
        repeats.clear();
        match what {
            Scan::Touches(touches) => {
                scan.touches(touches, a.atomic, shortcuts.then_some(&mut repeats));
            }
            // The rows as the trace they stand for: for the tests that compare the shortcuts
            // with checking every read, and for addresses not dword-aligned (unaligned mode).
            Scan::Rows(rows) if !shortcuts || !rows.aligned => {
                let touches = rows.touches();
                scan.touches(&touches, false, shortcuts.then_some(&mut repeats));
            }
            Scan::Rows(rows) => {
                dwords.list(rows, size);
                scan.dwords(&dwords.list);
            }
        }
        let ByteScan {
            sh, memo, found, ..
        } = scan;
        sh.listed = memo.listed;
        self.checker.repeats = repeats;
        self.checker.dwords = dwords;
        found
    }

    /// The events of what [`Device::check_lds`] found.
    fn report_lds(&mut self, wi: usize, pc: usize, atomic: bool, touches: &[LdsTouch], f: Found) {
        let wave = self.waves[wi].id;
        let first = wi - wi % self.group_waves;
        let name = |d: &Device, i: u32| d.waves[first + i as usize].id;
        if f.uninit_lanes != 0 {
            let at = f.uninit_at.unwrap_or(0);
            self.events.push(
                Event::new(
                    "uninitialized_lds_read",
                    wave,
                    pc,
                    format!(
                        "{} read LDS nothing in this launch wrote (first at byte {at:#x} \
                         of the allocation): the hardware gives whatever the LDS held",
                        lanes_text(f.uninit_lanes)
                    ),
                )
                .with_detail(EventDetail {
                    lanes: lane_list(f.uninit_lanes),
                    address: Some(at as u64),
                    ..EventDetail::default()
                }),
            );
        }
        for r in &f.races {
            let waves: Vec<u32> = r.waves.iter().map(|&i| name(self, i)).collect();
            let list = waves
                .iter()
                .map(|w| w.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            self.events.push(
                Event::new(
                    "lds_race",
                    wave,
                    pc,
                    format!(
                        "{} race on LDS byte {:#x}: {} of wave {wave} and the earlier \
                         access of wave{} {list}, with no s_barrier between them after the \
                         waits that complete the earlier access",
                        r.what,
                        r.address,
                        lanes_text(r.lanes),
                        if waves.len() > 1 { "s" } else { "" },
                    ),
                )
                .with_detail(EventDetail {
                    pcs: vec![r.earlier_pc as usize],
                    waves,
                    lanes: lane_list(r.lanes),
                    address: Some(r.address as u64),
                }),
            );
        }
        if !f.twice.is_empty() && !atomic {
            if let Some(e) = lane_collision(wave, pc, touches, &f.twice) {
                let b = e.detail.as_ref().and_then(|d| d.address).unwrap_or(0) as u32;
                self.checker.held.insert(wi, (e, b));
            }
        }
    }

    /// Reports wave `wi`'s held `lane_collision`, unless its next LDS access read the byte
    /// back (`read_back` of the byte; `|_| false` for none). Tag-and-retry code (a histogram whose lanes write `tag | count` and
    /// loop until their own value stuck, as pre-atomics GPU code did) collides on purpose and
    /// reads the word back at once to see which lane won: its result does not depend on the
    /// winner, so it is not reported. A collision that the wave's next LDS access does not read
    /// back — or that a barrier or the wave's end follows — is.
    fn settle_collision(&mut self, wi: usize, read_back: impl FnOnce(u32) -> bool) {
        if self.checker.held.is_empty() {
            return;
        }
        let Some((e, b)) = self.checker.held.remove(&wi) else {
            return;
        };
        if !read_back(b) {
            self.events.push(e);
        }
    }

    /// Wave `wi` arrives at an `s_barrier`.
    pub(crate) fn check_barrier_arrival(&mut self, wi: usize) {
        if !self.checker.enabled {
            return;
        }
        self.settle_collision(wi, |_| false);
        let waited = self.lds_ops[wi].waited;
        let me = wi % self.group_waves;
        let sh = self.shadow(self.wave_group[wi]);
        let a = &mut sh.arrivals[me];
        a.prev = a.last;
        a.last = waited;
        a.count += 1;
    }

    /// Workgroup `g`'s barrier is about to release (its waiting waves still wait): reports
    /// waves at different `s_barrier` instructions and ended waves that left the workgroup's
    /// barriers, and starts the next generation.
    pub(crate) fn check_barrier_release(&mut self, g: usize) {
        if !self.checker.enabled {
            return;
        }
        let first = g * self.group_waves;
        let waiting: Vec<(usize, usize)> = (first..first + self.group_waves)
            .filter_map(|i| match self.waits[i] {
                Some(Waiting::Barrier { pc }) if !self.waves[i].done => Some((i, pc)),
                _ => None,
            })
            .collect();
        let Some(&(w0, pc0)) = waiting.first() else {
            return;
        };
        let mut events = Vec::new();
        if let Some(&(_, other)) = waiting.iter().find(|(_, p)| *p != pc0) {
            let waves: Vec<u32> = waiting
                .iter()
                .filter(|(_, p)| *p != pc0)
                .map(|(i, _)| self.waves[*i].id)
                .collect();
            events.push(
                Event::new(
                    "barrier_divergence",
                    self.waves[w0].id,
                    pc0,
                    format!(
                        "waves of workgroup {} wait at different s_barrier instructions: wave {} \
                         at the first, waves {waves:?} at the second (the hardware releases them \
                         together as one barrier)",
                        self.workgroup_of(w0),
                        self.waves[w0].id
                    ),
                )
                .with_detail(EventDetail {
                    pcs: vec![other],
                    waves,
                    ..EventDetail::default()
                }),
            );
        }
        let sh = self.shadow(g);
        let generation = sh.generation;
        // Ended waves that took part in a barrier and did not reach this one, by end pc.
        let mut left: Vec<(usize, Vec<usize>)> = Vec::new();
        for i in 0..sh.arrivals.len() {
            let Some(end) = sh.ended_at[i] else { continue };
            let n = sh.arrivals[i].count;
            if n >= 1 && n <= generation && !sh.left_reported[i] {
                sh.left_reported[i] = true;
                match left.iter_mut().find(|(p, _)| *p == end) {
                    Some((_, v)) => v.push(i),
                    None => left.push((end, vec![i])),
                }
            }
        }
        sh.generation += 1;
        for (end, members) in left {
            let waves: Vec<u32> = members.iter().map(|&i| self.waves[first + i].id).collect();
            events.push(
                Event::new(
                    "barrier_divergence",
                    self.waves[w0].id,
                    pc0,
                    format!(
                        "wave {} of workgroup {} waits at an s_barrier which waves {waves:?} \
                         never reach: they took part in the workgroup's barriers and ended (at \
                         the second instruction); on gfx11 an ended wave no longer counts, so \
                         the barrier releases without them",
                        self.waves[w0].id,
                        self.workgroup_of(w0)
                    ),
                )
                .with_detail(EventDetail {
                    pcs: vec![end],
                    waves,
                    ..EventDetail::default()
                }),
            );
        }
        let cycle = self.clocks[w0];
        for mut e in events {
            e.cycle = cycle;
            self.events.push(e);
        }
    }

    /// Wave `wi` ended (at its current pc): noted for the barrier check; the workgroup's
    /// shadow goes once its last wave ended.
    pub(crate) fn check_wave_end(&mut self, wi: usize) {
        if !self.checker.enabled {
            return;
        }
        self.settle_collision(wi, |_| false);
        let g = self.wave_group[wi];
        let first = g * self.group_waves;
        if (first..first + self.group_waves).all(|i| self.waves[i].done) {
            self.checker.groups[g] = None;
            return;
        }
        let pc = self.waves[wi].pc;
        let me = wi % self.group_waves;
        self.shadow(g).ended_at[me] = Some(pc);
    }

    /// Before wave `wi`'s vector-memory instruction: logs its global accesses as the grid's
    /// race check needs (`atomic`: they are atomics).
    pub(crate) fn global_log_begin(&mut self, wi: usize, atomic: bool) {
        self.memory.set_atomic(atomic);
        let g = self.group_index(wi);
        match &mut self.checker.global {
            GlobalMode::Off => {}
            GlobalMode::PerGroup(logs) => {
                self.memory.resume_log(logs.remove(&g).unwrap_or_default());
            }
            GlobalMode::Watch(_) => self.memory.start_log(),
        }
    }

    /// After it: keeps the log, or checks the watched bytes it touched.
    pub(crate) fn global_log_end(&mut self, wi: usize, pc: usize) {
        self.memory.set_atomic(false);
        let mode = std::mem::replace(&mut self.checker.global, GlobalMode::Off);
        self.checker.global = match mode {
            GlobalMode::Off => GlobalMode::Off,
            GlobalMode::PerGroup(mut logs) => {
                logs.insert(self.group_index(wi), self.memory.take_log());
                GlobalMode::PerGroup(logs)
            }
            GlobalMode::Watch(mut watch) => {
                let log = self.memory.take_log();
                let hits = log.plain_among(&watch.bytes);
                if !hits.is_empty() {
                    self.global_races(wi, pc, &mut watch, &hits);
                }
                GlobalMode::Watch(watch)
            }
        };
    }

    /// Checks the watched bytes `hits` (address, written) of wave `wi`'s instruction at `pc`
    /// against the other workgroups' earlier plain accesses.
    fn global_races(
        &mut self,
        wi: usize,
        pc: usize,
        watch: &mut GlobalWatch,
        hits: &[(u64, bool)],
    ) {
        let me = GlobalAccess {
            group: self.workgroup_of(wi),
            wave: self.waves[wi].id,
            pc: pc as u32,
        };
        let mut found: Vec<GlobalRace> = Vec::new();
        let mut note = |e: &GlobalAccess, what: &'static str, addr: u64| {
            let i = match found.iter().position(|f| f.0 == e.pc) {
                Some(i) => i,
                None => {
                    found.push((e.pc, what, Vec::new(), Vec::new(), addr));
                    found.len() - 1
                }
            };
            let f = &mut found[i];
            if !f.2.contains(&e.wave) {
                f.2.push(e.wave);
            }
            if !f.3.contains(&e.group) {
                f.3.push(e.group);
            }
        };
        for &(addr, write) in hits {
            // Workgroups writing the same value to a byte (a "found" flag every workgroup
            // sets) race harmlessly: whatever their order, the byte ends with that value. Not
            // reported, as is common practice (a choice; reads are, their value depends on the
            // order).
            let value = self.memory.read_u8(addr);
            let same_value = write && watch.written.get(&addr) == Some(&value);
            if write {
                watch.written.insert(addr, value);
            }
            let (last, reads) = watch.seen.entry(addr).or_default();
            if let Some(w) = last.filter(|w| w.group != me.group && !same_value) {
                note(
                    &w,
                    if write {
                        "write-after-write"
                    } else {
                        "read-after-write"
                    },
                    addr,
                );
            }
            if write {
                for r in reads.iter().filter(|r| r.group != me.group) {
                    note(r, "write-after-read", addr);
                }
                *last = Some(me);
                reads.clear();
            } else if !reads.iter().any(|r| r.group == me.group) && reads.len() < GLOBAL_READS_KEPT
            {
                reads.push(me);
            }
        }
        for (earlier, what, waves, groups, addr) in found {
            self.events.push(
                Event::new(
                    "global_race",
                    me.wave,
                    pc,
                    format!(
                        "{what} race on global byte {addr:#x}: wave {} of workgroup {} and the \
                         earlier access of workgroup{} {groups:?}, plain accesses from \
                         different workgroups (use atomics, or separate launches)",
                        me.wave,
                        me.group,
                        if groups.len() > 1 { "s" } else { "" },
                    ),
                )
                .with_detail(EventDetail {
                    pcs: vec![earlier as usize],
                    waves,
                    lanes: Vec::new(),
                    address: Some(addr),
                }),
            );
        }
    }
}

/// Whether `touches` read byte `b`.
fn read_back(touches: &[LdsTouch], b: u32) -> bool {
    touches
        .iter()
        .any(|t| !t.write && t.offset <= b && b < t.offset + t.size as u32)
}

/// What [`Device::scan_lds`] checks: a trace, or a row form's read rows.
enum Scan<'t> {
    Touches(&'t [LdsTouch]),
    Rows(&'t ReadRows<'t>),
}

/// The dword reads of a DS row form ([`DsOutcome::row_reads`]): lane `l` reads the dword at
/// `addrs[0][l]`, then (a 2addr load) the one at `addrs[1][l]`, for the lanes in range.
struct ReadRows<'o> {
    addrs: [&'o [u32; 64]; 2],
    /// The lanes of each row whose dword lies in the allocation (the others read nothing).
    lanes: [u64; 2],
    /// Whether every read is of an aligned dword.
    aligned: bool,
}

impl ReadRows<'_> {
    /// The rows of `outcome`, in an allocation of `size` bytes.
    fn new(outcome: &DsOutcome, size: u32) -> ReadRows<'_> {
        let (m0, a0) = Self::in_range(outcome.lanes, &outcome.addrs, size);
        let (m1, a1) = Self::in_range(outcome.lanes2, &outcome.addrs2, size);
        ReadRows {
            addrs: [&outcome.addrs, &outcome.addrs2],
            lanes: [m0, m1],
            aligned: (a0 | a1) & 3 == 0,
        }
    }

    /// The lanes of `lanes` whose dword at `addrs` lies in `size` bytes, and the OR of their
    /// addresses (or of all 64, a superset, when every address is in range, as is usual).
    #[inline]
    fn in_range(lanes: u64, addrs: &[u32; 64], size: u32) -> (u64, u32) {
        let (max, bits) = addrs.iter().fold((0, 0), |(m, b), &a| (a.max(m), a | b));
        if u64::from(max) + 4 <= u64::from(size) {
            return (lanes, bits);
        }
        let (mut m, mut bits) = (0u64, 0u32);
        for (l, &a) in addrs.iter().enumerate() {
            let ok = lanes >> l & 1 == 1 && u64::from(a) + 4 <= u64::from(size);
            m |= u64::from(ok) << l;
            bits |= if ok { a } else { 0 };
        }
        (m, bits)
    }

    /// Calls `f(lane, offset)` for each read, in the trace's order (by lane, then row).
    #[inline]
    fn each(&self, mut f: impl FnMut(u8, u32)) {
        let mut lanes = self.lanes[0] | self.lanes[1];
        while lanes != 0 {
            let l = lanes.trailing_zeros() as usize;
            for k in 0..2 {
                if self.lanes[k] >> l & 1 == 1 {
                    f(l as u8, self.addrs[k][l]);
                }
            }
            lanes &= lanes - 1;
        }
    }

    /// Whether some read takes in byte `b`.
    fn reads_byte(&self, b: u32) -> bool {
        let mut hit = false;
        self.each(|_, a| hit |= a <= b && b - a < 4);
        hit
    }

    /// The trace the rows stand for.
    fn touches(&self) -> Vec<LdsTouch> {
        let mut v = Vec::new();
        self.each(|lane, offset| {
            v.push(LdsTouch {
                offset,
                lane,
                size: 4,
                write: false,
                value: 0,
            })
        });
        v
    }
}

/// The distinct aligned dwords of one instruction's read rows, in the order the trace first
/// reads them, each with the lanes that read it: a read of the bytes an earlier read of the
/// instruction read (no write between) finds what that one found ([`ByteScan::touches`]), so
/// each is checked once. Kept by the checker from one instruction to the next, so only its
/// first use allocates.
#[derive(Default)]
struct RowDwords {
    /// Per dword of the allocation: the stamp of the instruction that last listed it, and
    /// its index in `list`.
    seen: Vec<(u32, u32)>,
    stamp: u32,
    /// (offset, lanes).
    list: Vec<(u32, u64)>,
}

impl RowDwords {
    /// Lists the dwords of `rows` (aligned, in an allocation of `size` bytes).
    fn list(&mut self, rows: &ReadRows, size: u32) {
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
        let RowDwords { seen, stamp, list } = self;
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

/// The lanes of a mask, ascending.
fn lane_list(mut m: u64) -> Vec<u32> {
    let mut v = Vec::new();
    while m != 0 {
        v.push(m.trailing_zeros());
        m &= m - 1;
    }
    v
}

/// The page of byte `b` (made if need be) and the byte's index in it.
#[inline]
fn cell(sh: &mut GroupShadow, b: u32) -> (&mut Page, usize) {
    let p = sh.pages[b as usize / PAGE].get_or_insert_with(|| {
        Box::new(Page {
            write: [0; PAGE],
            read: [0; PAGE],
            bytes: false,
        })
    });
    (p, b as usize % PAGE)
}

/// The page holding byte `b`, which [`cell`] made (it outlives the borrow `cell` returned).
#[inline]
fn page_of(sh: &mut GroupShadow, b: u32) -> &mut Page {
    sh.pages[b as usize / PAGE]
        .as_deref_mut()
        .expect("the page exists")
}

/// Within one instruction the shadow's generation and arrivals do not change, so whether an
/// earlier access is ordered before this one is the same for every byte: the last answers,
/// kept (a 4-byte lane access asks four times about the same access).
struct Memo {
    /// (reference, unordered) for the last write and the last read asked about.
    write: (u32, bool),
    read: (u32, bool),
    /// For the reads of read lists asked about: per earlier access (its reference - 1), the
    /// answer this instruction found, as `r << 1 | ordered` (`r` the instruction's own
    /// reference, so answers of earlier instructions never match). Taken from and given back
    /// to [`GroupShadow::listed`], so it is allocated once per workgroup, not per instruction.
    listed: Vec<u64>,
    /// `r << 1`: the stamp of this instruction's answers.
    stamp: u64,
}

impl Memo {
    /// The memo of access `r`, keeping its answers in `listed` (a table from an earlier
    /// instruction, or empty).
    fn new(r: u32, listed: Vec<u64>) -> Memo {
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
    fn ordered(&mut self, sh: &GroupShadow, x: u32, me: u32) -> bool {
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
    fn write_races(&mut self, sh: &GroupShadow, w: u32, r: u32, me: u32) -> bool {
        if self.write.0 != w {
            self.write = (w, !sh.ordered(w, me) && !sh.both_atomic(w, r));
        }
        self.write.1
    }

    /// Whether the earlier read `x` is not ordered before what wave `me` does now.
    #[inline]
    fn read_unordered(&mut self, sh: &GroupShadow, x: u32, me: u32) -> bool {
        if self.read.0 != x {
            self.read = (x, !sh.ordered(x, me));
        }
        self.read.1
    }
}

/// The bytes of one access `r` of wave `me`, checked against the shadow one at a time; what
/// they show collects in `found`.
struct ByteScan<'s> {
    sh: &'s mut GroupShadow,
    memo: Memo,
    r: u32,
    me: u32,
    found: Found,
    /// Whether bytes with the same reads share one read list (always, but for the tests that
    /// compare the shortcuts with checking every read).
    share: bool,
    /// The last `(x, list)` of [`ByteScan::pair_list`].
    pair: (u32, u32),
    /// The last plain read since this access's last write (when sharing is on).
    last_read: Option<LastRead>,
}

/// What a plain read of a byte found and made of its state, by the state it found: a read of
/// another byte in the same state (the dwords of a row one store wrote and the same waves
/// read) finds the same and makes the same. Within one access, with no write between, the
/// lists it names stay live: a list this access made ends with its read, so no read of it
/// lets go of it, and only a write frees one; a list freed and made again has a new `epoch`.
#[derive(Clone, Copy)]
struct LastRead {
    /// The byte's last write and reads before.
    w: u32,
    rd: u32,
    /// `rd`'s epoch when it is a list.
    epoch: u32,
    /// The reads after.
    to: u32,
    /// The race with the write it found (an index in [`Found::races`]).
    race: Option<usize>,
}

impl ByteScan<'_> {
    /// Whether the page of byte `b` is in byte mode (a page not made yet is not).
    #[inline]
    fn bytes_at(&self, b: u32) -> bool {
        self.sh.pages[b as usize / PAGE]
            .as_ref()
            .is_some_and(|p| p.bytes)
    }

    /// Turns the page of byte `b` into byte mode: each byte of a dword gets a copy of the
    /// state its dword's first byte held (a read list is copied, not shared).
    fn split_into_bytes(&mut self, b: u32) {
        let sh = &mut *self.sh;
        let Some(page) = sh.pages[b as usize / PAGE].as_deref_mut() else {
            // A page first touched in part of a dword starts in byte mode.
            sh.pages[b as usize / PAGE] = Some(Box::new(Page {
                write: [0; PAGE],
                read: [0; PAGE],
                bytes: true,
            }));
            return;
        };
        if page.bytes {
            return;
        }
        page.bytes = true;
        let (write, read) = (page.write, page.read);
        let mut lists = Vec::new();
        for w in (0..PAGE).step_by(4) {
            for k in 1..4 {
                lists.push((w + k, write[w], read[w]));
            }
        }
        for (i, wr, rd) in lists {
            let rd = if rd & MULTI != 0 && self.share {
                sh.lists.share(rd);
                rd
            } else if rd & MULTI != 0 {
                let copy = sh.lists.get(rd).to_vec();
                sh.lists.alloc(&copy)
            } else {
                rd
            };
            let page = sh.pages[b as usize / PAGE]
                .as_deref_mut()
                .expect("the page");
            page.write[i] = wr;
            page.read[i] = rd;
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
        let (w, rd) = (page.write[i], page.read[i]);
        if w == 0 {
            f.touch_uninit = true;
            f.uninit_lanes |= 1 << (lane & 63);
            f.uninit_at.get_or_insert(b);
        }
        // An atomic's read is checked with its write (the write follows in the trace).
        if atomic {
            return;
        }
        let epoch = sh.lists.epoch_of(rd);
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
        page_of(self.sh, b).read[i] = to;
        if self.share {
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
        page_of(self.sh, b).read[b as usize % PAGE] = k.to;
    }

    /// A read by `lanes` of the aligned dword at `offset`, when it is an entry of a word-mode
    /// page in the state the last read found: [`ByteScan::read_again`] for all the lanes at
    /// once, with no checking. False (nothing done) otherwise.
    #[inline]
    fn read_word_again(&mut self, offset: u32, lanes: u64) -> bool {
        let Some(k) = self.last_read else {
            return false;
        };
        let sh = &mut *self.sh;
        let Some(page) = sh.pages[offset as usize / PAGE].as_deref_mut() else {
            return false;
        };
        let i = offset as usize % PAGE;
        if page.bytes
            || (page.write[i], page.read[i]) != (k.w, k.rd)
            || sh.lists.epoch_of(k.rd) != k.epoch
        {
            return false;
        }
        page.read[i] = k.to;
        if k.to != k.rd {
            sh.lists.share(k.to);
            if k.rd & MULTI != 0 {
                sh.lists.release(k.rd);
            }
        }
        let f = &mut self.found;
        if k.w == 0 {
            f.uninit_lanes |= lanes;
            f.uninit_at.get_or_insert(offset);
        }
        if let Some(r) = k.race {
            f.races[r].lanes |= lanes;
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

    /// A write of byte `b` by lane `lane`.
    #[inline]
    fn write_byte(&mut self, b: u32, lane: u8) {
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
        let (w, rd) = (page.write[i], page.read[i]);
        page.write[i] = r;
        page.read[i] = 0;
        if w == r {
            f.twice.push(b);
        } else if w != 0 && memo.write_races(sh, w, r, me) {
            let a = sh.accesses[w as usize - 1];
            f.race(&a, "write-after-write", lane, b);
        }
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
    /// no write between them) take that read's findings instead of checking its bytes again.
    fn touches(&mut self, touches: &[LdsTouch], atomic: bool, mut repeats: Option<&mut Repeats>) {
        let mut last: Option<(&LdsTouch, bool, u64)> = None;
        for t in touches {
            // A read of the bytes the previous lane read (a broadcast) finds what that
            // one found: only the lane is new.
            if let Some((p, uninit, races)) = last {
                if !t.write && !p.write && p.offset == t.offset && p.size == t.size {
                    self.found.add_lane(t.lane, uninit, races);
                    continue;
                }
            }
            // The same for a read of bytes an earlier lane read: that read left the bytes'
            // state as this one would (this access's own read), and found the same write, the
            // same races and the same uninitialised bytes. (Only while no race index is past
            // the 64 a touch's race mask tells apart.)
            if let Some(rep) = repeats.as_deref_mut() {
                if t.write {
                    rep.clear();
                } else if self.found.races.len() <= 64 {
                    if let Some((uninit, races)) = rep.get(t.offset, t.size) {
                        self.found.add_lane(t.lane, uninit, races);
                        last = Some((t, uninit, races));
                        continue;
                    }
                }
            }
            self.touch(t, atomic);
            let (uninit, races) = (self.found.touch_uninit, self.found.touch_races);
            if let (Some(rep), false) = (repeats.as_deref_mut(), t.write) {
                rep.insert(t.offset, t.size, uninit, races);
            }
            last = Some((t, uninit, races));
        }
    }

    /// Checks the reads of `dwords` ([`RowDwords::list`]): each dword for its first lane,
    /// whose findings the other lanes take.
    fn dwords(&mut self, dwords: &[(u32, u64)]) {
        for &(offset, lanes) in dwords {
            if self.read_word_again(offset, lanes) {
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
            if self.found.races.len() <= 64 {
                let (uninit, races) = (self.found.touch_uninit, self.found.touch_races);
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
                self.write_byte(b, t.lane);
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
const REPEAT_SLOTS: usize = 256;

/// One read's findings in [`Repeats`].
#[derive(Clone, Copy, Default)]
struct Repeat {
    offset: u32,
    size: u8,
    /// [`Repeats::stamp`] when it was stored (older entries are empty).
    stamp: u32,
    uninit: bool,
    races: u64,
}

/// The findings of an instruction's reads since its last write, by the bytes they read
/// (offset, size): a direct-mapped table (a read whose slot another took is simply checked
/// again), emptied in O(1) by a new stamp. Kept by the checker from one instruction to the
/// next, so only its first use allocates it.
#[derive(Default)]
struct Repeats {
    slots: Vec<Repeat>,
    stamp: u32,
}

impl Repeats {
    /// Forgets every entry (and makes the table, the first time).
    fn clear(&mut self) {
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

/// The `lane_collision` event of a store whose lanes wrote different values to one byte
/// (`twice`: the bytes it wrote more than once), or `None` when they wrote the same value or
/// one lane wrote the byte twice.
///
/// Which value the LDS keeps: the DS model runs lanes in increasing order and each write
/// replaces the byte, so the highest lane's value stays — our choice where the spec is silent
/// (the order of lanes on one location is unspecified: docs/rules/ds.md#atomic-lane-order),
/// the same one the model makes for atomics.
fn lane_collision(wave: u32, pc: usize, touches: &[LdsTouch], twice: &[u32]) -> Option<Event> {
    let mut twice = twice.to_vec();
    twice.sort_unstable();
    twice.dedup();
    let mut lanes = 0u64;
    let mut first: Option<(u32, u8, u8)> = None; // (byte, kept lane, a losing lane)
    for &b in &twice {
        // (lane, byte value) of each write of b, in trace (lane) order.
        let writes: Vec<(u8, u8)> = touches
            .iter()
            .filter(|t| t.write && t.offset <= b && b < t.offset + t.size as u32)
            .map(|t| (t.lane, (t.value >> (8 * (b - t.offset))) as u8))
            .collect();
        let Some(&(kept_lane, kept)) = writes.last() else {
            continue;
        };
        let losers: Vec<u8> = writes
            .iter()
            .filter(|(l, v)| *l != kept_lane && *v != kept)
            .map(|(l, _)| *l)
            .collect();
        if losers.is_empty() {
            continue;
        }
        lanes |= 1 << (kept_lane & 63);
        for l in &losers {
            lanes |= 1 << (l & 63);
        }
        first.get_or_insert((b, kept_lane, losers[0]));
    }
    let (b, kept, lost) = first?;
    Some(
        Event::new(
            "lane_collision",
            wave,
            pc,
            format!(
                "{} of one store wrote different values to LDS byte {b:#x} (first: lanes \
                 {lost} and {kept}); the simulator keeps the highest lane's value (lane {kept}): \
                 lanes write in increasing lane order",
                lanes_text(lanes)
            ),
        )
        .with_detail(EventDetail {
            lanes: lane_list(lanes),
            address: Some(b as u64),
            ..EventDetail::default()
        }),
    )
}

#[cfg(test)]
mod tests {
    //! The checker's shortcuts against checking every lane's bytes: random LDS programs over
    //! several waves give the same events either way.

    use super::super::{Device, RunConfig};
    use super::{ReadRows, RowDwords};
    use crate::ds::DsOutcome;
    use crate::event::Event;
    use crate::isa::asm::assemble;
    use crate::lds::AlignMode;

    use crate::xorshift::XorShift;

    /// A random LDS program: address patterns (broadcasts, strides, repeats, misaligned),
    /// loads of 1 to 8 bytes, 2addr loads, stores of 1 to 8 bytes, atomics, partial EXEC
    /// masks, waits and barriers. Every wave runs the same addresses, so rows read by many
    /// waves share read lists, and partial accesses split shared lists into bytes.
    fn program(rng: &mut XorShift, wave64: bool) -> String {
        let mut text = String::new();
        for _ in 0..rng.next_u64() % 12 + 2 {
            let k = rng.pick(&[0u32, 1, 2, 3, 4, 8, 12, 16, 64, 132, 256]);
            let mask = rng.pick(&[0x3fu32, 0x7c, 0xff, 0x3fc, 0x7ff, 0xffc, 0x1f0]);
            let base = rng.pick(&[0u32, 1, 4, 64, 512, 1000]);
            text += &format!(
                "v_mul_u32_u24 v1, {k}, v0\nv_and_b32 v1, {mask}, v1\nv_add_nc_u32 v1, {base}, v1\n"
            );
            if rng.next_u64().is_multiple_of(4) {
                let exec = rng.next_u64() as u32 | 1;
                let reg = if wave64 { "exec_hi" } else { "exec_lo" };
                text += &format!("s_mov_b32 {reg}, {exec:#x}\n");
            }
            let off = rng.pick(&[0u32, 4, 8, 64]);
            let (o0, o1) = (rng.next_u64() % 20, rng.next_u64() % 20);
            text += match rng.next_u64() % 14 {
                0 | 1 => format!("ds_load_b32 v2, v1 offset:{off}\n"),
                2 | 3 => format!("ds_load_2addr_b32 v[2:3], v1 offset0:{o0} offset1:{o1}\n"),
                4 => format!("ds_load_2addr_stride64_b32 v[2:3], v1 offset0:{o0} offset1:{o1}\n"),
                5 | 6 => format!("ds_store_b32 v1, v0 offset:{off}\n"),
                7 => format!("ds_store_b8 v1, v0 offset:{off}\n"),
                8 => format!("ds_load_u16 v2, v1 offset:{off}\n"),
                9 => format!("ds_load_b64 v[2:3], v1 offset:{off}\n"),
                10 => "v_and_b32 v1, 0xffc, v1\nds_add_u32 v1, v0\n".to_string(),
                12 => format!("ds_store_b16 v1, v0 offset:{off}\n"),
                13 => format!("ds_load_u8 v2, v1 offset:{off}\n"),
                _ => format!("ds_store_b64 v1, v[4:5] offset:{off}\n"),
            }
            .as_str();
            text += match rng.next_u64() % 5 {
                0 => "s_waitcnt lgkmcnt(0)\ns_barrier\n",
                1 => "s_barrier\n",
                2 => "s_waitcnt lgkmcnt(0)\n",
                _ => "",
            };
            text += if wave64 {
                "s_mov_b64 exec, -1\n"
            } else {
                "s_mov_b32 exec_lo, -1\n"
            };
        }
        text + "s_endpgm\n"
    }

    /// The events of `text` on `waves` waves of one workgroup, with or without the shortcuts.
    fn events(text: &str, cfg: &RunConfig, shortcuts: bool) -> Vec<Event> {
        let prog = assemble(text);
        assert!(prog.errors.is_empty(), "{:?}\n{text}", prog.errors);
        let mut dev = Device::new(cfg, prog.lines.len()).expect("config");
        dev.checker.shortcuts = shortcuts;
        dev.run(&prog.lines, cfg).expect("the program runs");
        dev.events().to_vec()
    }

    #[test]
    fn repeated_reads_find_what_checking_every_read_finds() {
        let mut rng = XorShift::new(0x2545_f491_4f6c_dd1d);
        let mut found = 0;
        for case in 0..500u32 {
            let wave64 = case.is_multiple_of(3);
            let cfg = RunConfig {
                wave_size: if wave64 { 64 } else { 32 },
                waves: rng.next_u64() as u32 % 7 + 2,
                seed: rng.next_u64(),
                ..RunConfig::default()
            };
            let text = program(&mut rng, wave64);
            let exact = events(&text, &cfg, false);
            assert_eq!(events(&text, &cfg, true), exact, "case {case}:\n{text}");
            found += exact
                .iter()
                .filter(|e| e.kind == "lds_race" || e.kind == "uninitialized_lds_read")
                .count();
        }
        // The programs do find races and uninitialised reads (the comparison is not vacuous).
        assert!(found > 100, "{found}");
    }

    /// The row forms' reads (`ds_load_b32`, the 2addr loads), checked a dword at a time for
    /// all the lanes that read it, find what checking every lane's reads finds: with lanes
    /// outside a small allocation, and in the unaligned mode with addresses off dword
    /// boundaries (those rows take the trace's path).
    #[test]
    fn row_reads_find_what_checking_every_lane_finds() {
        let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
        let (mut found, mut outside) = (0, 0);
        for case in 0..300u32 {
            let wave64 = case % 4 == 1;
            let cfg = RunConfig {
                wave_size: if wave64 { 64 } else { 32 },
                waves: rng.next_u64() as u32 % 7 + 2,
                seed: rng.next_u64(),
                lds_size: rng.pick(&[256u32, 1024, 1100, 65536]),
                align: if case % 3 == 0 {
                    AlignMode::Unaligned
                } else {
                    AlignMode::Dword
                },
                ..RunConfig::default()
            };
            let text = program(&mut rng, wave64);
            let exact = events(&text, &cfg, false);
            assert_eq!(events(&text, &cfg, true), exact, "case {case}:\n{text}");
            let count = |kinds: &[&str]| exact.iter().filter(|e| kinds.contains(&e.kind)).count();
            found += count(&["lds_race", "uninitialized_lds_read"]);
            outside += count(&["lds_out_of_range"]);
        }
        // Not vacuous: the programs find races and uninitialised reads, and lanes fall outside.
        assert!(found > 100, "{found}");
        assert!(outside > 20, "{outside}");
    }

    /// [`RowDwords::list`] gives the distinct dwords of random read rows (broadcasts, repeats,
    /// rows reading each other's dwords, lanes out of range) in the order the trace first
    /// reads them, each with exactly the lanes whose reads take it in.
    #[test]
    fn row_dwords_are_the_traces_distinct_dwords() {
        let mut rng = XorShift::new(0x51_7cc1_b727_220a);
        let mut dwords = RowDwords::default();
        let size = 512;
        for case in 0..2000 {
            let mut o = DsOutcome::default();
            let spread = rng.pick(&[1u32, 2, 4, 16, 160]);
            for l in 0..64 {
                o.addrs[l] = 4 * (rng.next_u64() as u32 % spread);
                o.addrs2[l] = 4 * (rng.next_u64() as u32 % spread);
            }
            o.lanes = rng.next_u64() & rng.pick(&[u64::MAX, 0xffff_ffff]);
            o.lanes2 = if case % 2 == 0 { o.lanes } else { 0 };
            let rows = ReadRows::new(&o, size);
            dwords.list(&rows, size);
            let mut want: Vec<(u32, u64)> = Vec::new();
            for t in rows.touches() {
                assert!(t.offset + 4 <= size, "case {case}: {t:?} is in range");
                match want.iter_mut().find(|(a, _)| *a == t.offset) {
                    Some(e) => e.1 |= 1 << t.lane,
                    None => want.push((t.offset, 1 << t.lane)),
                }
            }
            assert_eq!(dwords.list, want, "case {case}");
            let outside = (0..64).filter(|&l| o.lanes >> l & 1 == 1 && o.addrs[l] + 4 > size);
            assert_eq!(
                rows.lanes[0].count_ones(),
                o.lanes.count_ones() - outside.count() as u32
            );
        }
    }
}
