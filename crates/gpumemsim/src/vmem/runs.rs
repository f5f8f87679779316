//! The contiguous-run path of [`super::execute`] for whole-dword GLOBAL and FLAT loads and
//! stores to global memory — the accesses compiled code makes most.
//!
//! The lanes in EXEC whose addresses follow one another (each the previous one plus the
//! access's bytes, lanes in between being inactive or not) make a run, and a run in the
//! virtual address space and inside one host allocation moves at once: one bounds check, one
//! access-log mark and one page lookup per page for the run, where the lane-by-lane path
//! takes them per lane. A run that is not wholly inside falls back to lane by lane, under the
//! rules of [`super::transfer`]. The lanes' addresses are read from the instruction's fields
//! once and from the address VGPRs' rows.
//!
//! What it does is what the lane-by-lane path does: the runs go in lane order and the lanes
//! of a run touch bytes no other lane of it touches, so memory, the VGPRs, the access log
//! (a set of bytes) and the outcome come out the same. A FLAT instruction any lane of which
//! falls in the LDS or private aperture takes the lane-by-lane path.
//!
//! A load of any width (not `d16`) whose lanes in EXEC all read the same bytes — a value
//! every work-item reads, as compiled code loads the dispatch packet's fields — reads them
//! once and writes every lane ([`same_address_load`]), when they lie inside one allocation.

use rdna3_isa::inst::SGPR_NULL;
use rdna3_isa::{Field, Format, Instruction};

use super::VmemOutcome;
use super::{in_virtual_range, is_addtid, note_dropped, sext13, GlobalOp, Route, VmemEnv};
use crate::addr::Aperture;
use crate::ranges::lane_block;
use crate::wave::Wave;

/// Most bytes a run holds: 64 lanes of 16 bytes.
const RUN_BYTES: usize = 64 * 16;
/// The bytes of a run of 64 lanes of a dword each.
const SMALL_RUN_BYTES: usize = 64 * 4;

/// 64 lanes of 0, the value of a VGPR never written.
static ZERO: [u32; 64] = [0; 64];

/// An access this module may take: bytes per lane, a store or a load, sign extension of a
/// 1- or 2-byte load, and its data VGPR (the first of `bytes / 4`).
#[derive(Clone, Copy)]
struct Access {
    bytes: u32,
    store: bool,
    signed: bool,
    data: u32,
}

impl Access {
    /// The access `op` of `inst`, when this module may take it: a GLOBAL or FLAT load that
    /// writes whole VGPRs (not `d16`) or a store of whole dwords (not `d16_hi`).
    fn of(inst: &Instruction, op: GlobalOp) -> Option<Access> {
        if !matches!(inst.def().format, Format::Global | Format::Flat) {
            return None;
        }
        let (bytes, store, signed, field) = match op {
            GlobalOp::Load {
                bytes,
                signed,
                d16: None,
            } => (bytes, false, signed, Field::Vdst),
            GlobalOp::Store { bytes, hi: false } if bytes.is_multiple_of(4) => {
                (bytes, true, false, Field::Data0)
            }
            _ => return None,
        };
        Some(Access {
            bytes,
            store,
            signed,
            data: inst.get(field),
        })
    }

    /// Whether the run path moves it: whole dwords, 4 to 16 bytes a lane.
    fn whole_dwords(&self) -> bool {
        self.bytes.is_multiple_of(4) && (4..=16).contains(&self.bytes)
    }
}

/// Runs `inst` (access `op`) over the lanes in EXEC by runs of consecutive addresses, or
/// returns `None`, having changed nothing, when the run path does not take it.
pub(super) fn execute(
    inst: &Instruction,
    op: GlobalOp,
    wave: &mut Wave,
    env: &mut VmemEnv,
) -> Option<VmemOutcome> {
    let access = Access::of(inst, op)?;
    if wave.size > 64 {
        return None;
    }
    let exec = wave.exec();
    let mut addr = [0u64; 64];
    lane_addresses(inst, wave, &mut addr);
    if inst.def().format == Format::Flat && !all_global(env, exec, &addr) {
        return None;
    }
    if !access.store {
        if let Some(out) = same_address_load(wave, env, access, exec, &addr) {
            return Some(out);
        }
    }
    if !access.whole_dwords() {
        return None;
    }
    let mut out = VmemOutcome {
        lanes: exec.count_ones(),
        ..VmemOutcome::default()
    };
    let step = access.bytes as u64;
    // EXEC one block at consecutive addresses, as compiled code's accesses mostly are: one
    // run, found in one pass ([`run_from`] of `exec` would give `exec`).
    if crate::ranges::stepped_block(exec, &addr, step) {
        run_access(wave, env, access, exec, &addr, &mut out);
        return Some(out);
    }
    let mut left = exec;
    while left != 0 {
        let run = run_from(left, &addr, step);
        left &= !run;
        run_access(wave, env, access, run, &addr, &mut out);
    }
    Some(out)
}

