//! Every compare of the table — each `v_cmp_*` and `v_cmpx_*` in its e32 (VOPC) and e64
//! (VOP3) encodings, every predicate and type — on pairs of edge values (±0, denormals, ±inf,
//! quiet and signalling NaNs; for integers the extremes and sign boundaries, with garbage in
//! the unused high half of 16-bit operands), against the predicate written here with Rust's
//! own comparisons.

mod common;

use common::*;
use gpumemsim::exec::Device;
use gpumemsim::isa::{table, Format};

const F32S: [u32; 10] = [
    0xff80_0000, // -inf
    0xbfc0_0000, // -1.5
    0x8000_0000, // -0
    0x0000_0000, // +0
    0x0000_0001, // +denormal
    0x3f80_0000, // 1
    0x3fc0_0000, // 1.5
    0x7f80_0000, // +inf
    0x7fc0_0000, // qNaN
    0x7f80_0001, // sNaN
];
const F16S: [u32; 10] = [
    0x1234_fc00,
    0x0000_be00,
    0xffff_8000,
    0x0000_0000,
    0x0000_0001,
    0x5555_3c00,
    0x0000_3e00,
    0x0000_7c00,
    0x0000_7e00,
    0x0000_7c01,
];
const INTS: [u64; 10] = [
    0,
    1,
    u64::MAX,
    0x7fff,
    0x8000,
    0x7fff_ffff,
    0x8000_0000,
    0x7fff_ffff_ffff_ffff,
    0x8000_0000_0000_0000,
    0x0001_0000_0000_ffff,
];

fn f64_of(i: usize) -> u64 {
    [
        f64::NEG_INFINITY.to_bits(),
        (-1.5f64).to_bits(),
        (-0.0f64).to_bits(),
        0,
        1,
        1.0f64.to_bits(),
        1.5f64.to_bits(),
        f64::INFINITY.to_bits(),
        0x7ff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
    ][i]
}

/// The pair of value indices lane `l` compares in round `r`.
fn pair(l: u32, r: u32) -> (usize, usize) {
    let a = (l + 11 * r) % 10;
    let b = (l / 10 + 3 * l + 7 * r) % 10;
    (a as usize, b as usize)
}

fn float_pred(p: &str, o: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::*;
    match p {
        "f" => false,
        "t" => true,
        "lt" => o == Some(Less),
        "eq" => o == Some(Equal),
        "le" => matches!(o, Some(Less | Equal)),
        "gt" => o == Some(Greater),
        "lg" => matches!(o, Some(Less | Greater)),
        "ge" => matches!(o, Some(Greater | Equal)),
        "o" => o.is_some(),
        "u" => o.is_none(),
        "nge" => !matches!(o, Some(Greater | Equal)),
        "nlg" => !matches!(o, Some(Less | Greater)),
        "ngt" => o != Some(Greater),
        "nle" => !matches!(o, Some(Less | Equal)),
        "neq" => o != Some(Equal),
        "nlt" => o != Some(Less),
        _ => panic!("predicate {p}"),
    }
}

fn int_pred<T: Ord>(p: &str, a: T, b: T) -> bool {
    match p {
        "f" => false,
        "t" => true,
        "lt" => a < b,
        "eq" => a == b,
        "le" => a <= b,
        "gt" => a > b,
        "ne" => a != b,
        "ge" => a >= b,
        _ => panic!("predicate {p}"),
    }
}

/// The class index of float bits (0 sNaN ... 9 +inf), from the pseudocode's chain.
fn class_of(bits: u64, exp: u32, man: u32) -> u32 {
    let sign = bits >> (exp + man) & 1 == 1;
    let e = bits >> man & ((1 << exp) - 1);
    let m = bits & ((1 << man) - 1);
    let quiet = m >> (man - 1) & 1 == 1;
    match (e == (1 << exp) - 1, m != 0, e == 0) {
        (true, true, _) => quiet as u32,
        (true, false, _) => {
            if sign {
                2
            } else {
                9
            }
        }
        (false, _, false) => {
            if sign {
                3
            } else {
                8
            }
        }
        (false, true, true) => {
            if sign {
                4
            } else {
                7
            }
        }
        (false, false, true) => {
            if sign {
                5
            } else {
                6
            }
        }
    }
}

