//! 32- and 64-bit integer and bit operations, per the pseudocode.
//!
//! VOP3 `clamp` on an integer operation saturates its exact result to the destination type's
//! range. The ISA notes say "Supports saturation (unsigned 32-bit integer domain)" for the
//! add/sub forms; we read `clamp` the same way on every integer operation llvm-mc-19 accepts
//! it on (the 24-bit multiplies and multiply-adds, `v_mad_u64_u32`/`v_mad_i64_i32`).

use super::shape::{Ctx, MaskIn, Shape};

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
    /// Min, max or median of three, or min-max, unsigned.
    Pick3U(Pick3),
    /// The same, signed.
    Pick3I(Pick3),
    Bcnt,
    MbcntLo,
    MbcntHi,
    CvtPkU16U32,
    CvtPkI16I32,
    Lshl64,
    /// gfx942's `v_lshl_add_u64`: D = (S0 << S1\[2:0\]) + S2, 64-bit (AMD's CDNA3 ISA guide
    /// reads 3 bits of the shift; clang-19 only emits shifts of 0 to 4).
    LshlAdd64,
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
    #[inline(always)]
    pub fn eval(self, s: [u64; 3], mask_in: bool, lane: u32, cx: &Ctx) -> (u64, bool) {
        use IntOp::*;
        let (a, b, c) = (s[0] as u32, s[1] as u32, s[2] as u32);
        let (ai, bi, ci) = (a as i32, b as i32, c as i32);
        let r: u64 =
            match self {
                AddNc | AddCo | SubNc | SubCo | SubrevNc | SubrevCo | AddCi | SubCi | SubrevCi
                | MadU64 | MadI64 => return self.with_carry(s, mask_in, cx.clamp),
                MulU24 | MulHiU24 | MulI24 | MulHiI24 | MulLo | MulHiU | MulHiI | MadU24
                | MadI24 => self.multiply(a, b, c, cx.clamp),
                BfeU | BfeI | Bfi | Bfm | Alignbit | Alignbyte | Perm | Bcnt | MbcntLo
                | MbcntHi => self.bit_field(a, b, c, lane),
                Mov => a as u64,
                Not => !a as u64,
                Bfrev => a.reverse_bits() as u64,
                Clz => (if a == 0 { u32::MAX } else { a.leading_zeros() }) as u64,
                Ctz => (if a == 0 { u32::MAX } else { a.trailing_zeros() }) as u64,
                Cls => {
                    let x = if ai < 0 { !a } else { a };
                    (if x == 0 { u32::MAX } else { x.leading_zeros() }) as u64
                }
                AddNcI32 if cx.clamp => ai.saturating_add(bi) as u32 as u64,
                AddNcI32 => ai.wrapping_add(bi) as u32 as u64,
                SubNcI32 if cx.clamp => ai.saturating_sub(bi) as u32 as u64,
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
                Cndmask => (if mask_in { b } else { a }) as u64,
                Add3 => a.wrapping_add(b).wrapping_add(c) as u64,
                LshlAdd => (a << (b & 31)).wrapping_add(c) as u64,
                AddLshl => (a.wrapping_add(b) << (c & 31)) as u64,
                LshlOr => ((a << (b & 31)) | c) as u64,
                AndOr => ((a & b) | c) as u64,
                Or3 => (a | b | c) as u64,
                Xor3 => (a ^ b ^ c) as u64,
                Xad => (a ^ b).wrapping_add(c) as u64,
                Pick3U(p) => p.of(a, b, c) as u64,
                Pick3I(p) => p.of(ai, bi, ci) as u32 as u64,
                CvtPkU16U32 => (a.min(0xffff) | b.min(0xffff) << 16) as u64,
                CvtPkI16I32 => {
                    let sat = |x: i32| x.clamp(-32768, 32767) as u16 as u32;
                    (sat(ai) | sat(bi) << 16) as u64
                }
                Lshl64 => s[1] << (a & 63),
                LshlAdd64 => (s[0] << (s[1] & 7)).wrapping_add(s[2]),
                Lshr64 => s[1] >> (a & 63),
                Ashr64 => ((s[1] as i64) >> (a & 63)) as u64,
            };
        (r, false)
    }

    /// The adds and subtracts with a carry (or borrow) out, and the 64-bit multiply-adds:
    /// the result and the carry-out; `sat` is VOP3 `clamp`.
    #[inline]
    fn with_carry(self, s: [u64; 3], mask_in: bool, sat: bool) -> (u64, bool) {
        use IntOp::*;
        let (a, b) = (s[0] as u32, s[1] as u32);
        let cin = mask_in as u64;
        match self {
            AddNc | AddCo => add_carry(a, b, 0, sat),
            AddCi => add_carry(a, b, cin, sat),
            SubNc | SubCo => sub_borrow(a, b, 0, sat),
            SubCi => sub_borrow(a, b, cin, sat),
            SubrevNc | SubrevCo => sub_borrow(b, a, 0, sat),
            SubrevCi => sub_borrow(b, a, cin, sat),
            MadU64 => {
                let t = a as u128 * b as u128 + s[2] as u128;
                let r = if sat {
                    t.min(u64::MAX as u128) as u64
                } else {
                    t as u64
                };
                (r, t >> 64 & 1 == 1)
            }
            MadI64 => {
                let t = a as i32 as i128 * b as i32 as i128 + s[2] as i64 as i128;
                let r = if sat {
                    t.clamp(i64::MIN as i128, i64::MAX as i128) as i64 as u64
                } else {
                    t as u64
                };
                (r, t >> 64 & 1 == 1)
            }
            _ => unreachable!("{self:?} has no carry-out"),
        }
    }

    /// The 32-bit multiplies and the 24-bit multiply(-add)s; `sat` is VOP3 `clamp`.
    fn multiply(self, a: u32, b: u32, c: u32, sat: bool) -> u64 {
        use IntOp::*;
        let (ai, bi, ci) = (a as i32, b as i32, c as i32);
        let u24 = |x: u32| (x & 0xff_ffff) as u64;
        match self {
            MulU24 => sat_u32(u24(a) * u24(b), sat),
            MulHiU24 => (u24(a) * u24(b)) >> 32,
            MulI24 => sat_i32(sext24(a) as i64 * sext24(b) as i64, sat),
            MulHiI24 => ((sext24(a) as i64 * sext24(b) as i64) >> 32) as u32 as u64,
            MulLo => a.wrapping_mul(b) as u64,
            MulHiU => (a as u64 * b as u64) >> 32,
            MulHiI => ((ai as i64 * bi as i64) >> 32) as u32 as u64,
            MadU24 => sat_u32(u24(a) * u24(b) + c as u64, sat),
            MadI24 => sat_i32(sext24(a) as i64 * sext24(b) as i64 + ci as i64, sat),
            _ => unreachable!("{self:?} is no multiply"),
        }
    }

    /// Bit-field extracts and inserts, funnel shifts, byte permutes and bit counts.
    fn bit_field(self, a: u32, b: u32, c: u32, lane: u32) -> u64 {
        use IntOp::*;
        match self {
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
            Bcnt => a.count_ones().wrapping_add(b) as u64,
            MbcntLo => {
                let below = ((1u64 << lane) - 1) as u32;
                (a & below).count_ones().wrapping_add(b) as u64
            }
            MbcntHi => {
                let below = (((1u128 << lane) - 1) >> 32) as u32;
                (a & below).count_ones().wrapping_add(b) as u64
            }
            _ => unreachable!("{self:?} is no bit-field operation"),
        }
    }
}

