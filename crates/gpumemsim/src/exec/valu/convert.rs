//! Conversions between the VALU's types, per the pseudocode, on [`crate::fp::convert`] and
//! the f32/f64 rules of [`crate::fp::arith`]. A conversion to an integer ignores `clamp` (it
//! only "controls generation of the INEXACT exception", ISA notes).

use super::shape::{Ctx, Res, Shape};
use crate::fp::arith::{self as fa, flush32, flush64};
use crate::fp::convert as cv;
use crate::fp::valu::{f32_to_f16, Round};

/// A conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CvtOp {
    F32I32,
    F32U32,
    I32F32,
    U32F32,
    NearestI32F32,
    FloorI32F32,
    /// `V_CVT_F32_UBYTEn`.
    F32Ubyte(u8),
    F16F32,
    F32F16,
    PkRtzF16F32,
    F64F32,
    F32F64,
    I32F64,
    U32F64,
    F64I32,
    F64U32,
    OffF32I4,
    F16U16,
    F16I16,
    U16F16,
    I16F16,
    NormI16F16,
    NormU16F16,
    PkI16F32,
    PkU16F32,
    PkNormI16F32,
    PkNormU16F32,
    PkNormI16F16,
    PkNormU16F16,
    PkU8F32,
}

impl CvtOp {
    pub fn shape(self) -> Shape {
        use CvtOp::*;
        match self {
            F32I32 | F32U32 | F32F64 => Shape::F32,
            F32Ubyte(_) | OffF32I4 => Shape::F32.exact(),
            F32F16 => Shape::F32.exact().halves(0b001, false),
            F16F32 => Shape::F16.halves(0, true),
            F16U16 | F16I16 => Shape::F16.halves(0b001, true),
            U16F16 | I16F16 | NormI16F16 | NormU16F16 => Shape::I16.halves(0b001, true),
            PkNormI16F16 | PkNormU16F16 => Shape::I16.halves(0b011, false),
            PkRtzF16F32 => Shape::INT.res(Res::PkF16),
            F64F32 | F64I32 | F64U32 => Shape::F64.exact(),
            I32F32 | U32F32 | NearestI32F32 | FloorI32F32 | I32F64 | U32F64 | PkI16F32
            | PkU16F32 | PkNormI16F32 | PkNormU16F32 | PkU8F32 => Shape::INT,
        }
    }

    /// One lane.
    #[inline]
    pub fn eval(self, s: [u64; 3], cx: &Ctx) -> u64 {
        use CvtOp::*;
        let (a, b, c) = (s[0] as u32, s[1] as u32, s[2] as u32);
        let (c16, c32, c64) = (cx.ctl16, cx.ctl32, cx.ctl64);
        let pk = |lo: u16, hi: u16| (lo as u32 | (hi as u32) << 16) as u64;
        match self {
            F32I32 => (a as i32 as f32).to_bits() as u64,
            F32U32 => (a as f32).to_bits() as u64,
            I32F32 => fa::f32_to_i32(a, c32) as u64,
            U32F32 => fa::f32_to_u32(a, c32) as u64,
            NearestI32F32 => {
                // The pseudocode's f32_to_i32(floor(S0 + 0.5F)), the addition in f32.
                let x = f32::from_bits(flush32(a, c32.flush_input));
                ((x + 0.5).floor() as i32) as u32 as u64
            }
            FloorI32F32 => {
                let x = f32::from_bits(flush32(a, c32.flush_input));
                (x.floor() as i32) as u32 as u64
            }
            F32Ubyte(n) => ((a >> (8 * n)) as u8 as f32).to_bits() as u64,
            F16F32 => cv::f32_to_f16(a, c32, c16) as u64,
            F32F16 => cv::f16_to_f32_mode(a as u16, c16) as u64,
            PkRtzF16F32 => {
                let rtz = |x: u32| f32_to_f16(flush32(x, c32.flush_input), Round::TowardZero);
                pk(rtz(a), rtz(b))
            }
            F64F32 => {
                let x = flush32(a, c32.flush_input);
                if crate::fp::is_nan_f32(x) {
                    // Quieted, payload moved up.
                    (x as u64 & 0x8000_0000) << 32
                        | 0x7ff8_0000_0000_0000
                        | (x as u64 & 0x3f_ffff) << 29
                } else {
                    (f32::from_bits(x) as f64).to_bits()
                }
            }
            F32F64 => cv::f64_to_f32(s[0], c64, c32) as u64,
            I32F64 => f64::from_bits(flush64(s[0], c64.flush_input)) as i32 as u32 as u64,
            U32F64 => f64::from_bits(flush64(s[0], c64.flush_input)) as u32 as u64,
            F64I32 => (a as i32 as f64).to_bits(),
            F64U32 => (a as f64).to_bits(),
            OffF32I4 => cv::cvt_off_f32_i4(a) as u64,
            F16U16 => cv::u16_to_f16(a as u16) as u64,
            F16I16 => cv::i16_to_f16(a as u16) as u64,
            U16F16 => cv::f16_to_u16(a as u16, c16) as u64,
            I16F16 => cv::f16_to_i16(a as u16, c16) as u64,
            NormI16F16 => cv::f16_to_snorm(a as u16, c16) as u64,
            NormU16F16 => cv::f16_to_unorm(a as u16, c16) as u64,
            PkI16F32 => pk(cv::f32_to_i16(a, c32), cv::f32_to_i16(b, c32)),
            PkU16F32 => pk(cv::f32_to_u16(a, c32), cv::f32_to_u16(b, c32)),
            PkNormI16F32 => pk(cv::f32_to_snorm(a, c32), cv::f32_to_snorm(b, c32)),
            PkNormU16F32 => pk(cv::f32_to_unorm(a, c32), cv::f32_to_unorm(b, c32)),
            PkNormI16F16 => pk(
                cv::f16_to_snorm(a as u16, c16),
                cv::f16_to_snorm(b as u16, c16),
            ),
            PkNormU16F16 => pk(
                cv::f16_to_unorm(a as u16, c16),
                cv::f16_to_unorm(b as u16, c16),
            ),
            PkU8F32 => {
                let sh = 8 * (b & 3);
                ((c & !(0xff << sh)) | (cv::f32_to_u8(a, c32) as u32) << sh) as u64
            }
        }
    }
}
