//! Register-indexed moves and swaps: `V_MOVRELD_B32`, `V_MOVRELS_B32`, `V_MOVRELSD_B32`,
//! `V_MOVRELSD_2_B32`, `V_SWAP_B32`, `V_SWAPREL_B32`, per the pseudocode, for the lanes in
//! EXEC.
//!
//! The indexed VGPR is the instruction's register number plus M0 (or M0\[9:0\] for the source
//! and M0\[25:16\] for the destination in the `_2` and `swaprel` forms). An index past v255
//! reads 0 and its write is dropped — our choice: the pseudocode does not bound the index,
//! and the wave has no register there.
//!
//! DPP forms (`v_movrels_b32_dpp`, ...) read the source register of lane `from[l]` of the
//! [`Remap`] (0 for an invalid source lane) and execute for its lanes only.

use rdna3_isa::{Field, Instruction};

use super::dpp::Remap;
use super::op::WholeOp;
use super::regs::{read, Loc};
use crate::wave::Wave;

/// Executes a register-indexed operation; `src0` is the located source 0.
pub(super) fn execute(
    op: WholeOp,
    inst: &Instruction,
    w: &mut Wave,
    src0: Loc,
    dpp: Option<&Remap>,
) {
    let m0 = w.m0();
    let vdst = inst.get(Field::Vdst);
    // SRC0's raw VGPR number (the table makes it a VGPR for the forms that index it).
    let s0 = match src0 {
        Loc::Vgpr { reg, .. } => reg,
        _ => 0,
    };
    let (src_off, dst_off) = match op {
        WholeOp::Movrelsd2 | WholeOp::Swaprel => (m0 & 0x3ff, m0 >> 16 & 0x3ff),
        _ => (m0, m0),
    };
    let exec = dpp.map_or(w.exec(), |m| m.exec);
    // The lane source 0 is read from (None: an invalid DPP source lane, read as 0).
    let from = |l: u32| match dpp {
        None => Some(l),
        Some(m) if m.invalid >> l & 1 == 1 => None,
        Some(m) => Some(m.from[l as usize & 63] as u32),
    };
    let mut lanes = exec;
    while lanes != 0 {
        let l = lanes.trailing_zeros();
        lanes &= lanes - 1;
        match op {
            WholeOp::Movreld => {
                let v = from(l).map_or(0, |s| read(w, src0, s, 1) as u32);
                set(w, vdst, dst_off, l, v);
            }
            WholeOp::Movrels => {
                let v = from(l).map_or(0, |s| get(w, s0, src_off, s));
                w.set_vgpr(vdst, l, v);
            }
            WholeOp::Movrelsd | WholeOp::Movrelsd2 => {
                let v = from(l).map_or(0, |s| get(w, s0, src_off, s));
                set(w, vdst, dst_off, l, v);
            }
            WholeOp::Swap => {
                let (d, s) = (w.vgpr(vdst, l), w.vgpr(s0, l));
                w.set_vgpr(vdst, l, s);
                w.set_vgpr(s0, l, d);
            }
            WholeOp::Swaprel => {
                let (d, s) = (get(w, vdst, dst_off, l), get(w, s0, src_off, l));
                set(w, vdst, dst_off, l, s);
                set(w, s0, src_off, l, d);
            }
            _ => {}
        }
    }
}

/// VGPR `base + off` of `lane` (0 past v255).
fn get(w: &Wave, base: u32, off: u32, lane: u32) -> u32 {
    match base.checked_add(off) {
        Some(r) if r < 256 => w.vgpr(r, lane),
        _ => 0,
    }
}

/// Writes VGPR `base + off` of `lane` (dropped past v255).
fn set(w: &mut Wave, base: u32, off: u32, lane: u32, v: u32) {
    match base.checked_add(off) {
        Some(r) if r < 256 => w.set_vgpr(r, lane, v),
        _ => {}
    }
}
