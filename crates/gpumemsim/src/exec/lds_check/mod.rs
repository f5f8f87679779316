//! The checker (`gpumemsim check`, issue 20): observers of the executor that find what
//! CUDA's compute-sanitizer finds — LDS races (racecheck), lanes of one store colliding,
//! waves at different barriers or at a barrier others left (synccheck), reads of LDS nothing
//! wrote (initcheck) — and plain global accesses of one byte by two workgroups. They watch;
//! they never change what the executor computes. All of it runs only with
//! [`RunConfig::check`](super::RunConfig::check).
//!
//! # LDS: the shadow
//! Each workgroup gets a shadow of its LDS allocation, made when it first needs one and
//! emptied when its last wave ends, for the next workgroup in its slot to take as new
//! ([`GroupShadow::reset`]); the shadow's pages (256 bytes of LDS each) exist only once
//! touched. Per byte it keeps the last write and the reads since then, each a reference to an
//! [`Access`]: one per execution of an LDS instruction by a wave (its pc, wave, whether it is
//! an atomic, and what proves it complete), not one per lane. The DS model, LDSDIR and the
//! vector-memory model report every in-range lane access through [`crate::lds::Lds::touch`];
//! the executor hands the trace here after each instruction. The DS row forms' dword loads
//! and stores come instead as their address rows ([`crate::ds::DsOutcome::rows`]): each
//! distinct dword is checked once, for all the lanes that access it ([`RowDwords`]).
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

mod group_logs;
mod rows;
mod scan;
mod shadow;

use std::collections::HashMap;

use super::{Device, Waiting};
use crate::addr::{AccessLog, RaceBytes};
use crate::ds::{DsOutcome, RowAccess};
use crate::event::{Event, EventDetail};
use crate::lds::LdsTouch;
use group_logs::GroupLogs;
use rows::{AddrRows, RowDwords};
use scan::{ByteScan, Found, Repeats};
use shadow::{Access, GroupShadow, Memo};

