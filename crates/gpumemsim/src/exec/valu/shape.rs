//! What every VALU family's per-lane evaluation works with: the operand [`Shape`] of an
//! operation (worked out once per table entry) and the per-instruction [`Ctx`]. The families
//! (`int`, `f32`, ...), [`super::op`], which names them, and the encodings' executors all use
//! this module; it uses none of them. [`ValuError`] is here for the same reason.

use crate::fp::DenormCtl;

/// Why a VALU instruction did not execute.
pub enum ValuError {
    /// Not implemented.
    Unimplemented,
}

/// What VOP3 `clamp` and the output modifier do to a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Res {
    /// An integer or bit result: `clamp` saturates where the operation says so (in its
    /// `eval`), or does nothing (conversions: it only enables the INEXACT exception); an
    /// output modifier is not modelled.
    Int,
    /// A lane mask (compares): `clamp` only changes exception signalling.
    Mask,
    /// An f16 result.
    F16,
    /// Two f16 results packed in 32 bits.
    PkF16,
    /// An f32 result.
    F32,
    /// An f64 result.
    F64,
}

/// Which lane mask an operation reads per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MaskIn {
    /// None.
    None,
    /// VCC in e32, the lane-mask source src2 in VOP3 (`v_cndmask`, the carry-ins).
    VccOrSrc2,
    /// VCC in every encoding (`v_div_fmas`).
    Vcc,
}

/// The operand shape of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    /// Bit i set: source i is a 16-bit operand, read from one half of its register.
    pub src16: u8,
    /// The result is 16 bits, written into one half of the destination VGPR (the other half
    /// is kept: "On gfx10, all 16-bit instructions preserve the high bits", LLVM
    /// `GCNSubtarget::zeroesHigh16BitsOfDest`).
    pub dst16: bool,
    /// What clamp and omod do.
    pub res: Res,
    /// The lane mask read.
    pub mask: MaskIn,
    /// The e32 form accumulates into its destination, read as source 2.
    pub acc: bool,
    /// Float arithmetic that rounds: it runs only in round-to-nearest-even.
    pub rounds: bool,
}

impl Shape {
    /// 32-bit (or 64-bit) integer operands.
    pub const INT: Shape = Shape {
        src16: 0,
        dst16: false,
        res: Res::Int,
        mask: MaskIn::None,
        acc: false,
        rounds: false,
    };
    /// f32 arithmetic.
    pub const F32: Shape = Shape {
        res: Res::F32,
        rounds: true,
        ..Shape::INT
    };
    /// f64 arithmetic.
    pub const F64: Shape = Shape {
        res: Res::F64,
        rounds: true,
        ..Shape::INT
    };
    /// f16 arithmetic on 16-bit operands.
    pub const F16: Shape = Shape {
        src16: 0b111,
        dst16: true,
        res: Res::F16,
        rounds: true,
        ..Shape::INT
    };
    /// 16-bit integer operands and result.
    pub const I16: Shape = Shape {
        src16: 0b111,
        dst16: true,
        ..Shape::INT
    };

    /// The same shape without rounding (selections, moves).
    pub const fn exact(self) -> Shape {
        Shape {
            rounds: false,
            ..self
        }
    }

    /// The same shape accumulating into the destination.
    pub const fn acc(self) -> Shape {
        Shape { acc: true, ..self }
    }

    /// The same shape with result kind `res`.
    pub const fn res(self, res: Res) -> Shape {
        Shape { res, ..self }
    }

    /// The same shape reading lane mask `mask`.
    pub const fn mask(self, mask: MaskIn) -> Shape {
        Shape { mask, ..self }
    }

    /// The same shape with 16-bit sources `src16` and a 16-bit result or not.
    pub const fn halves(self, src16: u8, dst16: bool) -> Shape {
        Shape {
            src16,
            dst16,
            ..self
        }
    }
}

/// Per-instruction values every lane uses.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ctx {
    /// MODE's f16 denormal control (the double-precision bits).
    pub ctl16: DenormCtl,
    /// MODE's f32 denormal control.
    pub ctl32: DenormCtl,
    /// MODE's f64 denormal control.
    pub ctl64: DenormCtl,
    /// MODE.IEEE (bit 9).
    pub ieee: bool,
    /// The literal (`fmamk`/`fmaak`'s K).
    pub k: u32,
    /// VOP3 `clamp` (integer saturation; float clamping is applied after `eval`).
    pub clamp: bool,
}

impl Ctx {
    /// The context of an instruction with literal `k` and `clamp`, under MODE `mode`.
    pub fn new(mode: u32, k: u32, clamp: bool) -> Ctx {
        Ctx {
            ctl16: DenormCtl::from_mode_f16(mode),
            ctl32: DenormCtl::from_mode_f32(mode),
            ctl64: DenormCtl::from_mode_f64(mode),
            ieee: mode >> 9 & 1 == 1,
            k,
            clamp,
        }
    }
}
