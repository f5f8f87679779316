//! VGPR data in flight: a returning memory operation (a DS load or returning atomic,
//! `lds_param_load`/`lds_direct_load`, a global/flat/scratch/buffer load or returning atomic)
//! writes its destination VGPRs when it completes in the timing model, not when it issues.
//! Until then the registers hold their old values; an instruction that reads or writes them
//! before a wait has proven the operation complete gets what the hardware gives (the old
//! value; a write is overwritten when the data lands) and a `missing_wait` event naming the
//! load, the instruction and the wait that fixes it (docs/rules/timing.md#data-in-flight).
//!
//! Which wait covers an operation (AMD's RDNA3 ISA guide, "Data dependency resolution"; the
//! same model as LLVM's SIInsertWaitcnts for gfx11): each counter's operations of one type
//! return in issue order — LDS operations on LGKMcnt (whatever SMEM does), vector-memory
//! loads and returning atomics on VMcnt, LDS parameter and direct loads on EXPcnt — so
//! `s_waitcnt xcnt(N)` proves complete every operation with at least N later ones of its
//! kind ([`super::OrderedOps`], docs/rules/timing.md#wait-counters). A FLAT load is covered by VMcnt (its data comes back through the
//! vector-memory return path; a choice: the guide asks programs to wait for both counters,
//! and clang-19 does, but only VMcnt tells when a FLAT load to global memory is back).
//!
//! Two loads of the same kind may write the same register without a wait between them: they
//! land in issue order, so the later one's data stays (LLVM relies on this too). Anything else
//! touching a register with data in flight is a `missing_wait`.

use rdna3_isa::def::Kind;
use rdna3_isa::{Field, Format, Instruction, Opcode};

use super::{Counter, Device, OrderedOps};
use crate::event::{Event, EventDetail};
use crate::vmem::{self, GlobalOp};
use crate::wave::Wave;

/// A set of VGPRs (bit = register number).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct VgprSet([u64; 4]);

impl VgprSet {
    /// Adds registers `first ..first + count` (those past v255 are left out): a mask per
    /// 64-bit word they reach, not a bit per register.
    fn add(&mut self, first: u32, count: u32) {
        let end = (first + count).min(256);
        let mut r = first;
        while r < end {
            let low = r % 64;
            let n = (end - r).min(64 - low);
            self.0[r as usize / 64] |= (u64::MAX >> (64 - n)) << low;
            r += n;
        }
    }

    fn range(first: u32, count: u32) -> VgprSet {
        let mut s = VgprSet::default();
        s.add(first, count);
        s
    }

    fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    fn intersects(&self, o: &VgprSet) -> bool {
        self.0.iter().zip(&o.0).any(|(a, b)| a & b != 0)
    }

    fn first(&self) -> Option<u32> {
        (0..256).find(|&r| self.0[r as usize / 64] >> (r % 64) & 1 == 1)
    }
}

/// The VGPRs an instruction reads and writes as it issues.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Touched {
    reads: VgprSet,
    writes: VgprSet,
}

impl Touched {
    /// The VGPRs read, as four 64-bit words (bit = register).
    pub(crate) fn reads_bits(&self) -> [u64; 4] {
        self.reads.0
    }

    /// The VGPRs written at issue, as four 64-bit words.
    pub(crate) fn writes_bits(&self) -> [u64; 4] {
        self.writes.0
    }

    fn intersects(&self, o: &VgprSet) -> bool {
        self.reads.intersects(o) || self.writes.intersects(o)
    }
}

