//! The vector ALU instructions the executor implements, in their 32-bit (VOP1/VOP2/VOPC)
//! encodings, per AMD's pseudocode (`../shared/reference/rdna3-isa-pseudocode.txt`):
//! moves, integer add/sub/shift/bit logic/multiply-24/min/max, `v_cndmask_b32`, the carry
//! forms, f32 add/sub/mul/fmac, every `v_cmp_*`/`v_cmpx_*` of i16/u16/i32/u32/i64/u64/
//! f16/f32/f64 and the class tests, and `v_readfirstlane_b32`. Anything else (f32 min/max,
//! whose NaN and ±0 rules we have not pinned down yet, included) stops the run as
//! unimplemented. The 64-bit VOP3 encodings are in [`super::vop3`].
//!
//! Float arithmetic: round-to-nearest-even only (a MODE.FP_ROUND other than nearest-even
//! stops the run as unimplemented rather than giving wrong bits); denormal inputs/outputs
//! flushed per MODE.FP_DENORM;
//! a NaN input gives that input quieted (src0 first) — our reading, AMD's VALU pages give no
//! NaN-selection rule for these opcodes. VOPC writes VCC (bits of inactive lanes are 0);
//! `v_cmpx` writes EXEC instead.

use rdna3_isa::{Field, Instruction, Kind};

use crate::fp::DenormCtl;
use crate::wave::Wave;

/// Why a VALU instruction did not execute.
pub enum ValuError {
    /// Not implemented.
    Unimplemented,
}

fn src0(inst: &Instruction, w: &Wave, lane: u32, dwords: u8) -> u64 {
    let v = inst.get(Field::Src0);
    if v >= 256 {
        let r = v - 256;
        let lo = w.vgpr(r, lane) as u64;
        if dwords == 2 {
            lo | (w.vgpr(r + 1, lane) as u64) << 32
        } else {
            lo
        }
    } else if dwords == 2 {
        w.ssrc64(v, inst.literal)
    } else {
        w.ssrc32(v, inst.literal) as u64
    }
}

fn vsrc1(inst: &Instruction, w: &Wave, lane: u32, dwords: u8) -> u64 {
    let r = inst.get(Field::Vsrc1);
    let lo = w.vgpr(r, lane) as u64;
    if dwords == 2 {
        lo | (w.vgpr(r + 1, lane) as u64) << 32
    } else {
        lo
    }
}

fn src_dwords(inst: &Instruction) -> u8 {
    match inst.def().operand(Field::Src0).map(|o| o.kind) {
        Some(Kind::VSrc(n, _)) => n,
        _ => 1,
    }
}

fn flush32(x: u32, flush: bool) -> u32 {
    if flush && x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

fn flush64(x: u64, flush: bool) -> u64 {
    if flush && x & 0x7ff0_0000_0000_0000 == 0 {
        x & 0x8000_0000_0000_0000
    } else {
        x
    }
}

/// An f32 binary operation with the MODE rules above.
fn f32op(a: u32, b: u32, ctl: DenormCtl, op: fn(f32, f32) -> f32) -> u32 {
    let (a, b) = (flush32(a, ctl.flush_input), flush32(b, ctl.flush_input));
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
    if fa.is_nan() {
        return a | 0x0040_0000;
    }
    if fb.is_nan() {
        return b | 0x0040_0000;
    }
    let r = op(fa, fb);
    if r.is_nan() {
        return 0x7fc0_0000;
    }
    flush32(r.to_bits(), ctl.flush_output)
}

/// IEEE comparison `kind` (`f lt eq le gt lg ge o u nge nlg ngt nle neq nlt t`): the
/// ordered ones are false and the negated (`n*`) ones true when either input is NaN.
fn float_cmp(kind: &str, a: f64, b: f64) -> Option<bool> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let o = a.partial_cmp(&b);
    Some(match kind {
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
        _ => return None,
    })
}

fn int_cmp<T: Ord>(kind: &str, a: T, b: T) -> Option<bool> {
    Some(match kind {
        "f" => false,
        "t" => true,
        "lt" => a < b,
        "eq" => a == b,
        "le" => a <= b,
        "gt" => a > b,
        "ne" => a != b,
        "ge" => a >= b,
        _ => return None,
    })
}

