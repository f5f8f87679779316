//! LDS_PARAM_LOAD and LDS_DIRECT_LOAD (the LDSDIR encoding).
//!
//! The rules are docs/rules/ds.md#lds-parameter-load and docs/rules/ds.md#lds-direct-load,
//! with the M0 layouts and the parameter address from AMD's RDNA3.5 ISA guide §12.2.1 "LDS
//! Parameter Loads" (the same LDSDIR encoding as gfx1100):
//! - LDS_DIRECT_LOAD: M0 = {13'b0, DataType\[2:0\], LDS_address\[15:0\]}; one value (DataType 0
//!   u8, 1 u16, 2 dword, 4 i8, 5 i16; bytes zero- or sign-extended) broadcast to the wave.
//! - LDS_PARAM_LOAD: M0 = {1'b0, new_prim_mask\[15:1\], lds_param_offset\[15:0\]}; quad q's
//!   primitive is the number of set mask bits in quads 0..=q (bit 0 implied) minus one; its
//!   P0, P10, P20 for (attr, chan) are the dwords at
//!   param_offset + (attr × prims_in_wave × 12 + prim × 12 + p × 4 + chan) × 4 bytes, written
//!   to lanes 0, 1, 2 of the quad; lane 3 gets 0.
//! - Both use EXEC per quad (a quad with any enabled lane is written whole), complete through
//!   EXPcnt, exist only for LDS and only in CU mode.
//!
//! Choices: DataType 3, 6 and 7 are reserved; we read them as a dword and report an event.
//! In WGP mode the instruction writes nothing and reports an event.
//!
//! The programming rules (docs/rules/ds.md#lds-parameter-load,
//! docs/rules/ds.md#parameter-load-hazards, docs/rules/ds.md#lds-direct-load), each the answer
//! below plus an event (`lds_param_rule`, or `m0_misaligned` for M0):
//! - `lds_param_offset` bits \[6:0\] must be zero. Choice: the hardware does not have them (the
//!   offset counts 128-byte units), so the load uses the offset with them cleared.
//! - STATUS.LDS_READY: a load issued before it is set stalls the wave until the parameters are
//!   in LDS. The launch puts the LDS contents in place before waves start and nothing clears
//!   the flag during a run (only a caller that sets [`Wave::lds_ready`] false meets this), so
//!   the load then reads what the stall would end on: the LDS as it is.
//! - A destination VGPR outside the wave's allocation ([`Wave::vgpr_limit`]): the load is
//!   still performed (it counts on EXPcnt) but with EXEC forced to zero, so no lane is
//!   written. (The spec states it for LDS_PARAM_LOAD; LDS_DIRECT_LOAD has the same encoding
//!   and fields, so we apply it to both.)
//! - `wait_vdst` N lets up to N VALU instructions still be outstanding when the load issues;
//!   if one of the N most recent VALU instructions reads the destination VGPR (the spec's
//!   write-after-read hazard: the load may overwrite the source before the VALU reads it) or
//!   writes it (the VALU's late result would overwrite the loaded data) the outcome depends
//!   on timing. The simulator's VALU finishes at issue, so its answer is the in-order one;
//!   the event names the VALU instruction. A vector-memory, DS or LDSDIR instruction in
//!   between ends the window (they do not issue until earlier VALU work is done — the rule
//!   LLVM's hazard recognizer uses when it fills in `wait_vdst`); other instructions (SALU,
//!   waits) neither count nor end it.
//! - LDS_DIRECT_LOAD: M0\[15:0\] is a byte address that must be DWORD-aligned. A misaligned one
//!   reports `m0_misaligned`; the access is a dword access, so ALIGNMENT_MODE_DWORD aligns the
//!   address down and ALIGNMENT_MODE_UNALIGNED uses it as it is
//!   (docs/rules/lds.md#alignment-mode); the data
//!   type then takes its bytes from there.

use rdna3_isa::{Field, Instruction};

use super::{m0_misaligned, sign_extend, DsEnv, DsOutcome};
use crate::event::Event;
use crate::lds::LdsMode;
use crate::wave::Wave;

/// Whether VALU instruction `inst` reads and whether it writes VGPR `reg` (through any of its
/// operands, both halves of a VOPD pair, the DPP source included).
pub fn valu_uses_vgpr(inst: &Instruction, reg: u32) -> (bool, bool) {
    let (mut reads, mut writes) = (false, false);
    for o in inst.vgpr_operands().iter().filter(|o| o.contains(reg)) {
        if o.is_vdst() {
            writes = true;
        } else {
            reads = true;
        }
    }
    (reads, writes)
}

