//! `V_CMP_*` / `V_CMPX_*`: every predicate on f16, f32, f64, i16, u16, i32, u32, i64, u64,
//! and the class tests, per the pseudocode. Float compares read denormals as ±0 under MODE's
//! input control for the type (f16 uses the double-precision bits); class tests look at the
//! raw bits.

use std::sync::OnceLock;

use super::shape::{Ctx, Res, Shape};
use crate::fp::arith::{flush32, flush64};
use crate::fp::f16::{flush16, to_f64 as f16_value};

/// A comparison's predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pred {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Lg,
    Ge,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
    T,
    Ne,
    Class,
}

/// A comparison's operand type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CmpTy {
    F16,
    F32,
    F64,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
}

/// The predicate a mnemonic part names.
pub(super) fn pred(s: &str) -> Option<Pred> {
    Some(match s {
        "f" => Pred::F,
        "lt" => Pred::Lt,
        "eq" => Pred::Eq,
        "le" => Pred::Le,
        "gt" => Pred::Gt,
        "lg" => Pred::Lg,
        "ge" => Pred::Ge,
        "o" => Pred::O,
        "u" => Pred::U,
        "nge" => Pred::Nge,
        "nlg" => Pred::Nlg,
        "ngt" => Pred::Ngt,
        "nle" => Pred::Nle,
        "neq" => Pred::Neq,
        "nlt" => Pred::Nlt,
        "t" => Pred::T,
        "ne" => Pred::Ne,
        "class" => Pred::Class,
        _ => return None,
    })
}

/// The operand type a mnemonic part names.
pub(super) fn cmp_ty(s: &str) -> Option<CmpTy> {
    Some(match s {
        "f16" => CmpTy::F16,
        "f32" => CmpTy::F32,
        "f64" => CmpTy::F64,
        "i16" => CmpTy::I16,
        "u16" => CmpTy::U16,
        "i32" => CmpTy::I32,
        "u32" => CmpTy::U32,
        "i64" => CmpTy::I64,
        "u64" => CmpTy::U64,
        _ => return None,
    })
}

/// Whether the predicate exists for the type on gfx11: the float predicates for floats,
/// the integer ones (f, lt, eq, le, gt, ne, ge, t) for integers, class for floats.
pub(super) fn valid(p: Pred, t: CmpTy) -> bool {
    let float = matches!(t, CmpTy::F16 | CmpTy::F32 | CmpTy::F64);
    match p {
        Pred::F | Pred::Lt | Pred::Eq | Pred::Le | Pred::Gt | Pred::Ge | Pred::T => true,
        Pred::Ne => !float,
        _ => float,
    }
}

/// The operand shape of a compare: 16-bit types read register halves (a class test's mask
/// in S1 is 32 bits).
pub(super) fn shape(p: Pred, t: CmpTy) -> Shape {
    let src16 = match (t, p) {
        (CmpTy::F16, Pred::Class) => 0b01,
        (CmpTy::F16 | CmpTy::I16 | CmpTy::U16, _) => 0b11,
        _ => 0,
    };
    Shape::INT.res(Res::Mask).halves(src16, false)
}

/// The class index of a float's bits (`exp_bits`, `man_bits`): 0 signalling NaN, 1 quiet NaN,
/// 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
pub(super) fn class_bit(bits: u64, exp_bits: u32, man_bits: u32) -> u32 {
    let sign = bits >> (exp_bits + man_bits) & 1 == 1;
    let exp = bits >> man_bits & ((1 << exp_bits) - 1);
    let man = bits & ((1 << man_bits) - 1);
    let exp_max = (1 << exp_bits) - 1;
    if exp == exp_max {
        if man == 0 {
            return if sign { 2 } else { 9 };
        }
        return if man >> (man_bits - 1) & 1 == 1 { 1 } else { 0 };
    }
    match (exp, man, sign) {
        (0, 0, true) => 5,
        (0, 0, false) => 6,
        (0, _, true) => 4,
        (0, _, false) => 7,
        (_, _, true) => 3,
        _ => 8,
    }
}

fn float_pred(p: Pred, o: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match p {
        Pred::F => false,
        Pred::T => true,
        Pred::Lt => o == Some(Less),
        Pred::Eq => o == Some(Equal),
        Pred::Le => matches!(o, Some(Less | Equal)),
        Pred::Gt => o == Some(Greater),
        Pred::Lg | Pred::Ne => matches!(o, Some(Less | Greater)),
        Pred::Ge => matches!(o, Some(Greater | Equal)),
        Pred::O => o.is_some(),
        Pred::U => o.is_none(),
        Pred::Nge => !matches!(o, Some(Greater | Equal)),
        Pred::Nlg => !matches!(o, Some(Less | Greater)),
        Pred::Ngt => o != Some(Greater),
        Pred::Nle => !matches!(o, Some(Less | Equal)),
        Pred::Neq => o != Some(Equal),
        Pred::Nlt => o != Some(Less),
        Pred::Class => false,
    }
}

