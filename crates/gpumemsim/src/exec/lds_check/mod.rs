//! The checker (`gpumemsim check`, issue 20): observers of the executor that find what
//! CUDA's compute-sanitizer finds — LDS races (racecheck), lanes of one store colliding,
//! waves at different barriers or at a barrier others left (synccheck), reads of LDS nothing
//! wrote (initcheck) — and plain global accesses of one byte by two workgroups. They watch;
//! they never change what the executor computes. All of it runs only with
//! [`RunConfig::check`](super::RunConfig::check). docs/check.md says what each finds.
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
//! accesses never race (they are in program order). Atomics are not ordered among
//! themselves, so a byte also keeps every wave's latest atomic apart
//! ([`GroupShadow::atomics`]), and an atomic leaves a plain last write in place.
//!
//! A write-write race of plain writes that left the bytes as they were (the LDS's
//! [`crate::lds::Lds::overwritten`] says what each write replaced) is `lds_race_same_value`,
//! a note. Reads of bytes nothing wrote are followed to where their value is used
//! ([`poison`]). LDSDIR reads (`lds_param_load`,
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
//! part in the workgroup's barriers, or made an LDS or global access, and then ended while
//! the others went on to a barrier it never reached (a barrier in code the ending wave
//! skipped). A wave that ends before any barrier having accessed no memory — a whole wave
//! past the end of the data returning early, which clang-built kernels do — is not reported.
//!
//! # Global races
//! Plain accesses (not atomics) of one global byte by two waves, one of them a write, race
//! unless something orders them ([`order`]: barriers, and atomics after the waits of a
//! release). As each vector or scalar memory instruction completes, the bytes it accessed
//! (the memory's log of that instruction, atomics logged apart) are checked against a shadow
//! of global memory that keeps, per dword, the last plain write and the reads since
//! ([`global_shadow`]), in the one run, whether the grid runs together or a WGP's block of it
//! runs apart (the grid runner then also checks that no two blocks touched what one of them
//! wrote, and runs the grid together when they did).

mod bounds;
mod global_shadow;
mod order;
mod poison;
mod rows;
mod scan;
mod shadow;

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use super::{Counter, Device, Waiting};
use crate::addr::{AccessLog, PageHasher};
use crate::ds::{DsOutcome, RowAccess};
use crate::event::{Event, EventDetail};
use crate::lds::LdsTouch;
use global_shadow::{Acc, GlobalShadow, Hit};
use order::{Order, WaveNow};
use poison::Poison;
use rows::{AddrRows, RowDwords};
use scan::{ByteScan, Found, Repeats, Values};
use shadow::{Access, GroupShadow, Memo};

/// A race of one instruction execution with an earlier instruction.
struct GlobalRace {
    earlier: u32,
    /// Whether it changed a byte: false while every byte is a write-after-write of the
    /// value the byte held (a note).
    changed: bool,
    what: &'static str,
    waves: Vec<u32>,
    groups: Vec<u32>,
    address: u64,
}

/// The global race check of a running grid (or of one WGP's block of it, run apart).
#[derive(Default)]
pub(crate) struct GlobalCheck {
    /// The plain accesses seen, per dword.
    shadow: GlobalShadow,
    /// What orders the accesses of different waves.
    order: Order,
    /// The (instruction, earlier instruction) pairs already given a `global_race_same_value`
    /// note: the note is given once per pair (a grid whose workgroups all write one output
    /// would otherwise note every workgroup's every store). Looked up once per racing
    /// instruction, so hashed as page numbers are ([`PageHasher`]).
    noted: HashSet<(u32, u32), BuildHasherDefault<PageHasher>>,
    /// Every global access of the run, for a block run apart (the grid runner checks that
    /// no two blocks touched what one of them wrote).
    log: Option<AccessLog>,
    /// Waves per workgroup (a wave's workgroup is its id divided by it).
    group_waves: u32,
    /// The log of the instruction being executed (kept to reuse its space).
    current: AccessLog,
}