/// Lanes of quads with at least one enabled lane.
pub fn quad_exec(exec: u64) -> u64 {
    let mut m = 0u64;
    for q in 0..16 {
        if (exec >> (4 * q)) & 0xf != 0 {
            m |= 0xf << (4 * q);
        }
    }
    m
}

/// An event of `kind` with `message` (no detail).
fn event(env: &mut DsEnv, wave: &Wave, kind: &'static str, message: String) {
    env.events.push(Event {
        detail: None,
        cycle: 0,
        kind,
        wave: wave.id,
        pc: env.pc,
        message,
    });
}

/// An `lds_param_rule` event: a programming rule of the parameter and direct loads broken
/// (docs/rules/ds.md#parameter-load-hazards, docs/rules/ds.md#lds-parameter-load).
fn param_rule(env: &mut DsEnv, wave: &Wave, message: String) {
    event(env, wave, "lds_param_rule", message);
}

/// The `lds_param_rule` events of the rules every LDSDIR load shares (LDS_READY, the
/// destination's range, `wait_vdst`); returns whether EXEC is forced to zero.
fn shared_rules(inst: &Instruction, wave: &mut Wave, env: &mut DsEnv) -> bool {
    let name = inst.def().name;
    let vdst = inst.get(Field::Vdst);
    if !wave.lds_ready {
        param_rule(
            env,
            wave,
            format!(
                "{name} issued before STATUS.LDS_READY was set: the wave stalls until the parameters are in LDS (read as LDS holds them now)"
            ),
        );
    }
    let forced_off = vdst >= wave.vgpr_limit;
    if forced_off {
        param_rule(
            env,
            wave,
            format!(
                "{name}: destination v{vdst} is outside the wave's {} VGPRs: the load is performed with EXEC forced to zero (no lane is written)",
                wave.vgpr_limit
            ),
        );
    }
    let window = inst.get(Field::WaitVdst) as usize;
    let hazard = env.recent_valu.iter().take(window).find_map(|v| {
        let (reads, writes) = valu_uses_vgpr(v, vdst);
        (reads || writes).then(|| (v.def().name, reads))
    });
    if let Some((valu, reads)) = hazard {
        let (what, fix) = if reads {
            ("reads", "may overwrite it before the VALU reads it")
        } else {
            ("writes", "may land before the VALU's result overwrites it")
        };
        param_rule(
            env,
            wave,
            format!(
                "{name} wait_vdst:{window} lets a recent {valu} that {what} v{vdst} still be outstanding: the load {fix}; lower wait_vdst to the VALU instructions issued since"
            ),
        );
    }
    // Any vector-memory, DS or LDSDIR instruction ends the window (see the module notes).
    wave.recent_valu.clear();
    forced_off
}

/// Executes an LDSDIR instruction; returns the lane accesses.
pub fn execute(inst: &Instruction, wave: &mut Wave, env: &mut DsEnv) -> DsOutcome {
    let name = inst.def().name;
    if env.lds.mode == LdsMode::Wgp {
        event(
            env,
            wave,
            "ldsdir_wgp_mode",
            format!("{name}: parameter and direct loads exist only in CU mode; nothing was loaded"),
        );
        return DsOutcome::default();
    }
    let forced_off = shared_rules(inst, wave, env);
    let lanes = if forced_off {
        0
    } else {
        quad_exec(wave.exec()) & wave.lane_mask()
    };
    let op = DirOp {
        inst,
        name,
        vdst: inst.get(Field::Vdst),
        m0: wave.m0(),
        lanes,
    };
    let (accesses, out_of_range) = if name == "lds_direct_load" {
        direct_load(&op, wave, env)
    } else {
        param_load(&op, wave, env)
    };
    if out_of_range {
        event(
            env,
            wave,
            "lds_out_of_range",
            format!("{name}: read outside the LDS allocation (gave 0)"),
        );
    }
    accesses
}

/// The fields of one LDSDIR load and the lanes it writes.
struct DirOp<'i> {
    inst: &'i Instruction,
    name: &'static str,
    vdst: u32,
    m0: u32,
    /// The lanes of the quads it writes (none when EXEC is forced to zero).
    lanes: u64,
}