/// One returning operation's data, on its way to its VGPRs.
#[derive(Clone, Debug)]
pub(crate) struct VgprReturn {
    /// When the data lands.
    at: u64,
    /// Its position among its counter's operations.
    seq: u64,
    /// The lanes it writes (EXEC when it issued).
    lanes: u64,
    /// The load's mnemonic.
    name: &'static str,
    /// Where its `count` rows of the wave's lanes, as the unit model computed them at issue,
    /// start in [`InFlight::data`].
    start: u32,
    /// The load's instruction index.
    pc: u32,
    /// First destination register.
    first: u32,
    /// The bits of the last row it writes: a `d16` load writes one half of its VGPR and
    /// leaves the other as it is when the data lands ([`d16_last_row_bits`]).
    last_bits: u32,
    /// How many registers it writes (at most 5: four and TFE's status).
    count: u8,
    /// The counter whose waits cover it.
    counter: Counter,
    /// Whether it has landed.
    landed: bool,
    /// Whether an event has named it (one event per operation).
    reported: bool,
}

impl VgprReturn {
    /// Where its rows are in [`InFlight::data`], for a wave of `n` lanes.
    fn rows(&self, n: usize) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + usize::from(self.count) * n
    }
}

/// A wave's data in flight and its in-order operation counts per counter.
#[derive(Clone, Debug, Default)]
pub(crate) struct InFlight {
    returns: Vec<VgprReturn>,
    /// Registers of returns not yet covered by a wait.
    unwaited: VgprSet,
    /// VMcnt loads and returning atomics, issued and proven complete.
    pub vm: OrderedOps,
    /// EXPcnt LDS parameter/direct loads, issued and proven complete.
    pub exp: OrderedOps,
    /// VScnt stores and atomics that return nothing, issued and proven complete (no
    /// register waits on them; the global race check orders by them).
    pub vs: OrderedOps,
    /// `s_waitcnt lgkmcnt(0)`s executed: SMEM operations complete out of order, so only
    /// such a wait proves a scalar store complete (the global race check orders by it).
    pub lgkm_zero: u64,
    /// The rows of every return in `returns`, one after another in the order of `returns`
    /// (with gaps where returns left), so a wave's data in flight is one allocation that
    /// grows to the most it has held at once, not one buffer per load.
    data: Vec<u32>,
    /// No return not yet landed arrives before this cycle (a bound: 0 says nothing), so a
    /// step before it has nothing to land and skips the look at every return.
    landing_from: u64,
}

/// When the first of `returns` not yet landed arrives (`u64::MAX`: none).
fn next_landing(returns: &[VgprReturn]) -> u64 {
    returns
        .iter()
        .filter(|r| !r.landed)
        .map(|r| r.at)
        .min()
        .unwrap_or(u64::MAX)
}

/// After the unit model wrote a saved return's results to wave `w`'s registers: they swap
/// with the old values saved in `rows`, which become the data in flight. The lanes it
/// writes: those under EXEC, and any other the unit model changed (LDS direct and parameter
/// loads write whole quads).
fn swap_back(w: &mut Wave, rows: &mut [u32], saved: &Saved) -> u64 {
    let n = w.size as usize;
    let mut lanes = saved.lanes;
    // With every lane under EXEC there is no other lane to find.
    let all = w.lane_mask();
    for (k, chunk) in rows.chunks_mut(n).enumerate() {
        let Some(row) = w.vgpr_row_mut(saved.first + k as u32) else {
            continue;
        };
        row.swap_with_slice(chunk);
        if lanes == all {
            continue;
        }
        for (l, (old, new)) in row.iter().zip(chunk.iter()).enumerate() {
            lanes |= u64::from(new != old) << l;
        }
    }
    lanes
}

impl InFlight {
    /// The data's words `start..start + len` ([`Saved::direct_rows`]).
    pub(crate) fn rows_mut(&mut self, (start, len): (usize, usize)) -> &mut [u32] {
        &mut self.data[start..start + len]
    }

    /// The state of a new wave's (nothing in flight), keeping the data's allocation.
    pub(crate) fn reset(&mut self) {
        let (mut returns, mut data) = (
            std::mem::take(&mut self.returns),
            std::mem::take(&mut self.data),
        );
        returns.clear();
        data.clear();
        *self = InFlight {
            returns,
            data,
            ..InFlight::default()
        };
    }