/// The run from the lowest lane of `left` (not empty): it and every next lane of `left`
/// whose address is the one before it plus `step`.
pub(super) fn run_from(left: u64, addr: &[u64; 64], step: u64) -> u64 {
    let first = left.trailing_zeros();
    let mut run = 1u64 << first;
    let mut next = addr[first as usize].checked_add(step);
    let mut rest = left & !run;
    while rest != 0 {
        let l = rest.trailing_zeros();
        if next != Some(addr[l as usize]) {
            break;
        }
        run |= 1 << l;
        rest &= rest - 1;
        next = addr[l as usize].checked_add(step);
    }
    run
}

/// `load` when every lane in `exec` (at least one) reads the same bytes and they lie in the
/// virtual address space inside one allocation: one read (one access-log mark of the same
/// bytes every lane would mark), each destination dword written to every lane, as the
/// lane-by-lane path's `load_lane` writes it (a 1- or 2-byte value zero- or sign-extended).
/// `None`, having changed nothing, otherwise.
fn same_address_load(
    wave: &mut Wave,
    env: &mut VmemEnv,
    load: Access,
    exec: u64,
    addr: &[u64; 64],
) -> Option<VmemOutcome> {
    if exec == 0 {
        return None;
    }
    let first = addr[exec.trailing_zeros() as usize];
    let mut left = exec;
    while left != 0 {
        if addr[left.trailing_zeros() as usize] != first {
            return None;
        }
        left &= left - 1;
    }
    let bytes = u64::from(load.bytes);
    if !(in_virtual_range(first) && env.mem.allocations.contains(first, bytes)) {
        return None;
    }
    let mut buf = [0u8; 16];
    env.mem.read_into(first, &mut buf[..load.bytes as usize]);
    let dword = |k: usize| u32::from_le_bytes([buf[k], buf[k + 1], buf[k + 2], buf[k + 3]]);
    let mut values = [0u32; 4];
    let dwords = if load.bytes >= 4 {
        for (i, v) in values.iter_mut().enumerate() {
            *v = dword(4 * i);
        }
        load.bytes as usize / 4
    } else {
        // The value's bytes, zero above them (`buf` past the read bytes).
        let (raw, bits) = (dword(0), 8 * load.bytes);
        values[0] = if load.signed {
            ((raw << (32 - bits)) as i32 >> (32 - bits)) as u32
        } else {
            raw
        };
        1
    };
    for (i, &v) in values[..dwords].iter().enumerate() {
        let Some(row) = wave.vgpr_row_mut(load.data + i as u32) else {
            continue; // past v255: dropped
        };
        let mut left = exec;
        while left != 0 {
            row[left.trailing_zeros() as usize] = v;
            left &= left - 1;
        }
    }
    Some(VmemOutcome {
        lanes: exec.count_ones(),
        ..VmemOutcome::default()
    })
}

/// Whether every lane in `exec` addresses the global aperture (none LDS or private).
fn all_global(env: &VmemEnv, exec: u64, addr: &[u64; 64]) -> bool {
    let mut left = exec;
    while left != 0 {
        let l = left.trailing_zeros() as usize;
        left &= left - 1;
        if env.apertures.resolve(addr[l]).0 != Aperture::Global {
            return false;
        }
    }
    true
}

/// Every lane's address from a GLOBAL or FLAT instruction, as [`super::global_address`]
/// gives it, into `addr` (lanes past the wave's size left alone).
fn lane_addresses(inst: &Instruction, wave: &Wave, addr: &mut [u64; 64]) {
    let n = wave.size as usize;
    let offset = sext13(inst.get(Field::Offset));
    let saddr = inst.get(Field::Saddr);
    let row = |r: u32| wave.vgpr_row(r).unwrap_or(&ZERO[..n]);
    let addr = &mut addr[..n];
    if is_addtid(inst.opcode) {
        let base = if saddr == SGPR_NULL {
            0
        } else {
            wave.sreg64(saddr)
        };
        for (l, a) in addr.iter_mut().enumerate() {
            *a = base.wrapping_add(4 * l as u64).wrapping_add(offset);
        }
    } else if saddr == SGPR_NULL {
        let v = inst.get(Field::Addr);
        let (lo, hi) = (row(v), row(v + 1));
        for ((a, &lo), &hi) in addr.iter_mut().zip(lo).zip(hi) {
            *a = (lo as u64 | (hi as u64) << 32).wrapping_add(offset);
        }
    } else {
        let base = wave.sreg64(saddr);
        for (a, &v) in addr.iter_mut().zip(row(inst.get(Field::Addr))) {
            *a = base.wrapping_add(v as u64).wrapping_add(offset);
        }
    }
}