/// The expected result of `pred` on type `ty` for value indices (i, j).
fn expect(pred: &str, ty: &str, i: usize, j: usize) -> bool {
    let f16 = |x: u32| f32::from_bits(gpumemsim::fp::valu::f16_to_f32(x as u16));
    if pred == "class" {
        let mask = class_mask(j);
        let c = match ty {
            "f32" => class_of(F32S[i] as u64, 8, 23),
            "f64" => class_of(f64_of(i), 11, 52),
            _ => class_of(F16S[i] as u64 & 0xffff, 5, 10),
        };
        return mask >> c & 1 == 1;
    }
    match ty {
        "f32" => float_pred(
            pred,
            f32::from_bits(F32S[i]).partial_cmp(&f32::from_bits(F32S[j])),
        ),
        "f64" => float_pred(
            pred,
            f64::from_bits(f64_of(i)).partial_cmp(&f64::from_bits(f64_of(j))),
        ),
        "f16" => float_pred(pred, f16(F16S[i]).partial_cmp(&f16(F16S[j]))),
        "i16" => int_pred(pred, INTS[i] as u16 as i16, INTS[j] as u16 as i16),
        "u16" => int_pred(pred, INTS[i] as u16, INTS[j] as u16),
        "i32" => int_pred(pred, INTS[i] as u32 as i32, INTS[j] as u32 as i32),
        "u32" => int_pred(pred, INTS[i] as u32, INTS[j] as u32),
        "i64" => int_pred(pred, INTS[i] as i64, INTS[j] as i64),
        "u64" => int_pred(pred, INTS[i], INTS[j]),
        _ => panic!("type {ty}"),
    }
}

/// The class mask a lane's second operand holds for the class tests.
fn class_mask(j: usize) -> u32 {
    [
        0x3ff, 0x001, 0x002, 0x204, 0x0a0, 0x110, 0x048, 0x3fc, 0x155, 0x2aa,
    ][j]
}

fn setup(d: &mut Device, pred: &str, ty: &str, r: u32) {
    d.wave_mut(0).mode = mode(3, 3); // keep denormals: the expected values compare them
    let w = d.wave_mut(0);
    for l in 0..32 {
        let (i, j) = pair(l, r);
        let (a, b): (u64, u64) = match ty {
            "f32" => (F32S[i] as u64, F32S[j] as u64),
            "f64" => (f64_of(i), f64_of(j)),
            "f16" => (F16S[i] as u64, F16S[j] as u64),
            _ => (INTS[i], INTS[j]),
        };
        let b = if pred == "class" {
            class_mask(j) as u64
        } else {
            b
        };
        w.set_vgpr(1, l, a as u32);
        w.set_vgpr(2, l, (a >> 32) as u32);
        w.set_vgpr(3, l, b as u32);
        w.set_vgpr(4, l, (b >> 32) as u32);
    }
}

#[test]
fn every_compare_in_every_encoding_matches_its_predicate() {
    let mut ran = 0;
    for d in table::INSTRUCTIONS {
        if !matches!(d.format, Format::Vopc | Format::Vop3) || !d.name.starts_with("v_cmp") {
            continue;
        }
        let e64 = d.name.ends_with("_e64");
        let cmpx = d.name.starts_with("v_cmpx_");
        let core = d.name.trim_end_matches("_e32").trim_end_matches("_e64");
        let rest = core
            .trim_start_matches("v_cmpx_")
            .trim_start_matches("v_cmp_");
        let (pred, ty) = rest.rsplit_once('_').expect("pred_type");
        let wide = ty.ends_with("64") && pred != "class";
        let (a, b) = if wide {
            ("v[1:2]", "v[3:4]")
        } else if ty == "f64" {
            ("v[1:2]", "v3")
        } else {
            ("v1", "v3")
        };
        let text = match (cmpx, e64) {
            (true, _) => format!("{} {a}, {b}", d.name),
            (false, false) => format!("{} vcc_lo, {a}, {b}", d.name),
            (false, true) => format!("{} s10, {a}, {b}", d.name),
        };
        for r in 0..3 {
            let dev = run(&format!("{text}\ns_endpgm"), |dv| setup(dv, pred, ty, r));
            let w = dev.wave(0);
            let got = match (cmpx, e64) {
                (true, _) => w.exec() as u32,
                (false, false) => w.vcc() as u32,
                (false, true) => w.sreg(10),
            };
            let want = (0..32).fold(0u32, |m, l| {
                let (i, j) = pair(l, r);
                m | (expect(pred, ty, i, j) as u32) << l
            });
            assert_eq!(got, want, "{text} round {r}: got {got:#x} want {want:#x}");
            ran += 1;
        }
    }
    assert_eq!(ran, 3 * 2 * 190, "every VOPC op in both encodings");
}