/// `v_cmp_class`: bit i of the mask selects class i: 0 signalling NaN, 1 quiet NaN, 2 -inf,
/// 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
fn class_bit(bits: u64, exp_bits: u32, man_bits: u32) -> u32 {
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

fn compare(name: &str, inst: &Instruction, w: &Wave, lane: u32) -> Option<bool> {
    let rest = name
        .strip_prefix("v_cmpx_")
        .or_else(|| name.strip_prefix("v_cmp_"))?;
    let rest = rest.strip_suffix("_e32").unwrap_or(rest);
    let (kind, ty) = rest.rsplit_once('_')?;
    let n = src_dwords(inst);
    let a = src0(inst, w, lane, n);
    let b = vsrc1(inst, w, lane, n);
    let ctl32 = DenormCtl::from_mode_f32(w.mode);
    let ctl64 = DenormCtl::from_mode_f64(w.mode);
    if kind == "class" {
        let mask = b as u32;
        let c = match ty {
            "f32" => class_bit(a & 0xffff_ffff, 8, 23),
            "f64" => class_bit(a, 11, 52),
            "f16" => class_bit(a & 0xffff, 5, 10),
            _ => return None,
        };
        return Some(mask >> c & 1 == 1);
    }
    match ty {
        "f32" => {
            let fa = f32::from_bits(flush32(a as u32, ctl32.flush_input)) as f64;
            let fb = f32::from_bits(flush32(b as u32, ctl32.flush_input)) as f64;
            float_cmp(kind, fa, fb)
        }
        "f64" => float_cmp(
            kind,
            f64::from_bits(flush64(a, ctl64.flush_input)),
            f64::from_bits(flush64(b, ctl64.flush_input)),
        ),
        "f16" => {
            let h = |x: u64| f32::from_bits(crate::fp::valu::f16_to_f32(x as u16)) as f64;
            float_cmp(kind, h(a), h(b))
        }
        "i32" => int_cmp(kind, a as u32 as i32, b as u32 as i32),
        "u32" => int_cmp(kind, a as u32, b as u32),
        "i64" => int_cmp(kind, a as i64, b as i64),
        "u64" => int_cmp(kind, a, b),
        "i16" => int_cmp(kind, a as u16 as i16, b as u16 as i16),
        "u16" => int_cmp(kind, a as u16, b as u16),
        _ => None,
    }
}

/// Executes a VOP1/VOP2/VOPC instruction.
pub fn execute(inst: &Instruction, w: &mut Wave) -> Result<(), ValuError> {
    let d = inst.def();
    let name = d.name.strip_suffix("_e32").unwrap_or(d.name);
    let exec = w.exec();
    let lanes = || (0..w.size).filter(move |l| exec >> l & 1 == 1);
    let vdst = inst.get(Field::Vdst);
    let ctl = DenormCtl::from_mode_f32(w.mode);
    if name.starts_with("v_cmp") {
        let mut mask = 0u64;
        for l in lanes() {
            if compare(d.name, inst, w, l).ok_or(ValuError::Unimplemented)? {
                mask |= 1 << l;
            }
        }
        if name.starts_with("v_cmpx") {
            w.set_exec(mask);
        } else if w.size == 32 {
            w.set_sreg(crate::wave::VCC_LO, mask as u32);
        } else {
            w.set_sreg64(crate::wave::VCC_LO, mask);
        }
        return Ok(());
    }
    if name == "v_readfirstlane_b32" {
        let l = if exec == 0 { 0 } else { exec.trailing_zeros() };
        let v = src0(inst, w, l, 1) as u32;
        w.set_sreg(vdst, v);
        return Ok(());
    }
    let float = name.ends_with("_f32");
    if float && w.mode & 0xf != 0 {
        return Err(ValuError::Unimplemented);
    }
    let vcc = w.vcc();
    let mut carries = 0u64;
    let mut results = Vec::with_capacity(w.size as usize);
    for l in lanes() {
        let a = src0(inst, w, l, 1) as u32;
        let b = vsrc1(inst, w, l, 1) as u32;
        let cin = (vcc >> l & 1) as u32;
        let r = match name {
            "v_mov_b32" => a,
            "v_not_b32" => !a,
            "v_bfrev_b32" => a.reverse_bits(),
            "v_add_nc_u32" => a.wrapping_add(b),
            "v_sub_nc_u32" => a.wrapping_sub(b),
            "v_subrev_nc_u32" => b.wrapping_sub(a),
            "v_lshlrev_b32" => b << (a & 31),
            "v_lshrrev_b32" => b >> (a & 31),
            "v_ashrrev_i32" => ((b as i32) >> (a & 31)) as u32,
            "v_and_b32" => a & b,
            "v_or_b32" => a | b,
            "v_xor_b32" => a ^ b,
            "v_xnor_b32" => !(a ^ b),
            "v_min_i32" => (a as i32).min(b as i32) as u32,
            "v_max_i32" => (a as i32).max(b as i32) as u32,
            "v_min_u32" => a.min(b),
            "v_max_u32" => a.max(b),
            "v_mul_u32_u24" => (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff),
            "v_mul_hi_u32_u24" => (((a & 0xff_ffff) as u64 * (b & 0xff_ffff) as u64) >> 32) as u32,
            "v_mul_i32_i24" => ((a << 8) as i32 >> 8).wrapping_mul((b << 8) as i32 >> 8) as u32,
            "v_cndmask_b32" => {
                if cin == 1 {
                    b
                } else {
                    a
                }
            }
            "v_add_co_ci_u32" | "v_sub_co_ci_u32" | "v_subrev_co_ci_u32" => {
                let (x, y) = if name == "v_subrev_co_ci_u32" {
                    (b, a)
                } else {
                    (a, b)
                };
                let (r, carry) = if name == "v_add_co_ci_u32" {
                    let s = x as u64 + y as u64 + cin as u64;
                    (s as u32, s >> 32 != 0)
                } else {
                    let s = (x as u64).wrapping_sub(y as u64).wrapping_sub(cin as u64);
                    (s as u32, (y as u64 + cin as u64) > x as u64)
                };
                if carry {
                    carries |= 1 << l;
                }
                r
            }
            "v_add_f32" => f32op(a, b, ctl, |x, y| x + y),
            "v_sub_f32" => f32op(a, b, ctl, |x, y| x - y),
            "v_subrev_f32" => f32op(b, a, ctl, |x, y| x - y),
            "v_mul_f32" => f32op(a, b, ctl, |x, y| x * y),
            "v_fmac_f32" => {
                let c = w.vgpr(vdst, l);
                crate::fp::valu::fma_f32(
                    a,
                    b,
                    c,
                    crate::fp::valu::Round::NearestEven,
                    ctl.flush_input,
                    ctl.flush_output,
                )
            }
            _ => return Err(ValuError::Unimplemented),
        };
        results.push((l, r));
    }
    for (l, r) in results {
        w.set_vgpr(vdst, l, r);
    }
    if name.ends_with("_co_ci_u32") {
        if w.size == 32 {
            w.set_sreg(crate::wave::VCC_LO, carries as u32);
        } else {
            w.set_sreg64(crate::wave::VCC_LO, carries);
        }
    }
    Ok(())
}
