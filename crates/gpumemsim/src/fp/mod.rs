//! GPU float rules for the float atomics (DS, and later buffer/flat), as pure functions on raw
//! bits in the style of `rustc_apfloat`: no host float arithmetic computes a result, so rounding,
//! NaN payloads and denormals are the same on every host.
//!
//! The rules are in docs/rules/float-atomics.md (rounding, denormals, NaN rules, min/max
//! orders, compare-swap, add rules; LDS float atomics take their denormal controls from the
//! MODE register: docs/rules/float-atomics.md#denormal-controls-in-lds), with the DS
//! pseudocode of AMD's reference. Where the pseudocode and the rules disagree the rules win,
//! and the function's doc says so.
//!
//! # Operand convention
//! Every function names its operands by role. `mem` is the value read from memory (`tmp =
//! MEM[ADDR]` in the pseudocode) and is the spec's **src0**; `data` is the VGPR data (`DATA`,
//! i.e. the DATA0 field) and is the spec's **src1**. For add this follows the pseudocode
//! directly (`MEM[ADDR].f32 += DATA.f32`, i.e. `MEM = MEM + DATA`); for min/max it is our choice,
//! made to agree with add and with the pseudocode's tie rule (`src < tmp ? src : tmp` keeps the
//! memory value unless DATA is strictly better). The functions return the new memory value; the
//! pre-op value a `_RTN` instruction returns is the raw `mem` bits, untouched by any rule here.
//!
//! # Contents
//! - [`add_f32`] (DS_ADD_F32, DS_ADD_RTN_F32), with [`DenormCtl`] decoded from MODE.
//! - [`min_f32`], [`max_f32`], [`min_f64`], [`max_f64`] (DS_MIN_*, DS_MAX_* and `_RTN` forms).
//! - [`cmpstore_f32`], [`cmpstore_f64`] (DS_CMPSTORE_F32/F64 and their `_RTN` forms).
//! - Bit helpers: [`is_nan_f32`], [`is_snan_f32`], [`is_qnan_f32`], [`is_denorm_f32`],
//!   [`quiet_f32`], [`flush_denorm_f32`] and their f64 versions.
//!
//! ```
//! use gpumemsim::fp::{add_f32, cmpstore_f32, min_f32, DenormCtl};
//! let ctl = DenormCtl::from_mode_f32(0x30); // FP_DENORM single = 3: denormals in and out
//! assert_eq!(add_f32(0x3f80_0000, 0x4000_0000, ctl), 0x4040_0000); // 1 + 2 = 3
//! assert_eq!(add_f32(0x0000_0001, 0x0000_0001, DenormCtl::FLUSH_ALL), 0); // denormals flushed
//! assert_eq!(min_f32(0x0000_0000, 0x8000_0000, false), 0x8000_0000); // -0 < +0
//! assert_eq!(cmpstore_f32(0x8000_0000, 0x0000_0000, 0x4000_0000, false), 0x4000_0000); // -0 == +0
//! ```
//!
//! The vector ALU's arithmetic ([`arith`] for f32/f64, [`f16`](mod@f16), [`trans`] for the
//! transcendental unit, [`div`] for the division helpers and `ldexp`, [`convert`] for the
//! integer and normalised conversions, [`valu`] for f16 ↔ f32) is the exception: it uses the
//! host's IEEE-754 `+ - × ÷ sqrt mul_add` (correctly rounded, nearest-even, on every Rust
//! target) and double-double arithmetic built from them ([`dd`]), rounds to narrower formats
//! with [`round`], and handles denormal flushing and NaN selection on the bits itself, so
//! results are the same on every host too.
//!
//! Tests: `tests/fp.rs` (edge-case tables, and cross-checks against a model built on host IEEE
//! arithmetic), `tests/fp_f16.rs` (f16 arithmetic against an exact integer oracle),
//! `tests/fp_trans.rs` (the transcendental unit: the ISA's functional examples, every f16
//! input and a sample of f32 inputs against the host's f64 functions), `tests/fp_div.rs`.

mod add;
pub mod arith;
pub mod bf16;
mod cmpstore;
mod consts;
pub mod convert;
pub mod dd;
pub mod div;
pub mod f16;
pub mod host_fma;
pub mod round;
mod select;
pub mod trans;
pub mod valu;

pub use add::{add_f32, add_f64, add_pk16, ADD_F32_INVALID_NAN, ADD_F64_INVALID_NAN};
pub use bf16::BFLOAT16;
pub use cmpstore::{cmpstore_f32, cmpstore_f64};
pub use round::HALF;
pub use select::{
    max_f32, max_f64, min_f32, min_f64, valu_med3_f16, valu_med3_f32, valu_minmax_f16,
    valu_minmax_f32, valu_minmax_f64,
};

