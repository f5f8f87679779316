//! f32 arithmetic, per the pseudocode, on the float rules of [`crate::fp`]: MODE's f32
//! denormal control (`Ctx::ctl32`), NaN inputs quieted in source order, round to nearest
//! even.

use super::shape::{Ctx, MaskIn, Res, Shape};
use crate::fp::arith::{self as fa, flush32};
use crate::fp::{div, trans, valu_minmax_f32};

/// An f32 operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum F32Op {
    Add,
    Sub,
    Subrev,
    Mul,
    MulDx9,
    Fmac,
    FmacDx9,
    Fmamk,
    Fmaak,
    Fma,
    FmaDx9,
    Min,
    Max,
    Min3,
    Max3,
    Med3,
    Minmax,
    Maxmin,
    /// `v_trunc`, `v_ceil`, `v_rndne`, `v_floor`.
    Round(RoundInt),
    Fract,
    Rcp,
    Rsq,
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    FrexpMant,
    FrexpExp,
    Ldexp,
    CubeId,
    CubeSc,
    CubeTc,
    CubeMa,
    Mullit,
    DivScale,
    DivFmas,
    DivFixup,
    /// `V_DOT2ACC_F32_F16`: packed f16 sources, an f32 accumulator.
    Dot2Acc,
}

impl F32Op {
    pub fn shape(self) -> Shape {
        use F32Op::*;
        match self {
            Fmac | FmacDx9 | Dot2Acc => Shape::F32.acc(),
            Min | Max | Min3 | Max3 | Med3 | Minmax | Maxmin | FrexpMant | CubeId | CubeSc
            | CubeTc | DivFixup => Shape::F32.exact(),
            Round(r) if r.exact() => Shape::F32.exact(),
            FrexpExp => Shape::F32.exact().res(Res::Int),
            DivFmas => Shape::F32.mask(MaskIn::Vcc),
            _ => Shape::F32,
        }
    }

    /// One lane: the result and (`V_DIV_SCALE_F32`) the VCC bit.
    #[inline(always)]
    pub fn eval(self, s: [u64; 3], mask_in: bool, cx: &Ctx) -> (u64, bool) {
        use F32Op::*;
        let (a, b, c) = (s[0] as u32, s[1] as u32, s[2] as u32);
        let ctl = cx.ctl32;
        let (ieee, fi) = (cx.ieee, ctl.flush_input);
        let min = |x, y| valu_minmax_f32(x, y, false, ieee, fi);
        let max = |x, y| valu_minmax_f32(x, y, true, ieee, fi);
        let r = match self {
            Add => fa::bin32(a, b, ctl, |x, y| x + y),
            Sub => fa::bin32(a, b, ctl, |x, y| x - y),
            Subrev => fa::bin32(b, a, ctl, |x, y| x - y),
            Mul => fa::bin32(a, b, ctl, |x, y| x * y),
            MulDx9 => fa::mul_dx9_zero32(a, b, ctl),
            Fmac | Fma => fa::fma32(a, b, c, ctl),
            FmacDx9 | FmaDx9 => {
                // DX9 rules: 0 × anything (inf and NaN included) adds nothing: D = S2.
                if flush32(a, fi) & 0x7fff_ffff == 0 || flush32(b, fi) & 0x7fff_ffff == 0 {
                    c
                } else {
                    fa::fma32(a, b, c, ctl)
                }
            }
            Fmamk => fa::fma32(a, cx.k, b, ctl),
            Fmaak => fa::fma32(a, b, cx.k, ctl),
            Min => min(a, b),
            Max => max(a, b),
            Min3 => min(min(a, b), c),
            Max3 => max(max(a, b), c),
            Med3 => crate::fp::valu_med3_f32(a, b, c, ieee, fi),
            Minmax => max(min(a, b), c),
            Maxmin => min(max(a, b), c),
            Round(r) => fa::un32(a, ctl, r.f32()),
            Fract => fa::fract32(a, ctl),
            Rcp => trans::rcp_f32(a),
            Rsq => trans::rsq_f32(a),
            Sqrt => trans::sqrt_f32(a),
            Exp => trans::exp2_f32(a),
            Log => trans::log2_f32(a),
            Sin => trans::sincos_f32(a, false, ctl),
            Cos => trans::sincos_f32(a, true, ctl),
            FrexpMant => fa::frexp_mant32(a, ctl),
            FrexpExp => fa::frexp_exp32(a, ctl),
            Ldexp => div::ldexp32(a, b as i32, ctl),
            CubeId | CubeSc | CubeTc | CubeMa => cube(self, a, b, c, cx),
            Mullit => mullit(a, b, c, cx),
            DivScale => {
                let (r, vcc) = div::div_scale32(a, b, c);
                return (r as u64, vcc);
            }
            DivFmas => div::div_fmas32(a, b, c, mask_in, ctl),
            DivFixup => div::div_fixup32(a, b, c, ctl),
            Dot2Acc => dot2acc(a, b, c, cx),
        };
        (r as u64, false)
    }
}

/// Rounding to an integral value: the same four operations in f32 and f64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RoundInt {
    /// Toward zero.
    Trunc,
    /// Toward +inf.
    Ceil,
    /// To nearest, ties to even.
    Rndne,
    /// Toward -inf.
    Floor,
}