    /// Makes room for `need` more words of data for a wave of `n` lanes: the data of returns
    /// that left goes (all of it when none is left), and, when the allocation would have to
    /// grow, the rows of those in flight move down over the gaps, in order.
    fn make_room(&mut self, need: usize, n: usize) {
        if self.returns.is_empty() {
            self.data.clear();
        } else if self.data.len() + need > self.data.capacity() {
            let mut to = 0;
            for r in &mut self.returns {
                let from = r.rows(n);
                let len = from.len();
                self.data.copy_within(from, to);
                r.start = to as u32;
                to += len;
            }
            self.data.truncate(to);
        }
    }

    /// Whether operation `seq` on `counter` is proven complete by the waits, given the LDS
    /// operation counts `lds`.
    fn waited(&self, lds: OrderedOps, counter: Counter, seq: u64) -> bool {
        let o = match counter {
            Counter::Lgkm => lds,
            Counter::Vm => self.vm,
            Counter::Exp => self.exp,
            Counter::Vs => self.vs,
        };
        seq < o.waited
    }

    /// The registers of the returns no wait covers, given the LDS operation counts `lds`.
    fn unwaited_now(&self, lds: OrderedOps) -> VgprSet {
        let mut u = VgprSet::default();
        for r in self
            .returns
            .iter()
            .filter(|r| !self.waited(lds, r.counter, r.seq))
        {
            u.add(r.first, u32::from(r.count));
        }
        u
    }
}

/// The destination VGPRs (first, count) a returning memory instruction writes when it
/// completes, or `None` for an instruction that returns no VGPR data.
pub(crate) fn returned_vgprs(inst: &Instruction) -> Option<(u32, u32)> {
    let d = inst.def();
    match d.format {
        Format::Ds | Format::Ldsdir => d.operands.iter().find_map(|o| match o.kind {
            Kind::V(n) if o.field == Field::Vdst => Some((inst.get(Field::Vdst), n as u32)),
            _ => None,
        }),
        Format::Global | Format::Flat | Format::Scratch | Format::Mubuf | Format::Mtbuf => {
            let op = vmem::global_op_of(inst.opcode)?;
            let n = d.operands.iter().find_map(|o| match o.kind {
                Kind::V(n) | Kind::VRtn(n) if matches!(o.field, Field::Vdst | Field::Vdata) => {
                    Some((inst.get(o.field), n as u32))
                }
                _ => None,
            })?;
            let tfe =
                matches!(d.format, Format::Mubuf | Format::Mtbuf) && inst.get(Field::Tfe) == 1;
            let count = match op {
                GlobalOp::Load { .. } | GlobalOp::Format { store: false, .. } => n.1,
                // cmpswap's data is two values; what returns is one.
                GlobalOp::Atomic { bytes, .. } if crate::vmem::returns_data(inst) => bytes / 4,
                _ => return None,
            };
            Some((n.0, count + u32::from(tfe)))
        }
        _ => None,
    }
}

/// The VGPRs `inst` reads or writes through its operands as it issues, leaving out the
/// destination a returning memory instruction writes when it completes (see
/// [`returned_vgprs`]); a buffer atomic's Vdata is also its data, read at issue.
pub(crate) fn touched_vgprs(inst: &Instruction) -> Touched {
    let d = inst.def();
    let returning = returned_vgprs(inst).is_some();
    let mubuf_atomic = matches!(d.format, Format::Mubuf | Format::Mtbuf)
        && matches!(
            vmem::global_op_of(inst.opcode),
            Some(GlobalOp::Atomic { .. })
        );
    let mut t = Touched::default();
    for o in inst.vgpr_operands() {
        let lands_later = returning
            && match o.field {
                Field::Vdst => true,
                Field::Vdata => !mubuf_atomic,
                _ => false,
            };
        if lands_later {
            continue;
        }
        let set = if o.is_vdst() {
            &mut t.writes
        } else {
            &mut t.reads
        };
        set.add(o.first, o.count);
    }
    t
}

