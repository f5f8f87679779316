//! DS instruction semantics over a wave: LDS and GDS loads, stores and atomics, the lane
//! permutes and swizzle, append/consume and the GS registers.
//!
//! Sources: 000_b892342bad162b52.txt (§数据共享索引和原子访问 addressing, §LDS 原子操作,
//! §LDS 通道置换操作, §全局数据共享, §对齐和错误), 001_f218f1deb4d558c2.txt (float atomics), and
//! the per-instruction pseudocode in `../shared/reference/rdna3-isa-pseudocode.txt`.
//!
//! Choices where the sources are silent (each is a named, tested behaviour):
//! - Lanes of one instruction act in increasing lane order (000 §LDS 原子操作: the order of
//!   lanes hitting one location is unspecified; each lane's read-modify-write is whole).
//! - A lane whose access lies outside the allocation reads 0 and writes nothing
//!   ([`crate::lds::Lds`]); one `lds_out_of_range` event per instruction lists such lanes.
//! - A misaligned atomic lane raises MEMVIOL: an event of kind `memviol`; that lane's operation
//!   is not performed and its return VGPRs are left unchanged. `ds_storexchg_2addr_*` (and its
//!   `stride64` form) is an exchange, an atomic: 000 §对齐和错误 ("atomics must be aligned",
//!   whatever SH_MEM_CONFIG's alignment mode) applies to it, not the auto-alignment of the
//!   plain 2addr loads and stores, so a lane whose addresses are not multiples of the element
//!   size raises MEMVIOL the same way.
//! - Addresses are 32-bit sums: VGPR[ADDR] + offset (000 §数据共享索引和原子访问, and the
//!   pseudocode's `.u32` arithmetic) wraps past 2^32 — the hardware's answer, which LLVM relies
//!   on when it folds a constant into the offset field of a DS instruction whose base may be
//!   "negative" — and each instruction where some lane's sum wrapped reports one
//!   `lds_address_wrap` event naming the lanes (a base that is really a negative number is
//!   usually a bug).
//! - `ds_load_addtid_b32`/`ds_store_addtid_b32`: M0 must be DWORD-aligned (000 §DS_{LOAD,STORE}
//!   _ADDTID 寻址). A misaligned M0 reports `m0_misaligned`; the access is a dword access like
//!   any other, so ALIGNMENT_MODE_DWORD aligns the address down and ALIGNMENT_MODE_UNALIGNED
//!   uses it as it is (000 §对齐和错误).

mod kind;
pub mod ldsdir;

pub use crate::atomic::{atomic32, atomic64, AtomicOp};
pub use kind::{ds_kind, DsKind, D16};

use rdna3_isa::{Field, Instruction};

use crate::event::{Event, EventDetail};
use crate::gds::Gds;
use crate::lds::{Lds, LdsAllocation};
use crate::wave::Wave;

/// Which lanes accessed which byte addresses, for the bank model: each lane's first access
/// and, for the 2addr forms, its second. (A lane's later accesses, which only the BVH stack
/// makes and the bank model does not cost, replace its second.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DsOutcome {
    /// Lanes with a first access.
    pub lanes: u64,
    /// Each lane's first byte address within the allocation (LDS) or the GDS.
    pub addrs: [u32; 64],
    /// Lanes with a second access.
    pub lanes2: u64,
    /// Each lane's second byte address.
    pub addrs2: [u32; 64],
    /// The instruction accessed GDS.
    pub gds: bool,
}

impl Default for DsOutcome {
    fn default() -> DsOutcome {
        DsOutcome {
            lanes: 0,
            addrs: [0; 64],
            lanes2: 0,
            addrs2: [0; 64],
            gds: false,
        }
    }
}

