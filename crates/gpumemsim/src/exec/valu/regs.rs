//! Reading sources and writing results: uniform sources once per instruction, VGPRs row by
//! row, 16-bit operands as register halves (see [`super::class`]).

use rdna3_isa::{Field, Instruction};

use super::class::Class;
use crate::fp::valu::{f32_to_f16, Round};
use crate::wave::Wave;

/// Where a source's value comes from.
#[derive(Clone, Copy, Debug)]
pub(super) enum Loc {
    /// Absent.
    None,
    /// A VGPR (and the following ones for wider sources); `hi`: the high 16 bits of a 16-bit
    /// operand.
    Vgpr { reg: u32, hi: bool },
    /// A value uniform over the wave (SGPR, constant or literal), already narrowed for a
    /// 16-bit operand.
    Uniform(u64),
}

/// A VGPR operand of 16 bits in an e32 encoding: register `v & 127`, the high half when bit
/// 7 is set.
#[inline]
pub(super) fn half_of(v: u32) -> (u32, bool) {
    (v & 0x7f, v & 0x80 != 0)
}

/// Where source `i` of `inst` comes from; uniform values are read here, once. `op_sel` is
/// the instruction's VOP3 half selection (0 elsewhere).
pub(super) fn locate(inst: &Instruction, w: &Wave, c: &Class, i: usize, op_sel: u32) -> Loc {
    match c.fields[i] {
        Some(f) => locate_value(inst.get(f), inst.literal, w, c, i, op_sel),
        None => Loc::None,
    }
}

/// [`locate`] of source `i` whose field holds `v` (`literal`: the instruction's literal).
#[inline]
pub(super) fn locate_value(
    v: u32,
    literal: Option<u32>,
    w: &Wave,
    c: &Class,
    i: usize,
    op_sel: u32,
) -> Loc {
    let Some(f) = c.fields[i] else {
        return Loc::None;
    };
    let half = c.shape.src16 >> i & 1 == 1;
    let vgpr = if f == Field::Vsrc1 {
        Some(v)
    } else {
        v.checked_sub(256)
    };
    if let Some(r) = vgpr {
        return match (half, c.vop3) {
            (true, false) => {
                let (reg, hi) = half_of(r);
                Loc::Vgpr { reg, hi }
            }
            (true, true) => Loc::Vgpr {
                reg: r,
                hi: op_sel >> i & 1 == 1,
            },
            (false, _) => Loc::Vgpr { reg: r, hi: false },
        };
    }
    if c.dwords[i] == 2 {
        return Loc::Uniform(w.ssrc64(v, literal));
    }
    let x = if c.f16_const[i] && (240..=248).contains(&v) {
        // An inline float constant in a 16-bit source is the f16 value.
        f32_to_f16(w.ssrc32(v, None), Round::NearestEven) as u32
    } else if c.bf16_const[i] && (240..=248).contains(&v) {
        w.ssrc32(v, None) >> 16
    } else {
        w.ssrc32(v, literal)
    };
    if half {
        Loc::Uniform((x >> (16 * (op_sel >> i & 1))) as u64 & 0xffff)
    } else {
        Loc::Uniform(x as u64)
    }
}

/// Every lane's value of source `loc` (`out.len()` = the wave's size): `dwords` registers,
/// or one half of one when `half`.
pub(super) fn gather(w: &Wave, loc: Loc, dwords: u8, half: bool, out: &mut [u64]) {
    match loc {
        Loc::None => out.fill(0),
        Loc::Uniform(v) => out.fill(v),
        Loc::Vgpr { reg, hi } => {
            match w.vgpr_row(reg) {
                Some(row) if half => {
                    let sh = if hi { 16 } else { 0 };
                    out.iter_mut()
                        .zip(row)
                        .for_each(|(o, &x)| *o = (x >> sh) as u64 & 0xffff);
                }
                Some(row) => out.iter_mut().zip(row).for_each(|(o, &x)| *o = x as u64),
                None => out.fill(0),
            }
            if dwords == 2 && !half {
                if let Some(row) = w.vgpr_row(reg + 1) {
                    out.iter_mut()
                        .zip(row)
                        .for_each(|(o, &x)| *o |= (x as u64) << 32);
                }
            }
        }
    }
}

/// Writes bits `shift..shift + 32` of `values` to VGPR `reg` in the lanes of `mask`.
pub(super) fn scatter(w: &mut Wave, reg: u32, mask: u64, values: &[u64], shift: u32) {
    let Some(row) = w.vgpr_row_mut(reg) else {
        return;
    };
    if mask == u64::MAX >> (64 - row.len()) {
        row.iter_mut()
            .zip(values)
            .for_each(|(x, &v)| *x = (v >> shift) as u32);
    } else {
        for (l, (x, &v)) in row.iter_mut().zip(values).enumerate() {
            if mask >> l & 1 == 1 {
                *x = (v >> shift) as u32;
            }
        }
    }
}

/// Writes the low 16 bits of `values` into the low (or, `hi`, the high) half of VGPR `reg`
/// in the lanes of `mask`, keeping the other half.
pub(super) fn scatter16(w: &mut Wave, reg: u32, hi: bool, mask: u64, values: &[u64]) {
    let Some(row) = w.vgpr_row_mut(reg) else {
        return;
    };
    let sh = if hi { 16 } else { 0 };
    let keep = !(0xffffu32 << sh);
    for (l, (x, &v)) in row.iter_mut().zip(values).enumerate() {
        if mask >> l & 1 == 1 {
            *x = (*x & keep) | ((v as u32 & 0xffff) << sh);
        }
    }
}

/// One lane's value of a source.
#[inline]
pub(super) fn read(w: &Wave, loc: Loc, lane: u32, dwords: u8) -> u64 {
    match loc {
        Loc::None => 0,
        Loc::Uniform(v) => v,
        Loc::Vgpr { reg, .. } => {
            let lo = w.vgpr(reg, lane) as u64;
            if dwords == 2 {
                lo | (w.vgpr(reg + 1, lane) as u64) << 32
            } else {
                lo
            }
        }
    }
}

/// Writes a lane mask to an SGPR (pair in wave64).
pub(super) fn set_mask(w: &mut Wave, sgpr: u32, mask: u64) {
    if w.size == 32 {
        w.set_sreg(sgpr, mask as u32);
    } else {
        w.set_sreg64(sgpr, mask);
    }
}

/// Reads a lane mask from a source code (an SGPR, or VCC).
pub(super) fn get_mask(w: &Wave, code: u32) -> u64 {
    if w.size == 32 {
        w.ssrc32(code, None) as u64
    } else {
        w.ssrc64(code, None)
    }
}