impl Device {
    /// Wave `wi`'s in-order operation counts for `counter`, where it keeps them.
    fn ops_mut(&mut self, wi: usize, counter: Counter) -> &mut OrderedOps {
        match counter {
            Counter::Lgkm => &mut self.lds_ops[wi],
            Counter::Vm => &mut self.inflight[wi].vm,
            Counter::Exp => &mut self.inflight[wi].exp,
            Counter::Vs => &mut self.inflight[wi].vs,
        }
    }

    /// Counts an operation of wave `wi` on `counter` issued; returns its position.
    pub(crate) fn count_issued(&mut self, wi: usize, counter: Counter) -> u64 {
        let o = self.ops_mut(wi, counter);
        o.issued += 1;
        o.issued - 1
    }

    /// `s_waitcnt` with `counter` at most `n`: every operation with at least `n` later ones
    /// of its kind is proven complete.
    ///
    /// Whether it proved more operations complete: then the caller recomputes the unwaited
    /// registers ([`Device::refresh_unwaited`]). They depend on the waits alone and are
    /// current after every change to them (a return sent adds its registers; a landing
    /// changes no wait, [`Device::drop_landed`]), so a wait that proves nothing new leaves
    /// them as they are.
    pub(crate) fn note_waited(&mut self, wi: usize, counter: Counter, n: u32) -> bool {
        if counter == Counter::Lgkm && n == 0 {
            self.inflight[wi].lgkm_zero += 1;
        }
        let o = self.ops_mut(wi, counter);
        let waited = o.waited.max(o.issued.saturating_sub(u64::from(n)));
        let proven = waited != o.waited;
        o.waited = waited;
        proven
    }

    /// Whether wave `wi`'s operation `seq` on `counter` is proven complete.
    fn waited(&self, wi: usize, counter: Counter, seq: u64) -> bool {
        self.inflight[wi].waited(self.lds_ops[wi], counter, seq)
    }

    /// Recomputes wave `wi`'s registers with unwaited data, dropping returns that have
    /// landed and are covered.
    pub(crate) fn refresh_unwaited(&mut self, wi: usize) {
        self.drop_covered_landings(wi);
        let f = &mut self.inflight[wi];
        f.unwaited = f.unwaited_now(self.lds_ops[wi]);
    }

    /// Before a returning memory instruction `inst` of wave `wi` executes: the old values of
    /// its destination registers `returns` (its [`returned_vgprs`]), to put back after the
    /// unit model wrote the new ones.
    #[inline(always)]
    pub(crate) fn save_destination(
        &mut self,
        wi: usize,
        inst: &Instruction,
        returns: Option<(u32, u32)>,
    ) -> Option<Saved> {
        // Most instructions return nothing: decided without a call.
        let (first, count) = returns?;
        Some(self.save_rows(wi, inst, first, count))
    }

    /// [`Device::save_destination`] of registers `first ..first + count`: their rows go to
    /// the end of the wave's data in flight.
    #[inline(never)]
    fn save_rows(&mut self, wi: usize, inst: &Instruction, first: u32, count: u32) -> Saved {
        let w = &self.waves[wi];
        let n = w.size as usize;
        let f = &mut self.inflight[wi];
        f.make_room(count as usize * n, n);
        let start = f.data.len();
        for r in first..first + count {
            match w.vgpr_row(r) {
                Some(row) => f.data.extend_from_slice(row),
                None => f.data.resize(f.data.len() + n, 0),
            }
        }
        Saved::new(w, inst, (first, count), start, false)
    }