/// How the global accesses of the running grid are checked.
enum GlobalMode {
    /// Not at all.
    Off,
    /// Against a shadow of global memory, as each instruction completes.
    Shadow(Box<GlobalCheck>),
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
    /// The VGPRs holding values read from LDS nothing wrote ([`poison`]).
    poison: Poison,
    /// The data dwords of the DS store being executed that hold such values: (lane, dword
    /// bits), for [`Device::check_lds`] to mark the bytes they write.
    stored: Vec<(u8, u32)>,
    /// The kernel's LDS variables ([`bounds`]), sorted by start; empty when not known.
    variables: Vec<crate::loader::LdsVariable>,
    /// Per wave slot: the pc of its wave's last LDS or global access ([`NO_ACCESS`]: none
    /// yet), for [`Device::check_barrier_release`]. Kept here, not in the workgroup's
    /// shadow, so that a global access touches no part of that shadow.
    last_access: Vec<u32>,
}

/// [`Checker::last_access`] of a wave that made no access yet.
const NO_ACCESS: u32 = u32::MAX;

impl Checker {
    /// The state for `slots` workgroup slots; `enabled` is
    /// [`RunConfig::check`](super::RunConfig); `variables` the kernel's LDS variables
    /// ([`RunConfig::lds_variables`](super::RunConfig)).
    pub(crate) fn new(
        enabled: bool,
        slots: usize,
        group_waves: usize,
        variables: &[crate::loader::LdsVariable],
    ) -> Checker {
        let mut variables = variables.to_vec();
        variables.sort_by_key(|v| v.start);
        Checker {
            enabled,
            groups: (0..slots).map(|_| None).collect(),
            global: GlobalMode::Off,
            held: HashMap::new(),
            repeats: Repeats::default(),
            dwords: RowDwords::default(),
            shortcuts: true,
            poison: Poison::default(),
            stored: Vec::new(),
            variables,
            last_access: vec![NO_ACCESS; slots * group_waves],
        }
    }

    /// Appends the workgroups of `o` (a device holding the workgroups that follow).
    pub(crate) fn absorb(&mut self, o: Checker) {
        self.groups.extend(o.groups);
        self.last_access.extend(o.last_access);
    }

    /// Whether the DS dword forms run a row at a time and hand their address rows
    /// ([`crate::ds::DsEnv::rows`]).
    /// Not while a wave holds an uninitialised value: its stores are followed through the
    /// trace.
    pub(crate) fn row_forms(&self) -> bool {
        self.shortcuts && self.poison.is_empty()
    }

    /// Whether some wave holds a value read from LDS nothing wrote, which the checker follows
    /// through every instruction ([`Device::check_poison`]).
    pub(crate) fn follows_poison(&self) -> bool {
        !self.poison.is_empty()
    }

    /// One more workgroup slot, of `group_waves` wave slots.
    pub(crate) fn add_slot(&mut self, group_waves: usize) {
        self.groups.push(None);
        let n = self.last_access.len();
        self.last_access.resize(n + group_waves, NO_ACCESS);
    }

    /// Checks global accesses for races as they are made, keeping the log of every access
    /// too when `keep_log` (a block of the grid run apart); `group_waves`: waves per
    /// workgroup.
    pub(crate) fn check_global(&mut self, keep_log: bool, group_waves: u32) {
        if self.enabled {
            self.global = GlobalMode::Shadow(Box::new(GlobalCheck {
                log: keep_log.then(AccessLog::default),
                group_waves: group_waves.max(1),
                ..GlobalCheck::default()
            }));
        }
    }

