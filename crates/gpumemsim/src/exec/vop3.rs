//! The VOP3 (64-bit encoded) vector ALU instructions the executor implements, per AMD's
//! pseudocode (`../shared/reference/rdna3-isa-pseudocode.txt`, VOP3 512-830): `v_fma_f32`
//! with `abs`/`neg` source modifiers, and the integer three-operand and multiply family
//! (`v_mul_lo_u32`, `v_mul_hi_u32/i32`, `v_mad_u32_u24`, `v_mad_i32_i24`, `v_add_nc_i32`,
//! `v_sub_nc_i32`, `v_add3_u32`, `v_lshl_add_u32`, `v_add_lshl_u32`,
//! `v_lshl_or_b32`, `v_and_or_b32`, `v_or3_b32`, `v_xor3_b32`, `v_xad_u32`, `v_bfe_u32/i32`,
//! `v_bfi_b32`, `v_bfm_b32`, `v_alignbit_b32`, `v_alignbyte_b32`, `v_min3/max3/med3` and
//! `v_minmax/maxmin` of u32/i32, `v_bcnt_u32_b32`, `v_mbcnt_lo/hi_u32_b32`, the 64-bit shifts,
//! `v_cvt_pk_u16_u32`, `v_cvt_pk_i16_i32`), and the VOP3SD carry-out forms (`v_add_co_u32`,
//! `v_sub_co_u32`, `v_subrev_co_u32`, `v_mad_u64_u32`, `v_mad_i64_i32`).
//!
//! `clamp` and the output modifier (`mul:2`, `mul:4`, `div:2`) are not implemented: an
//! instruction that sets them stops the run as unimplemented rather than give bits we have
//! not checked. Float rounding is round-to-nearest-even only, as in [`super::valu`].

use rdna3_isa::{Field, Instruction};

use super::valu::ValuError;
use crate::fp::valu::{fma_f32, Round};
use crate::fp::DenormCtl;
use crate::wave::Wave;

/// Source `i` (0-2) of `lane`: its 9-bit field as a VGPR, scalar, constant or literal, of
/// `dwords` dwords.
fn src(inst: &Instruction, w: &Wave, lane: u32, i: usize, dwords: u8) -> u64 {
    let v = inst.get([Field::Src0, Field::Src1, Field::Src2][i]);
    if v >= 256 {
        let lo = w.vgpr(v - 256, lane) as u64;
        if dwords == 2 {
            lo | (w.vgpr(v - 255, lane) as u64) << 32
        } else {
            lo
        }
    } else if dwords == 2 {
        w.ssrc64(v, inst.literal)
    } else {
        w.ssrc32(v, inst.literal) as u64
    }
}

/// Source `i` of an f32 operation with its `abs` and `neg` bits applied to the sign.
fn fsrc(inst: &Instruction, w: &Wave, lane: u32, i: usize) -> u32 {
    let mut x = src(inst, w, lane, i, 1) as u32;
    if inst.get(Field::Abs) >> i & 1 == 1 {
        x &= 0x7fff_ffff;
    }
    if inst.get(Field::Neg) >> i & 1 == 1 {
        x ^= 0x8000_0000;
    }
    x
}

fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}

/// The VOP3SD carry-out forms (VOP3SD 766-770): `v_add_co_u32`, `v_sub_co_u32`,
/// `v_subrev_co_u32` and `v_mad_u64_u32`/`v_mad_i64_i32`, whose carry (or bit 64 of the
/// 65-bit multiply-add) goes to the SGPR destination, one bit per lane (inactive lanes 0).
fn carry_out(inst: &Instruction, w: &mut Wave) -> Result<(), ValuError> {
    let name = inst.def().name;
    let exec = w.exec();
    let vdst = inst.get(Field::Vdst);
    let mut mask = 0u64;
    let mut results: Vec<(u32, u64)> = Vec::with_capacity(w.size as usize);
    for l in (0..w.size).filter(|l| exec >> l & 1 == 1) {
        let a = src(inst, w, l, 0, 1) as u32;
        let b = src(inst, w, l, 1, 1) as u32;
        let (r, carry) = match name {
            "v_add_co_u32" => {
                let t = a as u64 + b as u64;
                (t as u32 as u64, t >> 32 != 0)
            }
            "v_sub_co_u32" => (a.wrapping_sub(b) as u64, b > a),
            "v_subrev_co_u32" => (b.wrapping_sub(a) as u64, a > b),
            "v_mad_u64_u32" => {
                let t = a as u128 * b as u128 + src(inst, w, l, 2, 2) as u128;
                (t as u64, t >> 64 & 1 == 1)
            }
            "v_mad_i64_i32" => {
                let c = src(inst, w, l, 2, 2) as i64 as i128;
                let t = a as i32 as i128 * b as i32 as i128 + c;
                (t as u64, t >> 64 & 1 == 1)
            }
            _ => return Err(ValuError::Unimplemented),
        };
        if carry {
            mask |= 1 << l;
        }
        results.push((l, r));
    }
    let wide = name.starts_with("v_mad_");
    for (l, r) in results {
        w.set_vgpr(vdst, l, r as u32);
        if wide {
            w.set_vgpr(vdst + 1, l, (r >> 32) as u32);
        }
    }
    let sdst = inst.get(Field::Sdst);
    if w.size == 32 {
        w.set_sreg(sdst, mask as u32);
    } else {
        w.set_sreg64(sdst, mask);
    }
    Ok(())
}