/// Reads of one global byte kept for the race check (distinct workgroups).
const GLOBAL_READS_KEPT: usize = 16;

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
    PerGroup(GroupLogs),
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
    /// The dwords of the address rows being checked ([`Device::check_lds_rows`]).
    dwords: RowDwords,
    /// Whether repeated reads take their earlier read's findings, and the DS dword forms hand
    /// their address rows instead of a trace (always, but for the tests that compare the
    /// shortcuts with checking every lane).
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

    /// Whether the DS dword forms run a row at a time and hand their address rows
    /// ([`crate::ds::DsEnv::rows`]).
    pub(crate) fn row_forms(&self) -> bool {
        self.shortcuts
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
            GlobalMode::PerGroup(logs) => Some(logs.into_logs()),
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
    /// The shadow of workgroup `g` (made on first use, or the slot's last one recycled).
    fn shadow(&mut self, g: usize) -> &mut GroupShadow {
        let (waves, size) = (self.group_waves, self.alloc.size);
        let sh = &mut self.checker.groups[g];
        if !sh.as_ref().is_some_and(|s| s.fits(waves, size)) {
            *sh = Some(Box::new(GroupShadow::new(waves, size)));
        }
        sh.as_deref_mut().expect("the shadow was just made")
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

    /// [`Device::check_lds`] for a DS row form's dword loads or stores (`outcome`'s
    /// [`DsOutcome::rows`]), from the lanes' address rows instead of a trace.
    pub(crate) fn check_lds_rows(&mut self, wi: usize, pc: usize, outcome: &DsOutcome) {
        let g = self.wave_group[wi];
        if !self.checker.enabled || self.lds[g].trace.is_none() {
            return;
        }
        let rows = AddrRows::new(outcome, self.alloc.size);
        if rows.lanes == [0, 0] {
            return;
        }
        self.settle_collision(wi, |b| rows.reads_byte(b));
        let access = self.lds_access(wi, pc, false, true);
        let found = self.scan_lds(g, access, Scan::Rows(&rows));
        // The values written, for a lane collision (a store whose lanes wrote one dword).
        let touches = match outcome.rows {
            RowAccess::Writes { data } if !found.twice.is_empty() => {
                rows.touches(self.waves[wi].vgpr_row(data).unwrap_or(&[]))
            }
            _ => Vec::new(),
        };
        self.report_lds(wi, pc, false, &touches, found);
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
            // The rows as the trace they stand for (the values written do not matter here),
            // for addresses not dword-aligned (unaligned mode).
            Scan::Rows(rows) if !rows.aligned => {
                let touches = rows.touches(&[]);
                scan.touches(&touches, false, shortcuts.then_some(&mut repeats));
            }
            Scan::Rows(rows) if rows.write => scan.write_row(rows.addrs[0], rows.lanes[0]),
            Scan::Rows(rows) => scan.dwords(dwords.list(rows, size)),
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
    /// back (`read_back` of the byte; `|_| false` for none). Tag-and-retry code (a histogram
    /// whose lanes write `tag | count` and loop until their own value stuck, as pre-atomics
    /// GPU code did) collides on purpose and reads the word back at once to see which lane
    /// won: its result does not depend on the winner, so it is not reported. A collision that
    /// the wave's next LDS access does not read back — or that a barrier or the wave's end
    /// follows — is.
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
            let message = format!(
                "waves of workgroup {} wait at different s_barrier instructions: wave {} \
                 at the first, waves {waves:?} at the second (the hardware releases them \
                 together as one barrier)",
                self.grid_workgroup(w0),
                self.waves[w0].id
            );
            events.push(divergence(self.waves[w0].id, pc0, message, other, waves));
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
            let message = format!(
                "wave {} of workgroup {} waits at an s_barrier which waves {waves:?} \
                 never reach: they took part in the workgroup's barriers and ended (at \
                 the second instruction); on gfx11 an ended wave no longer counts, so \
                 the barrier releases without them",
                self.waves[w0].id,
                self.grid_workgroup(w0)
            );
            events.push(divergence(self.waves[w0].id, pc0, message, end, waves));
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
            // The next workgroup in the slot starts from a new shadow (`Device::shadow`).
            if let Some(sh) = self.checker.groups[g].as_deref_mut() {
                sh.reset();
            }
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
            GlobalMode::PerGroup(logs) => logs.begin(&mut self.memory, self.wave_group[wi], g),
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
                logs.end(&mut self.memory, self.wave_group[wi]);
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

/// What [`Device::scan_lds`] checks: a trace, or a row form's address rows.
enum Scan<'t> {
    Touches(&'t [LdsTouch]),
    Rows(&'t AddrRows<'t>),
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

/// A `barrier_divergence` finding of wave `wave` waiting at `pc`, naming the other
/// instruction `other` and the waves `waves` there.
fn divergence(wave: u32, pc: usize, message: String, other: usize, waves: Vec<u32>) -> Event {
    Event::new("barrier_divergence", wave, pc, message).with_detail(EventDetail {
        pcs: vec![other],
        waves,
        ..EventDetail::default()
    })
}

#[cfg(test)]
mod tests {
    //! The checker's shortcuts against checking every lane's bytes: random LDS programs over
    //! several waves give the same events either way.

    use std::collections::HashMap;

    use super::super::{Device, RunConfig};
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

    /// A start for [`program`] that makes one load race with more instructions than a 64-bit
    /// mask tells apart: lane 0 of each wave stores bytes 0 to 64 or more, or as many dwords
    /// (some only a byte or two of each), one instruction each; after a barrier with no wait
    /// before it, every lane loads at a stride × its lane, at most at a cap (the lanes past
    /// it read the same bytes, a broadcast). A wave whose stores another wave's overwrote
    /// races there with up to all of that wave's.
    fn many_races(rng: &mut XorShift, wave64: bool) -> String {
        let (one, all, lane) = if wave64 {
            ("s_mov_b64 exec, 1", "s_mov_b64 exec, -1", 63)
        } else {
            ("s_mov_b32 exec_lo, 1", "s_mov_b32 exec_lo, -1", 31)
        };
        let mut text = format!("{one}\nv_mov_b32 v1, 0\n");
        let dwords = rng.next_u64().is_multiple_of(2);
        for k in 0..rng.next_u64() % 40 + 65 {
            text += &if dwords {
                let store = rng.pick(&[
                    "ds_store_b32",
                    "ds_store_b32",
                    "ds_store_b8",
                    "ds_store_b16",
                ]);
                format!("{store} v1, v0 offset:{}\n", 4 * k)
            } else {
                format!("ds_store_b8 v1, v0 offset:{k}\n")
            };
        }
        let (load, stride) = rng.pick(&[
            ("ds_load_b128 v[2:5], v6", 16u32),
            ("ds_load_b64 v[2:3], v6", 8),
            ("ds_load_b32 v2, v6", 4),
            ("ds_load_2addr_b32 v[2:3], v6 offset1:1", 8),
            ("ds_load_u16 v2, v6 offset:1", 4),
        ]);
        let cap = rng.pick(&[128u32, 256, 260, 400, 1024]);
        text + &format!(
            "s_barrier\n{all}\nv_and_b32 v7, {lane}, v0\nv_mul_u32_u24 v6, {stride}, v7\n\
             v_min_u32 v6, {cap}, v6\n{load}\n"
        )
    }

    /// The most `lds_race` events one instruction execution of `events` gave (a program
    /// without loops runs each instruction once per wave).
    fn most_races(events: &[Event]) -> usize {
        let mut per: HashMap<(u32, usize), usize> = HashMap::new();
        for e in events.iter().filter(|e| e.kind == "lds_race") {
            *per.entry((e.wave, e.pc)).or_default() += 1;
        }
        per.into_values().max().unwrap_or(0)
    }

    /// The events of `text` on `waves` waves of one workgroup, with or without the shortcuts
    /// (and the DS row forms), and what it computed: the allocation's LDS words, then v2 and
    /// v3 (what the loads read) of every lane of every wave.
    fn events(text: &str, cfg: &RunConfig, shortcuts: bool) -> (Vec<Event>, Vec<u32>) {
        let prog = assemble(text);
        assert!(prog.errors.is_empty(), "{:?}\n{text}", prog.errors);
        let mut dev = Device::new(cfg, prog.lines.len()).expect("config");
        dev.checker.shortcuts = shortcuts;
        dev.run(&prog.lines, cfg).expect("the program runs");
        let mut values = dev.lds(0).words(0, dev.alloc().size);
        for w in dev.waves() {
            values.extend((0..w.size).flat_map(|l| [w.vgpr(2, l), w.vgpr(3, l)]));
        }
        (dev.events().to_vec(), values)
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
                .0
                .iter()
                .filter(|e| e.kind == "lds_race" || e.kind == "uninitialized_lds_read")
                .count();
        }
        // The programs do find races and uninitialised reads (the comparison is not vacuous).
        assert!(found > 100, "{found}");
    }

    /// The row forms (`ds_load_b32`, the 2addr loads, `ds_store_b32`), their address rows
    /// checked a dword at a time for all the lanes that access it, find what running the
    /// general forms and checking every lane's trace finds: with lanes outside a small
    /// allocation, lanes of one store colliding, and in the unaligned mode with addresses off
    /// dword boundaries (those rows take the trace's path).
    #[test]
    fn row_forms_find_what_checking_every_lane_finds() {
        let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
        let (mut found, mut outside, mut collided, mut past64) = (0, 0, 0, 0);
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
            let mut text = String::new();
            if case % 5 == 2 {
                text = many_races(&mut rng, wave64);
            }
            text += &program(&mut rng, wave64);
            let exact = events(&text, &cfg, false);
            assert_eq!(events(&text, &cfg, true), exact, "case {case}:\n{text}");
            past64 += (most_races(&exact.0) > 64) as u32;
            let count = |kinds: &[&str]| exact.0.iter().filter(|e| kinds.contains(&e.kind)).count();
            found += count(&["lds_race", "uninitialized_lds_read"]);
            outside += count(&["lds_out_of_range"]);
            collided += count(&["lane_collision"]);
        }
        // Not vacuous: the programs find races, uninitialised reads and lane collisions, lanes
        // fall outside, and one instruction races with more than 64.
        assert!(found > 100, "{found}");
        assert!(past64 > 10, "{past64}");
        assert!(outside > 20, "{outside}");
        assert!(collided > 20, "{collided}");
    }
}
