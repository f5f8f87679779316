//! 32- and 64-bit integer and bit operations, per the pseudocode.
//!
//! VOP3 `clamp` on an integer operation saturates its exact result to the destination type's
//! range. The ISA notes say "Supports saturation (unsigned 32-bit integer domain)" for the
//! add/sub forms; we read `clamp` the same way on every integer operation llvm-mc-19 accepts
//! it on (the 24-bit multiplies and multiply-adds, `v_mad_u64_u32`/`v_mad_i64_i32`).

use super::op::{Ctx, MaskIn, Shape};

/// A 32/64-bit integer operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum IntOp {
    Mov,
    Not,
    Bfrev,
    Clz,
    Ctz,
    Cls,
    AddNc,
    SubNc,
    SubrevNc,
    AddNcI32,
    SubNcI32,
    Lshl,
    Lshr,
    Ashr,
    And,
    Or,
    Xor,
    Xnor,
    MinI,
    MaxI,
    MinU,
    MaxU,
    MulU24,
    MulHiU24,
    MulI24,
    MulHiI24,
    Cndmask,
    AddCi,
    SubCi,
    SubrevCi,
    AddCo,
    SubCo,
    SubrevCo,
    MadU64,
    MadI64,
    MulLo,
    MulHiU,
    MulHiI,
    MadU24,
    MadI24,
    Add3,
    LshlAdd,
    AddLshl,
    LshlOr,
    AndOr,
    Or3,
    Xor3,
    Xad,
    BfeU,
    BfeI,
    Bfi,
    Bfm,
    Alignbit,
    Alignbyte,
    Perm,
    Min3U,
    Max3U,
    Med3U,
    Min3I,
    Max3I,
    Med3I,
    MaxminU,
    MinmaxU,
    MaxminI,
    MinmaxI,
    Bcnt,
    MbcntLo,
    MbcntHi,
    CvtPkU16U32,
    CvtPkI16I32,
    Lshl64,
    Lshr64,
    Ashr64,
}

impl IntOp {
    pub fn shape(self) -> Shape {
        use IntOp::*;
        match self {
            Cndmask | AddCi | SubCi | SubrevCi => Shape::INT.mask(MaskIn::VccOrSrc2),
            _ => Shape::INT,
        }
    }