    /// [`Device::save_destination`] for a load whose unit model writes its results into
    /// the rows it is given (a DS row-form load: `ds::loads_rows`) rather than into the
    /// registers: rows for them at the end of the wave's data in flight, and no copy of the
    /// registers' old values, which stay where they are until the data lands. Saves the
    /// copy out, the swap back, and the copy's allocation of the rows (two of a return's
    /// three copies).
    pub(crate) fn reserve_destination(
        &mut self,
        wi: usize,
        inst: &Instruction,
        (first, count): (u32, u32),
    ) -> Saved {
        let w = &self.waves[wi];
        let n = w.size as usize;
        let f = &mut self.inflight[wi];
        f.make_room(count as usize * n, n);
        let start = f.data.len();
        f.data.resize(start + count as usize * n, 0);
        Saved::new(w, inst, (first, count), start, true)
    }

    /// After the unit model executed the returning instruction at `pc`: its results leave
    /// the registers (the old values return) and travel until `at`, counted on `counter`.
    pub(crate) fn send_return(
        &mut self,
        wi: usize,
        pc: usize,
        saved: Saved,
        at: u64,
        counter: Counter,
        seq: u64,
    ) {
        let w = &mut self.waves[wi];
        let n = w.size as usize;
        let f = &mut self.inflight[wi];
        let rows = &mut f.data[saved.start as usize..][..saved.count as usize * n];
        // A direct return's rows hold its results already (for the lanes under EXEC).
        let lanes = match saved.direct {
            true => saved.lanes,
            false => swap_back(w, rows, &saved),
        };
        f.unwaited.add(saved.first, saved.count);
        f.landing_from = f.landing_from.min(at);
        f.returns.push(VgprReturn {
            at,
            seq,
            lanes,
            name: saved.name,
            start: saved.start,
            pc: pc as u32,
            first: saved.first,
            last_bits: saved.last_bits,
            count: saved.count as u8,
            counter,
            landed: false,
            reported: false,
        });
    }

    /// Writes the VGPR data of wave `wi` that has arrived by cycle `now`, in the order it
    /// arrives (issue order among operations of one kind).
    pub(crate) fn land_vgprs(&mut self, wi: usize, now: u64) {
        let f = &mut self.inflight[wi];
        if now < f.landing_from {
            return;
        }
        if f.returns.iter().all(|r| r.landed || r.at > now) {
            f.landing_from = next_landing(&f.returns);
            return;
        }
        let w = &mut self.waves[wi];
        let (n, all) = (w.size as usize, w.lane_mask());
        // The earliest arrival first, the earlier issued on a tie (a wave has a few returns
        // out: a scan per landing, no list).
        while let Some(i) = (0..f.returns.len())
            .filter(|&i| !f.returns[i].landed && f.returns[i].at <= now)
            .min_by_key(|&i| f.returns[i].at)
        {
            let r = &mut f.returns[i];
            r.landed = true;
            for (k, chunk) in f.data[r.rows(n)].chunks(n).enumerate() {
                let Some(row) = w.vgpr_row_mut(r.first + k as u32) else {
                    continue;
                };
                let bits = if k + 1 == usize::from(r.count) {
                    r.last_bits
                } else {
                    u32::MAX
                };
                if bits != u32::MAX {
                    // Half a register: the other half keeps what it holds now (another
                    // load may have written it since this one issued).
                    for (l, (dst, v)) in row.iter_mut().zip(chunk).enumerate() {
                        if r.lanes >> l & 1 == 1 {
                            *dst = *dst & !bits | *v & bits;
                        }
                    }
                } else if r.lanes == all {
                    row.copy_from_slice(chunk);
                } else {
                    for (l, (dst, v)) in row.iter_mut().zip(chunk).enumerate() {
                        if r.lanes >> l & 1 == 1 {
                            *dst = *v;
                        }
                    }
                }
            }
        }
        f.landing_from = next_landing(&f.returns);
        self.drop_landed(wi);
    }

    /// After a landing: the returns that landed and that a wait covers go. The registers
    /// with unwaited data stay as they are: they are those of the returns no wait covers,
    /// and a landing changes no wait ([`Device::refresh_unwaited`] without its recount).
    fn drop_landed(&mut self, wi: usize) {
        self.drop_covered_landings(wi);
        let f = &self.inflight[wi];
        debug_assert_eq!(
            f.unwaited,
            f.unwaited_now(self.lds_ops[wi]),
            "the unwaited registers are current"
        );
    }

