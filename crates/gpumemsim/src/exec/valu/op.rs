//! What a VALU instruction computes — an [`Op`] of one family — worked out once per table
//! entry, with its operand [`Shape`] (defined in [`super::shape`], which the families share).

use super::compare::{CmpTy, Pred};
use super::convert::CvtOp;
use super::f16::F16Op;
use super::f32::F32Op;
use super::f64::F64Op;
use super::int::IntOp;
use super::int16::I16Op;
use super::sad::SadOp;
use super::shape::{Ctx, Shape};

/// An operation, by family. Each family's per-lane work is a `match` on its small enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Op {
    /// 32- and 64-bit integer and bit operations.
    Int(IntOp),
    /// 16-bit integer and bit operations.
    I16(I16Op),
    /// Sums of absolute differences and byte averages.
    Sad(SadOp),
    /// f16 arithmetic.
    F16(F16Op),
    /// f32 arithmetic.
    F32(F32Op),
    /// f64 arithmetic.
    F64(F64Op),
    /// Conversions between types.
    Cvt(CvtOp),
    /// A comparison writing a lane mask.
    Cmp(Pred, CmpTy),
    /// An operation over the whole wave rather than lane by lane.
    Whole(WholeOp),
}

/// Operations that read other lanes, other registers or more than 64 bits per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum WholeOp {
    Readfirstlane,
    Readlane,
    Writelane,
    Permlane64,
    Permlane16,
    Permlanex16,
    Movreld,
    Movrels,
    Movrelsd,
    Movrelsd2,
    Swap,
    Swaprel,
    MqsadU32U8,
    /// `v_nop`, `v_pipeflush`: nothing to compute (the pipeline flush has no effect on
    /// the simulated machine's state).
    Nop,
}

impl Op {
    /// The operand shape.
    pub fn shape(self) -> Shape {
        match self {
            Op::Int(o) => o.shape(),
            Op::I16(o) => o.shape(),
            Op::Sad(_) => Shape::INT,
            Op::F16(o) => o.shape(),
            Op::F32(o) => o.shape(),
            Op::F64(o) => o.shape(),
            Op::Cvt(o) => o.shape(),
            Op::Cmp(p, t) => super::compare::shape(p, t),
            Op::Whole(_) => Shape::INT,
        }
    }

    /// Whether the row form ([`super::fast::rows`]) runs the operation: each lane's result a
    /// function of the lane's three 32-bit sources (and MODE, the literal) alone, with no
    /// carry or flag in or out and no use of the lane's index. The list is the common
    /// operations of compiled code, each with a loop of its own in `fast::by_rows`.
    pub fn by_rows(self) -> bool {
        use F32Op as F;
        use IntOp as I;
        matches!(
            self,
            Op::F32(
                F::Fma
                    | F::Fmac
                    | F::Fmaak
                    | F::Fmamk
                    | F::Add
                    | F::Sub
                    | F::Subrev
                    | F::Mul
                    | F::Max
                    | F::Min
            ) | Op::Int(
                I::Mov
                    | I::Not
                    | I::And
                    | I::Or
                    | I::Xor
                    | I::Lshl
                    | I::Lshr
                    | I::Ashr
                    | I::AddNc
                    | I::SubNc
                    | I::MulLo
                    | I::MulU24
                    | I::LshlAdd
                    | I::Add3
                    | I::LshlOr
                    | I::AndOr
                    | I::BfeU
                    | I::MinI
                    | I::MaxI
                    | I::MinU
                    | I::MaxU
            )
        )
    }

    /// One lane: the result and the lane's carry-out / flag bit. Inlined, so that a lane
    /// loop of one constant operation resolves the `match`es at compile time.
    #[inline(always)]
    pub fn eval(self, s: [u64; 3], mask_in: bool, lane: u32, cx: &Ctx) -> (u64, bool) {
        match self {
            Op::Int(o) => o.eval(s, mask_in, lane, cx),
            Op::I16(o) => (o.eval(s, mask_in, cx), false),
            Op::Sad(o) => (o.eval(s, cx), false),
            Op::F16(o) => (o.eval(s, cx), false),
            Op::F32(o) => o.eval(s, mask_in, cx),
            Op::F64(o) => o.eval(s, mask_in, cx),
            Op::Cvt(o) => (o.eval(s, cx), false),
            Op::Cmp(p, t) => (0, super::compare::compare(p, t, s[0], s[1], cx)),
            Op::Whole(_) => (0, false),
        }
    }
}
