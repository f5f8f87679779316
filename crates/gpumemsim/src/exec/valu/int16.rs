//! 16-bit integer and bit operations, per the pseudocode: each 16-bit source is one half of
//! its register (see [`super::class`] for how the half is chosen) and a 16-bit result is
//! written into one half of the destination.
//!
//! `clamp` saturates to the 16-bit (or, for the 32-bit results, 32-bit) range, as the ISA
//! notes' "Supports saturation (unsigned 16-bit integer domain)" says of the add, sub, mul
//! and mad forms.

use super::int::Pick3;
use super::shape::{Ctx, MaskIn, Shape};

/// A 16-bit integer operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum I16Op {
    Mov,
    Not,
    And,
    Or,
    Xor,
    Lshl,
    Lshr,
    Ashr,
    MaxU,
    MaxI,
    MinU,
    MinI,
    MulLo,
    AddNcU,
    SubNcU,
    AddNcI,
    SubNcI,
    MadU,
    MadI,
    /// Min, max or median of three, unsigned.
    Pick3U(Pick3),
    /// The same, signed.
    Pick3I(Pick3),
    Cndmask,
    /// `V_SAT_PK_U8_I16`: a 32-bit source, a 16-bit result.
    SatPkU8I16,
    /// `V_CVT_I32_I16`: a 16-bit source, a 32-bit result.
    CvtI32I16,
    /// `V_CVT_U32_U16`.
    CvtU32U16,
    /// `V_MAD_U32_U16`: 16-bit factors, a 32-bit addend and result.
    MadU32U16,
    /// `V_MAD_I32_I16`.
    MadI32I16,
    /// `V_PACK_B32_F16`: two 16-bit sources packed into 32 bits.
    PackB32F16,
}

impl I16Op {
    pub fn shape(self) -> Shape {
        use I16Op::*;
        match self {
            Cndmask => Shape::I16.halves(0b011, true).mask(MaskIn::VccOrSrc2),
            SatPkU8I16 => Shape::I16.halves(0, true),
            CvtI32I16 | CvtU32U16 => Shape::I16.halves(0b001, false),
            MadU32U16 | MadI32I16 | PackB32F16 => Shape::I16.halves(0b011, false),
            _ => Shape::I16,
        }
    }

    /// One lane: the 16-bit result (or 32-bit for the widening forms).
    #[inline]
    pub fn eval(self, s: [u64; 3], mask_in: bool, cx: &Ctx) -> u64 {
        use I16Op::*;
        let (a, b, c) = (s[0] as u16, s[1] as u16, s[2] as u16);
        let (ai, bi, ci) = (a as i16, b as i16, c as i16);
        let sat = cx.clamp;
        let u16s = |x: u32| if sat { x.min(0xffff) as u16 } else { x as u16 };
        let i16s = |x: i32| {
            if sat {
                x.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16
            } else {
                x as i16 as u16
            }
        };
        let r: u16 = match self {
            Mov => a,
            Not => !a,
            And => a & b,
            Or => a | b,
            Xor => a ^ b,
            Lshl => b << (a & 15),
            Lshr => b >> (a & 15),
            Ashr => (bi >> (a & 15)) as u16,
            MaxU => a.max(b),
            MaxI => ai.max(bi) as u16,
            MinU => a.min(b),
            MinI => ai.min(bi) as u16,
            MulLo => u16s(a as u32 * b as u32),
            AddNcU => u16s(a as u32 + b as u32),
            SubNcU => {
                if sat {
                    a.saturating_sub(b)
                } else {
                    a.wrapping_sub(b)
                }
            }
            AddNcI => i16s(ai as i32 + bi as i32),
            SubNcI => i16s(ai as i32 - bi as i32),
            MadU => u16s(a as u32 * b as u32 + c as u32),
            MadI => i16s(ai as i32 * bi as i32 + ci as i32),
            Pick3U(p) => p.of(a, b, c),
            Pick3I(p) => p.of(ai, bi, ci) as u16,
            Cndmask => {
                if mask_in {
                    b
                } else {
                    a
                }
            }
            SatPkU8I16 => {
                let x = s[0] as u32;
                let sat8 = |n: i16| n.clamp(0, 255) as u16;
                sat8(x as u16 as i16) | sat8((x >> 16) as u16 as i16) << 8
            }
            CvtI32I16 => return ai as i32 as u32 as u64,
            CvtU32U16 => return a as u64,
            MadU32U16 => {
                let t = a as u64 * b as u64 + s[2] as u32 as u64;
                return if sat {
                    t.min(u32::MAX as u64)
                } else {
                    t as u32 as u64
                };
            }
            MadI32I16 => {
                let t = ai as i64 * bi as i64 + s[2] as u32 as i32 as i64;
                return if sat {
                    t.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32 as u64
                } else {
                    t as u32 as u64
                };
            }
            PackB32F16 => return (a as u32 | (b as u32) << 16) as u64,
        };
        r as u64
    }
}