impl DsOutcome {
    /// Records an access of `lane` at `addr`.
    #[inline]
    pub(crate) fn record(&mut self, lane: u32, addr: u32) {
        let (bit, l) = (1u64 << (lane & 63), (lane & 63) as usize);
        if self.lanes & bit == 0 {
            self.lanes |= bit;
            self.addrs[l] = addr;
        } else {
            self.lanes2 |= bit;
            self.addrs2[l] = addr;
        }
    }

    /// Whether no lane accessed memory.
    pub fn is_empty(&self) -> bool {
        self.lanes == 0
    }
}

/// Why a DS instruction could not execute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DsError {
    /// The simulator does not implement this instruction yet.
    Unimplemented(&'static str),
}

/// The memories and the event log a DS instruction works on.
pub struct DsEnv<'a> {
    /// The workgroup's LDS.
    pub lds: &'a mut Lds,
    /// The workgroup's allocation.
    pub alloc: LdsAllocation,
    /// The device's GDS.
    pub gds: &'a mut Gds,
    /// Event log.
    pub events: &'a mut Vec<Event>,
    /// Program counter (instruction index) of the instruction, for events.
    pub pc: usize,
}

/// Where a lane's access goes.
#[derive(Clone, Copy)]
enum Space {
    Lds,
    /// GDS through the M0 window.
    Gds(u32),
}

struct Mem<'e, 'a> {
    env: &'e mut DsEnv<'a>,
    space: Space,
    out_of_range: Vec<u32>,
    outcome: DsOutcome,
}

impl Mem<'_, '_> {
    #[inline]
    fn read(&mut self, lane: u32, addr: u32, bytes: u32) -> u64 {
        self.outcome.record(lane, addr);
        let value = match self.space {
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
        };
        value.unwrap_or_else(|| {
            self.out_of_range.push(lane);
            0
        })
    }