fn int_pred<T: Ord>(p: Pred, a: T, b: T) -> bool {
    match p {
        Pred::T => true,
        Pred::Lt => a < b,
        Pred::Eq => a == b,
        Pred::Le => a <= b,
        Pred::Gt => a > b,
        Pred::Ne | Pred::Lg | Pred::Neq => a != b,
        Pred::Ge => a >= b,
        _ => false,
    }
}

/// The outcomes for which predicate `p` (not a class test) holds on an integer (`float`
/// false) or float type, as a mask: bit 0 less, 1 equal, 2 greater, 3 unordered (a NaN;
/// floats only), the bit [`order`] gives. Worked out once from [`compare`]'s own
/// predicates, so that a lane loop tests a bit where [`compare`] matches on the predicate.
#[inline]
pub(super) fn outcomes(p: Pred, float: bool) -> u8 {
    static MASKS: OnceLock<[[u8; 2]; PREDS]> = OnceLock::new();
    MASKS.get_or_init(|| std::array::from_fn(|i| [0, 1].map(|f| outcomes_of(ALL[i], f == 1))))
        [p as usize][float as usize]
}

/// Every predicate, in declaration order.
const ALL: [Pred; PREDS] = [
    Pred::F,
    Pred::Lt,
    Pred::Eq,
    Pred::Le,
    Pred::Gt,
    Pred::Lg,
    Pred::Ge,
    Pred::O,
    Pred::U,
    Pred::Nge,
    Pred::Nlg,
    Pred::Ngt,
    Pred::Nle,
    Pred::Neq,
    Pred::Nlt,
    Pred::T,
    Pred::Ne,
    Pred::Class,
];
const PREDS: usize = 18;

/// [`outcomes`], evaluated: an integer predicate compares the outcome with `Equal` as it
/// would compare `a` with `b` (`Less < Equal < Greater`).
fn outcomes_of(p: Pred, float: bool) -> u8 {
    use std::cmp::Ordering::{Equal, Greater, Less};
    [Some(Less), Some(Equal), Some(Greater), None]
        .iter()
        .enumerate()
        .map(|(bit, &o)| {
            let holds = match (float, o) {
                (true, _) => float_pred(p, o),
                (false, Some(o)) => int_pred(p, o, Equal),
                (false, None) => false,
            };
            (holds as u8) << bit
        })
        .fold(0, |m, b| m | b)
}

/// The outcome of comparing `a` with `b` (u32, i32 or f32, read as [`compare`] reads them):
/// 0 less, 1 equal, 2 greater, 3 unordered; the bit of [`outcomes`]'s mask.
#[inline(always)]
pub(super) fn order(t: CmpTy, a: u64, b: u64, cx: &Ctx) -> u32 {
    let ord = |lt: bool, gt: bool| (!lt) as u32 + gt as u32;
    match t {
        CmpTy::U32 => ord((a as u32) < b as u32, a as u32 > b as u32),
        CmpTy::I32 => ord((a as i32) < b as i32, a as i32 > b as i32),
        _ => {
            let f = |x: u64| f32::from_bits(flush32(x as u32, cx.ctl32.flush_input));
            let (x, y) = (f(a), f(b));
            if x.is_nan() || y.is_nan() {
                3
            } else {
                ord(x < y, x > y)
            }
        }
    }
}

/// One lane of a comparison (class tests: bit `class` of the mask in `b`).
#[inline]
pub(super) fn compare(p: Pred, t: CmpTy, a: u64, b: u64, cx: &Ctx) -> bool {
    if p == Pred::Class {
        let c = match t {
            CmpTy::F32 => class_bit(a & 0xffff_ffff, 8, 23),
            CmpTy::F64 => class_bit(a, 11, 52),
            _ => class_bit(a & 0xffff, 5, 10),
        };
        return b >> c & 1 == 1;
    }
    match t {
        CmpTy::F32 => {
            let f = |x: u64| f32::from_bits(flush32(x as u32, cx.ctl32.flush_input)) as f64;
            float_pred(p, f(a).partial_cmp(&f(b)))
        }
        CmpTy::F64 => {
            let f = |x: u64| f64::from_bits(flush64(x, cx.ctl64.flush_input));
            float_pred(p, f(a).partial_cmp(&f(b)))
        }
        CmpTy::F16 => {
            let f = |x: u64| f16_value(flush16(x as u16, cx.ctl16.flush_input));
            float_pred(p, f(a).partial_cmp(&f(b)))
        }
        CmpTy::I32 => int_pred(p, a as u32 as i32, b as u32 as i32),
        CmpTy::U32 => int_pred(p, a as u32, b as u32),
        CmpTy::I64 => int_pred(p, a as i64, b as i64),
        CmpTy::U64 => int_pred(p, a, b),
        CmpTy::I16 => int_pred(p, a as u16 as i16, b as u16 as i16),
        CmpTy::U16 => int_pred(p, a as u16, b as u16),
    }
}