    /// Drops wave `wi`'s returns that have landed and that a wait covers.
    fn drop_covered_landings(&mut self, wi: usize) {
        let lds = self.lds_ops[wi];
        let f = &mut self.inflight[wi];
        let mut returns = std::mem::take(&mut f.returns);
        returns.retain(|r| !(r.landed && f.waited(lds, r.counter, r.seq)));
        f.returns = returns;
    }

    /// Whether wave `wi` has no memory data on its way: no SMEM, VMEM or LDS return to land,
    /// nothing unwaited.
    #[inline]
    pub(crate) fn nothing_in_flight(&self, wi: usize) -> bool {
        let f = &self.inflight[wi];
        f.returns.is_empty()
            && f.unwaited.is_empty()
            && self.sgpr_returns[wi].is_empty()
            && self.sgpr_late[wi] == 0
    }

    /// Before wave `wi` runs `inst` at `pc`: lands arrived data, and reports a
    /// `missing_wait` for each operation whose registers `inst` touches before a wait covered
    /// it.
    #[inline]
    pub(crate) fn check_inflight(&mut self, wi: usize, pc: usize, inst: &Instruction) {
        let f = &self.inflight[wi];
        if f.returns.is_empty() && f.unwaited.is_empty() {
            // Nothing to land, nothing unwaited (the common case, checked without a call).
            return;
        }
        self.check_returns(wi, pc, inst);
    }

    /// [`Device::check_inflight`] with data in flight.
    fn check_returns(&mut self, wi: usize, pc: usize, inst: &Instruction) {
        self.land_vgprs(wi, self.clocks[wi]);
        if self.inflight[wi].unwaited.is_empty() {
            return;
        }
        let touched = match self.vgpr_masks[pc] {
            Some(m) => m,
            None => {
                let m = touched_vgprs(inst);
                self.vgpr_masks[pc] = Some(m);
                m
            }
        };
        let dest = self.facts[pc].returns.map(|(f, n)| VgprSet::range(f, n));
        // Every return no wait covers has its registers in `unwaited`: an instruction that
        // touches none of those, and returns to none, meets none of them.
        let unwaited = &self.inflight[wi].unwaited;
        if !touched.intersects(unwaited) && !dest.is_some_and(|d| d.intersects(unwaited)) {
            return;
        }
        let kind = memory_counter(inst.opcode);
        let mut hits = Vec::new();
        for (i, r) in self.inflight[wi].returns.iter().enumerate() {
            if r.reported || self.waited(wi, r.counter, r.seq) {
                continue;
            }
            let regs = VgprSet::range(r.first, u32::from(r.count));
            let read = touched.intersects(&regs);
            // Same-kind loads writing the same registers land in order: no hazard.
            let overwritten = dest.is_some_and(|d| d.intersects(&regs)) && kind != Some(r.counter);
            if read || overwritten {
                hits.push(i);
            }
        }
        for i in hits {
            let e = self.missing_wait_event(wi, pc, inst, i, &touched);
            self.inflight[wi].returns[i].reported = true;
            self.events.push(e);
        }
    }

