//! DS instruction semantics over a wave: LDS and GDS loads, stores and atomics, the lane
//! permutes and swizzle, append/consume and the GS registers.
//!
//! The rules are in docs/rules/ds.md (addressing, lane order, the special forms), with the
//! storage and alignment rules in docs/rules/lds.md and the float atomics in
//! docs/rules/float-atomics.md; the per-instruction pseudocode is AMD's.
//!
//! Choices where the sources are silent (each is a named, tested behaviour):
//! - Lanes of one instruction act in increasing lane order; each lane's read-modify-write is
//!   whole (docs/rules/ds.md#atomic-lane-order).
//! - A lane whose access lies outside the allocation reads 0 and writes nothing
//!   ([`crate::lds::Lds`]); one `lds_out_of_range` event per instruction lists such lanes
//!   (docs/rules/lds.md#allocation-bounds).
//! - A misaligned atomic lane raises MEMVIOL: an event of kind `memviol`; that lane's operation
//!   is not performed and its return VGPRs are left unchanged
//!   (docs/rules/lds.md#atomics-must-be-aligned). `ds_storexchg_2addr_*` (and its `stride64`
//!   form) is an exchange, an atomic, so the same holds for it whatever SH_MEM_CONFIG's
//!   alignment mode, not the auto-alignment of the plain 2addr loads and stores
//!   (docs/rules/ds.md#exchange-is-an-atomic).
//! - Addresses are 32-bit sums: VGPR\[ADDR\] + offset wraps past 2^32 — the hardware's answer,
//!   which LLVM relies on when it folds a constant into the offset field of a DS instruction
//!   whose base may be "negative" — and each instruction where some lane's sum wrapped reports
//!   one `lds_address_wrap` event naming the lanes (information: `check` notes it, compiled
//!   code wraps on purpose; docs/rules/ds.md#address-wrap).
//! - `ds_load_addtid_b32`/`ds_store_addtid_b32`: M0 must be DWORD-aligned. A misaligned M0
//!   reports `m0_misaligned`; the access is a dword access like any other, so
//!   ALIGNMENT_MODE_DWORD aligns the address down and ALIGNMENT_MODE_UNALIGNED uses it as it
//!   is (docs/rules/ds.md#addtid-addressing).

mod kind;
pub mod ldsdir;
mod mem;

pub use crate::atomic::{atomic32, atomic64, AtomicOp};
pub use kind::{ds_kind, DsKind, D16};

use rdna3_isa::{Field, Instruction};

use crate::event::{Event, EventDetail};
use crate::gds::Gds;
use crate::lds::{AlignMode, Lds, LdsAllocation};
use crate::wave::Wave;
use mem::Mem;

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
    /// How its LDS accesses reach the checker: in the LDS trace, or (the row forms) as the
    /// address rows here instead of one [`crate::lds::LdsTouch`] per lane.
    pub rows: RowAccess,
}

/// How a DS instruction's LDS accesses reach the checker ([`DsOutcome::rows`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RowAccess {
    /// Lane by lane, in the LDS trace ([`crate::lds::Lds::trace`]).
    #[default]
    Traced,
    /// Dword reads of the lanes' addresses (`addrs` for `lanes`, then `addrs2` for
    /// `lanes2`; those in the allocation happened), not in the trace.
    Reads,
    /// Dword writes of VGPR `data[0]` at `addrs` for `lanes`, then (a 2addr store) of
    /// `data[1]` at `addrs2` for `lanes2`, each lane's first before its second (a lane past a
    /// register's row writes 0; those in the allocation happened), not in the trace.
    Writes {
        /// The data VGPR of each row (a one-row store names its one twice).
        data: [u32; 2],
    },
}

