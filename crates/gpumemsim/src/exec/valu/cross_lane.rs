//! The operations that read or write other lanes: `V_READFIRSTLANE_B32`, `V_READLANE_B32`,
//! `V_WRITELANE_B32`, `V_PERMLANE64_B32`, `V_PERMLANE16_B32`, `V_PERMLANEX16_B32`, per the
//! pseudocode.

use rdna3_isa::{Field, Instruction};

use super::op::WholeOp;
use super::regs::{read, Loc};
use crate::wave::Wave;

/// Executes a cross-lane operation; `locs` are its located sources.
pub(super) fn execute(op: WholeOp, inst: &Instruction, w: &mut Wave, locs: [Loc; 3]) {
    let exec = w.exec();
    let vdst = inst.get(Field::Vdst);
    match op {
        WholeOp::Readfirstlane => {
            let l = if exec == 0 { 0 } else { exec.trailing_zeros() };
            let v = read(w, locs[0], l, 1) as u32;
            w.set_sreg(vdst, v);
        }
        WholeOp::Readlane => {
            let l = read(w, locs[1], 0, 1) as u32 & (w.size - 1);
            let v = read(w, locs[0], l, 1) as u32;
            w.set_sreg(vdst, v);
        }
        WholeOp::Writelane => {
            // Writes one lane whatever EXEC says.
            let l = read(w, locs[1], 0, 1) as u32 & (w.size - 1);
            let v = read(w, locs[0], 0, 1) as u32;
            w.set_vgpr(vdst, l, v);
        }
        // "Supported in wave64 ONLY; treated as scalar NOP in wave32."
        WholeOp::Permlane64 if w.size == 64 => {
            permute(w, locs[0], vdst, exec, |lane| lane ^ 32);
        }
        WholeOp::Permlane16 | WholeOp::Permlanex16 => {
            // lanesel = { S2, S1 }: four bits per lane of a row. op_sel's FI and BOUND_CTRL
            // bits are not modelled: the pseudocode reads every lane whatever EXEC says.
            let sel = read(w, locs[1], 0, 1) | read(w, locs[2], 0, 1) << 32;
            let cross = op == WholeOp::Permlanex16;
            permute(w, locs[0], vdst, exec, |lane| {
                let row = (lane / 16) ^ cross as u32;
                row * 16 + (sel >> (4 * (lane % 16)) & 15) as u32
            });
        }
        _ => {}
    }
}

/// `VGPR[lane][vdst] = VGPR[from(lane)][src]` for the lanes in `exec`, every source read
/// before any write.
fn permute(w: &mut Wave, src: Loc, vdst: u32, exec: u64, from: impl Fn(u32) -> u32) {
    let n = w.size;
    let tmp: Vec<u32> = (0..n).map(|l| read(w, src, l, 1) as u32).collect();
    for lane in 0..n {
        if exec >> lane & 1 == 1 {
            let v = tmp.get(from(lane) as usize).copied().unwrap_or(0);
            w.set_vgpr(vdst, lane, v);
        }
    }
}
