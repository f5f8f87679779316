//! Vector-ALU conversions on raw bits that involve f16 or a normalised integer: f16 ↔ f32,
//! f64 → f32, float ↔ 16-bit integers, `f*_to_snorm`/`f*_to_unorm`, `f32_to_u8` and
//! `V_CVT_OFF_F32_I4`'s table.
//!
//! Rules, per the RDNA3.5 ISA reference's notes on each opcode (which gfx11 shares):
//! - float → integer conversions truncate toward zero ("Conversion is done with
//!   truncation"), saturate out-of-range values and infinities, and give 0 for NaN (as
//!   `V_CVT_I32_F32`: "out-of-range floating point values (including infinity) saturate. NAN
//!   is converted to 0");
//! - integer → f16 rounds to nearest even (overflow: 65520 and above become +inf);
//! - `f*_to_snorm(x)` is `clamp(x, -1, 1) × 32767` and `f*_to_unorm(x)` is `clamp(x, 0, 1) ×
//!   65535`, rounded to the nearest integer, ties to even, NaN → 0. The pseudocode names the
//!   functions without defining them; this is the D3D conversion rule for SNORM/UNORM, our
//!   choice;
//! - `f32_to_u8` (`V_CVT_PK_U8_F32`) converts like `f32_to_u32` (truncate, saturate to
//!   0..=255, NaN → 0): by analogy, the pseudocode does not define it.

use super::f16::{flush16, to_f64 as f16_value};
use super::round::{to_f16, to_f32};
use super::valu::f16_to_f32;
use super::{flush_denorm_f32, flush_denorm_f64, is_nan_f32, DenormCtl};

fn flush32(x: u32, on: bool) -> u32 {
    if on {
        flush_denorm_f32(x)
    } else {
        x
    }
}

/// `V_CVT_F16_F32`: f32 → f16, nearest even, NaN quieted (top payload bits kept). The input
/// is flushed per MODE's f32 control and a denormal result per the f16 (double) control
/// ("Flush denorms on output if specified based on DP denorm mode").
pub fn f32_to_f16(a: u32, ctl32: DenormCtl, ctl16: DenormCtl) -> u16 {
    let a = flush32(a, ctl32.flush_input);
    let r = to_f16(f32::from_bits(a) as f64, 0.0);
    flush16(r, ctl16.flush_output)
}

/// `V_CVT_F32_F16`: exact; a denormal input is read as ±0 per the f16 (double) control
/// ("Flush denorms on input if specified based on DP denorm mode"); NaN quieted.
pub fn f16_to_f32_mode(a: u16, ctl16: DenormCtl) -> u32 {
    let a = flush16(a, ctl16.flush_input);
    let r = f16_to_f32(a);
    if is_nan_f32(r) {
        r | 0x0040_0000
    } else {
        r
    }
}

/// `V_CVT_F32_F64`: f64 → f32, nearest even, NaN quieted (payload moved down); the input is
/// flushed per the f64 control, a denormal result per the f32 one.
pub fn f64_to_f32(a: u64, ctl64: DenormCtl, ctl32: DenormCtl) -> u32 {
    let a = if ctl64.flush_input {
        flush_denorm_f64(a)
    } else {
        a
    };
    let r = to_f32(f64::from_bits(a), 0.0);
    flush32(r, ctl32.flush_output)
}

/// An f16 as a float for an integer conversion (flushed per `ctl`; NaN stays NaN).
fn f16_for_int(a: u16, ctl: DenormCtl) -> f64 {
    f16_value(flush16(a, ctl.flush_input))
}

/// `V_CVT_U16_F16`: truncate, saturate, NaN → 0.
pub fn f16_to_u16(a: u16, ctl: DenormCtl) -> u16 {
    f16_for_int(a, ctl) as u16
}

/// `V_CVT_I16_F16`: truncate, saturate, NaN → 0 (as i16 bits).
pub fn f16_to_i16(a: u16, ctl: DenormCtl) -> u16 {
    f16_for_int(a, ctl) as i16 as u16
}

