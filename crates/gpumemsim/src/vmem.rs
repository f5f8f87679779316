//! Vector memory through the GLOBAL segment: `global_load_*` and `global_store_*` over a wave
//! under EXEC (AMD's RDNA3 pseudocode, GLOBAL 16-41). Atomics and the FLAT, SCRATCH and
//! buffer forms are not implemented yet: [`global_op`] returns `None` for them and the
//! executor stops with their name.
//!
//! Addressing (003_8127e07f2b7609f5.txt §flat/global): with SADDR, the lane address is the
//! SGPR pair plus the lane's 32-bit VGPR offset (zero-extended); with SADDR = `off`, the
//! lane's VGPR pair holds a 64-bit address. The 13-bit immediate offset is signed on gfx11.
//! The `addtid` forms use SADDR + offset + lane id × 4 and no VGPR.
//!
//! Loads write their VGPRs when they issue; the executor models only when they complete
//! (VMcnt), as it does for LDS loads. Stores write global memory directly: the scalar cache
//! does not see them (see [`crate::smem::ScalarCache`]).

use std::sync::OnceLock;

use rdna3_isa::def::{InstrDef, Opcode};
use rdna3_isa::inst::SGPR_NULL;
use rdna3_isa::{Field, Format, Instruction};

use crate::addr::GlobalMemory;
use crate::wave::Wave;

/// What a GLOBAL instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalOp {
    /// A load of `bytes` (1, 2, 4, 8, 12, 16).
    Load {
        /// Bytes per lane.
        bytes: u32,
        /// Sign-extend a 1- or 2-byte value.
        signed: bool,
        /// Into one half of the VGPR (`d16`): `Some(false)` the low half, `Some(true)` the
        /// high half; the other half is kept.
        d16: Option<bool>,
    },
    /// A store of `bytes`; `hi` stores the high 16 bits' low bytes (`d16_hi`).
    Store {
        /// Bytes per lane.
        bytes: u32,
        /// Take the data from bits [31:16].
        hi: bool,
    },
}

/// Classifies a GLOBAL table entry by its mnemonic; `None` for one not implemented.
pub fn global_op(d: &InstrDef) -> Option<GlobalOp> {
    let n = d.name.strip_prefix("global_")?;
    if let Some(rest) = n.strip_prefix("store_") {
        let hi = rest.starts_with("d16_hi_");
        let bytes = match rest
            .trim_start_matches("d16_hi_")
            .trim_start_matches("addtid_")
        {
            "b8" => 1,
            "b16" => 2,
            "b32" => 4,
            "b64" => 8,
            "b96" => 12,
            "b128" => 16,
            _ => return None,
        };
        return Some(GlobalOp::Store { bytes, hi });
    }
    let rest = n.strip_prefix("load_")?;
    let (d16, ty) = if let Some(t) = rest.strip_prefix("d16_hi_") {
        (Some(true), t)
    } else if let Some(t) = rest.strip_prefix("d16_") {
        (Some(false), t)
    } else {
        (None, rest.trim_start_matches("addtid_"))
    };
    let (bytes, signed) = match ty {
        "u8" => (1, false),
        "i8" => (1, true),
        "u16" | "b16" => (2, false),
        "i16" => (2, true),
        "b32" => (4, false),
        "b64" => (8, false),
        "b96" => (12, false),
        "b128" => (16, false),
        _ => return None,
    };
    Some(GlobalOp::Load { bytes, signed, d16 })
}

/// [`global_op`] of a table entry, classified once per process.
pub fn global_op_of(op: Opcode) -> Option<GlobalOp> {
    static CACHE: OnceLock<Vec<Option<GlobalOp>>> = OnceLock::new();
    CACHE.get_or_init(|| {
        rdna3_isa::table::INSTRUCTIONS
            .iter()
            .map(|d| {
                if d.format == Format::Global {
                    global_op(d)
                } else {
                    None
                }
            })
            .collect()
    })[op.0 as usize]
}

/// The byte address lane `lane` of `wave` accesses.
pub fn global_address(inst: &Instruction, wave: &Wave, lane: u32) -> u64 {
    let offset = ((inst.get(Field::Offset) << 19) as i32 >> 19) as i64 as u64;
    let saddr = inst.get(Field::Saddr);
    let addtid = inst.def().name.contains("addtid");
    let base = if addtid {
        let b = if saddr == SGPR_NULL {
            0
        } else {
            wave.sreg64(saddr)
        };
        b.wrapping_add(4 * lane as u64)
    } else if saddr == SGPR_NULL {
        let v = inst.get(Field::Addr);
        wave.vgpr(v, lane) as u64 | (wave.vgpr(v + 1, lane) as u64) << 32
    } else {
        wave.sreg64(saddr)
            .wrapping_add(wave.vgpr(inst.get(Field::Addr), lane) as u64)
    };
    base.wrapping_add(offset)
}

/// Executes a GLOBAL load or store of `op` for every lane in EXEC; returns the number of
/// lanes that accessed memory.
pub fn execute(inst: &Instruction, op: GlobalOp, wave: &mut Wave, mem: &mut GlobalMemory) -> u32 {
    let exec = wave.exec();
    let mut lanes = 0;
    for lane in 0..wave.size {
        if exec >> lane & 1 == 0 {
            continue;
        }
        lanes += 1;
        let a = global_address(inst, wave, lane);
        match op {
            GlobalOp::Load { bytes, signed, d16 } => {
                let vdst = inst.get(Field::Vdst);
                if bytes >= 4 {
                    for i in 0..bytes / 4 {
                        let v = mem.read_u32(a.wrapping_add(4 * i as u64));
                        wave.set_vgpr(vdst + i, lane, v);
                    }
                    continue;
                }
                let raw = if bytes == 1 {
                    mem.read_u8(a) as u32
                } else {
                    u16::from_le_bytes(mem.read_bytes::<2>(a)) as u32
                };
                let bits = 8 * bytes;
                let v = if signed {
                    ((raw << (32 - bits)) as i32 >> (32 - bits)) as u32
                } else {
                    raw
                };
                let old = wave.vgpr(vdst, lane);
                let new = match d16 {
                    None => v,
                    Some(false) => old & 0xffff_0000 | v & 0xffff,
                    Some(true) => old & 0xffff | v << 16,
                };
                wave.set_vgpr(vdst, lane, new);
            }
            GlobalOp::Store { bytes, hi } => {
                let data = inst.get(Field::Data0);
                if bytes >= 4 {
                    for i in 0..bytes / 4 {
                        mem.write_u32(a.wrapping_add(4 * i as u64), wave.vgpr(data + i, lane));
                    }
                    continue;
                }
                let v = wave.vgpr(data, lane) >> if hi { 16 } else { 0 };
                mem.write_bytes(a, &v.to_le_bytes()[..bytes as usize]);
            }
        }
    }
    lanes
}