    /// One lane: the result and the carry-out.
    #[inline]
    pub fn eval(self, s: [u64; 3], mask_in: bool, lane: u32, cx: &Ctx) -> (u64, bool) {
        use IntOp::*;
        let (a, b, c) = (s[0] as u32, s[1] as u32, s[2] as u32);
        let (ai, bi, ci) = (a as i32, b as i32, c as i32);
        let sat = cx.clamp;
        let cin = mask_in as u64;
        let u32s = |x: u64| x.min(u32::MAX as u64);
        let i32s = |x: i64| x.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32 as u64;
        let r: u64 = match self {
            Mov => a as u64,
            Not => !a as u64,
            Bfrev => a.reverse_bits() as u64,
            Clz => (if a == 0 { u32::MAX } else { a.leading_zeros() }) as u64,
            Ctz => (if a == 0 { u32::MAX } else { a.trailing_zeros() }) as u64,
            Cls => {
                let x = if ai < 0 { !a } else { a };
                (if x == 0 { u32::MAX } else { x.leading_zeros() }) as u64
            }
            AddNc | AddCo => {
                let t = a as u64 + b as u64;
                let r = if sat { u32s(t) } else { t as u32 as u64 };
                return (r, t >> 32 != 0);
            }
            SubNc | SubCo => {
                let r = if sat {
                    a.saturating_sub(b)
                } else {
                    a.wrapping_sub(b)
                };
                return (r as u64, b > a);
            }
            SubrevNc | SubrevCo => {
                let r = if sat {
                    b.saturating_sub(a)
                } else {
                    b.wrapping_sub(a)
                };
                return (r as u64, a > b);
            }
            AddNcI32 if sat => ai.saturating_add(bi) as u32 as u64,
            AddNcI32 => ai.wrapping_add(bi) as u32 as u64,
            SubNcI32 if sat => ai.saturating_sub(bi) as u32 as u64,
            SubNcI32 => ai.wrapping_sub(bi) as u32 as u64,
            Lshl => (b << (a & 31)) as u64,
            Lshr => (b >> (a & 31)) as u64,
            Ashr => (bi >> (a & 31)) as u32 as u64,
            And => (a & b) as u64,
            Or => (a | b) as u64,
            Xor => (a ^ b) as u64,
            Xnor => !(a ^ b) as u64,
            MinI => ai.min(bi) as u32 as u64,
            MaxI => ai.max(bi) as u32 as u64,
            MinU => a.min(b) as u64,
            MaxU => a.max(b) as u64,
            MulU24 => {
                let t = (a & 0xff_ffff) as u64 * (b & 0xff_ffff) as u64;
                if sat {
                    u32s(t)
                } else {
                    t as u32 as u64
                }
            }
            MulHiU24 => ((a & 0xff_ffff) as u64 * (b & 0xff_ffff) as u64) >> 32,
            MulI24 => {
                let t = sext24(a) as i64 * sext24(b) as i64;
                if sat {
                    i32s(t)
                } else {
                    t as u32 as u64
                }
            }
            MulHiI24 => ((sext24(a) as i64 * sext24(b) as i64) >> 32) as u32 as u64,
            Cndmask => (if mask_in { b } else { a }) as u64,
            AddCi => {
                let t = a as u64 + b as u64 + cin;
                let r = if sat { u32s(t) } else { t as u32 as u64 };
                return (r, t >> 32 != 0);
            }
            SubCi => {
                let (x, y) = (a as u64, b as u64 + cin);
                let r = if sat {
                    x.saturating_sub(y)
                } else {
                    x.wrapping_sub(y)
                };
                return (r as u32 as u64, y > x);
            }
            SubrevCi => {
                let (x, y) = (b as u64, a as u64 + cin);
                let r = if sat {
                    x.saturating_sub(y)
                } else {
                    x.wrapping_sub(y)
                };
                return (r as u32 as u64, y > x);
            }
            MadU64 => {
                let t = a as u128 * b as u128 + s[2] as u128;
                let r = if sat {
                    t.min(u64::MAX as u128) as u64
                } else {
                    t as u64
                };
                return (r, t >> 64 & 1 == 1);
            }
            MadI64 => {
                let t = ai as i128 * bi as i128 + s[2] as i64 as i128;
                let r = if sat {
                    t.clamp(i64::MIN as i128, i64::MAX as i128) as i64 as u64
                } else {
                    t as u64
                };
                return (r, t >> 64 & 1 == 1);
            }
            MulLo => a.wrapping_mul(b) as u64,
            MulHiU => (a as u64 * b as u64) >> 32,
            MulHiI => ((ai as i64 * bi as i64) >> 32) as u32 as u64,
            MadU24 => {
                let t = (a & 0xff_ffff) as u64 * (b & 0xff_ffff) as u64 + c as u64;
                if sat {
                    u32s(t)
                } else {
                    t as u32 as u64
                }
            }
            MadI24 => {
                let t = sext24(a) as i64 * sext24(b) as i64 + ci as i64;
                if sat {
                    i32s(t)
                } else {
                    t as u32 as u64
                }
            }
            Add3 => a.wrapping_add(b).wrapping_add(c) as u64,
            LshlAdd => (a << (b & 31)).wrapping_add(c) as u64,
            AddLshl => (a.wrapping_add(b) << (c & 31)) as u64,
            LshlOr => ((a << (b & 31)) | c) as u64,
            AndOr => ((a & b) | c) as u64,
            Or3 => (a | b | c) as u64,
            Xor3 => (a ^ b ^ c) as u64,
            Xad => (a ^ b).wrapping_add(c) as u64,
            BfeU => ((a >> (b & 31)) & ((1u64 << (c & 31)) - 1) as u32) as u64,
            BfeI => {
                let width = c & 31;
                if width == 0 {
                    0
                } else {
                    let field = (a >> (b & 31)) & ((1u64 << width) - 1) as u32;
                    ((field << (32 - width)) as i32 >> (32 - width)) as u32 as u64
                }
            }
            Bfi => ((a & b) | (!a & c)) as u64,
            Bfm => ((((1u64 << (a & 31)) - 1) as u32) << (b & 31)) as u64,
            Alignbit => (((a as u64) << 32 | b as u64) >> (c & 31)) as u32 as u64,
            Alignbyte => (((a as u64) << 32 | b as u64) >> (8 * (c & 3))) as u32 as u64,
            Perm => {
                let data = (a as u64) << 32 | b as u64;
                (0..4).fold(0u32, |acc, i| {
                    acc | byte_permute(data, (c >> (8 * i)) & 0xff) << (8 * i)
                }) as u64
            }
            Min3U => a.min(b).min(c) as u64,
            Max3U => a.max(b).max(c) as u64,
            Med3U => med3(a, b, c) as u64,
            Min3I => ai.min(bi).min(ci) as u32 as u64,
            Max3I => ai.max(bi).max(ci) as u32 as u64,
            Med3I => med3(ai, bi, ci) as u32 as u64,
            MaxminU => a.max(b).min(c) as u64,
            MinmaxU => a.min(b).max(c) as u64,
            MaxminI => ai.max(bi).min(ci) as u32 as u64,
            MinmaxI => ai.min(bi).max(ci) as u32 as u64,
            Bcnt => a.count_ones().wrapping_add(b) as u64,
            MbcntLo => {
                let below = ((1u64 << lane) - 1) as u32;
                (a & below).count_ones().wrapping_add(b) as u64
            }
            MbcntHi => {
                let below = (((1u128 << lane) - 1) >> 32) as u32;
                (a & below).count_ones().wrapping_add(b) as u64
            }
            CvtPkU16U32 => (a.min(0xffff) | b.min(0xffff) << 16) as u64,
            CvtPkI16I32 => {
                let sat = |x: i32| x.clamp(-32768, 32767) as u16 as u32;
                (sat(ai) | sat(bi) << 16) as u64
            }
            Lshl64 => s[1] << (a & 63),
            Lshr64 => s[1] >> (a & 63),
            Ashr64 => ((s[1] as i64) >> (a & 63)) as u64,
        };
        (r, false)
    }
}