/// The bytes and signedness of LDS_DIRECT_LOAD's M0 DataType `dtype`, or `None` for the
/// reserved types 3, 6 and 7 (docs/rules/ds.md#lds-direct-load).
fn direct_type(dtype: u32) -> Option<(u32, bool)> {
    match dtype {
        0 => Some((1, false)),
        1 => Some((2, false)),
        2 => Some((4, false)),
        4 => Some((1, true)),
        5 => Some((2, true)),
        _ => None,
    }
}

/// LDS_DIRECT_LOAD for the quads in `lanes` (docs/rules/ds.md#lds-direct-load): one value at
/// M0\[15:0\] of the type M0\[18:16\] names, broadcast; returns the accesses and whether the read
/// fell outside the allocation.
fn direct_load(op: &DirOp, wave: &mut Wave, env: &mut DsEnv) -> (DsOutcome, bool) {
    let (name, vdst, m0) = (op.name, op.vdst, op.m0);
    let given = m0 & 0xffff;
    if given & 3 != 0 {
        m0_misaligned(env, wave, name, given, ("it", "it is"), Vec::new());
    }
    let addr = env.lds.effective(given, 4);
    let dtype = (m0 >> 16) & 7;
    let (bytes, signed) = direct_type(dtype).unwrap_or_else(|| {
        event(
            env,
            wave,
            "ldsdir_reserved_type",
            format!("{name}: M0 DataType {dtype} is reserved; read as a dword"),
        );
        (4, false)
    });
    let read = env.lds.read(env.alloc, addr, bytes).ok();
    let raw = read.unwrap_or(0);
    let v = if signed {
        sign_extend(raw, bytes)
    } else {
        raw as u32
    };
    let mut accesses = DsOutcome::default();
    for l in (0..wave.size).filter(|l| op.lanes >> l & 1 == 1) {
        accesses.record(l, addr);
        if read.is_some() {
            env.lds.touch(l, addr, bytes, false, raw);
        }
        wave.set_vgpr(vdst, l, v);
    }
    (accesses, read.is_none())
}

/// LDS_PARAM_LOAD for the quads in `lanes` (docs/rules/ds.md#lds-parameter-load): each
/// quad's primitive's P0, P10, P20 of (attr, chan) to its lanes 0, 1, 2 (lane 3 gets 0);
/// returns the accesses and whether a read fell outside the allocation.
fn param_load(op: &DirOp, wave: &mut Wave, env: &mut DsEnv) -> (DsOutcome, bool) {
    let (name, vdst, m0) = (op.name, op.vdst, op.m0);
    let given = m0 & 0xffff;
    if given & 0x7f != 0 {
        param_rule(
            env,
            wave,
            format!(
                "{name}: lds_param_offset M0[15:0] = {given:#x} has bits [6:0] set (they must be zero); the load used {:#x}",
                given & !0x7f
            ),
        );
    }
    let param_offset = given & !0x7f;
    let mask = (m0 >> 16 & 0x7fff) << 1 | 1; // bit q: quad q starts a new primitive
    let quads = wave.size / 4;
    let quad_mask = if quads >= 32 {
        u32::MAX
    } else {
        (1u32 << quads) - 1
    };
    let prims_in_wave = (mask & quad_mask).count_ones();
    let attr = op.inst.get(Field::Attr);
    let chan = op.inst.get(Field::AttrChan);
    let mut accesses = DsOutcome::default();
    let mut out_of_range = false;
    for q in (0..quads).filter(|q| (op.lanes >> (4 * q)) & 0xf != 0) {
        let prim = (mask & ((2u32 << q) - 1)).count_ones() - 1;
        for p in 0..4u32 {
            let lane = 4 * q + p;
            let v = if p < 3 {
                let dword = attr * prims_in_wave * 12 + prim * 12 + p * 4 + chan;
                let addr = param_offset + dword * 4;
                accesses.record(lane, addr);
                match env.lds.read(env.alloc, addr, 4) {
                    Ok(v) => {
                        env.lds.touch(lane, addr, 4, false, v);
                        v as u32
                    }
                    Err(_) => {
                        out_of_range = true;
                        0
                    }
                }
            } else {
                0
            };
            wave.set_vgpr(vdst, lane, v);
        }
    }
    (accesses, out_of_range)
}