impl RoundInt {
    /// Whether the operation counts as exact (a selection rather than float arithmetic that
    /// rounds): all but `v_rndne`.
    pub fn exact(self) -> bool {
        self != RoundInt::Rndne
    }

    /// The rounding on f32 values.
    pub fn f32(self) -> fn(f32) -> f32 {
        match self {
            RoundInt::Trunc => f32::trunc,
            RoundInt::Ceil => f32::ceil,
            RoundInt::Rndne => f32::round_ties_even,
            RoundInt::Floor => f32::floor,
        }
    }

    /// The rounding on f64 values.
    pub fn f64(self) -> fn(f64) -> f64 {
        match self {
            RoundInt::Trunc => f64::trunc,
            RoundInt::Ceil => f64::ceil,
            RoundInt::Rndne => f64::round_ties_even,
            RoundInt::Floor => f64::floor,
        }
    }
}

/// `V_CUBEID/SC/TC/MA_F32` of the direction (x, y, z) = (S0, S1, S2), per the pseudocode:
/// the major axis is z when |z| >= |x| and |z| >= |y|, else y when |y| >= |x|, else x.
/// Inputs are read with MODE's input flushing; `-S` flips the sign bit (a NaN keeps its
/// payload); `V_CUBEMA_F32` doubles the major coordinate as an f32 multiply.
fn cube(op: F32Op, x: u32, y: u32, z: u32, cx: &Ctx) -> u32 {
    let fi = cx.ctl32.flush_input;
    let (x, y, z) = (flush32(x, fi), flush32(y, fi), flush32(z, fi));
    let (fx, fy, fz) = (f32::from_bits(x), f32::from_bits(y), f32::from_bits(z));
    let neg = |v: u32| v ^ 0x8000_0000;
    let major = if fz.abs() >= fx.abs() && fz.abs() >= fy.abs() {
        2
    } else if fy.abs() >= fx.abs() {
        1
    } else {
        0
    };
    let two = |v: u32| fa::bin32(v, 2.0f32.to_bits(), cx.ctl32, |p, q| p * q);
    match (op, major) {
        (F32Op::CubeId, 2) => face(fz < 0.0, 5.0, 4.0),
        (F32Op::CubeId, 1) => face(fy < 0.0, 3.0, 2.0),
        (F32Op::CubeId, _) => face(fx < 0.0, 1.0, 0.0),
        (F32Op::CubeSc, 2) => {
            if fz < 0.0 {
                neg(x)
            } else {
                x
            }
        }
        (F32Op::CubeSc, 1) => x,
        (F32Op::CubeSc, _) => {
            if fx < 0.0 {
                z
            } else {
                neg(z)
            }
        }
        (F32Op::CubeTc, 2) => neg(y),
        (F32Op::CubeTc, 1) => {
            if fy < 0.0 {
                neg(z)
            } else {
                z
            }
        }
        (F32Op::CubeTc, _) => neg(y),
        (_, 2) => two(z),
        (_, 1) => two(y),
        _ => two(x),
    }
}

fn face(negative: bool, if_neg: f32, if_pos: f32) -> u32 {
    if negative {
        if_neg.to_bits()
    } else {
        if_pos.to_bits()
    }
}

/// `V_MULLIT_F32` per the pseudocode: -MAX_FLOAT when S1 is -MAX_FLOAT, -inf or NaN, or S2
/// is not above 0 or NaN; else `S0 × S1` as `V_MUL_F32`.
fn mullit(a: u32, b: u32, c: u32, cx: &Ctx) -> u32 {
    let fi = cx.ctl32.flush_input;
    let (fb, fc) = (
        f32::from_bits(flush32(b, fi)),
        f32::from_bits(flush32(c, fi)),
    );
    if fb == -f32::MAX || fb == f32::NEG_INFINITY || fb.is_nan() || fc <= 0.0 || fc.is_nan() {
        (-f32::MAX).to_bits()
    } else {
        fa::bin32(a, b, cx.ctl32, |x, y| x * y)
    }
}

/// `V_DOT2ACC_F32_F16` per the pseudocode: `tmp = D; tmp += lo(S0)×lo(S1); tmp += hi(S0)×
/// hi(S1)`. Each product of two f16 values is exact in f32; each `+=` is an f32 addition
/// rounded to nearest even (two roundings, as written). The f16 inputs are read with MODE's
/// f16 input flushing, the additions use the f32 control.
fn dot2acc(a: u32, b: u32, acc: u32, cx: &Ctx) -> u32 {
    let h = |x: u32, sh: u32| {
        let v = crate::fp::f16::flush16((x >> sh) as u16, cx.ctl16.flush_input);
        f32::from_bits(crate::fp::valu::f16_to_f32(v))
    };
    let prod = |sh: u32| {
        fa::bin32(h(a, sh).to_bits(), h(b, sh).to_bits(), cx.ctl32, |x, y| {
            x * y
        })
    };
    let t = fa::bin32(acc, prod(0), cx.ctl32, |x, y| x + y);
    fa::bin32(t, prod(16), cx.ctl32, |x, y| x + y)
}