    /// Ends the checks of a finished run: the log [`Checker::check_global`] kept (every
    /// global access of the run), if any. The shadows, of global memory and of each slot's
    /// LDS, are dropped: a block run apart is done, and its part waits for the others holding
    /// only what the report needs.
    pub(crate) fn finish(&mut self) -> Option<AccessLog> {
        for g in &mut self.groups {
            *g = None;
        }
        match std::mem::replace(&mut self.global, GlobalMode::Off) {
            GlobalMode::Shadow(mut c) => c.log.take(),
            GlobalMode::Off => None,
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
        shadow_in(
            &mut self.checker.groups[g],
            self.group_waves,
            self.alloc.size,
        )
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
            _ => {
                self.lds[g].overwritten.clear();
                return;
            }
        };
        self.settle_collision(wi, |b| read_back(&touches, b));
        self.note_access(wi, pc);
        if atomic && lgkm {
            // An atomic hands what its wave waited for before it to the waves whose atomics
            // on the same dwords follow (docs/check.md#how-accesses-are-ordered).
            let mut dwords: Vec<u32> = touches.iter().map(|t| t.offset & !3).collect();
            dwords.sort_unstable();
            dwords.dedup();
            let (me, waited) = ((wi % self.group_waves) as u32, self.lds_ops[wi].waited);
            self.shadow(g).atomic_handover(me, &dwords, waited);
        }
        let access = self.lds_access(wi, pc, atomic, lgkm);
        let mut found = self.scan_lds(g, access, Scan::Touches(&touches));
        self.mark_stored(wi, &touches);
        // A load's uninitialised bytes are followed to their use; anything else computes
        // with them now.
        let load = lgkm && !atomic;
        if found.uninit_lanes != 0 && load && self.poison_loaded(wi, pc, &touches) {
            found.uninit_lanes = 0;
        }
        self.report_lds(wi, pc, atomic, &touches, found);
        if !self.checker.variables.is_empty() {
            let crossing = bounds::check(&self.checker.variables, bounds::of_trace(&touches));
            self.report_crossing(wi, pc, crossing);
        }
        let mut touches = touches;
        touches.clear();
        self.lds[g].trace = Some(touches);
        self.lds[g].overwritten.clear();
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
            self.lds[g].overwritten.clear();
            return;
        }
        self.settle_collision(wi, |b| rows.reads_byte(b));
        self.note_access(wi, pc);
        let access = self.lds_access(wi, pc, false, true);
        let mut found = self.scan_lds(g, access, Scan::Rows(&rows));
        if found.uninit_lanes != 0
            && !rows.write
            && self.poison_loaded(wi, pc, &rows.touches([&[], &[]]))
        {
            found.uninit_lanes = 0;
        }
        // The values written, for a lane collision (a store whose lanes wrote one dword).
        let touches = match outcome.rows {
            RowAccess::Writes { data } if !found.twice.is_empty() => {
                let w = &self.waves[wi];
                rows.touches(data.map(|d| w.vgpr_row(d).unwrap_or(&[])))
            }
            _ => Vec::new(),
        };
        self.report_lds(wi, pc, false, &touches, found);
        let vars = &self.checker.variables;
        // Every access inside the variable of the first (the usual case): nothing crosses.
        let var = rows.first().and_then(|a| bounds::variable_at(vars, a));
        if !vars.is_empty() && !var.is_some_and(|(start, end)| rows.within(start, end)) {
            let accesses = (0..2).flat_map(|k| {
                let (lanes, addrs) = (rows.lanes[k], rows.addrs[k]);
                (0..64u8)
                    .filter(move |l| lanes >> l & 1 == 1)
                    .map(move |l| (k, l, addrs[l as usize], 4))
            });
            let crossing = bounds::check(&self.checker.variables, accesses);
            self.report_crossing(wi, pc, crossing);
        }
        self.lds[g].overwritten.clear();
    }

    /// The `lds_out_of_bounds` event of what [`bounds::check`] found, if anything.
    fn report_crossing(&mut self, wi: usize, pc: usize, crossing: Option<bounds::Crossing>) {
        let Some(c) = crossing else {
            return;
        };
        let e = Event::new("lds_out_of_bounds", self.waves[wi].id, pc, c.message).with_detail(
            EventDetail {
                lanes: lane_list(c.lanes),
                address: Some(u64::from(c.address)),
                ..EventDetail::default()
            },
        );
        self.events.push(e);
    }

    /// Before wave `wi` executes `inst` at `pc`: its uses of uninitialised values read from
    /// LDS are reported ([`poison`]), and what it does with them noted.
    #[inline]
    pub(crate) fn check_poison(&mut self, wi: usize, pc: usize, inst: &rdna3_isa::Instruction) {
        if self.checker.poison.is_empty() {
            return;
        }
        let exec = self.waves[wi].exec();
        let effect = self.checker.poison.before(wi, inst, exec);
        self.checker.stored = effect.stored;
        let wave = self.waves[wi].id;
        for (reg, m) in effect.used {
            let verb = if m.lanes.count_ones() == 1 {
                "uses"
            } else {
                "use"
            };
            let message = format!(
                "{} {verb} v{reg}, which holds a value the load named below read from LDS \
                 nothing in this launch wrote (first at byte {:#x} of the allocation): the \
                 hardware gives whatever the LDS held",
                lanes_text(m.lanes),
                m.address
            );
            self.events.push(
                Event::new("uninitialized_lds_read", wave, pc, message).with_detail(EventDetail {
                    pcs: vec![m.load_pc as usize],
                    waves: Vec::new(),
                    lanes: lane_list(m.lanes),
                    address: Some(u64::from(m.address)),
                }),
            );
        }
    }

    /// The load of wave `wi` at `pc` read bytes nothing wrote (`touches`, in the trace's
    /// order): marks the destination dwords that received them (the lane's k-th byte read
    /// lands in its dword k / 4 of the destination; a load of less than a dword in its
    /// only one). False when the instruction has no destination VGPRs to mark.
    fn poison_loaded(&mut self, wi: usize, pc: usize, touches: &[LdsTouch]) -> bool {
        let Some((first, count)) = self.facts[pc].returns else {
            return false;
        };
        let g = self.wave_group[wi];
        let Some(sh) = self.checker.groups[g].as_deref() else {
            return false;
        };
        let mut marks: Vec<(u32, u64, u32)> = Vec::new();
        let mut at = [0u32; 64];
        for t in touches.iter().filter(|t| !t.write) {
            let l = (t.lane & 63) as usize;
            for k in 0..u32::from(t.size) {
                let j = at[l] + k;
                let b = t.offset + k;
                if sh.unwritten(b) {
                    let reg = first + (j / 4).min(count.max(1) - 1);
                    match marks.iter_mut().find(|m| m.0 == reg) {
                        Some(m) => m.1 |= 1 << l,
                        None => marks.push((reg, 1 << l, b)),
                    }
                }
            }
            at[l] += u32::from(t.size);
        }
        for (reg, lanes, b) in marks {
            self.checker.poison.mark(wi, reg, lanes, pc, b);
        }
        true
    }

    /// The DS store of wave `wi` just checked (`touches`) wrote data dwords holding
    /// uninitialised values ([`Checker::stored`]): the bytes they went to are as
    /// uninitialised as before.
    fn mark_stored(&mut self, wi: usize, touches: &[LdsTouch]) {
        if self.checker.stored.is_empty() {
            return;
        }
        let stored = std::mem::take(&mut self.checker.stored);
        let g = self.wave_group[wi];
        let Some(sh) = self.checker.groups[g].as_deref_mut() else {
            return;
        };
        let mut at = [0u32; 64];
        for t in touches.iter().filter(|t| t.write) {
            let l = t.lane & 63;
            let dwords = stored
                .iter()
                .filter(|(lane, _)| *lane == l)
                .fold(0u32, |m, (_, d)| m | d);
            for k in 0..u32::from(t.size) {
                let j = at[l as usize] + k;
                if dwords >> (j / 4).min(31) & 1 == 1 {
                    sh.poison_byte(t.offset + k);
                }
            }
            at[l as usize] += u32::from(t.size);
        }
    }

    /// Wave `wi` made an LDS or global access at `pc` (it did some work: see
    /// [`Device::check_barrier_release`]).
    fn note_access(&mut self, wi: usize, pc: usize) {
        self.checker.last_access[wi] = pc as u32;
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
        let sh = shadow_in(&mut self.checker.groups[g], self.group_waves, size);
        let lds = &self.lds[g];
        let values = Values {
            old: &lds.overwritten,
            lds,
            alloc: self.alloc,
        };
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
            values,
        };
        repeats.clear();
        match what {
            Scan::Touches(touches) => {
                scan.touches(touches, a.atomic, shortcuts.then_some(&mut repeats));
            }
            // The rows as the trace they stand for (the values written do not matter here),
            // for addresses not dword-aligned (unaligned mode).
            Scan::Rows(rows) if !rows.aligned => {
                let touches = rows.touches([&[], &[]]);
                scan.touches(&touches, false, shortcuts.then_some(&mut repeats));
            }
            Scan::Rows(rows) if rows.write => scan.write_rows(rows),
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
            // Plain writes of the value the bytes held: the bytes end the same whatever the
            // order (every work-item clearing one shared counter), a note.
            let (kind, same) = if r.changed {
                ("lds_race", "")
            } else {
                (
                    "lds_race_same_value",
                    "; both wrote the value the bytes hold, so they end the same in either \
                     order",
                )
            };
            let list = waves
                .iter()
                .map(|w| w.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            self.events.push(
                Event::new(
                    kind,
                    wave,
                    pc,
                    format!(
                        "{} race on LDS byte {:#x}: {} of wave {wave} and the earlier \
                         access of wave{} {list}, with no s_barrier between them after the \
                         waits that complete the earlier access{same}",
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
        let now = self.wave_now(wi);
        if let GlobalMode::Shadow(check) = &mut self.checker.global {
            check.order.arrive(&now);
        }
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
        let group = self.workgroup_of(w0);
        let ids: Vec<u32> = waiting.iter().map(|&(i, _)| self.waves[i].id).collect();
        if let GlobalMode::Shadow(check) = &mut self.checker.global {
            check.order.release(group, &ids);
        }
        let mut events = Vec::new();
        if let Some(&(_, other)) = waiting.iter().find(|(_, p)| *p != pc0) {
            let waves: Vec<u32> = waiting
                .iter()
                .filter(|(_, p)| *p != pc0)
                .map(|(i, _)| self.waves[*i].id)
                .collect();
            let message = format!(
                "waves of workgroup {} wait at different s_barrier instructions: wave {} \
                 at the first, {} at the second (the hardware releases them together as \
                 one barrier)",
                self.grid_workgroup(w0),
                self.waves[w0].id,
                numbered("wave", &waves)
            );
            events.push(divergence(self.waves[w0].id, pc0, message, other, waves));
        }
        let last_access = self.checker.last_access[first..first + self.group_waves].to_vec();
        let sh = self.shadow(g);
        let generation = sh.generation;
        // Ended waves that did not reach this barrier, having taken part in an earlier one
        // (by end pc) or done some work, an LDS or global access (by that access's pc: a
        // wave that skipped the barrier in a branch and went on). A wave that ends before any
        // barrier having accessed nothing — a whole wave past the end of the data returning
        // early, which clang-built kernels do — is not reported.
        let mut left: Vec<(usize, bool, Vec<usize>)> = Vec::new();
        for (i, &last) in last_access.iter().enumerate() {
            let Some(end) = sh.ended_at[i] else { continue };
            let n = sh.arrivals[i].count;
            if n > generation || sh.left_reported[i] {
                continue;
            }
            let at = match (n, last) {
                (0, NO_ACCESS) => continue,
                (0, pc) => (pc as usize, false),
                _ => (end, true),
            };
            sh.left_reported[i] = true;
            match left.iter_mut().find(|(p, b, _)| (*p, *b) == at) {
                Some((_, _, v)) => v.push(i),
                None => left.push((at.0, at.1, vec![i])),
            }
        }
        sh.generation += 1;
        for (other, took_part, members) in left {
            let waves: Vec<u32> = members.iter().map(|&i| self.waves[first + i].id).collect();
            let how = if took_part {
                "took part in the workgroup's barriers and ended (at the second instruction)"
            } else {
                "went past it without waiting (their last access is the second \
                 instruction) and ended"
            };
            let message = format!(
                "wave {} of workgroup {} waits at an s_barrier which {} never reach: they \
                 {how}; on gfx11 an ended wave no longer counts, so the barrier releases \
                 without them",
                self.waves[w0].id,
                self.grid_workgroup(w0),
                numbered("wave", &waves)
            );
            events.push(divergence(self.waves[w0].id, pc0, message, other, waves));
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
        self.checker.poison.forget(wi);
        if let GlobalMode::Shadow(check) = &mut self.checker.global {
            check.order.forget(self.waves[wi].id);
        }
        let g = self.wave_group[wi];
        let first = g * self.group_waves;
        if (first..first + self.group_waves).all(|i| self.waves[i].done) {
            self.checker.last_access[first..first + self.group_waves].fill(NO_ACCESS);
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

    /// Before a vector or scalar memory instruction: logs its global accesses as the grid's
    /// race check needs (`atomic`: they are atomics).
    pub(crate) fn global_log_begin(&mut self, atomic: bool) {
        self.memory.set_atomic(atomic);
        if let GlobalMode::Shadow(check) = &mut self.checker.global {
            self.memory.swap_log(&mut check.current, true);
        }
    }

    /// After it (`counter`: the wait counter it counts on): checks its plain accesses
    /// against the shadow and follows what its atomics order.
    pub(crate) fn global_log_end(&mut self, wi: usize, pc: usize, counter: Counter) {
        self.memory.set_atomic(false);
        if self.checker.enabled {
            self.note_access(wi, pc);
        }
        let GlobalMode::Shadow(mut check) =
            std::mem::replace(&mut self.checker.global, GlobalMode::Off)
        else {
            return;
        };
        self.memory.swap_log(&mut check.current, false);
        let log = std::mem::take(&mut check.current);
        let (c, seq) = self.next_op(wi, counter);
        let me = Acc::new(self.waves[wi].id, pc, c, seq);
        let mut found: Vec<GlobalRace> = Vec::new();
        {
            let GlobalCheck {
                shadow,
                order,
                group_waves,
                ..
            } = &mut *check;
            let knows = order.known_to(me.wave);
            let known = |a: &Acc| knows(a.wave, a.counter(), a.seq());
            let group_waves = *group_waves;
            shadow.visit(me, &log, &self.memory, &known, |h| {
                add_hit(&mut found, h, group_waves)
            });
        }
        if log.has_plain() {
            check.order.mark(me.wave);
        }
        if !found.is_empty() {
            self.global_races(wi, me, &mut check, found);
        }
        let atomics = log.atomic_dwords();
        if !atomics.is_empty() {
            let now = self.wave_now(wi);
            check.order.atomic(&now, c as usize, seq, &atomics);
        }
        if let Some(all) = &mut check.log {
            all.merge(&log);
        }
        check.current = log;
        check.current.clear();
        self.checker.global = GlobalMode::Shadow(check);
    }

    /// The index (in [`WaveNow::done`]) of `counter` and the number the operation wave `wi`
    /// is issuing on it will have.
    fn next_op(&self, wi: usize, counter: Counter) -> (u8, u64) {
        let f = &self.inflight[wi];
        match counter {
            Counter::Vm => (0, f.vm.issued),
            Counter::Vs => (1, f.vs.issued),
            // A scalar store: complete after the next `s_waitcnt lgkmcnt(0)`.
            _ => (2, f.lgkm_zero),
        }
    }

    /// Wave `wi`'s id, workgroup and completed operations, for [`Order`].
    fn wave_now(&self, wi: usize) -> WaveNow {
        let f = &self.inflight[wi];
        WaveNow {
            wave: self.waves[wi].id,
            group: self.workgroup_of(wi),
            done: [f.vm.waited, f.vs.waited, f.lgkm_zero],
        }
    }

    /// Reports the races `found` of wave `wi`'s access `me` with earlier accesses of other
    /// waves that nothing orders before it ([`order`]): one event per earlier instruction.
    fn global_races(
        &mut self,
        wi: usize,
        me: Acc,
        check: &mut GlobalCheck,
        found: Vec<GlobalRace>,
    ) {
        let group = self.workgroup_of(wi);
        for r in found {
            if !r.changed && !check.noted.insert((me.pc, r.earlier)) {
                continue;
            }
            self.events.push(global_race_event(me, group, r));
        }
    }
}

/// Adds race `h` to `found`, the races of one access by earlier instruction (in the order
/// first found, each with the address it was first found at), `group_waves` giving the
/// workgroups of the earlier waves.
#[inline]
fn add_hit(found: &mut Vec<GlobalRace>, h: Hit, group_waves: u32) {
    // Most often the race just found again (the next dword the same earlier wave wrote).
    if let Some(f) = found.last_mut() {
        if f.earlier == h.earlier.pc && f.waves.last() == Some(&h.earlier.wave) {
            f.changed |= h.changed;
            return;
        }
    }
    add_other_hit(found, h, group_waves);
}

/// [`add_hit`] of a race other than the last one found.
fn add_other_hit(found: &mut Vec<GlobalRace>, h: Hit, group_waves: u32) {
    let f = match found.iter().rposition(|f| f.earlier == h.earlier.pc) {
        Some(i) => &mut found[i],
        None => {
            found.push(GlobalRace {
                earlier: h.earlier.pc,
                changed: false,
                what: h.kind.text(),
                waves: Vec::new(),
                groups: Vec::new(),
                address: h.address,
            });
            found.last_mut().expect("just pushed")
        }
    };
    f.changed |= h.changed;
    if !f.waves.contains(&h.earlier.wave) {
        f.waves.push(h.earlier.wave);
        let g = h.earlier.wave / group_waves;
        if !f.groups.contains(&g) {
            f.groups.push(g);
        }
    }
}

/// The event of race `r` of access `me` (of workgroup `group`).
fn global_race_event(me: Acc, group: u32, r: GlobalRace) -> Event {
    let between = if r.groups.iter().all(|&g| g == group) {
        "of the same workgroup, with no s_barrier between them after the waits that \
         complete the earlier access"
            .to_string()
    } else {
        format!(
            "of {}, with nothing ordering them: no atomic the later wave took after \
             the earlier one's waits that complete the earlier access (a release \
             fence, then the atomic)",
            numbered("workgroup", &r.groups)
        )
    };
    let (kind, same) = if r.changed {
        ("global_race", "")
    } else {
        (
            "global_race_same_value",
            "; both wrote the value the byte holds, so it ends the same in either order \
             (noted once per pair of instructions)",
        )
    };
    Event::new(
        kind,
        me.wave,
        me.pc as usize,
        format!(
            "{} race on global byte {:#x}: wave {} of workgroup {group} and the earlier \
             plain access of {} {between}{same}",
            r.what,
            r.address,
            me.wave,
            numbered("wave", &r.waves),
        ),
    )
    .with_detail(EventDetail {
        pcs: vec![r.earlier as usize],
        waves: r.waves,
        lanes: Vec::new(),
        address: Some(r.address),
    })
}

/// `wave 3` or `waves 1, 4, 5`.
fn numbered(what: &str, ids: &[u32]) -> String {
    let list: Vec<String> = ids.iter().map(u32::to_string).collect();
    let s = if ids.len() == 1 { "" } else { "s" };
    format!("{what}{s} {}", list.join(", "))
}

/// The shadow in a workgroup slot, for workgroups of `waves` waves and `size` bytes of LDS
/// (made on first use, or the slot's last one recycled).
fn shadow_in(slot: &mut Option<Box<GroupShadow>>, waves: usize, size: u32) -> &mut GroupShadow {
    if !slot.as_ref().is_some_and(|s| s.fits(waves, size)) {
        *slot = Some(Box::new(GroupShadow::new(waves, size)));
    }
    slot.as_deref_mut().expect("the shadow was just made")
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
            text += match rng.next_u64() % 15 {
                0 | 1 => format!("ds_load_b32 v2, v1 offset:{off}\n"),
                2 | 3 => format!("ds_load_2addr_b32 v[2:3], v1 offset0:{o0} offset1:{o1}\n"),
                4 => format!("ds_load_2addr_stride64_b32 v[2:3], v1 offset0:{o0} offset1:{o1}\n"),
                5 => format!("ds_store_b32 v1, v0 offset:{off}\n"),
                6 => format!("ds_store_2addr_b32 v1, v0, v3 offset0:{o0} offset1:{o1}\n"),
                11 => format!("ds_store_2addr_stride64_b32 v1, v3, v0 offset0:{o0} offset1:{o1}\n"),
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

    /// One workgroup of 2 to `most` + 1 waves of 32 or 64 lanes, with a random seed.
    fn workgroup(rng: &mut XorShift, wave64: bool, most: u32) -> RunConfig {
        RunConfig {
            wave_size: if wave64 { 64 } else { 32 },
            waves: rng.next_u64() as u32 % most + 2,
            seed: rng.next_u64(),
            ..RunConfig::default()
        }
    }

    /// Fails, naming the first event that differs, unless the shortcuts' run (`got`) gave
    /// what checking every lane gave (`exact`).
    fn assert_same(
        got: &(Vec<Event>, Vec<u32>),
        exact: &(Vec<Event>, Vec<u32>),
        case: u32,
        text: &str,
    ) {
        if let Some((a, b)) = got.0.iter().zip(&exact.0).find(|(a, b)| a != b) {
            panic!("case {case}: the shortcuts gave\n{a:?}\nwhere every lane gives\n{b:?}\n{text}");
        }
        assert_eq!(got.0.len(), exact.0.len(), "case {case}: events\n{text}");
        assert_eq!(got.1, exact.1, "case {case}: values\n{text}");
    }

    /// Two-address stores of two blocks of consecutive dwords apart (a tile's two rows,
    /// `ByteScan::write_two_blocks`) find what checking every lane finds: after loads that
    /// made read lists or stores of other waves, ordered by a barrier or not (races), with
    /// EXEC a block, one lane, every lane or a gapped mask (wave32 and wave64), and rows that
    /// overlap (the general path). The region is written first, so that no load takes an
    /// uninitialised value (the checker would follow it through the registers and turn the
    /// row forms off); the path's count of lanes it took together shows it ran.
    #[test]
    fn two_row_stores_find_what_checking_every_lane_finds() {
        let mut rng = XorShift::new(0x7a11_5eed_0b10_c4e5);
        let (mut races, mut apart, mut taken) = (0, 0, 0);
        for case in 0..300u32 {
            let wave64 = case % 5 == 4;
            let cfg = workgroup(&mut rng, wave64, 4);
            let lanes = if wave64 { 64 } else { 32 };
            let base = 4 * rng.below(64);
            let mut text = format!(
                "v_lshlrev_b32 v1, 2, v0\nv_and_b32 v1, 0xffc, v1\nv_add_nc_u32 v1, {base}, v1\n"
            );
            for k in 0..2048 / (4 * lanes) {
                text += &format!("ds_store_b32 v1, v0 offset:{}\n", 4 * lanes * k);
            }
            text += "s_waitcnt lgkmcnt(0)\ns_barrier\n";
            for _ in 0..rng.below(4) + 1 {
                let o0 = rng.below(40);
                let o1 = match rng.below(3) {
                    0 => rng.below(40),
                    _ => (o0 + lanes + rng.below(100)).min(255),
                };
                if rng.below(3) == 0 {
                    let (lo, len) = (rng.below(lanes - 16), 1 + rng.below(16));
                    let mask = match rng.below(3) {
                        0 => ((1u64 << len) - 1) << lo,
                        1 => 1 << lo,
                        _ => rng.next_u64() | 1,
                    };
                    text += &format!("s_mov_b32 exec_lo, {:#x}\n", mask as u32);
                    if wave64 {
                        text += &format!("s_mov_b32 exec_hi, {:#x}\n", (mask >> 32) as u32);
                    }
                }
                text += &match rng.below(4) {
                    0 => format!("ds_load_2addr_b32 v[2:3], v1 offset0:{o1} offset1:{o0}\n"),
                    1 => format!("ds_load_b32 v2, v1 offset:{}\n", 4 * o0),
                    _ => {
                        apart += u32::from(o1.abs_diff(o0) >= lanes);
                        format!("ds_store_2addr_b32 v1, v0, v3 offset0:{o0} offset1:{o1}\n")
                    }
                };
                text += if wave64 {
                    "s_mov_b64 exec, -1\n"
                } else {
                    "s_mov_b32 exec_lo, -1\n"
                };
                text += match rng.below(3) {
                    0 => "s_waitcnt lgkmcnt(0)\ns_barrier\n",
                    _ => "",
                };
            }
            text += "s_endpgm\n";
            let exact = events(&text, &cfg, false);
            let before = super::scan::TWO_BLOCK_LANES.with(|n| n.get());
            assert_same(&events(&text, &cfg, true), &exact, case, &text);
            taken += super::scan::TWO_BLOCK_LANES.with(|n| n.get()) - before;
            races += exact.0.iter().filter(|e| e.kind == "lds_race").count();
        }
        assert!(
            races > 100 && apart > 150,
            "{races} races, {apart} stores apart"
        );
        assert!(taken > 5_000, "{taken} lanes taken together");
    }

    #[test]
    fn repeated_reads_find_what_checking_every_read_finds() {
        let mut rng = XorShift::new(0x2545_f491_4f6c_dd1d);
        let mut found = 0;
        for case in 0..500u32 {
            let wave64 = case.is_multiple_of(3);
            let cfg = workgroup(&mut rng, wave64, 7);
            let text = program(&mut rng, wave64);
            let exact = events(&text, &cfg, false);
            assert_same(&events(&text, &cfg, true), &exact, case, &text);
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
            let base = workgroup(&mut rng, wave64, 7);
            let cfg = RunConfig {
                lds_size: rng.pick(&[256u32, 1024, 1100, 65536]),
                align: if case % 3 == 0 {
                    AlignMode::Unaligned
                } else {
                    AlignMode::Dword
                },
                ..base
            };
            let mut text = String::new();
            if case % 5 == 2 {
                text = many_races(&mut rng, wave64);
            }
            text += &program(&mut rng, wave64);
            let exact = events(&text, &cfg, false);
            assert_same(&events(&text, &cfg, true), &exact, case, &text);
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