    fn missing_wait_event(
        &self,
        wi: usize,
        pc: usize,
        inst: &Instruction,
        i: usize,
        touched: &Touched,
    ) -> Event {
        let r = &self.inflight[wi].returns[i];
        let o = match r.counter {
            Counter::Lgkm => self.lds_ops[wi],
            Counter::Vm => self.inflight[wi].vm,
            _ => self.inflight[wi].exp,
        };
        let later = o.issued - 1 - r.seq;
        let (name, max) = match r.counter {
            Counter::Lgkm => ("lgkmcnt", 63),
            Counter::Vm => ("vmcnt", 63),
            _ => ("expcnt", 7),
        };
        let fix = format!("s_waitcnt {name}({})", later.min(max));
        let mut regs = VgprSet::range(r.first, u32::from(r.count));
        let what = if touched.reads.intersects(&regs) {
            for (a, b) in regs.0.iter_mut().zip(touched.reads.0) {
                *a &= b;
            }
            "reads"
        } else {
            for (a, b) in regs.0.iter_mut().zip(touched.writes.0) {
                *a &= b;
            }
            "writes"
        };
        let reg = regs.first().unwrap_or(r.first);
        let state = if r.landed {
            "its data had arrived by the timing model, but nothing waited for it"
        } else {
            "its data has not arrived: the old value is used"
        };
        Event::new(
            "missing_wait",
            self.waves[wi].id,
            pc,
            format!(
                "`{}` {what} v{reg} before the wait for the `{}` that loads it ({state}); \
                 `{fix}` before it fixes this",
                inst.mnemonic(),
                r.name
            ),
        )
        .with_detail(EventDetail {
            pcs: vec![r.pc as usize],
            waves: Vec::new(),
            lanes: (0..64).filter(|l| r.lanes >> l & 1 == 1).collect(),
            address: None,
        })
    }

    /// At the end of wave `wi`: everything in flight lands (the registers are read after
    /// the device drained).
    pub(crate) fn land_all_vgprs(&mut self, wi: usize) {
        self.land_vgprs(wi, u64::MAX);
    }
}

/// The registers a returning instruction had before it executed.
pub(crate) struct Saved {
    name: &'static str,
    /// The bits of the last register it writes ([`d16_last_row_bits`]).
    last_bits: u32,
    first: u32,
    count: u32,
    lanes: u64,
    /// Where the rows are in the wave's [`InFlight::data`].
    start: u32,
    /// Whether the unit model writes its results straight into the rows (they hold no old
    /// values to swap back: [`Device::reserve_destination`]).
    direct: bool,
}

impl Saved {
    /// The return of wave `w`'s `inst` to registers `first .. first + count`, its rows from
    /// word `start` of the wave's data in flight.
    fn new(
        w: &Wave,
        inst: &Instruction,
        (first, count): (u32, u32),
        start: usize,
        direct: bool,
    ) -> Saved {
        Saved {
            name: inst.mnemonic(),
            last_bits: last_row_bits(inst.opcode),
            first,
            count,
            lanes: w.exec() & w.lane_mask(),
            start: start as u32,
            direct,
        }
    }

    /// The rows' place in the wave's data in flight (start, words) when the unit model
    /// writes into them ([`Saved::direct`]).
    pub(crate) fn direct_rows(&self, n: u32) -> Option<(usize, usize)> {
        self.direct
            .then(|| (self.start as usize, (self.count * n) as usize))
    }
}

/// The counter a returning memory instruction's data is covered by.
pub(crate) fn memory_counter(op: Opcode) -> Option<Counter> {
    let d = op.def();
    match d.format {
        Format::Ds => Some(Counter::Lgkm),
        Format::Ldsdir => Some(Counter::Exp),
        Format::Global | Format::Flat | Format::Scratch | Format::Mubuf | Format::Mtbuf => {
            Some(Counter::Vm)
        }
        _ => None,
    }
}

/// [`d16_last_row_bits`] of each table entry, worked out once per process (a name scan per
/// returning instruction cost the LDS-tiled matmul 5%).
fn last_row_bits(op: Opcode) -> u32 {
    static TABLE: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        rdna3_isa::def::every()
            .map(|(_, d)| d)
            .map(|d| d16_last_row_bits(d.name))
            .collect()
    })[op.0 as usize]
}

