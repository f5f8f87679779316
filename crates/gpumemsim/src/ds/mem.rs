//! The memory one DS instruction works on — the workgroup's LDS allocation or the GDS window
//! in M0 — and what its lanes did there: the accesses the bank model costs, the lanes that
//! fell outside the memory and the lanes whose address wrapped, reported as events when the
//! instruction ends.

use super::{DsEnv, DsOutcome, RowAccess};
use crate::event::{Event, EventDetail};
use crate::wave::Wave;

/// Where a lane's access goes.
#[derive(Clone, Copy)]
enum Space {
    Lds,
    /// GDS through the M0 window.
    Gds(u32),
}

/// One DS instruction's view of its memory.
pub(super) struct Mem<'e, 'a> {
    /// The memories and the event log.
    pub(super) env: &'e mut DsEnv<'a>,
    space: Space,
    /// Lanes that accessed outside the allocation or window, in the order met.
    out_of_range: Vec<u32>,
    /// Lanes whose VGPR\[ADDR\] + offset passed 2^32.
    wrapped: u64,
    outcome: DsOutcome,
}

impl<'e, 'a> Mem<'e, 'a> {
    /// The LDS of `env`, or its GDS through the window `gds_m0` (M0) when that is given.
    pub(super) fn new(env: &'e mut DsEnv<'a>, gds_m0: Option<u32>) -> Mem<'e, 'a> {
        Mem {
            env,
            space: gds_m0.map_or(Space::Lds, Space::Gds),
            out_of_range: Vec::new(),
            wrapped: 0,
            outcome: DsOutcome {
                gds: gds_m0.is_some(),
                ..DsOutcome::default()
            },
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
    /// ([`RowAccess::Reads`]): [`Mem::read_lds_dword`] and [`Mem::read_lds_dword_pair`]
    /// leave them out of the LDS trace.
    pub(super) fn row_reads(&mut self) {
        debug_assert!(matches!(self.space, Space::Lds));
        self.outcome.rows = RowAccess::Reads;
    }

    /// Notes that the instruction's LDS writes are its address row, of VGPR `data`'s values
    /// ([`RowAccess::Writes`]): [`Mem::write_lds_dword`] leaves them out of the LDS trace.
    pub(super) fn row_writes(&mut self, data: u32) {
        debug_assert!(matches!(self.space, Space::Lds));
        self.outcome.rows = RowAccess::Writes { data };
    }

    /// Lane `lane`'s write of the dword `v` at `addr` of the LDS (nothing outside the
    /// allocation, noting the lane as a miss): [`Mem::write`] of 4 bytes for the row form,
    /// which runs on LDS only and hands the checker its row. Not traced.
    #[inline(always)]
    pub(super) fn write_lds_dword(&mut self, lane: u32, addr: u32, v: u32) {
        debug_assert!(matches!(self.outcome.rows, RowAccess::Writes { .. }));
        self.outcome.record(lane, addr);
        if self
            .env
            .lds
            .write(self.env.alloc, addr, 4, v.into())
            .is_err()
        {
            self.miss(lane);
        }
    }

    /// The dword at `addr` of the LDS; 0 outside the allocation, noting lane `lane` as a
    /// miss. Not traced (the row forms' reads: [`Mem::row_reads`]).
    #[inline(always)]
    fn lds_dword(&mut self, lane: u32, addr: u32) -> u32 {
        match self.env.lds.read(self.env.alloc, addr, 4) {
            Ok(x) => x as u32,
            Err(_) => {
                self.miss(lane);
                0
            }
        }
    }

    /// Lane `lane`'s read of the dword at `addr` of the LDS: [`Mem::read`] of 4 bytes for the
    /// row forms, which run on LDS only and hand the checker their rows.
    #[inline(always)]
    pub(super) fn read_lds_dword(&mut self, lane: u32, addr: u32) -> u32 {
        debug_assert!(self.outcome.rows == RowAccess::Reads);
        self.outcome.record(lane, addr);
        self.lds_dword(lane, addr)
    }

    /// Lane `lane`'s reads of the dwords at `a0` and `a1` of the LDS (a 2addr load, the
    /// lane's only accesses): [`Mem::read_lds_dword`] of each.
    #[inline(always)]
    pub(super) fn read_lds_dword_pair(&mut self, lane: usize, a0: u32, a1: u32) -> (u32, u32) {
        debug_assert!(self.outcome.rows == RowAccess::Reads);
        let (o, bit) = (&mut self.outcome, 1u64 << (lane & 63));
        debug_assert!(o.lanes & bit == 0, "one pair per lane");
        o.lanes |= bit;
        o.lanes2 |= bit;
        o.addrs[lane & 63] = a0;
        o.addrs2[lane & 63] = a1;
        let lane = lane as u32;
        (self.lds_dword(lane, a0), self.lds_dword(lane, a1))
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

    /// Ends instruction `name` of `wave`: reports the lanes whose address wrapped and those
    /// outside the memory, and returns the accesses.
    pub(super) fn finish(self, wave: &Wave, name: &str) -> DsOutcome {
        let gds = self.outcome.gds;
        let env = self.env;
        if self.wrapped != 0 {
            env.events
                .push(wrap_event(env.pc, wave, name, gds, self.wrapped));
        }
        if !self.out_of_range.is_empty() {
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
        self.outcome
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
