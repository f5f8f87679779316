//! GFX9's SDWA forms (gfx942): a VOP1, VOP2 or VOPC instruction whose sources are a byte, a
//! word or the dword of a register (sign- or zero-extended) and whose result goes to a byte,
//! a word or the dword of the destination, the other bits zeroed, sign-extended or kept.
//!
//! The operation itself is the gfx1100 instruction the SDWA form is lowered to
//! (`crate::target::gfx9`), run on the selected sources; the SDWA dword comes from the
//! original instruction. Per AMD's Vega and CDNA3 ISA guides ("SDWA"):
//! - `src0_sel`/`src1_sel` (0-3 BYTE_n, 4-5 WORD_n, 6 DWORD) take those bits to the low end;
//!   `sext` sign-extends them, else they are zero-extended; `neg`/`abs` then apply to the
//!   float value;
//! - `clamp` and `omod` apply to the result;
//! - `dst_sel` places the result's low byte, word or dword; `dst_unused` fills the other bits:
//!   0 zeros (UNUSED_PAD), 1 the selected field's sign above it and zeros below it
//!   (UNUSED_SEXT), 2 the destination's old bits (UNUSED_PRESERVE).
//!
//!
//! A 16-bit operation (`v_add_f16_sdwa`, `v_cvt_f32_f16_sdwa`) reads the low half of each
//! selected source and its 16-bit result is the low half of a 32-bit one whose upper half is
//! zero (GFX9 zeroes the high bits of 16-bit results), which `dst_sel` then places like any
//! other: `dst_sel:WORD_1` writes it to the high half. (The guides do not single out 16-bit
//! operations under SDWA; this reading follows their one rule for every result.)

use rdna3_isa::{Format, Instruction};

use super::class::class;
use super::regs::{get_mask, locate};
use super::shape::{Ctx, MaskIn, ValuError};
use super::{eval_lanes, gather_sources, output_modifiers, write_results};
use crate::wave::Wave;

/// One field of the SDWA dword.
fn bits(s: u32, lo: u32, width: u32) -> u32 {
    s >> lo & ((1 << width) - 1)
}

/// Source select `sel` of `x`, sign-extended with `sext`.
fn select(x: u32, sel: u32, sext: bool) -> u32 {
    let (shift, width) = match sel {
        0..=3 => (8 * sel, 8),
        4 | 5 => (16 * (sel - 4), 16),
        _ => return x,
    };
    let v = (x >> shift) & ((1 << width) - 1);
    if sext {
        ((v << (32 - width)) as i32 >> (32 - width)) as u32
    } else {
        v
    }
}

/// The destination's new bits: `r`'s low field at `sel`, the rest per `unused`.
fn place(old: u32, r: u32, sel: u32, unused: u32) -> u32 {
    let (shift, width) = match sel {
        0..=3 => (8 * sel, 8),
        4 | 5 => (16 * (sel - 4), 16),
        _ => return r,
    };
    let field = (1u32 << width) - 1;
    let v = (r & field) << shift;
    match unused {
        // UNUSED_SEXT: the field's sign fills the bits above it.
        1 if r >> (width - 1) & 1 == 1 => v | !((field << shift) | ((1 << shift) - 1)),
        1 => v,
        2 => (old & !(field << shift)) | v,
        _ => v,
    }
}

/// Executes `inst`, the lowering of SDWA instruction `sdwa`, for the lanes in EXEC.
pub fn execute_sdwa(inst: &Instruction, sdwa: &Instruction, w: &mut Wave) -> Result<(), ValuError> {
    let c = class(inst.opcode).ok_or(ValuError::Unimplemented)?;
    let s = sdwa.dpp_dword();
    let format = sdwa.def().format;
    let shape = c.shape;
    if shape.rounds && w.mode & 0xf != 0 {
        return Err(ValuError::Unimplemented);
    }
    // Whole registers in, whole registers out: the selects pick the halves.
    let (src16, dst16) = (shape.src16, shape.dst16);
    let whole = super::class::Class {
        shape: super::shape::Shape {
            src16: 0,
            dst16: false,
            ..shape
        },
        ..*c
    };
    let c = &whole;
    let locs = [
        locate(inst, w, c, 0, 0),
        locate(inst, w, c, 1, 0),
        locate(inst, w, c, 2, 0),
    ];
    let mut src = [[0u64; 64]; 3];
    gather_sources(w, c, &locs, None, (0, 0), &mut src);
    let n = w.size as usize;
    let sources = if format == Format::Vop1 { 1 } else { 2 };
    for (i, row) in src.iter_mut().enumerate().take(sources) {
        let base = if i == 0 { 16 } else { 24 };
        let (sel, sext) = (bits(s, base, 3), bits(s, base + 3, 1) == 1);
        let (neg, abs) = (bits(s, base + 4, 1) == 1, bits(s, base + 5, 1) == 1);
        let sign = c.sign[i] as u32;
        if (neg || abs) && sign == 0 {
            return Err(ValuError::Unimplemented);
        }
        let low16 = src16 >> i & 1 == 1;
        for x in row[..n].iter_mut() {
            let mut v = select(*x as u32, sel, sext);
            if low16 {
                v &= 0xffff;
            }
            if abs {
                v &= !sign;
            }
            if neg {
                v ^= sign;
            }
            *x = v as u64;
        }
    }
    let exec = w.exec();
    let cx = Ctx::new(w.mode, 0, false);
    let mask_in = match shape.mask {
        MaskIn::None => 0,
        MaskIn::VccOrSrc2 if c.vop3 => get_mask(w, inst.get(rdna3_isa::Field::Src2)),
        MaskIn::VccOrSrc2 | MaskIn::Vcc => w.vcc(),
    };
    let mut out = [0u64; 64];
    let mask_out = eval_lanes(c.op, exec, &src, mask_in, &cx, &mut out);
    let vdst = inst.get(rdna3_isa::Field::Vdst);
    if format != Format::Vopc {
        let (clamp, omod) = (bits(s, 13, 1) == 1, bits(s, 14, 2));
        if omod != 0 || clamp {
            let dx10 = w.mode >> 8 & 1 == 1;
            let cx = Ctx::new(w.mode, 0, clamp);
            output_modifiers(&mut out, exec, shape.res, omod, clamp, dx10, &cx);
        }
        let (sel, unused) = (bits(s, 8, 3), bits(s, 11, 2));
        if c.dst_dwords == 1 {
            let width = if dst16 { 0xffff } else { u32::MAX };
            for (l, x) in out[..n].iter_mut().enumerate() {
                *x = place(w.vgpr(vdst, l as u32), *x as u32 & width, sel, unused) as u64;
            }
        }
    }
    write_results(w, inst, c, exec, (vdst, false), &out, mask_out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_and_places_as_the_guides_say() {
        assert_eq!(select(0x8081_8283, 0, false), 0x83);
        assert_eq!(select(0x8081_8283, 1, true), 0xffff_ff82);
        assert_eq!(select(0x8081_8283, 5, false), 0x8081);
        assert_eq!(select(0x8081_8283, 6, true), 0x8081_8283);
        // WORD_1 of 0x1234_8765, the other bits zeroed, sign-extended or kept.
        assert_eq!(place(0xaaaa_bbbb, 0x8765, 5, 0), 0x8765_0000);
        assert_eq!(place(0xaaaa_bbbb, 0x8765, 5, 2), 0x8765_bbbb);
        assert_eq!(place(0xaaaa_bbbb, 0x0085, 1, 1), 0xffff_8500);
        assert_eq!(place(0xaaaa_bbbb, 0x0075, 1, 1), 0x0000_7500);
    }
}