/// Denormal flushing for one float operation: whether denormal inputs are read as zero and
/// whether a denormal result is written as zero. A flushed value keeps its sign (±0).
///
/// Float atomics use the MODE register to control denormal flushing: LDS instructions use the
/// FP_DENORM bits (allow input denormals, allow output denormals) to control input and output
/// flushing separately; the single-precision field affects F32 operations and the
/// double-precision field F64. The 32-bit adder uses both controls; CMP, MIN and MAX use only
/// the input control (docs/rules/float-atomics.md#denormal-controls-in-lds).
///
/// Callers for the non-LDS (buffer/flat) float atomics: a later paragraph of the same section
/// says those atomics consider only bit 0 (allow input denormals) of the field, that the other
/// denormal rules are as for LDS, and that float atomic add is hard-wired to flush input
/// denormals whatever MODE says (docs/rules/float-atomics.md#denormals-in-memory-atomics);
/// build the `DenormCtl` accordingly (e.g.
/// `flush_input: true` for a memory atomic add). That paragraph's text names
/// "ds_{min,max,cmpst}_f32", but it contrasts itself with the LDS rules and the LDS paragraph
/// says the LDS adder uses both MODE controls, so we read it as being about the memory atomics:
/// DS_ADD_F32 uses `DenormCtl::from_mode_f32(mode)`. It names no output control for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DenormCtl {
    /// Read denormal inputs as ±0 (sign kept) before operating.
    pub flush_input: bool,
    /// Write a denormal result as ±0 (sign kept).
    pub flush_output: bool,
}

impl DenormCtl {
    /// Denormals pass through in and out (FP_DENORM value 3).
    pub const FLUSH_NONE: DenormCtl = DenormCtl {
        flush_input: false,
        flush_output: false,
    };
    /// Denormals flushed in and out (FP_DENORM value 0).
    pub const FLUSH_ALL: DenormCtl = DenormCtl {
        flush_input: true,
        flush_output: true,
    };

    /// Decodes one 2-bit FP_DENORM value: bit 0 = allow input denormals, bit 1 = allow output
    /// denormals (0 = flush both, 1 = allow input only, 2 = allow output only, 3 = allow both;
    /// AMD RDNA3 ISA reference, MODE register). Bits above bit 1 are ignored.
    pub const fn from_field(field: u32) -> DenormCtl {
        DenormCtl {
            flush_input: field & 1 == 0,
            flush_output: field & 2 == 0,
        }
    }

    /// The single-precision control from a MODE register value: FP_DENORM bits `[5:4]` (MODE
    /// bits `[7:4]` hold FP_DENORM; `[5:4]` single, `[7:6]` double). Other MODE bits are ignored.
    pub const fn from_mode_f32(mode: u32) -> DenormCtl {
        DenormCtl::from_field(mode >> 4)
    }

    /// The double-precision control from a MODE register value: FP_DENORM bits `[7:6]`.
    pub const fn from_mode_f64(mode: u32) -> DenormCtl {
        DenormCtl::from_field(mode >> 6)
    }

    /// The half-precision control from a MODE register value: the double-precision bits
    /// `[7:6]`, which f16 shares (see [`f16`](mod@f16)'s module documentation for the sources).
    pub const fn from_mode_f16(mode: u32) -> DenormCtl {
        DenormCtl::from_mode_f64(mode)
    }
}

/// A binary float layout, on `u64` so that f32 and f64 share one implementation.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    pub sign: u64,
    pub exp: u64,
    pub mant: u64,
    pub quiet: u64,
}

pub(crate) const F32: Layout = Layout {
    sign: 1 << 31,
    exp: 0xff << 23,
    mant: (1 << 23) - 1,
    quiet: 1 << 22,
};

pub(crate) const F16: Layout = Layout {
    sign: 1 << 15,
    exp: 0x1f << 10,
    mant: (1 << 10) - 1,
    quiet: 1 << 9,
};

pub(crate) const BF16: Layout = Layout {
    sign: 1 << 15,
    exp: 0xff << 7,
    mant: (1 << 7) - 1,
    quiet: 1 << 6,
};

pub(crate) const F64: Layout = Layout {
    sign: 1 << 63,
    exp: 0x7ff << 52,
    mant: (1 << 52) - 1,
    quiet: 1 << 51,
};

impl Layout {
    /// Every bit but the sign.
    pub const fn abs_mask(self) -> u64 {
        self.exp | self.mant
    }

    /// A NaN has the exponent all ones and a non-zero mantissa
    /// (docs/rules/float-atomics.md#nan-kinds).
    pub const fn is_nan(self, x: u64) -> bool {
        x & self.exp == self.exp && x & self.mant != 0
    }