/// Executes a VOP3 instruction for every lane in EXEC.
pub fn execute(inst: &Instruction, w: &mut Wave) -> Result<(), ValuError> {
    let name = inst.def().name;
    if inst.get(Field::Clamp) != 0 || inst.get(Field::Omod) != 0 {
        return Err(ValuError::Unimplemented);
    }
    if inst.def().operand(Field::Sdst).is_some() {
        return carry_out(inst, w);
    }
    let float = name == "v_fma_f32";
    if float && w.mode & 0xf != 0 {
        return Err(ValuError::Unimplemented);
    }
    let ctl = DenormCtl::from_mode_f32(w.mode);
    let wide = name.ends_with("_b64") || name.ends_with("_i64");
    let exec = w.exec();
    let vdst = inst.get(Field::Vdst);
    let mut results: Vec<(u32, u64)> = Vec::with_capacity(w.size as usize);
    for l in (0..w.size).filter(|l| exec >> l & 1 == 1) {
        if float {
            let r = fma_f32(
                fsrc(inst, w, l, 0),
                fsrc(inst, w, l, 1),
                fsrc(inst, w, l, 2),
                Round::NearestEven,
                ctl.flush_input,
                ctl.flush_output,
            );
            results.push((l, r as u64));
            continue;
        }
        if wide {
            let s = src(inst, w, l, 0, 1) as u32 & 63;
            let x = src(inst, w, l, 1, 2);
            let r = match name {
                "v_lshlrev_b64" => x << s,
                "v_lshrrev_b64" => x >> s,
                "v_ashrrev_i64" => ((x as i64) >> s) as u64,
                _ => return Err(ValuError::Unimplemented),
            };
            results.push((l, r));
            continue;
        }
        let a = src(inst, w, l, 0, 1) as u32;
        let b = src(inst, w, l, 1, 1) as u32;
        let c = src(inst, w, l, 2, 1) as u32;
        let (ai, bi, ci) = (a as i32, b as i32, c as i32);
        let thread_mask = (1u64 << l) - 1;
        let r = match name {
            "v_mul_lo_u32" => a.wrapping_mul(b),
            "v_mad_u32_u24" => (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c),
            "v_mad_i32_i24" => ((ai << 8) >> 8)
                .wrapping_mul((bi << 8) >> 8)
                .wrapping_add(ci) as u32,
            "v_add_nc_i32" => ai.wrapping_add(bi) as u32,
            "v_sub_nc_i32" => ai.wrapping_sub(bi) as u32,
            "v_mul_hi_u32" => ((a as u64 * b as u64) >> 32) as u32,
            "v_mul_hi_i32" => ((ai as i64 * bi as i64) >> 32) as u32,
            "v_add3_u32" => a.wrapping_add(b).wrapping_add(c),
            "v_lshl_add_u32" => (a << (b & 31)).wrapping_add(c),
            "v_add_lshl_u32" => a.wrapping_add(b) << (c & 31),
            "v_lshl_or_b32" => (a << (b & 31)) | c,
            "v_and_or_b32" => (a & b) | c,
            "v_or3_b32" => a | b | c,
            "v_xor3_b32" => a ^ b ^ c,
            "v_xad_u32" => (a ^ b).wrapping_add(c),
            "v_bfe_u32" => (a >> (b & 31)) & ((1u64 << (c & 31)) - 1) as u32,
            "v_bfe_i32" => {
                let width = c & 31;
                if width == 0 {
                    0
                } else {
                    let field = (a >> (b & 31)) & ((1u64 << width) - 1) as u32;
                    ((field << (32 - width)) as i32 >> (32 - width)) as u32
                }
            }
            "v_bfi_b32" => (a & b) | (!a & c),
            "v_bfm_b32" => (((1u64 << (a & 31)) - 1) as u32) << (b & 31),
            "v_alignbit_b32" => (((a as u64) << 32 | b as u64) >> (c & 31)) as u32,
            "v_alignbyte_b32" => (((a as u64) << 32 | b as u64) >> (8 * (c & 3))) as u32,
            "v_min3_u32" => a.min(b).min(c),
            "v_max3_u32" => a.max(b).max(c),
            "v_med3_u32" => med3(a, b, c),
            "v_min3_i32" => ai.min(bi).min(ci) as u32,
            "v_max3_i32" => ai.max(bi).max(ci) as u32,
            "v_med3_i32" => med3(ai, bi, ci) as u32,
            "v_maxmin_u32" => a.max(b).min(c),
            "v_minmax_u32" => a.min(b).max(c),
            "v_maxmin_i32" => ai.max(bi).min(ci) as u32,
            "v_minmax_i32" => ai.min(bi).max(ci) as u32,
            "v_bcnt_u32_b32" => a.count_ones().wrapping_add(b),
            "v_mbcnt_lo_u32_b32" => (a & thread_mask as u32).count_ones().wrapping_add(b),
            "v_mbcnt_hi_u32_b32" => (a & (thread_mask >> 32) as u32)
                .count_ones()
                .wrapping_add(b),
            "v_cvt_pk_u16_u32" => a.min(0xffff) | b.min(0xffff) << 16,
            "v_cvt_pk_i16_i32" => {
                let sat = |x: i32| x.clamp(-32768, 32767) as u16 as u32;
                sat(ai) | sat(bi) << 16
            }
            _ => return Err(ValuError::Unimplemented),
        };
        results.push((l, r as u64));
    }
    for (l, r) in results {
        w.set_vgpr(vdst, l, r as u32);
        if wide {
            w.set_vgpr(vdst + 1, l, (r >> 32) as u32);
        }
    }
    Ok(())
}
