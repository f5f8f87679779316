//! f16 arithmetic, per the pseudocode, on [`crate::fp::f16`] and the transcendental unit
//! [`crate::fp::trans`], under MODE's f16 (double-precision) denormal control
//! (`Ctx::ctl16`).

use super::shape::{Ctx, Res, Shape};
use crate::fp::f16 as h;
use crate::fp::{bf16, div, trans};

/// An f16 operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum F16Op {
    Add,
    Sub,
    Subrev,
    Mul,
    Fma,
    Fmac,
    Fmamk,
    Fmaak,
    Max,
    Min,
    Max3,
    Min3,
    Med3,
    Maxmin,
    Minmax,
    Ldexp,
    Rcp,
    Sqrt,
    Rsq,
    Log,
    Exp,
    Sin,
    Cos,
    FrexpMant,
    FrexpExp,
    Floor,
    Ceil,
    Trunc,
    Rndne,
    Fract,
    DivFixup,
    /// `V_PK_FMAC_F16`: both halves of 32-bit operands.
    PkFmac,
    /// `V_DOT2_F16_F16`: packed f16 S0 and S1, an f16 S2 and result.
    Dot2,
    /// `V_DOT2_BF16_BF16`: packed bf16 S0 and S1, a bf16 S2 and result
    /// ([`crate::fp::bf16::dot2`]: MODE's f32 denormal control, each step rounded).
    Dot2Bf16,
}

impl F16Op {
    pub fn shape(self) -> Shape {
        use F16Op::*;
        match self {
            Fmac => Shape::F16.acc(),
            Max | Min | Max3 | Min3 | Med3 | Maxmin | Minmax | FrexpMant | Floor | Ceil | Trunc
            | DivFixup => Shape::F16.exact(),
            FrexpExp => Shape::F16.exact().res(Res::Int),
            PkFmac => Shape::F16.halves(0, false).res(Res::PkF16).acc(),
            Dot2 => Shape::F16.halves(0b100, true),
            // No f16 output modifier applies to a bf16 result (the entry takes no clamp).
            Dot2Bf16 => Shape::F16.halves(0b100, true).res(Res::Int),
            _ => Shape::F16,
        }
    }

    /// One lane: the 16-bit result (32 bits for `PkFmac`).
    #[inline]
    pub fn eval(self, s: [u64; 3], cx: &Ctx) -> u64 {
        use F16Op::*;
        let (a, b, c) = (s[0] as u16, s[1] as u16, s[2] as u16);
        let ctl = cx.ctl16;
        let (ieee, fi) = (cx.ieee, ctl.flush_input);
        let min = |x, y| h::minmax16(x, y, false, ieee, fi);
        let max = |x, y| h::minmax16(x, y, true, ieee, fi);
        let k = cx.k as u16;
        let r = match self {
            Add => h::add16(a, b, ctl),
            Sub => h::sub16(a, b, ctl),
            Subrev => h::sub16(b, a, ctl),
            Mul => h::mul16(a, b, ctl),
            Fma | Fmac => h::fma16(a, b, c, ctl),
            Fmamk => h::fma16(a, k, b, ctl),
            Fmaak => h::fma16(a, b, k, ctl),
            Max => max(a, b),
            Min => min(a, b),
            Max3 => max(max(a, b), c),
            Min3 => min(min(a, b), c),
            Med3 => h::med3_16(a, b, c, ieee, fi),
            Maxmin => min(max(a, b), c),
            Minmax => max(min(a, b), c),
            Ldexp => h::ldexp16(a, b as i16 as i32, ctl),
            Rcp => trans::rcp_f16(a, ctl),
            Sqrt => trans::sqrt_f16(a, ctl),
            Rsq => trans::rsq_f16(a, ctl),
            Log => trans::log2_f16(a, ctl),
            Exp => trans::exp2_f16(a, ctl),
            Sin => trans::sincos_f16(a, false, ctl),
            Cos => trans::sincos_f16(a, true, ctl),
            FrexpMant => h::frexp_mant16(a, ctl),
            FrexpExp => h::frexp_exp16(a, ctl),
            Floor => h::floor16(a, ctl),
            Ceil => h::ceil16(a, ctl),
            Trunc => h::trunc16(a, ctl),
            Rndne => h::rndne16(a, ctl),
            Fract => h::fract16(a, ctl),
            DivFixup => div::div_fixup16(a, b, c, ctl),
            PkFmac => {
                let half = |sh: u32| {
                    let x = |v: u64| (v >> sh) as u16;
                    h::fma16(x(s[0]), x(s[1]), x(s[2]), ctl) as u64
                };
                return half(0) | half(16) << 16;
            }
            Dot2 => {
                // tmp = S2; tmp += lo×lo; tmp += hi×hi, each `×` and `+=` an f16 operation
                // rounded once, as written.
                let x = |v: u64, sh: u32| (v >> sh) as u16;
                let t = h::add16(c, h::mul16(x(s[0], 0), x(s[1], 0), ctl), ctl);
                h::add16(t, h::mul16(x(s[0], 16), x(s[1], 16), ctl), ctl)
            }
            Dot2Bf16 => bf16::dot2(s[0] as u32, s[1] as u32, c, cx.ctl32),
        };
        r as u64
    }
}