/// Moves the lanes of `run` (their addresses consecutive from the lowest lane's): at once when
/// the run lies in the virtual address space and inside one allocation, else lane by lane.
fn run_access(
    wave: &mut Wave,
    env: &mut VmemEnv,
    access: Access,
    run: u64,
    addr: &[u64; 64],
    out: &mut VmemOutcome,
) {
    let start = addr[run.trailing_zeros() as usize];
    let last = addr[63 - run.leading_zeros() as usize];
    let inside = in_virtual_range(start)
        && start >> crate::addr::ADDRESS_BITS == last >> crate::addr::ADDRESS_BITS
        && env
            .mem
            .allocations
            .contains_run(start, last, access.bytes as u64);
    if inside {
        move_run(wave, env, access, run, start);
        return;
    }
    let mut left = run;
    while left != 0 {
        let l = left.trailing_zeros();
        left &= left - 1;
        let a = addr[l as usize];
        if in_virtual_range(a) && env.mem.allocations.contains(a, access.bytes as u64) {
            move_run(wave, env, access, 1 << l, a);
        } else {
            if !access.store {
                fill_vgprs(wave, access, 1 << l, &[0; 16]);
            }
            note_dropped(out, l, Route::Global(a));
        }
    }
}

/// Moves the lanes of `run` between their VGPRs and the bytes from `start` (consecutive).
fn move_run(wave: &mut Wave, env: &mut VmemEnv, access: Access, run: u64, start: u64) {
    let len = run.count_ones() as usize * access.bytes as usize;
    // A wave's dword per lane (the usual run) fits the small buffer, which costs less to
    // clear than the largest run's.
    let (mut small, mut large);
    let buf = if len <= SMALL_RUN_BYTES {
        small = [0u8; SMALL_RUN_BYTES];
        &mut small[..len]
    } else {
        large = [0u8; RUN_BYTES];
        &mut large[..len]
    };
    if access.store {
        gather_vgprs(wave, access, run, buf);
        env.mem.write_bytes(start, buf);
    } else {
        env.mem.read_into(start, buf);
        fill_vgprs(wave, access, run, buf);
    }
}

/// The data of the lanes of `run`, lane after lane, each its dwords from the data VGPR on.
fn gather_vgprs(wave: &Wave, access: Access, run: u64, buf: &mut [u8]) {
    let dwords = access.bytes as usize / 4;
    let (first, n) = (run.trailing_zeros() as usize, run.count_ones() as usize);
    for i in 0..dwords {
        let Some(row) = wave.vgpr_row(access.data + i as u32) else {
            continue; // never written: every lane 0, as `buf` is
        };
        // A dword per lane of consecutive lanes (the usual run): one pass over the row's part.
        let part = row.get(first..first + n);
        if let (4, true, Some(part)) = (access.bytes, lane_block(run).is_some(), part) {
            for (c, v) in buf.chunks_exact_mut(4).zip(part) {
                c.copy_from_slice(&v.to_le_bytes());
            }
            continue;
        }
        let mut left = run;
        let mut k = 4 * i;
        while left != 0 {
            let l = left.trailing_zeros() as usize;
            left &= left - 1;
            buf[k..k + 4].copy_from_slice(&row[l].to_le_bytes());
            k += access.bytes as usize;
        }
    }
}

/// Writes the bytes `buf` holds for the lanes of `run` (lane after lane, each its dwords)
/// to their destination VGPRs.
fn fill_vgprs(wave: &mut Wave, access: Access, run: u64, buf: &[u8]) {
    let dwords = access.bytes as usize / 4;
    let stride = access.bytes as usize;
    let (first, n) = (run.trailing_zeros() as usize, run.count_ones() as usize);
    // Consecutive lanes (the usual run): one pass over the row's part, the lanes' data
    // `stride` bytes apart.
    let consecutive = lane_block(run).is_some();
    for i in 0..dwords {
        let Some(row) = wave.vgpr_row_mut(access.data + i as u32) else {
            continue; // past v255: dropped
        };
        if let (true, Some(part)) = (consecutive, row.get_mut(first..first + n)) {
            if stride == 4 {
                for (d, c) in part.iter_mut().zip(buf.chunks_exact(4)) {
                    *d = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                }
            } else {
                for (d, c) in part.iter_mut().zip(buf[4 * i..].chunks(stride)) {
                    *d = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                }
            }
            continue;
        }
        let mut left = run;
        let mut k = 4 * i;
        while left != 0 {
            let l = left.trailing_zeros() as usize;
            left &= left - 1;
            row[l] = u32::from_le_bytes([buf[k], buf[k + 1], buf[k + 2], buf[k + 3]]);
            k += access.bytes as usize;
        }
    }
}
