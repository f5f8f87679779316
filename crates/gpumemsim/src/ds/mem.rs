//! The memory one DS instruction works on — the workgroup's LDS allocation or the GDS window
//! in M0 — and what its lanes did there: the accesses the bank model costs, the lanes that
//! fell outside the memory and the lanes whose address wrapped, reported as events when the
//! instruction ends.

use super::{DsEnv, DsOutcome, RowAccess};
use crate::event::{Event, EventDetail};
use crate::wave::Wave;
use rdna3_isa::Instruction;

/// Where a lane's access goes.
#[derive(Clone, Copy)]
enum Space {
    Lds,
    /// GDS through the M0 window.
    Gds(u32),
}

/// One DS instruction's view of its memory.
pub(super) struct Mem<'e, 'a, 'o> {
    /// The memories and the event log.
    pub(super) env: &'e mut DsEnv<'a>,
    space: Space,
    /// Lanes that accessed outside the allocation or window, in the order met.
    out_of_range: Vec<u32>,
    /// Lanes whose VGPR\[ADDR\] + offset passed 2^32.
    wrapped: u64,
    /// What the instruction did, filled in place (the caller's, reused).
    outcome: &'o mut DsOutcome,
}

impl<'e, 'a, 'o> Mem<'e, 'a, 'o> {
    /// The LDS of `env`, or its GDS through the window `gds_m0` (M0) when that is given;
    /// what the instruction does goes to `outcome`, which starts empty.
    pub(super) fn new(
        env: &'e mut DsEnv<'a>,
        gds_m0: Option<u32>,
        outcome: &'o mut DsOutcome,
    ) -> Mem<'e, 'a, 'o> {
        *outcome = DsOutcome {
            gds: gds_m0.is_some(),
            ..DsOutcome::default()
        };
        Mem {
            env,
            space: gds_m0.map_or(Space::Lds, Space::Gds),
            out_of_range: Vec::new(),
            wrapped: 0,
            outcome,
        }
    }

    /// `base + off` as the DS address adder computes it: 32 bits, wrapping, noting whether
    /// lane `lane`'s sum passed 2^32 (docs/rules/ds.md#address-wrap).
    #[inline]
    pub(super) fn address(&mut self, base: u32, off: u32, lane: usize) -> u32 {
        let (a, carry) = base.overflowing_add(off);
        self.wrapped |= (carry as u64) << (lane & 63);
        a
    }

    /// The address a non-atomic access of `bytes`-byte elements at `base + off` uses: the
    /// wrapped sum, aligned as the alignment mode says (docs/rules/lds.md#alignment-mode).
    #[inline]
    pub(super) fn aligned_address(&mut self, base: u32, off: u32, lane: usize, bytes: u32) -> u32 {
        let raw = self.address(base, off, lane);
        self.env.lds.effective(raw, bytes)
    }

    /// Notes that lane `lane` accessed outside the memory (the access did nothing).
    pub(super) fn miss(&mut self, lane: u32) {
        self.out_of_range.push(lane);
    }

    /// The `bytes` at `addr` for lane `lane`, or `None` when they are outside the memory.
    #[inline]
    fn fetch(&mut self, lane: u32, addr: u32, bytes: u32) -> Option<u64> {
        match self.space {
            Space::Lds => {
                let v = self.env.lds.read(self.env.alloc, addr, bytes).ok();
                if let Some(x) = v {
                    self.env.lds.touch(lane, addr, bytes, false, x);
                }
                v
            }
            Space::Gds(m0) => self
                .env
                .gds
                .window(m0, addr, bytes)
                .map(|a| self.env.gds.read(a, bytes)),
        }
    }

    /// Lane `lane`'s read of `bytes` (1..=8) at `addr`; 0 outside the memory
    /// (docs/rules/lds.md#allocation-bounds).
    #[inline]
    pub(super) fn read(&mut self, lane: u32, addr: u32, bytes: u32) -> u64 {
        self.outcome.record(lane, addr);
        self.fetch(lane, addr, bytes).unwrap_or_else(|| {
            self.miss(lane);
            0
        })
    }

    /// Notes that the instruction's LDS reads are its address rows
    /// ([`RowAccess::Reads`]): [`Mem::read_lds_rows`] leaves them out of the LDS trace.
    pub(super) fn row_reads(&mut self) {
        debug_assert!(matches!(self.space, Space::Lds));
        self.outcome.rows = RowAccess::Reads;
    }

    /// The rows a row-form load writes instead of its registers ([`DsEnv::dst`]), taken
    /// out of the environment.
    pub(super) fn take_dst(&mut self) -> Option<&'a mut [u32]> {
        self.env.dst.take()
    }

    /// Notes that the instruction's LDS writes are its address rows, of VGPRs `data`'s values
    /// ([`RowAccess::Writes`]): [`Mem::write_lds_rows`] leaves them out of the LDS trace.
    pub(super) fn row_writes(&mut self, data: [u32; 2]) {
        debug_assert!(matches!(self.space, Space::Lds));
        self.outcome.rows = RowAccess::Writes { data };
    }

    /// Records the accesses of a row form's lanes `lanes` as their first (`second` false) or
    /// second accesses: each lane's `base` (0 past the row, or with no row) + `off`, wrapped
    /// and aligned, noting the lanes whose sum wrapped. [`Mem::aligned_address`] of 4 bytes
    /// and [`DsOutcome::record`], a row at once.
    pub(super) fn dword_row(&mut self, second: bool, lanes: u64, base: Option<&[u32]>, off: u32) {
        let mask = self.env.lds.align_mask(4);
        let base = base.unwrap_or(&[]);
        let o = &mut self.outcome;
        let addrs = if second {
            o.lanes2 = lanes;
            &mut o.addrs2
        } else {
            o.lanes = lanes;
            &mut o.addrs
        };
        let (mut m, mut wrapped) = (lanes, 0u64);
        if !base.is_empty() && lanes == u64::MAX >> (64 - base.len().min(64)) {
            // Every lane of the row (the usual EXEC): one pass over the row, no bit walk;
            // with no lane's sum past 2^32 (the usual case), no carry to note either.
            let limit = u32::MAX - off;
            if !base.iter().fold(false, |past, &b| past | (b > limit)) {
                for (&b, a) in base.iter().zip(addrs.iter_mut()) {
                    *a = (b + off) & mask;
                }
            } else {
                for (l, (&b, a)) in base.iter().zip(addrs.iter_mut()).enumerate() {
                    let (sum, carry) = b.overflowing_add(off);
                    *a = sum & mask;
                    wrapped |= u64::from(carry) << l;
                }
            }
            m = 0;
        }
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let (sum, carry) = base.get(l).copied().unwrap_or(0).overflowing_add(off);
            addrs[l] = sum & mask;
            wrapped |= u64::from(carry) << l;
        }
        self.wrapped |= wrapped;
    }

    /// The row forms' dword reads of the accesses [`Mem::dword_row`] recorded: each lane,
    /// lowest first, reads the dword at its first address into its lane of `dst[0]` and,
    /// with a second row, the one at its second into `dst[1]` (0 outside the allocation,
    /// noting the lane as a miss); the other lanes of `dst` keep what they hold.
    /// [`Mem::read`] of 4 bytes at each, not traced ([`Mem::row_reads`]).
    pub(super) fn read_lds_rows<const N: usize>(&mut self, mut dst: [&mut [u32]; N]) {
        debug_assert!(self.outcome.rows == RowAccess::Reads);
        let (lds, alloc, o) = (&*self.env.lds, self.env.alloc, &self.outcome);
        let rows = [&o.addrs, &o.addrs2];
        // The allocation's bytes when the LDS holds them all: each read is a slice look-up
        // (`None` past its end: out of range, as `Lds::read` has it).
        let bytes = lds.allocation_bytes(alloc);
        let read = |a: u32| match bytes {
            Some(bytes) => {
                let a = a as usize;
                let b = bytes.get(a..a + 4)?;
                Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            }
            None => lds.read(alloc, a, 4).ok().map(|x| x as u32),
        };
        let mut m = o.lanes;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            for (row, v) in rows.iter().zip(dst.iter_mut()) {
                let x = read(row[l]);
                if x.is_none() {
                    self.out_of_range.push(l as u32);
                }
                if let Some(d) = v.get_mut(l) {
                    *d = x.unwrap_or(0);
                }
            }
        }
    }

    /// The row forms' dword writes of the accesses [`Mem::dword_row`] recorded: each lane,
    /// lowest first, writes its lane of `data[0]` at its first address, then (with a second
    /// row) its lane of `data[1]` at its second (0 past a register's row, or with no row), so
    /// where two writes meet the later one stays; a write outside the allocation does
    /// nothing and notes the lane as a miss. [`Mem::write`] of 4 bytes at each, not traced
    /// ([`Mem::row_writes`]).
    pub(super) fn write_lds_rows(&mut self, data: [Option<&[u32]>; 2]) {
        debug_assert!(matches!(self.outcome.rows, RowAccess::Writes { .. }));
        let (lds, alloc, o) = (&mut *self.env.lds, self.env.alloc, &self.outcome);
        let rows = [(&o.addrs, o.lanes), (&o.addrs2, o.lanes2)];
        let mut m = o.lanes | o.lanes2;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            for (&(addrs, lanes), d) in rows.iter().zip(data) {
                if lanes >> l & 1 == 0 {
                    continue;
                }
                let v = d.and_then(|d| d.get(l)).copied().unwrap_or(0);
                if lds.write(alloc, addrs[l], 4, v.into()).is_err() {
                    self.out_of_range.push(l as u32);
                }
            }
        }
    }

    /// Lane `lane`'s read of `dwords` dwords at `addr` (the 96- and 128-bit loads); all zeros
    /// when any of them is outside the memory.
    pub(super) fn read_wide(&mut self, lane: u32, addr: u32, dwords: u32) -> Vec<u32> {
        self.outcome.record(lane, addr);
        let mut out = Vec::with_capacity(dwords as usize);
        for k in 0..dwords {
            match self.fetch(lane, addr + 4 * k, 4) {
                Some(p) => out.push(p as u32),
                None => {
                    self.miss(lane);
                    return vec![0; dwords as usize];
                }
            }
        }
        out
    }

    /// Whether all `bytes` at `addr` are in range (so a multi-dword write is all or nothing).
    fn in_range(&self, addr: u32, bytes: u32) -> bool {
        match self.space {
            Space::Lds => addr as u64 + bytes as u64 <= self.env.alloc.size as u64,
            Space::Gds(m0) => self.env.gds.window(m0, addr, bytes).is_some(),
        }
    }

    /// Lane `lane`'s write of the low `bytes` (1..=8) of `v` at `addr`.
    #[inline]
    pub(super) fn write(&mut self, lane: u32, addr: u32, bytes: u32, v: u64) {
        self.outcome.record(lane, addr);
        self.write_quiet(lane, addr, bytes, v);
    }

    /// A write that is part of an access already recorded (read-modify-write).
    pub(super) fn write_quiet(&mut self, lane: u32, addr: u32, bytes: u32, v: u64) {
        if !self.in_range(addr, bytes) {
            self.miss(lane);
            return;
        }
        match self.space {
            Space::Lds => {
                if self.env.lds.write(self.env.alloc, addr, bytes, v).is_ok() {
                    self.env.lds.touch(lane, addr, bytes, true, v);
                }
            }
            Space::Gds(m0) => {
                if let Some(a) = self.env.gds.window(m0, addr, bytes) {
                    self.env.gds.write(a, bytes, v);
                }
            }
        }
    }

    /// Lane `lane`'s write of `words` at `addr` (the 96- and 128-bit stores): all or nothing.
    pub(super) fn write_wide(&mut self, lane: u32, addr: u32, words: &[u32]) {
        let bytes = 4 * words.len() as u32;
        self.outcome.record(lane, addr);
        if !self.in_range(addr, bytes) {
            self.miss(lane);
            return;
        }
        for (k, w) in words.iter().enumerate() {
            self.write_quiet(lane, addr + 4 * k as u32, 4, *w as u64);
        }
    }

    /// Ends instruction `inst` of `wave`: reports the lanes whose address wrapped and those
    /// outside the memory, and returns the accesses.
    pub(super) fn finish(self, wave: &Wave, inst: &Instruction) {
        let gds = self.outcome.gds;
        let env = self.env;
        // Looked up only for a report (most instructions make none).
        let name = || inst.def().name;
        if self.wrapped != 0 {
            let name = name();
            env.events
                .push(wrap_event(env.pc, wave, name, gds, self.wrapped));
        }
        if !self.out_of_range.is_empty() {
            let name = name();
            let mut lanes = self.out_of_range;
            lanes.dedup();
            env.events.push(Event {
                detail: None,
                cycle: 0,
                kind: if gds {
                    "gds_out_of_range"
                } else {
                    "lds_out_of_range"
                },
                wave: wave.id,
                pc: env.pc,
                message: format!(
                    "{name}: lanes {lanes:?} accessed outside the {} (reads gave 0, writes were dropped)",
                    if gds {
                        "M0 window of GDS"
                    } else {
                        "LDS allocation"
                    }
                ),
            });
        }
    }
}

/// The `lds_address_wrap` event of instruction `name` whose lanes `wrapped` passed 2^32
/// (docs/rules/ds.md#address-wrap).
fn wrap_event(pc: usize, wave: &Wave, name: &str, gds: bool, wrapped: u64) -> Event {
    let lanes: Vec<u32> = (0..64).filter(|l| wrapped >> l & 1 == 1).collect();
    Event::new(
        "lds_address_wrap",
        wave.id,
        pc,
        format!(
            "{name}: VGPR address + offset passed 2^32 for lanes {} and wrapped to a low {} address (the 32-bit adder's answer)",
            crate::banks::lane_ranges(wrapped),
            if gds { "GDS" } else { "LDS" }
        ),
    )
    .with_detail(EventDetail {
        lanes,
        ..EventDetail::default()
    })
}