    fn read_wide(&mut self, lane: u32, addr: u32, dwords: u32) -> Vec<u32> {
        self.outcome.record(lane, addr);
        let mut out = Vec::with_capacity(dwords as usize);
        for k in 0..dwords {
            let a = addr + 4 * k;
            let part = match self.space {
                Space::Lds => {
                    let v = self.env.lds.read(self.env.alloc, a, 4).ok();
                    if let Some(x) = v {
                        self.env.lds.touch(lane, a, 4, false, x);
                    }
                    v
                }
                Space::Gds(m0) => self
                    .env
                    .gds
                    .window(m0, a, 4)
                    .map(|x| self.env.gds.read(x, 4)),
            };
            match part {
                Some(p) => out.push(p as u32),
                None => {
                    self.out_of_range.push(lane);
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

    #[inline]
    fn write(&mut self, lane: u32, addr: u32, bytes: u32, v: u64) {
        self.outcome.record(lane, addr);
        self.write_quiet(lane, addr, bytes, v);
    }

    /// A write that is part of an access already recorded (read-modify-write).
    fn write_quiet(&mut self, lane: u32, addr: u32, bytes: u32, v: u64) {
        if !self.in_range(addr, bytes) {
            self.out_of_range.push(lane);
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

    fn write_wide(&mut self, lane: u32, addr: u32, words: &[u32]) {
        let bytes = 4 * words.len() as u32;
        self.outcome.record(lane, addr);
        if !self.in_range(addr, bytes) {
            self.out_of_range.push(lane);
            return;
        }
        for (k, w) in words.iter().enumerate() {
            self.write_quiet(lane, addr + 4 * k as u32, 4, *w as u64);
        }
    }
}

/// VGPR `reg` of every lane (lanes past the wave's size and never-written registers read 0).
#[inline]
fn row(w: &Wave, reg: u32) -> [u32; 64] {
    let mut r = [0u32; 64];
    if let Some(x) = w.vgpr_row(reg) {
        r[..x.len()].copy_from_slice(x);
    }
    r
}

/// Writes `vals` into VGPR `reg` for the lanes in `lanes`.
#[inline]
fn write_row(w: &mut Wave, reg: u32, lanes: u64, vals: &[u32; 64]) {
    if let Some(r) = w.vgpr_row_mut(reg) {
        for (l, x) in r.iter_mut().enumerate() {
            if lanes >> l & 1 == 1 {
                *x = vals[l];
            }
        }
    }
}

/// Calls `f` for every lane in `lanes`, lowest first.
#[inline]
fn for_lanes(mut lanes: u64, mut f: impl FnMut(usize)) {
    while lanes != 0 {
        f(lanes.trailing_zeros() as usize);
        lanes &= lanes - 1;
    }
}

fn vgpr64(w: &Wave, reg: u32, lane: u32) -> u64 {
    w.vgpr(reg, lane) as u64 | (w.vgpr(reg + 1, lane) as u64) << 32
}

fn set_vgpr64(w: &mut Wave, reg: u32, lane: u32, v: u64) {
    w.set_vgpr(reg, lane, v as u32);
    w.set_vgpr(reg + 1, lane, (v >> 32) as u32);
}

fn sign_extend(v: u64, bytes: u32) -> u32 {
    match bytes {
        1 => v as u8 as i8 as i32 as u32,
        2 => v as u16 as i16 as i32 as u32,
        _ => v as u32,
    }
}

/// The lane a `ds_swizzle_b32` lane `i` reads, or `None` for the modes this function does not
/// cover. Modes (AMD RDNA3 ISA reference, DS_SWIZZLE_B32; the reference pseudocode file only
/// keeps the FFT branch): offset ≥ 0xe000 FFT; 0xc000..=0xdfff rotate; bit 15 set otherwise
/// quad permute (offset[7:0] selects a lane of each quad per lane); bit 15 clear: bit masks
/// and [4:0], or [9:5], xor [14:10] within each group of 32 lanes.
pub fn swizzle_source(offset: u32, i: u32) -> u32 {
    let hi = i & 0x20;
    if offset >= 0xe000 {
        let mask = offset & 0x1f;
        let mut j = (i & 0x1f).reverse_bits() >> 27;
        j >>= mask.count_ones();
        j |= i & mask;
        j | hi
    } else if offset >= 0xc000 {
        let mask = offset & 0x1f;
        let mut rotate = (offset >> 5) & 0x1f;
        if offset & 0x400 != 0 {
            rotate = rotate.wrapping_neg();
        }
        let j = (i & mask) | ((i.wrapping_add(rotate)) & !mask & 0x1f);
        j | hi
    } else if offset & 0x8000 != 0 {
        let sel = (offset >> ((i & 3) * 2)) & 3;
        (i & !3) | sel
    } else {
        let and = offset & 0x1f;
        let or = (offset >> 5) & 0x1f;
        let xor = (offset >> 10) & 0x1f;
        ((((i & 0x1f) & and) | or) ^ xor) | hi
    }
}

/// The node value that marks an empty stack slot or an absent child.
pub const BVH_INVALID_NODE: u32 = 0xffff_ffff;

/// `ds_bvh_stack_rtn_b32` for one lane; returns (VDST, new ADDR).
///
/// Sources: the pseudocode (DS_BVH_STACK_RTN_B32: push up to three valid children of DATA1,
/// stopping at the last visited node DATA0; return DATA1[3] if valid, else pop), 000 §用于光线
/// 追踪的 DS 堆栈操作 (a short per-thread stack that wraps and overwrites old entries), and
/// the RDNA3 address layout documented in Mesa's RADV (`radv_build_bvh_stack_rtn_addr`):
/// ADDR[17:0] = stack index, ADDR[31:18] = stack base in dwords; entries of one stack are 128
/// bytes apart (32 lanes interleave); OFFSET1[5:4] selects 8, 16, 32 or 64 entries.
///
/// Choices: the index points at the top entry, so a push increments it and then writes, and a
/// pop reads the top, writes [`BVH_INVALID_NODE`] there and decrements (this reads the
/// pseudocode's pop literally and makes push its inverse); entry `i` lives at
/// base + (i mod size) × 128; the index wraps in its 18 bits.
fn bvh_stack(mem: &mut Mem, lane: u32, wave: &Wave, inst: &Instruction) -> (u32, u32) {
    let addr_reg = inst.get(Field::Addr);
    let packed = wave.vgpr(addr_reg, lane);
    let base = (packed >> 18) * 4;
    let mut index = packed & 0x3_ffff;
    let size = 8u32 << ((inst.get(Field::Offset1) >> 4) & 3);
    let slot = |i: u32| base + (i % size) * 128;
    let last = wave.vgpr(inst.get(Field::Data0), lane);
    let d1 = inst.get(Field::Data1);
    let data: [u32; 4] = std::array::from_fn(|k| wave.vgpr(d1 + k as u32, lane));
    let valid = |x: u32| x != BVH_INVALID_NODE && !(last != BVH_INVALID_NODE && x == last);
    let mut stopped = false;
    for &x in &data[..3] {
        if valid(x) {
            index = (index + 1) & 0x3_ffff;
            mem.write(lane, slot(index), 4, x as u64);
        } else if x == last {
            stopped = true;
            break;
        }
    }
    let rtn = if !stopped && valid(data[3]) {
        data[3]
    } else {
        let top = mem.read(lane, slot(index), 4) as u32;
        mem.write_quiet(lane, slot(index), 4, BVH_INVALID_NODE as u64);
        index = index.wrapping_sub(1) & 0x3_ffff;
        top
    };
    (rtn, (packed & !0x3_ffff) | index)
}

/// `base + off` as the DS address adder computes it (32 bits, wrapping), noting in `wrapped`
/// whether lane `lane`'s sum passed 2^32.
#[inline]
fn add_address(base: u32, off: u32, lane: usize, wrapped: &mut u64) -> u32 {
    let (a, carry) = base.overflowing_add(off);
    *wrapped |= (carry as u64) << (lane & 63);
    a
}

/// The `memviol` event of a misaligned atomic lane (000 §对齐和错误).
fn memviol(env: &mut DsEnv, wave: &Wave, name: &str, lane: u32, addr: u32, bytes: u32) {
    env.events.push(
        Event::new(
            "memviol",
            wave.id,
            env.pc,
            format!(
                "{name}: lane {lane} address {addr:#x} is not {bytes}-byte aligned (atomics must be aligned: MEMVIOL)"
            ),
        )
        .with_detail(EventDetail {
            lanes: vec![lane],
            address: Some(addr as u64),
            ..EventDetail::default()
        }),
    );
}

/// Executes DS instruction `inst` on `wave`.
pub fn execute(inst: &Instruction, wave: &mut Wave, env: &mut DsEnv) -> Result<DsOutcome, DsError> {
    let d = inst.def();
    let Some(kind) = ds_kind(inst.opcode) else {
        return Err(DsError::Unimplemented(d.name));
    };
    let gds = inst.get(Field::Gds) == 1;
    let addr_reg = inst.get(Field::Addr);
    let d0 = inst.get(Field::Data0);
    let d1 = inst.get(Field::Data1);
    let vdst = inst.get(Field::Vdst);
    let off0 = inst.get(Field::Offset0);
    let off1 = inst.get(Field::Offset1);
    let offset = off1 << 8 | off0;
    let mode = wave.mode;
    let exec = wave.exec();
    // A DS instruction waits for earlier VALU work (LDSDIR's `wait_vdst` window, ldsdir.rs).
    wave.recent_valu.clear();
    // GDS: one lane, the lowest in EXEC (000 §全局数据共享).
    let lanes: u64 = if gds {
        exec & exec.wrapping_neg()
    } else {
        exec
    };
    let mut mem = Mem {
        env,
        space: if gds {
            Space::Gds(wave.m0())
        } else {
            Space::Lds
        },
        out_of_range: Vec::new(),
        outcome: DsOutcome {
            gds,
            ..DsOutcome::default()
        },
    };
    let active = |l: u32| lanes >> l & 1 == 1;
    // Lanes whose VGPR[ADDR] + offset passed 2^32 (the address wraps; an event below).
    let mut wrapped = 0u64;
    match kind {
        DsKind::Nop => {}
        DsKind::GlobalSync => {
            return Err(DsError::Unimplemented(d.name));
        }
        DsKind::BvhStack => {
            for l in (0..wave.size).filter(|&l| active(l)) {
                let (rtn, addr) = bvh_stack(&mut mem, l, wave, inst);
                wave.set_vgpr(vdst, l, rtn);
                wave.set_vgpr(addr_reg, l, addr);
            }
        }
        // The common dword forms on LDS, a register row at a time (the same semantics as
        // the general arms below, without their per-lane register lookups).
        DsKind::Load {
            bytes: 4,
            d16: D16::No,
            ..
        } if !gds => {
            let addr_row = row(wave, addr_reg);
            let mut vals = [0u32; 64];
            for_lanes(lanes, |l| {
                let raw = add_address(addr_row[l], offset, l, &mut wrapped);
                let a = mem.env.lds.effective(raw, 4);
                vals[l] = mem.read(l as u32, a, 4) as u32;
            });
            write_row(wave, vdst, lanes, &vals);
        }
        DsKind::Store {
            bytes: 4,
            hi: false,
        } if !gds => {
            let (addr_row, data_row) = (row(wave, addr_reg), row(wave, d0));
            for_lanes(lanes, |l| {
                let raw = add_address(addr_row[l], offset, l, &mut wrapped);
                let a = mem.env.lds.effective(raw, 4);
                mem.write(l as u32, a, 4, data_row[l] as u64);
            });
        }
        DsKind::Load2 { elem: 4, stride64 } if !gds => {
            let adj = if stride64 { 256 } else { 4 };
            let addr_row = row(wave, addr_reg);
            let (mut v0, mut v1) = ([0u32; 64], [0u32; 64]);
            for_lanes(lanes, |l| {
                let base = addr_row[l];
                let a0 = add_address(base, off0 * adj, l, &mut wrapped);
                let a1 = add_address(base, off1 * adj, l, &mut wrapped);
                let (a0, a1) = (mem.env.lds.effective(a0, 4), mem.env.lds.effective(a1, 4));
                v0[l] = mem.read(l as u32, a0, 4) as u32;
                v1[l] = mem.read(l as u32, a1, 4) as u32;
            });
            write_row(wave, vdst, lanes, &v0);
            write_row(wave, vdst + 1, lanes, &v1);
        }
        DsKind::Load { bytes, signed, d16 } => {
            for l in (0..wave.size).filter(|&l| active(l)) {
                let raw = add_address(wave.vgpr(addr_reg, l), offset, l as usize, &mut wrapped);
                let a = mem.env.lds.effective(raw, bytes);
                if bytes > 8 {
                    let words = mem.read_wide(l, a, bytes / 4);
                    for (k, w) in words.iter().enumerate() {
                        wave.set_vgpr(vdst + k as u32, l, *w);
                    }
                    continue;
                }
                let v = mem.read(l, a, bytes);
                match (d16, bytes) {
                    (_, 8) => set_vgpr64(wave, vdst, l, v),
                    (D16::No, _) => {
                        let x = if signed {
                            sign_extend(v, bytes)
                        } else {
                            v as u32
                        };
                        wave.set_vgpr(vdst, l, x);
                    }
                    (half, _) => {
                        let x16 = if signed {
                            sign_extend(v, bytes) & 0xffff
                        } else {
                            v as u32 & 0xffff
                        };
                        let old = wave.vgpr(vdst, l);
                        let new = if half == D16::Lo {
                            (old & 0xffff_0000) | x16
                        } else {
                            (old & 0xffff) | x16 << 16
                        };
                        wave.set_vgpr(vdst, l, new);
                    }
                }
            }
        }
        DsKind::Store { bytes, hi } => {
            for l in (0..wave.size).filter(|&l| active(l)) {
                let raw = add_address(wave.vgpr(addr_reg, l), offset, l as usize, &mut wrapped);
                let a = mem.env.lds.effective(raw, bytes);
                if bytes > 8 {
                    let words: Vec<u32> = (0..bytes / 4).map(|k| wave.vgpr(d0 + k, l)).collect();
                    mem.write_wide(l, a, &words);
                    continue;
                }
                let v = if bytes == 8 {
                    vgpr64(wave, d0, l)
                } else if hi {
                    (wave.vgpr(d0, l) >> 16) as u64
                } else {
                    wave.vgpr(d0, l) as u64
                };
                mem.write(l, a, bytes, v);
            }
        }
        DsKind::Load2 { elem, stride64 }
        | DsKind::Store2 { elem, stride64 }
        | DsKind::Xchg2 { elem, stride64 } => {
            let adj = elem * if stride64 { 64 } else { 1 };
            for l in (0..wave.size).filter(|&l| active(l)) {
                let base = wave.vgpr(addr_reg, l);
                let a0 = add_address(base, off0 * adj, l as usize, &mut wrapped);
                let a1 = add_address(base, off1 * adj, l as usize, &mut wrapped);
                let (a0, a1) = if matches!(kind, DsKind::Xchg2 { .. }) {
                    // An exchange is an atomic: it must be aligned (both addresses are the
                    // base plus multiples of the element size, so they agree).
                    if !a0.is_multiple_of(elem) {
                        memviol(mem.env, wave, d.name, l, a0, elem);
                        continue;
                    }
                    (a0, a1)
                } else {
                    (
                        mem.env.lds.effective(a0, elem),
                        mem.env.lds.effective(a1, elem),
                    )
                };
                let dw = elem / 4;
                match kind {
                    DsKind::Load2 { .. } => {
                        let v0 = mem.read(l, a0, elem);
                        let v1 = mem.read(l, a1, elem);
                        for (k, v) in [v0, v1].into_iter().enumerate() {
                            if dw == 2 {
                                set_vgpr64(wave, vdst + 2 * k as u32, l, v);
                            } else {
                                wave.set_vgpr(vdst + k as u32, l, v as u32);
                            }
                        }
                    }
                    DsKind::Store2 { .. } => {
                        let (v0, v1) = if dw == 2 {
                            (vgpr64(wave, d0, l), vgpr64(wave, d1, l))
                        } else {
                            (wave.vgpr(d0, l) as u64, wave.vgpr(d1, l) as u64)
                        };
                        mem.write(l, a0, elem, v0);
                        mem.write(l, a1, elem, v1);
                    }
                    _ => {
                        let (n0, n1) = if dw == 2 {
                            (vgpr64(wave, d0, l), vgpr64(wave, d1, l))
                        } else {
                            (wave.vgpr(d0, l) as u64, wave.vgpr(d1, l) as u64)
                        };
                        let t0 = mem.read(l, a0, elem);
                        let t1 = mem.read(l, a1, elem);
                        mem.write_quiet(l, a0, elem, n0);
                        mem.write_quiet(l, a1, elem, n1);
                        for (k, v) in [t0, t1].into_iter().enumerate() {
                            if dw == 2 {
                                set_vgpr64(wave, vdst + 2 * k as u32, l, v);
                            } else {
                                wave.set_vgpr(vdst + k as u32, l, v as u32);
                            }
                        }
                    }
                }
            }
        }
        DsKind::Atomic { op, b64, rtn } => {
            let bytes = if b64 { 8 } else { 4 };
            for l in (0..wave.size).filter(|&l| active(l)) {
                let a = add_address(wave.vgpr(addr_reg, l), offset, l as usize, &mut wrapped);
                if !a.is_multiple_of(bytes) {
                    memviol(mem.env, wave, d.name, l, a, bytes);
                    continue;
                }
                let old = mem.read(l, a, bytes);
                let new = if b64 {
                    atomic64(op, old, vgpr64(wave, d0, l), vgpr64(wave, d1, l), mode)
                } else {
                    atomic32(op, old as u32, wave.vgpr(d0, l), wave.vgpr(d1, l), mode) as u64
                };
                mem.write_quiet(l, a, bytes, new);
                if rtn {
                    if b64 {
                        set_vgpr64(wave, vdst, l, old);
                    } else {
                        wave.set_vgpr(vdst, l, old as u32);
                    }
                }
            }
        }
        DsKind::Condxchg32 => {
            // Pseudocode DS_CONDXCHG32_RTN_B64: two dwords at (addr + offset) & 0xfff8; each
            // is replaced by the data dword's low 31 bits when that dword's bit 31 is set.
            for l in (0..wave.size).filter(|&l| active(l)) {
                let a0 = wave.vgpr(addr_reg, l).wrapping_add(offset) & 0xfff8;
                let data = vgpr64(wave, d0, l);
                let old = mem.read(l, a0, 8);
                for k in 0..2u32 {
                    let dk = (data >> (32 * k)) as u32;
                    if dk >> 31 == 1 {
                        mem.write_quiet(l, a0 + 4 * k, 4, (dk & 0x7fff_ffff) as u64);
                    }
                }
                set_vgpr64(wave, vdst, l, old);
            }
        }
        DsKind::LoadAddtid | DsKind::StoreAddtid => {
            // 000 §DS_{LOAD,STORE}_ADDTID 寻址: offset + M0[15:0] + lane × 4; no VGPR address;
            // M0 must be DWORD-aligned (see the module's choices).
            let m0 = wave.m0() & 0xffff;
            if m0 & 3 != 0 && lanes != 0 {
                mem.env.events.push(
                    Event::new(
                        "m0_misaligned",
                        wave.id,
                        mem.env.pc,
                        format!(
                            "{}: M0[15:0] = {m0:#x} is not DWORD-aligned (000: M0 must be DWORD-aligned); {}",
                            d.name,
                            match mem.env.lds.align {
                                crate::lds::AlignMode::Dword => "the dword alignment mode aligned the addresses down",
                                crate::lds::AlignMode::Unaligned => "the unaligned mode used the addresses as they are",
                            }
                        ),
                    )
                    .with_detail(EventDetail {
                        lanes: (0..wave.size).filter(|&l| active(l)).collect(),
                        address: Some(m0 as u64),
                        ..EventDetail::default()
                    }),
                );
            }
            for l in (0..wave.size).filter(|&l| active(l)) {
                let a = mem
                    .env
                    .lds
                    .effective(offset.wrapping_add(m0).wrapping_add(l * 4), 4);
                if kind == DsKind::LoadAddtid {
                    let v = mem.read(l, a, 4);
                    wave.set_vgpr(vdst, l, v as u32);
                } else {
                    let v = wave.vgpr(d0, l);
                    mem.write(l, a, 4, v as u64);
                }
            }
        }
        DsKind::Permute | DsKind::Bpermute => {
            // 000 §LDS 通道置换操作 and the pseudocode: index = (addr + offset) / 4 mod 32 (bits
            // [6:2]); wave64 works as two independent wave32 halves; disabled source lanes
            // give 0; for permute the highest source lane wins.
            let mut tmp = [0u32; 64];
            for i in 0..wave.size {
                let half = i & 32;
                let idx = (wave.vgpr(addr_reg, i).wrapping_add(offset) >> 2) & 31;
                if kind == DsKind::Permute {
                    if exec >> i & 1 == 1 {
                        tmp[(half | idx) as usize] = wave.vgpr(d0, i);
                    }
                } else {
                    let src = half | idx;
                    if exec >> src & 1 == 1 {
                        tmp[i as usize] = wave.vgpr(d0, src);
                    }
                }
            }
            for i in (0..wave.size).filter(|&l| exec >> l & 1 == 1) {
                wave.set_vgpr(vdst, i, tmp[i as usize]);
            }
        }
        DsKind::Swizzle => {
            let mut tmp = [0u32; 64];
            for i in 0..wave.size {
                let j = swizzle_source(offset, i);
                if exec >> j & 1 == 1 {
                    tmp[i as usize] = wave.vgpr(addr_reg, j);
                }
            }
            for i in (0..wave.size).filter(|&l| exec >> l & 1 == 1) {
                wave.set_vgpr(vdst, i, tmp[i as usize]);
            }
        }
        DsKind::Append | DsKind::Consume => {
            // Pseudocode DS_APPEND/DS_CONSUME: addr = M0.base + offset, limited to M0.size
            // (M0[31:16] base, M0[15:0] size, as for GDS); the old value goes to every active
            // lane; the counter moves by the number of active lanes.
            if exec != 0 {
                let m0 = wave.m0();
                let (base, size) = (m0 >> 16, m0 & 0xffff);
                let n = exec.count_ones();
                let first = exec.trailing_zeros();
                let old = if offset as u64 + 4 <= size as u64 {
                    let a = base + offset;
                    let old = mem.read(first, a, 4) as u32;
                    let new = if kind == DsKind::Append {
                        old.wrapping_add(n)
                    } else {
                        old.wrapping_sub(n)
                    };
                    mem.write_quiet(first, a, 4, new as u64);
                    old
                } else {
                    mem.out_of_range.push(first);
                    0
                };
                for l in (0..wave.size).filter(|&l| exec >> l & 1 == 1) {
                    wave.set_vgpr(vdst, l, old);
                }
            }
        }
        DsKind::GsReg { sub } => {
            // 000 §GS NGG 流输出指令: the first active lane's DATA0; register offset0[5:2]; 8-15
            // are 64-bit (two VDST registers). The spec's update line says offset0[4:2]; we
            // read it as the same register as the return ([5:2]).
            if exec != 0 {
                let l = exec.trailing_zeros();
                let idx = ((off0 >> 2) & 0xf) as usize;
                let data = wave.vgpr(d0, l) as u64;
                let regs = &mut mem.env.gds.gs_regs;
                let old = regs[idx];
                let new = if sub {
                    old.wrapping_sub(data)
                } else {
                    old.wrapping_add(data)
                };
                regs[idx] = if idx >= 8 { new } else { new & 0xffff_ffff };
                wave.set_vgpr(vdst, l, old as u32);
                if idx >= 8 {
                    wave.set_vgpr(vdst + 1, l, (old >> 32) as u32);
                }
            }
        }
    }
    let Mem {
        out_of_range,
        outcome,
        env,
        ..
    } = mem;
    if wrapped != 0 {
        let lanes: Vec<u32> = (0..64).filter(|l| wrapped >> l & 1 == 1).collect();
        env.events.push(
            Event::new(
                "lds_address_wrap",
                wave.id,
                env.pc,
                format!(
                    "{}: VGPR address + offset passed 2^32 for lanes {} and wrapped to a low {} address (the 32-bit adder's answer)",
                    d.name,
                    crate::banks::lane_ranges(wrapped),
                    if gds { "GDS" } else { "LDS" }
                ),
            )
            .with_detail(EventDetail {
                lanes,
                ..EventDetail::default()
            }),
        );
    }
    if !out_of_range.is_empty() {
        let mut lanes = out_of_range;
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
                "{}: lanes {:?} accessed outside the {} (reads gave 0, writes were dropped)",
                d.name,
                lanes,
                if gds {
                    "M0 window of GDS"
                } else {
                    "LDS allocation"
                }
            ),
        });
    }
    Ok(outcome)
}