    /// Signalling NaN = exponent all ones, mantissa MSB 0 and at least one other mantissa bit
    /// 1 (docs/rules/float-atomics.md#nan-kinds).
    pub const fn is_snan(self, x: u64) -> bool {
        self.is_nan(x) && x & self.quiet == 0
    }

    pub const fn is_inf(self, x: u64) -> bool {
        x & self.abs_mask() == self.exp
    }

    pub const fn is_zero(self, x: u64) -> bool {
        x & self.abs_mask() == 0
    }

    pub const fn is_denorm(self, x: u64) -> bool {
        x & self.exp == 0 && x & self.mant != 0
    }

    /// A NaN with the quiet bit set, sign and payload kept; any other value unchanged.
    pub const fn quiet(self, x: u64) -> u64 {
        if self.is_nan(x) {
            x | self.quiet
        } else {
            x
        }
    }

    /// A denormal becomes zero of the same sign; any other value unchanged.
    pub const fn flush(self, x: u64) -> u64 {
        if self.is_denorm(x) {
            x & self.sign
        } else {
            x
        }
    }

    /// A key whose unsigned order is the numeric order of non-NaN values with -0 < +0
    /// (`-inf < -float < -denorm < -0 < +0 < +denorm < +float < +inf`).
    pub const fn order_key(self, x: u64) -> u64 {
        let all = self.sign | self.abs_mask();
        if x & self.sign != 0 {
            !x & all
        } else {
            x | self.sign
        }
    }
}

/// Whether `x` is a NaN (exponent all ones, mantissa non-zero;
/// docs/rules/float-atomics.md#nan-kinds).
pub const fn is_nan_f32(x: u32) -> bool {
    F32.is_nan(x as u64)
}

/// Whether `x` is a signalling NaN (exponent all ones, mantissa MSB 0, another mantissa bit 1;
/// docs/rules/float-atomics.md#nan-kinds).
pub const fn is_snan_f32(x: u32) -> bool {
    F32.is_snan(x as u64)
}

/// Whether `x` is a quiet NaN (exponent all ones, mantissa MSB 1).
pub const fn is_qnan_f32(x: u32) -> bool {
    F32.is_nan(x as u64) && !F32.is_snan(x as u64)
}

/// Whether `x` is a denormal (exponent 0, mantissa non-zero).
pub const fn is_denorm_f32(x: u32) -> bool {
    F32.is_denorm(x as u64)
}

/// A NaN made quiet: the mantissa MSB set, sign and the rest of the payload kept
/// (docs/rules/float-atomics.md#nan-kinds: the source's bits are kept, made quiet). Any other
/// value is returned unchanged.
pub const fn quiet_f32(x: u32) -> u32 {
    F32.quiet(x as u64) as u32
}

/// A denormal flushed to zero of the same sign (the mantissa is flushed to zero when the
/// exponent is zero: docs/rules/float-atomics.md#denormal-controls-in-lds); any other value
/// unchanged.
pub const fn flush_denorm_f32(x: u32) -> u32 {
    F32.flush(x as u64) as u32
}

/// f64 version of [`is_nan_f32`].
pub const fn is_nan_f64(x: u64) -> bool {
    F64.is_nan(x)
}

/// f64 version of [`is_snan_f32`].
pub const fn is_snan_f64(x: u64) -> bool {
    F64.is_snan(x)
}

/// f64 version of [`is_qnan_f32`].
pub const fn is_qnan_f64(x: u64) -> bool {
    F64.is_nan(x) && !F64.is_snan(x)
}

/// f64 version of [`is_denorm_f32`].
pub const fn is_denorm_f64(x: u64) -> bool {
    F64.is_denorm(x)
}

/// f64 version of [`quiet_f32`].
pub const fn quiet_f64(x: u64) -> u64 {
    F64.quiet(x)
}

/// f64 version of [`flush_denorm_f32`].
pub const fn flush_denorm_f64(x: u64) -> u64 {
    F64.flush(x)
}

/// f32 bit patterns at the edges of the float rules, for tests: ±0, the smallest and largest
/// denormals, the smallest normals, ±1, powers of two whose sums round or cancel, the largest
/// finite values, ±infinity, and quiet and signalling NaNs with payloads (one table for the
/// tests of every f32 path).
#[cfg(test)]
pub(crate) const EDGE_F32: [u32; 24] = [
    0,
    0x8000_0000,
    1,
    0x8000_0001,
    0x007f_ffff,
    0x807f_ffff,
    0x0080_0000,
    0x8080_0000,
    0x0c00_0000,
    0x3400_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7f80_0001,
    0x7f80_0123,
    0x7fa5_a5a5,
    0xffa5_a5a5,
    0xffbf_ffff,
    0x7fc0_0000,
    0x7fc0_0001,
    0x7fc0_1234,
];