/// Which of three values a three-operand selection keeps (the same rule at every integer
/// width, signed or unsigned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pick3 {
    /// `min3`: the least.
    Min3,
    /// `max3`: the greatest.
    Max3,
    /// `med3`: the median.
    Med3,
    /// `maxmin`: `min(max(a, b), c)`.
    Maxmin,
    /// `minmax`: `max(min(a, b), c)`.
    Minmax,
}

impl Pick3 {
    /// The value kept of `a`, `b` and `c`.
    #[inline]
    pub fn of<T: Ord + Copy>(self, a: T, b: T, c: T) -> T {
        match self {
            Pick3::Min3 => a.min(b).min(c),
            Pick3::Max3 => a.max(b).max(c),
            Pick3::Med3 => med3(a, b, c),
            Pick3::Maxmin => a.max(b).min(c),
            Pick3::Minmax => a.min(b).max(c),
        }
    }
}

/// `x + y + carry_in` on 32 bits: the sum (saturated to u32 with `sat`) and the carry-out.
#[inline]
fn add_carry(x: u32, y: u32, carry_in: u64, sat: bool) -> (u64, bool) {
    let t = x as u64 + y as u64 + carry_in;
    (sat_u32(t, sat), t >> 32 != 0)
}

/// `x - y - borrow_in` on 32 bits: the difference (saturated at 0 with `sat`) and the
/// borrow-out.
#[inline]
fn sub_borrow(x: u32, y: u32, borrow_in: u64, sat: bool) -> (u64, bool) {
    let (x, y) = (x as u64, y as u64 + borrow_in);
    let r = if sat {
        x.saturating_sub(y)
    } else {
        x.wrapping_sub(y)
    };
    (r as u32 as u64, y > x)
}

/// `t` saturated to the u32 range with `sat`, else its low 32 bits.
#[inline]
fn sat_u32(t: u64, sat: bool) -> u64 {
    if sat {
        t.min(u32::MAX as u64)
    } else {
        t as u32 as u64
    }
}

/// `t` saturated to the i32 range with `sat`, else its low 32 bits.
#[inline]
fn sat_i32(t: i64, sat: bool) -> u64 {
    if sat {
        t.clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32 as u64
    } else {
        t as u32 as u64
    }
}

/// The low 24 bits, sign-extended.
#[inline]
fn sext24(x: u32) -> i32 {
    ((x << 8) as i32) >> 8
}

/// The median of three (the pseudocode's max3/max chain gives the same value).
fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
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