/// The bits of its last destination register a load writes, by its mnemonic: a `d16` load
/// of one 16-bit value (or three, `_d16_xyz`) writes the low half of that register
/// (`_d16_hi`: the high half), the others whole registers
/// (docs/rules/addressing.md#load-data-lands-at-completion).
fn d16_last_row_bits(name: &str) -> u32 {
    if !name.contains("d16") {
        u32::MAX
    } else if name.contains("d16_hi") {
        0xffff_0000
    } else if name.ends_with("_xy") || name.ends_with("_xyzw") {
        u32::MAX
    } else {
        0x0000_ffff
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The half of its last register each kind of d16 load writes when it lands
    /// (docs/rules/addressing.md#load-data-lands-at-completion), for every table entry.
    #[test]
    fn d16_loads_write_their_half_of_the_last_register() {
        for (name, bits) in [
            ("global_load_d16_b16", 0xffff),
            ("global_load_d16_hi_b16", 0xffff_0000),
            ("ds_load_u8_d16_hi", 0xffff_0000),
            ("scratch_load_d16_i8", 0xffff),
            ("buffer_load_format_d16_x", 0xffff),
            ("buffer_load_format_d16_xy", u32::MAX),
            ("buffer_load_format_d16_xyz", 0xffff),
            ("tbuffer_load_format_d16_xyzw", u32::MAX),
            ("buffer_load_format_d16_hi_x", 0xffff_0000),
            ("global_load_b32", u32::MAX),
        ] {
            let op = rdna3_isa::def::lookup_name(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(last_row_bits(op), bits, "{name}");
        }
    }

    /// A range of registers is the set of its registers one by one, across the words and
    /// past v255.
    #[test]
    fn a_range_is_its_registers() {
        for first in (0..260).step_by(3) {
            for count in [0, 1, 2, 5, 17, 63, 64, 65, 130] {
                let mut want = [0u64; 4];
                for r in first..(first + count).min(256) {
                    want[r as usize / 64] |= 1 << (r % 64);
                }
                assert_eq!(VgprSet::range(first, count).0, want, "{first} + {count}");
            }
        }
    }

    /// A return of registers `first ..first + count` whose rows start at `start`.
    fn ret(first: u32, count: u8, start: u32) -> VgprReturn {
        VgprReturn {
            at: 10,
            seq: 0,
            lanes: 3,
            name: "global_load_b64",
            start,
            pc: 2,
            first,
            last_bits: u32::MAX,
            count,
            counter: Counter::Vm,
            landed: false,
            reported: false,
        }
    }

    /// A reset wave's data in flight is a new wave's, keeping the data's allocation.
    #[test]
    fn a_reset_is_a_new_wave_keeping_the_allocation() {
        let mut f = InFlight::default();
        f.returns.push(ret(4, 2, 0));
        f.data = vec![1; 64];
        f.unwaited.add(4, 2);
        f.vm.issued = 1;
        f.exp.waited = 2;
        f.reset();
        assert!(f.returns.is_empty() && f.data.is_empty());
        assert!(f.data.capacity() >= 64);
        assert_eq!(f.unwaited, VgprSet::default());
        assert_eq!(
            (f.vm, f.exp),
            (OrderedOps::default(), OrderedOps::default())
        );
    }

    /// Making room moves the rows of the returns in flight down over the gaps the others
    /// left, in order, only when the allocation would have to grow; with none in flight it
    /// drops everything.
    #[test]
    fn making_room_closes_the_gaps_only_when_it_must() {
        let n = 2;
        let mut f = InFlight {
            data: Vec::with_capacity(10),
            ..InFlight::default()
        };
        // Rows of three returns (1, 2 and 1 registers), then the first and third left.
        f.data.extend([1, 1, 2, 2, 3, 3, 4, 4]);
        f.returns = vec![ret(0, 2, 2)];
        f.make_room(2, n);
        assert_eq!(
            f.data,
            [1, 1, 2, 2, 3, 3, 4, 4],
            "room enough: nothing moves"
        );
        f.make_room(4, n);
        assert_eq!(f.data, [2, 2, 3, 3]);
        assert_eq!(f.returns[0].rows(n), 0..4);
        f.returns.clear();
        f.make_room(2, n);
        assert!(f.data.is_empty());
    }
}
