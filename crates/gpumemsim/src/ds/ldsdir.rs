//! LDS_PARAM_LOAD and LDS_DIRECT_LOAD (the LDSDIR encoding).
//!
//! 000_b892342bad162b52.txt §LDS 参数加载 / §LDS 直接加载, with the M0 layouts and the parameter
//! address from AMD's RDNA3.5 ISA guide §12.2.1 "LDS Parameter Loads" (the same LDSDIR
//! encoding as gfx1100):
//! - LDS_DIRECT_LOAD: M0 = {13'b0, DataType[2:0], LDS_address[15:0]}; one value (DataType 0
//!   u8, 1 u16, 2 dword, 4 i8, 5 i16; bytes zero- or sign-extended) broadcast to the wave.
//! - LDS_PARAM_LOAD: M0 = {1'b0, new_prim_mask[15:1], lds_param_offset[15:0]}; quad q's
//!   primitive is the number of set mask bits in quads 0..=q (bit 0 implied) minus one; its
//!   P0, P10, P20 for (attr, chan) are the dwords at
//!   param_offset + (attr × prims_in_wave × 12 + prim × 12 + p × 4 + chan) × 4 bytes, written
//!   to lanes 0, 1, 2 of the quad; lane 3 gets 0.
//! - Both use EXEC per quad (a quad with any enabled lane is written whole), complete through
//!   EXPcnt, exist only for LDS and only in CU mode.
//!
//! Choices: DataType 3, 6 and 7 are reserved; we read them as a dword and report an event.
//! In WGP mode the instruction writes nothing and reports an event.

use rdna3_isa::{Field, Instruction};

use super::{DsEnv, DsOutcome};
use crate::event::Event;
use crate::lds::LdsMode;
use crate::wave::Wave;

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

/// Executes an LDSDIR instruction; returns the lane accesses.
pub fn execute(inst: &Instruction, wave: &mut Wave, env: &mut DsEnv) -> DsOutcome {
    let d = inst.def();
    if env.lds.mode == LdsMode::Wgp {
        event(
            env,
            wave,
            "ldsdir_wgp_mode",
            format!(
                "{}: parameter and direct loads exist only in CU mode; nothing was loaded",
                d.name
            ),
        );
        return DsOutcome::default();
    }
    let vdst = inst.get(Field::Vdst);
    let lanes = quad_exec(wave.exec()) & wave.lane_mask();
    let m0 = wave.m0();
    let mut accesses = DsOutcome::default();
    let mut out_of_range = false;
    if d.name == "lds_direct_load" {
        let addr = m0 & 0xffff;
        let dtype = (m0 >> 16) & 7;
        let (bytes, signed) = match dtype {
            0 => (1, false),
            1 => (2, false),
            4 => (1, true),
            5 => (2, true),
            2 => (4, false),
            _ => {
                event(
                    env,
                    wave,
                    "ldsdir_reserved_type",
                    format!(
                        "{}: M0 DataType {dtype} is reserved; read as a dword",
                        d.name
                    ),
                );
                (4, false)
            }
        };
        let raw = match env.lds.read(env.alloc, addr, bytes) {
            Ok(v) => v,
            Err(_) => {
                out_of_range = true;
                0
            }
        };
        let v = match (bytes, signed) {
            (1, true) => raw as u8 as i8 as i32 as u32,
            (2, true) => raw as u16 as i16 as i32 as u32,
            _ => raw as u32,
        };
        for l in (0..wave.size).filter(|l| lanes >> l & 1 == 1) {
            accesses.record(l, addr);
            wave.set_vgpr(vdst, l, v);
        }
    } else {
        let param_offset = m0 & 0xffff;
        let mask = (m0 >> 16 & 0x7fff) << 1 | 1; // bit q: quad q starts a new primitive
        let quads = wave.size / 4;
        let quad_mask = if quads >= 32 {
            u32::MAX
        } else {
            (1u32 << quads) - 1
        };
        let prims_in_wave = (mask & quad_mask).count_ones();
        let attr = inst.get(Field::Attr);
        let chan = inst.get(Field::AttrChan);
        for q in 0..quads {
            if (lanes >> (4 * q)) & 0xf == 0 {
                continue;
            }
            let prim = (mask & ((2u32 << q) - 1)).count_ones() - 1;
            for p in 0..4u32 {
                let lane = 4 * q + p;
                let v = if p < 3 {
                    let dword = attr * prims_in_wave * 12 + prim * 12 + p * 4 + chan;
                    let addr = param_offset + dword * 4;
                    accesses.record(lane, addr);
                    match env.lds.read(env.alloc, addr, 4) {
                        Ok(v) => v as u32,
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
    }
    if out_of_range {
        event(
            env,
            wave,
            "lds_out_of_range",
            format!("{}: read outside the LDS allocation (gave 0)", d.name),
        );
    }
    accesses
}
