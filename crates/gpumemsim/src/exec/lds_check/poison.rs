//! Uninitialised LDS values followed from where they are read to where they are used, as
//! MemorySanitizer follows uninitialised memory: a load of LDS bytes nothing wrote does not
//! report; the VGPR dwords it fills are marked (per lane), moves carry the mark, a DS store
//! of a marked dword marks the LDS bytes it writes as not written again, and an instruction
//! that computes with a marked dword — arithmetic, a compare, an address, a lane read into
//! an SGPR — reports `uninitialized_lds_read` there, naming the load. So copying a struct's
//! padding, or the untouched component of a `float4` that the compiler reads and writes back
//! whole, is clean.
//!
//! Choices (pinned by tests in tests/check_lds.rs):
//! - a marked dword stored to global memory is a copy, not a use (MemorySanitizer's rule for
//!   stores); what the host later does with the bytes is outside the launch;
//! - an atomic whose LDS bytes nothing wrote computes with them: reported at the atomic;
//! - the marks are per dword: a load of bytes of which some were never written marks the
//!   whole destination dword that receives them;
//! - a VOPD pair, DPP and SDWA count as computing (a `v_dual_mov` half carrying a mark is
//!   rare enough to report);
//! - writing a dword clears its mark in every lane, active or not.

use std::collections::HashMap;

use rdna3_isa::{Field, Format, Instruction};

use crate::ds::{ds_kind, DsKind};
use crate::vmem::{global_op_of, GlobalOp};

/// A marked dword: the lanes holding an uninitialised value, the load that read it and the
/// first LDS byte it came from.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark {
    pub(super) lanes: u64,
    pub(super) load_pc: u32,
    pub(super) address: u32,
}

/// The marks of every wave (by its slot) that holds one.
#[derive(Default)]
pub(super) struct Poison {
    waves: HashMap<usize, HashMap<u32, Mark>>,
}

/// What one instruction does with the marks of its wave.
#[derive(Default)]
pub(super) struct Effect {
    /// Uses: (register, its mark restricted to the active lanes).
    pub(super) used: Vec<(u32, Mark)>,
    /// A DS store's marked data: per lane, the data dwords (bit k: the lane's k-th data
    /// dword) whose bytes become unwritten.
    pub(super) stored: Vec<(u8, u32)>,
}

/// Moves (any encoding): the destination dwords take the sources' marks.
fn is_move(name: &str) -> bool {
    let base = name
        .strip_suffix("_e32")
        .or_else(|| name.strip_suffix("_e64"))
        .unwrap_or(name);
    matches!(base, "v_mov_b32" | "v_mov_b64" | "v_mov_b16")
}

impl Poison {
    /// Whether no wave holds a mark.
    pub(super) fn is_empty(&self) -> bool {
        self.waves.is_empty()
    }

    /// Forgets wave `wi`'s marks (it ended).
    pub(super) fn forget(&mut self, wi: usize) {
        self.waves.remove(&wi);
    }

    /// Marks VGPR `reg` of wave `wi` in `lanes`, read by the load at `pc` from byte
    /// `address`.
    pub(super) fn mark(&mut self, wi: usize, reg: u32, lanes: u64, pc: usize, address: u32) {
        let regs = self.waves.entry(wi).or_default();
        let m = regs.entry(reg).or_insert(Mark {
            lanes: 0,
            load_pc: pc as u32,
            address,
        });
        m.lanes |= lanes;
    }

    /// Before wave `wi` (active lanes `exec`) executes `inst`: what it does with the marks,
    /// and the marks as they are after it (its destinations cleared, a move's carried).
    pub(super) fn before(&mut self, wi: usize, inst: &Instruction, exec: u64) -> Effect {
        let mut effect = Effect::default();
        let Some(regs) = self.waves.get_mut(&wi) else {
            return effect;
        };
        let d = inst.def();
        let ops = inst.vgpr_operands();
        let ds_store = d.format == Format::Ds
            && matches!(
                ds_kind(inst.opcode),
                Some(DsKind::Store { .. } | DsKind::Store2 { .. })
            );
        let global_store = matches!(
            global_op_of(inst.opcode),
            Some(GlobalOp::Store { .. } | GlobalOp::Format { store: true, .. })
        );
        let store_data = |f: Field| ds_store && matches!(f, Field::Data0 | Field::Data1);
        let global_data = |f: Field| global_store && matches!(f, Field::Data0 | Field::Vdata);
        let moving = is_move(d.name) && inst.dpp_kind().is_none();
        let mut carried: Vec<(u32, Mark)> = Vec::new();
        let mut data_dword = 0u32;
        for o in ops.iter().filter(|o| !o.is_vdst()) {
            for k in 0..o.count {
                let reg = o.first + k;
                let Some(m) = regs.get(&reg).copied() else {
                    if store_data(o.field) {
                        data_dword += 1;
                    }
                    continue;
                };
                let lanes = m.lanes & exec;
                if store_data(o.field) {
                    for l in 0..64u8 {
                        if lanes >> l & 1 == 1 {
                            effect.stored.push((l, 1 << data_dword));
                        }
                    }
                    data_dword += 1;
                } else if global_data(o.field) {
                    // A copy out of the launch's reach: not a use.
                } else if moving {
                    carried.push((k, Mark { lanes, ..m }));
                } else if lanes != 0 {
                    effect.used.push((reg, Mark { lanes, ..m }));
                    regs.remove(&reg);
                }
            }
        }
        for o in ops.iter().filter(|o| o.is_vdst()) {
            for k in 0..o.count {
                regs.remove(&(o.first + k));
            }
            if moving {
                for (k, m) in &carried {
                    if *k < o.count && m.lanes != 0 {
                        regs.insert(o.first + k, *m);
                    }
                }
            }
        }
        if regs.is_empty() {
            self.waves.remove(&wi);
        }
        effect
    }
}