impl Default for DsOutcome {
    fn default() -> DsOutcome {
        DsOutcome {
            lanes: 0,
            addrs: [0; 64],
            lanes2: 0,
            addrs2: [0; 64],
            gds: false,
            rows: RowAccess::Traced,
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
    /// Whether the dword forms (`ds_load_b32`, `ds_store_b32`, the 2addr dword loads) run a
    /// register row at a time, handing the checker their address rows ([`DsOutcome::rows`]);
    /// false runs them as the general forms, tracing every lane (for the checker's tests that
    /// compare the two).
    pub rows: bool,
    /// The wave's most recent VALU instructions, newest first, as many as its
    /// [`crate::wave::RecentValu`] holds (an LDSDIR load's `wait_vdst` rule reads them; the
    /// other instructions get none).
    pub recent_valu: &'a [Instruction],
    /// Where a row-form load ([`loads_rows`]) writes what it reads instead of its
    /// destination registers: one row of the wave's lanes per register, VDST's first (the
    /// executor's data in flight, which lands in the registers later). `None`: the
    /// registers. Any other instruction leaves it unused.
    pub dst: Option<&'a mut [u32]>,
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
/// quad permute (offset\[7:0\] selects a lane of each quad per lane); bit 15 clear: bit masks
/// and \[4:0\], or \[9:5\], xor \[14:10\] within each group of 32 lanes.
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
/// stopping at the last visited node DATA0; return DATA1\[3\] if valid, else pop), the short
/// per-lane stack that wraps and overwrites old entries (docs/rules/ds.md#bvh-stack), and
/// the RDNA3 address layout documented in Mesa's RADV (`radv_build_bvh_stack_rtn_addr`):
/// ADDR\[17:0\] = stack index, ADDR\[31:18\] = stack base in dwords; entries of one stack are 128
/// bytes apart (32 lanes interleave); OFFSET1\[5:4\] selects 8, 16, 32 or 64 entries.
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

/// The fields of one DS instruction and the lanes it acts for.
struct Op<'i> {
    inst: &'i Instruction,
    gds: bool,
    /// VGPR\[ADDR\], DATA0, DATA1 and VDST register numbers.
    addr: u32,
    d0: u32,
    d1: u32,
    vdst: u32,
    /// The two 8-bit offset fields, and the 16-bit offset they make.
    off0: u32,
    off1: u32,
    offset: u32,
    /// EXEC, and the lanes the memory access is for (the lowest of EXEC for GDS:
    /// docs/rules/ds.md#gds-uses-one-lane).
    exec: u64,
    lanes: u64,
}

impl<'i> Op<'i> {
    /// The instruction's mnemonic (looked up for a report).
    fn name(&self) -> &'static str {
        self.inst.def().name
    }

    fn decode(inst: &'i Instruction, f: &DsFields, wave: &Wave) -> Op<'i> {
        let exec = wave.exec();
        Op {
            inst,
            gds: f.gds,
            addr: f.addr,
            d0: f.d0,
            d1: f.d1,
            vdst: f.vdst,
            off0: f.off0,
            off1: f.off1,
            offset: f.off1 << 8 | f.off0,
            exec,
            lanes: if f.gds {
                exec & exec.wrapping_neg()
            } else {
                exec
            },
        }
    }
}

/// The lanes of `mask` below `size`, lowest first.
fn each_lane(mask: u64, size: u32) -> impl Iterator<Item = u32> {
    (0..size).filter(move |&l| mask >> l & 1 == 1)
}

/// Lane `lane`'s data element in VGPR `reg`: a register pair from `reg` when `b64`.
fn get_data(w: &Wave, reg: u32, lane: u32, b64: bool) -> u64 {
    if b64 {
        vgpr64(w, reg, lane)
    } else {
        w.vgpr(reg, lane) as u64
    }
}

/// Writes lane `lane`'s data element `v` to VGPR `reg` (a register pair when `b64`).
fn set_data(w: &mut Wave, reg: u32, lane: u32, b64: bool, v: u64) {
    if b64 {
        set_vgpr64(w, reg, lane, v);
    } else {
        w.set_vgpr(reg, lane, v as u32);
    }
}

/// The `memviol` event of a misaligned atomic lane (docs/rules/lds.md#atomics-must-be-aligned).
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

/// The `m0_misaligned` event of an instruction whose M0\[15:0\] byte address `m0` is not
/// DWORD-aligned (the ADDTID forms and the direct load: docs/rules/ds.md#addtid-addressing,
/// docs/rules/ds.md#lds-direct-load). `what` names the address in the message, with its verb
/// ("the addresses", "they are"); `lanes` are the lanes the event names.
fn m0_misaligned(
    env: &mut DsEnv,
    wave: &Wave,
    name: &str,
    m0: u32,
    what: (&str, &str),
    lanes: Vec<u32>,
) {
    let (it, is) = what;
    let answer = match env.lds.align {
        AlignMode::Dword => format!("the dword alignment mode aligned {it} down"),
        AlignMode::Unaligned => format!("the unaligned mode used {it} as {is}"),
    };
    env.events.push(
        Event::new(
            "m0_misaligned",
            wave.id,
            env.pc,
            format!("{name}: M0[15:0] = {m0:#x} is not DWORD-aligned (it must be); {answer}"),
        )
        .with_detail(EventDetail {
            lanes,
            address: Some(m0 as u64),
            ..EventDetail::default()
        }),
    );
}

/// Executes DS instruction `inst` on `wave`.
pub fn execute(inst: &Instruction, wave: &mut Wave, env: &mut DsEnv) -> Result<DsOutcome, DsError> {
    let mut outcome = DsOutcome::default();
    execute_into(inst, wave, env, &mut outcome)?;
    Ok(outcome)
}

/// [`execute`], with what the instruction did written to `outcome` (a caller's buffer, kept
/// from one instruction to the next rather than moved out of each).
pub fn execute_into(
    inst: &Instruction,
    wave: &mut Wave,
    env: &mut DsEnv,
    outcome: &mut DsOutcome,
) -> Result<(), DsError> {
    execute_fields(inst, &DsFields::of(inst), wave, env, outcome)
}

/// The fields of a DS instruction that its execution reads, decoded once
/// ([`DsFields::of`]): an executor running an instruction many times keeps them with it
/// rather than reading them from the encoding each time (seven field look-ups, about 230
/// host instructions of a `ds_load_2addr_b32`'s 1,690: docs/benchmarks.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DsFields {
    /// Its semantics class (`None`: not a DS instruction the simulator runs).
    pub kind: Option<DsKind>,
    /// The GDS bit.
    pub gds: bool,
    /// VGPR\[ADDR\]'s register number.
    pub addr: u32,
    /// DATA0's.
    pub d0: u32,
    /// DATA1's.
    pub d1: u32,
    /// VDST's.
    pub vdst: u32,
    /// The first 8-bit offset field.
    pub off0: u32,
    /// The second.
    pub off1: u32,
}

impl DsFields {
    /// The fields of `inst`.
    pub fn of(inst: &Instruction) -> DsFields {
        DsFields {
            kind: ds_kind(inst.opcode),
            gds: inst.get(Field::Gds) == 1,
            addr: inst.get(Field::Addr),
            d0: inst.get(Field::Data0),
            d1: inst.get(Field::Data1),
            vdst: inst.get(Field::Vdst),
            off0: inst.get(Field::Offset0),
            off1: inst.get(Field::Offset1),
        }
    }
}

/// Whether an instruction of `fields` runs as a row-form load when the environment's
/// [`DsEnv::rows`] is `rows`: a dword load or 2addr dword load on LDS, which writes its
/// reads to [`DsEnv::dst`] when that is given.
pub fn loads_rows(fields: &DsFields, rows: bool) -> bool {
    rows && !fields.gds
        && matches!(
            fields.kind,
            Some(
                DsKind::Load {
                    bytes: 4,
                    d16: D16::No,
                    ..
                } | DsKind::Load2 { elem: 4, .. }
            )
        )
}

/// [`execute_into`] with `inst`'s fields `fields` (its [`DsFields::of`]) decoded already.
pub fn execute_fields(
    inst: &Instruction,
    fields: &DsFields,
    wave: &mut Wave,
    env: &mut DsEnv,
    outcome: &mut DsOutcome,
) -> Result<(), DsError> {
    debug_assert_eq!(*fields, DsFields::of(inst));
    let Some(kind) = fields.kind else {
        return Err(DsError::Unimplemented(inst.def().name));
    };
    let op = Op::decode(inst, fields, wave);
    let rows = env.rows && !op.gds;
    // The row-form loads are the ones `loads_rows` names (the executor gives them `dst`).
    let row_load = loads_rows(fields, env.rows);
    debug_assert!(env.dst.is_none() || row_load, "dst for a non-row form");
    // A DS instruction waits for earlier VALU work (LDSDIR's `wait_vdst` window, ldsdir.rs).
    wave.recent_valu.clear();
    let mut mem = Mem::new(env, op.gds.then(|| wave.m0()), outcome);
    let m = &mut mem;
    match kind {
        DsKind::Nop => {}
        DsKind::GlobalSync => return Err(DsError::Unimplemented(op.name())),
        DsKind::BvhStack => bvh_stacks(&op, wave, m),
        // The common dword forms on LDS, a register row at a time (the same semantics as
        // the general forms, without their per-lane register lookups).
        DsKind::Load { .. } if row_load => load_b32_rows(&op, wave, m),
        DsKind::Store {
            bytes: 4,
            hi: false,
        } if rows => store_b32_rows(&op, wave, m),
        DsKind::Load2 { stride64, .. } if row_load => load2_b32_rows(&op, stride64, wave, m),
        DsKind::Store2 { elem: 4, stride64 } if rows => store2_b32_rows(&op, stride64, wave, m),
        DsKind::Load { bytes, signed, d16 } => load(&op, bytes, signed, d16, wave, m),
        DsKind::Store { bytes, hi } => store(&op, bytes, hi, wave, m),
        DsKind::Load2 { elem, stride64 }
        | DsKind::Store2 { elem, stride64 }
        | DsKind::Xchg2 { elem, stride64 } => two_addr(&op, kind, elem, stride64, wave, m),
        DsKind::Atomic { op: a, b64, rtn } => atomic(&op, a, b64, rtn, wave, m),
        DsKind::Condxchg32 => condxchg32(&op, wave, m),
        DsKind::LoadAddtid => addtid(&op, true, wave, m),
        DsKind::StoreAddtid => addtid(&op, false, wave, m),
        DsKind::Permute => permute(&op, true, halves(inst), wave),
        DsKind::Bpermute => permute(&op, false, halves(inst), wave),
        DsKind::Swizzle => swizzle(&op, wave),
        DsKind::Append => append_consume(&op, true, wave, m),
        DsKind::Consume => append_consume(&op, false, wave, m),
        DsKind::GsReg { sub } => gs_reg(&op, sub, wave, m),
    }
    mem.finish(wave, op.inst);
    Ok(())
}

/// `ds_bvh_stack_rtn_b32` for every active lane (docs/rules/ds.md#bvh-stack).
fn bvh_stacks(op: &Op, wave: &mut Wave, mem: &mut Mem) {
    for l in each_lane(op.lanes, wave.size) {
        let (rtn, addr) = bvh_stack(mem, l, wave, op.inst);
        wave.set_vgpr(op.vdst, l, rtn);
        wave.set_vgpr(op.addr, l, addr);
    }
}

/// `ds_load_b32` on LDS, a register row at a time (docs/rules/ds.md#single-address-form;
/// held to [`load`] by `tests::row_loads_match_the_lane_by_lane_loads`).
fn load_b32_rows(op: &Op, wave: &mut Wave, mem: &mut Mem) {
    mem.row_reads();
    mem.dword_row(false, op.lanes, wave.vgpr_row(op.addr), op.offset);
    if let Some(dst) = mem.take_dst() {
        let n = wave.size as usize;
        return mem.read_lds_rows([&mut dst[..n]]);
    }
    // Straight into VDST (a register past v255 takes the reads nowhere).
    match wave.vgpr_row_mut(op.vdst) {
        Some(row) => mem.read_lds_rows([row]),
        None => mem.read_lds_rows([&mut [0; 64][..]]),
    }
}

/// `ds_store_b32` on LDS, a register row at a time (docs/rules/ds.md#single-address-form).
fn store_b32_rows(op: &Op, wave: &mut Wave, mem: &mut Mem) {
    mem.row_writes([op.d0, op.d0]);
    mem.dword_row(false, op.lanes, wave.vgpr_row(op.addr), op.offset);
    mem.write_lds_rows([wave.vgpr_row(op.d0), None]);
}

/// `ds_load_2addr_b32` (and `stride64`) on LDS, a register row at a time
/// (docs/rules/ds.md#two-address-forms).
fn load2_b32_rows(op: &Op, stride64: bool, wave: &mut Wave, mem: &mut Mem) {
    let adj = if stride64 { 256 } else { 4 };
    mem.row_reads();
    let base = wave.vgpr_row(op.addr);
    mem.dword_row(false, op.lanes, base, op.off0 * adj);
    mem.dword_row(true, op.lanes, base, op.off1 * adj);
    if let Some(dst) = mem.take_dst() {
        let (a, b) = dst.split_at_mut(wave.size as usize);
        let n = a.len();
        return mem.read_lds_rows([a, &mut b[..n]]);
    }
    // Straight into VDST and the register after it (one past v255 takes its reads nowhere).
    match wave.vgpr_row_pair_mut(op.vdst) {
        (Some(a), Some(b)) => mem.read_lds_rows([a, b]),
        (a, b) => {
            let mut nowhere = [[0; 64]; 2];
            let [n0, n1] = &mut nowhere;
            mem.read_lds_rows([a.unwrap_or(&mut n0[..]), b.unwrap_or(&mut n1[..])]);
        }
    }
}

/// `ds_store_2addr_b32` (and `stride64`) on LDS, a register row at a time, what
/// [`two_addr`] does (docs/rules/ds.md#two-address-forms): each lane, lowest first, writes
/// its DATA0 dword at its first address and its DATA1 dword at its second.
fn store2_b32_rows(op: &Op, stride64: bool, wave: &mut Wave, mem: &mut Mem) {
    let adj = if stride64 { 256 } else { 4 };
    mem.row_writes([op.d0, op.d1]);
    let base = wave.vgpr_row(op.addr);
    mem.dword_row(false, op.lanes, base, op.off0 * adj);
    mem.dword_row(true, op.lanes, base, op.off1 * adj);
    mem.write_lds_rows([wave.vgpr_row(op.d0), wave.vgpr_row(op.d1)]);
}

/// The single-address loads of `bytes` (1 to 16) per lane, sign-extended when `signed`, into
/// the whole VDST or one half of it (`d16`) (docs/rules/ds.md#single-address-form).
fn load(op: &Op, bytes: u32, signed: bool, d16: D16, wave: &mut Wave, mem: &mut Mem) {
    for l in each_lane(op.lanes, wave.size) {
        let a = mem.aligned_address(wave.vgpr(op.addr, l), op.offset, l as usize, bytes);
        if bytes > 8 {
            let words = mem.read_wide(l, a, bytes / 4);
            for (k, w) in words.iter().enumerate() {
                wave.set_vgpr(op.vdst + k as u32, l, *w);
            }
            continue;
        }
        let v = mem.read(l, a, bytes);
        if bytes == 8 {
            set_vgpr64(wave, op.vdst, l, v);
            continue;
        }
        let x = if signed {
            sign_extend(v, bytes)
        } else {
            v as u32
        };
        let old = wave.vgpr(op.vdst, l);
        let new = match d16 {
            D16::No => x,
            D16::Lo => (old & 0xffff_0000) | (x & 0xffff),
            D16::Hi => (old & 0xffff) | (x & 0xffff) << 16,
        };
        wave.set_vgpr(op.vdst, l, new);
    }
}

/// The single-address stores of `bytes` (1 to 16) per lane; `hi` stores the high half of
/// DATA0 (docs/rules/ds.md#single-address-form).
fn store(op: &Op, bytes: u32, hi: bool, wave: &mut Wave, mem: &mut Mem) {
    for l in each_lane(op.lanes, wave.size) {
        let a = mem.aligned_address(wave.vgpr(op.addr, l), op.offset, l as usize, bytes);
        if bytes > 8 {
            let words: Vec<u32> = (0..bytes / 4).map(|k| wave.vgpr(op.d0 + k, l)).collect();
            mem.write_wide(l, a, &words);
            continue;
        }
        let v = if bytes == 8 {
            vgpr64(wave, op.d0, l)
        } else if hi {
            (wave.vgpr(op.d0, l) >> 16) as u64
        } else {
            wave.vgpr(op.d0, l) as u64
        };
        mem.write(l, a, bytes, v);
    }
}

/// The two-address loads, stores and exchanges of `elem`-byte elements
/// (docs/rules/ds.md#two-address-forms); an exchange is an atomic and must be aligned
/// (docs/rules/ds.md#exchange-is-an-atomic).
fn two_addr(op: &Op, kind: DsKind, elem: u32, stride64: bool, wave: &mut Wave, mem: &mut Mem) {
    let adj = elem * if stride64 { 64 } else { 1 };
    let b64 = elem == 8;
    let xchg = matches!(kind, DsKind::Xchg2 { .. });
    for l in each_lane(op.lanes, wave.size) {
        let base = wave.vgpr(op.addr, l);
        let a0 = mem.address(base, op.off0 * adj, l as usize);
        let a1 = mem.address(base, op.off1 * adj, l as usize);
        let (a0, a1) = if xchg {
            // Both addresses are the base plus multiples of the element size, so they agree
            // on alignment.
            if !a0.is_multiple_of(elem) {
                memviol(mem.env, wave, op.name(), l, a0, elem);
                continue;
            }
            (a0, a1)
        } else {
            (
                mem.env.lds.effective(a0, elem),
                mem.env.lds.effective(a1, elem),
            )
        };
        let new = [op.d0, op.d1].map(|r| get_data(wave, r, l, b64));
        let old = match kind {
            DsKind::Store2 { .. } => {
                mem.write(l, a0, elem, new[0]);
                mem.write(l, a1, elem, new[1]);
                continue;
            }
            DsKind::Load2 { .. } => [mem.read(l, a0, elem), mem.read(l, a1, elem)],
            _ => {
                let old = [mem.read(l, a0, elem), mem.read(l, a1, elem)];
                mem.write_quiet(l, a0, elem, new[0]);
                mem.write_quiet(l, a1, elem, new[1]);
                old
            }
        };
        let dw = elem / 4;
        for (k, v) in old.into_iter().enumerate() {
            set_data(wave, op.vdst + dw * k as u32, l, b64, v);
        }
    }
}

/// The integer and float atomics of 4 or 8 bytes (docs/rules/ds.md#atomic-lane-order; the
/// float rules: docs/rules/float-atomics.md).
fn atomic(op: &Op, a: AtomicOp, b64: bool, rtn: bool, wave: &mut Wave, mem: &mut Mem) {
    let bytes = if b64 { 8 } else { 4 };
    let mode = wave.mode;
    for l in each_lane(op.lanes, wave.size) {
        let addr = mem.address(wave.vgpr(op.addr, l), op.offset, l as usize);
        if !addr.is_multiple_of(bytes) {
            memviol(mem.env, wave, op.name(), l, addr, bytes);
            continue;
        }
        let old = mem.read(l, addr, bytes);
        let (x, y) = (get_data(wave, op.d0, l, b64), get_data(wave, op.d1, l, b64));
        let new = if b64 {
            atomic64(a, old, x, y, mode)
        } else {
            atomic32(a, old as u32, x as u32, y as u32, mode) as u64
        };
        mem.write_quiet(l, addr, bytes, new);
        if rtn {
            set_data(wave, op.vdst, l, b64, old);
        }
    }
}

/// `ds_condxchg32_rtn_b64` (docs/rules/ds.md#conditional-exchange): two dwords at
/// (addr + offset) & 0xfff8; each is replaced by the data dword's low 31 bits when that
/// dword's bit 31 is set.
fn condxchg32(op: &Op, wave: &mut Wave, mem: &mut Mem) {
    for l in each_lane(op.lanes, wave.size) {
        let a0 = wave.vgpr(op.addr, l).wrapping_add(op.offset) & 0xfff8;
        let data = vgpr64(wave, op.d0, l);
        let old = mem.read(l, a0, 8);
        for k in 0..2u32 {
            let dk = (data >> (32 * k)) as u32;
            if dk >> 31 == 1 {
                mem.write_quiet(l, a0 + 4 * k, 4, (dk & 0x7fff_ffff) as u64);
            }
        }
        set_vgpr64(wave, op.vdst, l, old);
    }
}

/// `ds_load_addtid_b32` (`load`) and `ds_store_addtid_b32`: lane `i` at offset + M0\[15:0\] +
/// 4 × i, no VGPR address; M0 must be DWORD-aligned (docs/rules/ds.md#addtid-addressing).
fn addtid(op: &Op, load: bool, wave: &mut Wave, mem: &mut Mem) {
    let m0 = wave.m0() & 0xffff;
    if m0 & 3 != 0 && op.lanes != 0 {
        let lanes = each_lane(op.lanes, wave.size).collect();
        m0_misaligned(
            mem.env,
            wave,
            op.name(),
            m0,
            ("the addresses", "they are"),
            lanes,
        );
    }
    for l in each_lane(op.lanes, wave.size) {
        let a = mem
            .env
            .lds
            .effective(op.offset.wrapping_add(m0).wrapping_add(l * 4), 4);
        if load {
            let v = mem.read(l, a, 4);
            wave.set_vgpr(op.vdst, l, v as u32);
        } else {
            let v = wave.vgpr(op.d0, l);
            mem.write(l, a, 4, v as u64);
        }
    }
}

/// Whether a permute works on halves of 32 lanes: gfx1100's do (its pseudocode: "destination
/// lane is MOD 32 regardless of wave size"); GFX9's pick any of the 64 lanes (gfx942's
/// `ds_bpermute_b32` runs as it is, `crate::target::gfx9::runs_as_is`).
fn halves(inst: &Instruction) -> bool {
    inst.def().isa == rdna3_isa::Isa::Gfx11
}

/// `ds_permute_b32` (`forward`) and `ds_bpermute_b32` (docs/rules/ds.md#lane-permute): index
/// = (addr + offset) / 4 mod 32 (bits \[6:2\]); wave64 works as two independent wave32 halves;
/// disabled source lanes give 0; for permute the highest source lane wins. Without `halves`
/// (GFX9) the index is mod 64 (bits \[7:2\]) over the whole wave.
fn permute(op: &Op, forward: bool, halves: bool, wave: &mut Wave) {
    let mut tmp = [0u32; 64];
    let (span_mask, idx_mask) = if halves { (32, 31) } else { (0, 63) };
    for i in 0..wave.size {
        let half = i & span_mask;
        let idx = (wave.vgpr(op.addr, i).wrapping_add(op.offset) >> 2) & idx_mask;
        if forward {
            if op.exec >> i & 1 == 1 {
                tmp[(half | idx) as usize] = wave.vgpr(op.d0, i);
            }
        } else {
            let src = half | idx;
            if op.exec >> src & 1 == 1 {
                tmp[i as usize] = wave.vgpr(op.d0, src);
            }
        }
    }
    write_enabled(op, wave, &tmp);
}

/// `ds_swizzle_b32` (docs/rules/ds.md#swizzle; the lane pattern is [`swizzle_source`]).
fn swizzle(op: &Op, wave: &mut Wave) {
    let mut tmp = [0u32; 64];
    for i in 0..wave.size {
        let j = swizzle_source(op.offset, i);
        if op.exec >> j & 1 == 1 {
            tmp[i as usize] = wave.vgpr(op.addr, j);
        }
    }
    write_enabled(op, wave, &tmp);
}

/// Writes `vals` to VDST of the lanes enabled in EXEC.
fn write_enabled(op: &Op, wave: &mut Wave, vals: &[u32; 64]) {
    for i in each_lane(op.exec, wave.size) {
        wave.set_vgpr(op.vdst, i, vals[i as usize]);
    }
}

/// `ds_append` (`append`) and `ds_consume` (docs/rules/ds.md#append-and-consume): the counter
/// at M0.base + offset, limited to M0.size, moves by the number of active lanes; its old
/// value goes to every active lane.
fn append_consume(op: &Op, append: bool, wave: &mut Wave, mem: &mut Mem) {
    if op.exec == 0 {
        return;
    }
    let m0 = wave.m0();
    let (base, size) = (m0 >> 16, m0 & 0xffff);
    let n = op.exec.count_ones();
    let first = op.exec.trailing_zeros();
    let old = if op.offset as u64 + 4 <= size as u64 {
        let a = base + op.offset;
        let old = mem.read(first, a, 4) as u32;
        let new = if append {
            old.wrapping_add(n)
        } else {
            old.wrapping_sub(n)
        };
        mem.write_quiet(first, a, 4, new as u64);
        old
    } else {
        mem.miss(first);
        0
    };
    for l in each_lane(op.exec, wave.size) {
        wave.set_vgpr(op.vdst, l, old);
    }
}

/// `ds_add_gs_reg_rtn` and `ds_sub_gs_reg_rtn` (`sub`) (docs/rules/ds.md#gs-registers): the
/// first active lane's DATA0; register offset0\[5:2\]; 8-15 are 64-bit (two VDST registers).
fn gs_reg(op: &Op, sub: bool, wave: &mut Wave, mem: &mut Mem) {
    if op.exec == 0 {
        return;
    }
    let l = op.exec.trailing_zeros();
    let idx = ((op.off0 >> 2) & 0xf) as usize;
    let data = wave.vgpr(op.d0, l) as u64;
    let regs = &mut mem.env.gds.gs_regs;
    let old = regs[idx];
    let new = if sub {
        old.wrapping_sub(data)
    } else {
        old.wrapping_add(data)
    };
    regs[idx] = if idx >= 8 { new } else { new & 0xffff_ffff };
    wave.set_vgpr(op.vdst, l, old as u32);
    if idx >= 8 {
        wave.set_vgpr(op.vdst + 1, l, (old >> 32) as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lds::{LdsMode, LdsTouch};
    use rdna3_isa::asm::assemble;

    /// [`execute`] (the library's entry, returning the outcome) and [`execute_into`] (the
    /// executor's, filling a buffer that holds an earlier instruction's outcome) do the same
    /// to the wave, the LDS and the events, and give the same outcome.
    #[test]
    fn execute_and_execute_into_agree() {
        let prog = assemble(
            "ds_store_b32 v1, v2 offset:8\nds_load_2addr_b32 v[4:5], v1 offset0:2 offset1:7\n\
             ds_add_u32 v1, v2\n",
        );
        assert!(prog.errors.is_empty(), "{:?}", prog.errors);
        let alloc = LdsAllocation::new(1024, LdsMode::Wgp).expect("allocation");
        let mut wave = Wave::new(0, 32);
        wave.set_exec(0xffff_00ff);
        for l in 0..32 {
            wave.set_vgpr(1, l, 4 * l);
            wave.set_vgpr(2, l, 100 + l);
        }
        let side = |into: bool| {
            let (mut w, mut lds, mut gds) = (
                wave.clone(),
                Lds::new(LdsMode::Wgp, AlignMode::Dword),
                Gds::new(crate::gds::DEFAULT_GDS_BYTES),
            );
            let (mut events, mut outcomes) = (Vec::new(), Vec::new());
            // A buffer left over from another instruction, as the executor's is.
            let mut buffer = DsOutcome {
                lanes: u64::MAX,
                addrs: [0xdead; 64],
                ..DsOutcome::default()
            };
            for (pc, line) in prog.lines.iter().enumerate() {
                let mut env = DsEnv {
                    lds: &mut lds,
                    alloc,
                    gds: &mut gds,
                    events: &mut events,
                    pc,
                    rows: true,
                    recent_valu: &[],
                    dst: None,
                };
                if into {
                    execute_into(&line.inst, &mut w, &mut env, &mut buffer).expect("runs");
                    outcomes.push(buffer.clone());
                } else {
                    outcomes.push(execute(&line.inst, &mut w, &mut env).expect("runs"));
                }
            }
            let vgprs: Vec<u32> = (0..32)
                .flat_map(|l| (1..6).map(move |r| (r, l)))
                .map(|(r, l)| w.vgpr(r, l))
                .collect();
            (outcomes, vgprs, lds.words(0, 1024), events.len())
        };
        let (a, b) = (side(false), side(true));
        assert_eq!(a, b);
        // Lane 0's 2addr load reads bytes 8 and 28, which lanes 0 and 5 stored.
        assert_eq!((a.1[3], a.1[4]), (100, 105));
    }

    /// Runs `inst` on copies of `wave` and `lds` (allocation `alloc`, a fresh GDS), with the
    /// row forms or without: the wave, the LDS, the outcome and the events after.
    fn run_alone(
        inst: &Instruction,
        wave: &Wave,
        lds: &Lds,
        alloc: LdsAllocation,
        rows: bool,
    ) -> (Wave, Lds, DsOutcome, Vec<Event>) {
        let (mut w, mut lds, mut gds) = (
            wave.clone(),
            lds.clone(),
            Gds::new(crate::gds::DEFAULT_GDS_BYTES),
        );
        let mut events = Vec::new();
        let mut env = DsEnv {
            lds: &mut lds,
            alloc,
            gds: &mut gds,
            events: &mut events,
            pc: 0,
            rows,
            recent_valu: &[],
            dst: None,
        };
        let o = execute(inst, &mut w, &mut env).expect("runs");
        (w, lds, o, events)
    }

    /// The row form of `ds_store_2addr_b32` writes what the lane by lane form writes: lanes in
    /// EXEC only, lowest first and each lane's first address before its second (so where two
    /// writes meet, the later one stays), lanes past the allocation dropped as misses, data
    /// registers never written storing 0; and it leaves the checker the same overwritten
    /// values, and rows that stand for the lane by lane form's trace.
    #[test]
    fn row_store2_matches_the_lane_by_lane_store2() {
        let mut rng = crate::xorshift::XorShift::new(0x51ed_2701_a3c9_4e8b);
        let alloc = LdsAllocation::new(512, LdsMode::Wgp).expect("allocation");
        let (mut collided, mut missed) = (0, 0);
        for case in 0..600 {
            let size = if case % 2 == 0 { 32 } else { 64 };
            let text = match case % 5 {
                0 => "ds_store_2addr_b32 v1, v6, v7 offset0:3 offset1:40",
                1 => "ds_store_2addr_stride64_b32 v1, v6, v7 offset1:1",
                2 => "ds_store_2addr_b32 v1, v6, v7 offset0:1 offset1:1",
                3 => "ds_store_2addr_b32 v1, v9, v6 offset1:100",
                _ => "ds_store_2addr_b32 v1, v1, v7 offset0:2 offset1:9",
            };
            let inst = assemble(text).lines[0].inst.clone();
            let mut wave = Wave::new(0, size);
            wave.set_exec(rng.next_u64());
            // Few distinct addresses, so that lanes often write one dword; some past the
            // allocation.
            for l in 0..size {
                wave.set_vgpr(
                    1,
                    l,
                    4 * rng.below(if case % 3 == 0 { 200 } else { 12 }) as u32,
                );
                for r in [6, 7] {
                    wave.set_vgpr(r, l, 7000 + r * 64 + l);
                }
            }
            let mut lds = Lds::new(LdsMode::Wgp, AlignMode::Dword);
            lds.fill_words(0, &(0..128).map(|k| 1000 + k).collect::<Vec<u32>>());
            // Watched by a checker (traced) in half the cases: the same trace either way.
            if case % 4 < 2 {
                lds.trace = Some(Vec::new());
            }
            let side = |rows: bool| {
                let (w, lds, mut o, events) = run_alone(&inst, &wave, &lds, alloc, rows);
                // The trace, or the one the rows stand for: by lane, first row then second,
                // the writes in the allocation, of the data registers' values.
                let mut trace = lds.trace.clone();
                if let (RowAccess::Writes { data }, Some(t)) = (o.rows, trace.as_mut()) {
                    let rows = [(o.lanes, &o.addrs), (o.lanes2, &o.addrs2)];
                    for l in 0..64u32 {
                        for (k, (lanes, addrs)) in rows.iter().enumerate() {
                            if lanes >> l & 1 == 1 && addrs[l as usize] + 4 <= 512 {
                                let v = w.vgpr(data[k], l);
                                t.push(LdsTouch {
                                    lane: l as u8,
                                    offset: addrs[l as usize],
                                    size: 4,
                                    write: true,
                                    value: v.into(),
                                });
                            }
                        }
                    }
                }
                o.rows = RowAccess::default();
                (
                    lds.words(0, 512),
                    o,
                    events,
                    (trace, lds.overwritten.clone()),
                )
            };
            let (row, lane) = (side(true), side(false));
            assert_eq!(row, lane, "case {case}: {text}");
            let a = &row.1;
            let both = |l: usize| a.lanes >> l & 1 == 1;
            collided += (0..size as usize)
                .any(|l| both(l) && (0..l).any(|k| both(k) && a.addrs[k] == a.addrs[l]))
                as u32;
            missed += u32::from(!row.2.is_empty());
        }
        // The cases met what they are for.
        assert!(collided > 100 && missed > 20, "{collided} {missed}");
    }

    /// The row forms of the dword loads (reading LDS straight into VDST) do what the lane
    /// by lane forms do: inactive lanes keep their values, lanes past the allocation read 0
    /// and are misses, a destination past v255 drops its row, and a destination that is the
    /// address register takes the loads (the addresses were read first); also for wave64.
    #[test]
    fn row_loads_match_the_lane_by_lane_loads() {
        let mut rng = crate::xorshift::XorShift::new(0x9b05_688c_2b3e_6c1f);
        let alloc = LdsAllocation::new(512, LdsMode::Wgp).expect("allocation");
        for case in 0..600 {
            let size = if case % 2 == 0 { 32 } else { 64 };
            let text = match case % 6 {
                0 => "ds_load_b32 v7, v1 offset:12",
                1 => "ds_load_b32 v255, v1",
                2 => "ds_load_2addr_b32 v[6:7], v1 offset0:3 offset1:40",
                3 => "ds_load_2addr_stride64_b32 v[254:255], v1 offset1:1",
                4 => "ds_load_b32 v1, v1 offset:4",
                _ => "ds_load_2addr_b32 v[0:1], v1 offset0:1 offset1:2",
            };
            let mut inst = assemble(text).lines[0].inst.clone();
            if case % 12 == 9 {
                // v255 and the register after it (none): encodable, not writable in text.
                inst.set(Field::Vdst, 255);
            }
            let mut wave = Wave::new(0, size);
            wave.set_exec(rng.next_u64());
            for l in 0..size {
                wave.set_vgpr(1, l, 4 * rng.below(160) as u32);
                for r in [0, 6, 7, 254, 255] {
                    wave.set_vgpr(r, l, 7000 + r * 64 + l);
                }
            }
            let mut lds = Lds::new(LdsMode::Wgp, AlignMode::Dword);
            lds.fill_words(0, &(0..128).map(|k| 1000 + k).collect::<Vec<u32>>());
            let side = |rows: bool| {
                let (w, _, mut o, events) = run_alone(&inst, &wave, &lds, alloc, rows);
                o.rows = RowAccess::default();
                let regs: Vec<u32> = [0, 1, 6, 7, 254, 255]
                    .iter()
                    .flat_map(|&r| (0..size).map(move |l| (r, l)))
                    .map(|(r, l)| w.vgpr(r, l))
                    .collect();
                (regs, o, events)
            };
            assert_eq!(side(true), side(false), "case {case}: {text}");
        }
    }

    /// A row-form load given rows to write (`DsEnv::dst`, the executor's data in flight)
    /// leaves the registers as they were and puts in the rows, for the lanes in EXEC, what
    /// it would have put in VDST and the register after it; its outcome and events are the
    /// same (wave32 and wave64, partial EXEC, addresses outside the allocation).
    #[test]
    fn row_loads_into_given_rows_write_what_the_registers_would_get() {
        let mut rng = crate::xorshift::XorShift::new(0x2f6b_11d4_90ce_a357);
        let alloc = LdsAllocation::new(512, LdsMode::Wgp).expect("allocation");
        let mut outside = 0;
        for case in 0..400 {
            let size = if case % 2 == 0 { 32 } else { 64 };
            let (text, count) = match case % 4 {
                0 => ("ds_load_b32 v7, v1 offset:12", 1),
                1 => ("ds_load_2addr_b32 v[6:7], v1 offset0:3 offset1:40", 2),
                2 => ("ds_load_2addr_stride64_b32 v[6:7], v1 offset1:1", 2),
                _ => ("ds_load_b32 v1, v1 offset:4", 1),
            };
            let inst = assemble(text).lines[0].inst.clone();
            let fields = DsFields::of(&inst);
            assert!(loads_rows(&fields, true), "{text}");
            let mut wave = Wave::new(0, size);
            let exec = rng.next_u64();
            wave.set_exec(exec);
            for l in 0..size {
                wave.set_vgpr(1, l, 4 * rng.below(160) as u32);
                for r in [6, 7] {
                    wave.set_vgpr(r, l, 7000 + r * 64 + l);
                }
            }
            let mut lds = Lds::new(LdsMode::Wgp, AlignMode::Dword);
            lds.fill_words(0, &(0..128).map(|k| 1000 + k).collect::<Vec<u32>>());
            let (w, _, o, events) = run_alone(&inst, &wave, &lds, alloc, true);
            let mut given = wave.clone();
            let (mut lds2, mut gds) = (lds.clone(), Gds::new(crate::gds::DEFAULT_GDS_BYTES));
            let (mut events2, mut rows) = (Vec::new(), vec![0u32; count * size as usize]);
            let mut env = DsEnv {
                lds: &mut lds2,
                alloc,
                gds: &mut gds,
                events: &mut events2,
                pc: 0,
                rows: true,
                recent_valu: &[],
                dst: Some(&mut rows[..]),
            };
            let o2 = execute(&inst, &mut given, &mut env).expect("runs");
            assert!(env.dst.is_none(), "case {case}: the rows were taken");
            assert_eq!((&o2, &events2), (&o, &events), "case {case}: {text}");
            let vdst = fields.vdst;
            for r in 0..count as u32 {
                for l in 0..size {
                    let at = r as usize * size as usize + l as usize;
                    assert_eq!(
                        given.vgpr(vdst + r, l),
                        wave.vgpr(vdst + r, l),
                        "case {case}"
                    );
                    if exec >> l & 1 == 1 {
                        assert_eq!(rows[at], w.vgpr(vdst + r, l), "case {case}: lane {l}");
                    }
                }
            }
            outside += events.len();
        }
        // Not vacuous: some lanes fell outside the allocation.
        assert!(outside > 0, "{outside}");
    }
}