/// The low 24 bits, sign-extended.
#[inline]
fn sext24(x: u32) -> i32 {
    ((x << 8) as i32) >> 8
}

/// The median of three (the pseudocode's max3/max chain gives the same value).
pub(super) fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}

/// `V_PERM_B32`'s BYTE_PERMUTE of the 64-bit `{S0, S1}`.
pub(super) fn byte_permute(data: u64, sel: u32) -> u32 {
    let byte = |i: u32| (data >> (8 * i)) as u8 as u32;
    match sel {
        13.. => 0xff,
        12 => 0,
        8..=11 => {
            let src = [1, 3, 5, 7][(sel - 8) as usize];
            if byte(src) & 0x80 != 0 {
                0xff
            } else {
                0
            }
        }
        _ => byte(sel),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_permute_selects_bytes_signs_and_constants() {
        let data = 0x8877_6655_4433_2211u64;
        assert_eq!(byte_permute(data, 0), 0x11);
        assert_eq!(byte_permute(data, 7), 0x88);
        assert_eq!(byte_permute(data, 11), 0xff, "sign of byte 7");
        assert_eq!(byte_permute(data, 8), 0, "sign of byte 1");
        assert_eq!(byte_permute(data, 12), 0);
        assert_eq!(byte_permute(data, 13), 0xff);
    }
}