/// `V_CVT_F16_U16`: nearest even.
pub fn u16_to_f16(x: u16) -> u16 {
    to_f16(x as f64, 0.0)
}

/// `V_CVT_F16_I16`: nearest even.
pub fn i16_to_f16(x: u16) -> u16 {
    to_f16(x as i16 as f64, 0.0)
}

/// `clamp(x, -1, 1) × 32767` rounded to nearest even, NaN → 0, as i16 bits.
fn snorm(x: f64) -> u16 {
    if x.is_nan() {
        return 0;
    }
    (x.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i16 as u16
}

/// `clamp(x, 0, 1) × 65535` rounded to nearest even, NaN → 0.
fn unorm(x: f64) -> u16 {
    if x.is_nan() {
        return 0;
    }
    (x.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16
}

/// `V_CVT_NORM_I16_F16` (`f16_to_snorm`).
pub fn f16_to_snorm(a: u16, ctl: DenormCtl) -> u16 {
    snorm(f16_for_int(a, ctl))
}

/// `V_CVT_NORM_U16_F16` (`f16_to_unorm`).
pub fn f16_to_unorm(a: u16, ctl: DenormCtl) -> u16 {
    unorm(f16_for_int(a, ctl))
}

fn f32_value(a: u32, ctl: DenormCtl) -> f64 {
    f32::from_bits(flush32(a, ctl.flush_input)) as f64
}

/// `f32_to_snorm` (`V_CVT_PK_NORM_I16_F32`).
pub fn f32_to_snorm(a: u32, ctl: DenormCtl) -> u16 {
    snorm(f32_value(a, ctl))
}

/// `f32_to_unorm` (`V_CVT_PK_NORM_U16_F32`).
pub fn f32_to_unorm(a: u32, ctl: DenormCtl) -> u16 {
    unorm(f32_value(a, ctl))
}

/// `v_cvt_i16_f32` (`V_CVT_PK_I16_F32`'s halves): truncate, saturate, NaN → 0, as i16 bits.
pub fn f32_to_i16(a: u32, ctl: DenormCtl) -> u16 {
    f32_value(a, ctl) as i16 as u16
}

/// `v_cvt_u16_f32` (`V_CVT_PK_U16_F32`'s halves): truncate, saturate, NaN → 0.
pub fn f32_to_u16(a: u32, ctl: DenormCtl) -> u16 {
    f32_value(a, ctl) as u16
}

/// `f32_to_u8` (`V_CVT_PK_U8_F32`): truncate, saturate, NaN → 0.
pub fn f32_to_u8(a: u32, ctl: DenormCtl) -> u8 {
    f32_value(a, ctl) as u8
}

/// `V_CVT_OFF_F32_I4`: the signed 4-bit integer in bits `[3:0]` divided by 16 (the ISA's
/// lookup table runs from -0.5 for 1000b to +0.4375 for 0111b in steps of 0.0625).
pub fn cvt_off_f32_i4(x: u32) -> u32 {
    let n = ((x as i32) << 28) >> 28;
    (n as f32 / 16.0).to_bits()
}

/// An FNUZ 8-bit float as f32 bits (exact): gfx942's fp8 has `mant` 3 mantissa bits and bias
/// 8, its bf8 2 and 16 (LLVM's Float8E4M3FNUZ and Float8E5M2FNUZ, APFloat.cpp; gfx950 moved to
/// the OCP formats). 0x80 is the one NaN (read as f32's quiet NaN), there is no infinity and
/// no negative zero, exponent 0 holds the subnormals.
pub fn fnuz8_to_f32(x: u8, mant: u32, bias: i32) -> u32 {
    if x == 0x80 {
        return 0x7fc0_0000;
    }
    let sign = (x as u32 >> 7) << 31;
    let e = (x as u32 & 0x7f) >> mant;
    let m = x as u32 & ((1 << mant) - 1);
    let v = if e == 0 {
        m as f32 * 2f32.powi(1 - bias - mant as i32)
    } else {
        (1.0 + m as f32 / (1 << mant) as f32) * 2f32.powi(e as i32 - bias)
    };
    v.to_bits() | sign
}
