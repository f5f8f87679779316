//! f64 arithmetic, per the pseudocode, on the float rules of [`crate::fp`] (MODE's f64
//! denormal control, `Ctx::ctl64`).

use super::f32::RoundInt;
use super::shape::{Ctx, MaskIn, Res, Shape};
use crate::fp::arith as fa;
use crate::fp::{div, trans, valu_minmax_f64};

/// An f64 operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum F64Op {
    Add,
    Mul,
    Fma,
    Min,
    Max,
    /// `v_trunc`, `v_ceil`, `v_rndne`, `v_floor`.
    Round(RoundInt),
    Fract,
    Rcp,
    Rsq,
    Sqrt,
    FrexpMant,
    FrexpExp,
    Ldexp,
    DivScale,
    DivFmas,
    DivFixup,
    TrigPreop,
}

impl F64Op {
    pub fn shape(self) -> Shape {
        use F64Op::*;
        match self {
            Min | Max | FrexpMant | DivFixup => Shape::F64.exact(),
            Round(r) if r.exact() => Shape::F64.exact(),
            FrexpExp => Shape::F64.exact().res(Res::Int),
            DivFmas => Shape::F64.mask(MaskIn::Vcc),
            _ => Shape::F64,
        }
    }

    /// One lane: the result and (`V_DIV_SCALE_F64`) the VCC bit.
    #[inline(always)]
    pub fn eval(self, s: [u64; 3], mask_in: bool, cx: &Ctx) -> (u64, bool) {
        use F64Op::*;
        let (a, b, c) = (s[0], s[1], s[2]);
        let ctl = cx.ctl64;
        let r = match self {
            Add => fa::bin64(a, b, ctl, |x, y| x + y),
            Mul => fa::bin64(a, b, ctl, |x, y| x * y),
            Fma => fa::fma64(a, b, c, ctl),
            Min => valu_minmax_f64(a, b, false, cx.ieee, ctl.flush_input),
            Max => valu_minmax_f64(a, b, true, cx.ieee, ctl.flush_input),
            Round(r) => fa::un64(a, ctl, r.f64()),
            Fract => fa::fract64(a, ctl),
            Rcp => trans::rcp_f64(a, ctl),
            Rsq => trans::rsq_f64(a, ctl),
            Sqrt => trans::sqrt_f64(a, ctl),
            FrexpMant => fa::frexp_mant64(a, ctl),
            FrexpExp => fa::frexp_exp64(a, ctl) as u64,
            Ldexp => div::ldexp64(a, b as u32 as i32, ctl),
            DivScale => {
                let (r, vcc) = div::div_scale64(a, b, c);
                return (r, vcc);
            }
            DivFmas => div::div_fmas64(a, b, c, mask_in, ctl),
            DivFixup => div::div_fixup64(a, b, c, ctl),
            TrigPreop => div::trig_preop(a, b as u32),
        };
        (r, false)
    }
}
