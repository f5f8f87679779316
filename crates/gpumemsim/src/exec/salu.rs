//! The scalar ALU instructions the executor implements (SOP1, SOP2, SOPC, SOPK), per AMD's
//! pseudocode (`../shared/reference/rdna3-isa-pseudocode.txt`).

use rdna3_isa::{Field, Format, Instruction};

use crate::wave::Wave;

/// Executes a scalar ALU instruction; `false` if the executor does not implement it.
pub fn execute(inst: &Instruction, w: &mut Wave) -> bool {
    let d = inst.def();
    match d.format {
        Format::Sop1 => sop1(inst, w),
        Format::Sop2 => sop2(inst, w),
        Format::Sopc => sopc(inst, w),
        Format::Sopk => sopk(inst, w),
        _ => false,
    }
}

/// Source field `f`'s value read as 32 and as 64 bits (the field read once: an instruction's
/// fields are found through the format's table of positions).
fn src(inst: &Instruction, w: &Wave, f: Field) -> (u32, u64) {
    let code = inst.get(f);
    (w.ssrc32(code, inst.literal), w.ssrc64(code, inst.literal))
}

/// Writes `r` to `dst` with SCC = (`r` != 0), as the bit logic, shifts and counts do.
fn set_nonzero32(w: &mut Wave, dst: u32, r: u32) {
    w.set_sreg(dst, r);
    w.scc = r != 0;
}

/// [`set_nonzero32`] for a 64-bit result.
fn set_nonzero64(w: &mut Wave, dst: u32, r: u64) {
    w.set_sreg64(dst, r);
    w.scc = r != 0;
}

/// A bit scan's result: `n`, or all ones when the scanned value `x` is zero (no bit found).
fn bit_scan(x: u64, n: u32) -> u32 {
    if x == 0 {
        u32::MAX
    } else {
        n
    }
}

/// `s_{and,or,xor,and_not1}_saveexec_b{32,64}` (`name`; `wide`: the b64 form): saves EXEC
/// to `dst`, then EXEC = `s` op EXEC and SCC = (EXEC != 0).
fn saveexec(w: &mut Wave, name: &str, dst: u32, s: u64, wide: bool) {
    let exec = w.exec();
    let bits = if wide {
        w.set_sreg64(dst, exec);
        u64::MAX
    } else {
        w.set_sreg(dst, exec as u32);
        0xffff_ffff
    };
    let exec = exec & bits;
    let r = match name.split("_saveexec_").next() {
        Some("s_and") => s & exec,
        Some("s_or") => s | exec,
        Some("s_xor") => s ^ exec,
        _ => s & !exec,
    } & bits;
    w.set_exec(r);
    w.scc = r != 0;
}

/// SOP1: one scalar source, a scalar destination.
fn sop1(inst: &Instruction, w: &mut Wave) -> bool {
    let dst = inst.get(Field::Sdst);
    let (s32, s64) = src(inst, w, Field::Ssrc0);
    match inst.def().name {
        "s_mov_b32" => w.set_sreg(dst, s32),
        "s_mov_b64" => w.set_sreg64(dst, s64),
        "s_cmov_b32" => {
            if w.scc {
                w.set_sreg(dst, s32)
            }
        }
        "s_cmov_b64" => {
            if w.scc {
                w.set_sreg64(dst, s64)
            }
        }
        "s_not_b32" => set_nonzero32(w, dst, !s32),
        "s_not_b64" => set_nonzero64(w, dst, !s64),
        "s_brev_b32" => w.set_sreg(dst, s32.reverse_bits()),
        "s_brev_b64" => w.set_sreg64(dst, s64.reverse_bits()),
        "s_abs_i32" => set_nonzero32(w, dst, (s32 as i32).wrapping_abs() as u32),
        "s_bcnt1_i32_b32" => set_nonzero32(w, dst, s32.count_ones()),
        "s_bcnt1_i32_b64" => set_nonzero32(w, dst, s64.count_ones()),
        "s_ctz_i32_b32" => w.set_sreg(dst, bit_scan(s32.into(), s32.trailing_zeros())),
        "s_ctz_i32_b64" => w.set_sreg(dst, bit_scan(s64, s64.trailing_zeros())),
        "s_clz_i32_u32" => w.set_sreg(dst, bit_scan(s32.into(), s32.leading_zeros())),
        "s_sext_i32_i8" => w.set_sreg(dst, s32 as u8 as i8 as i32 as u32),
        "s_sext_i32_i16" => w.set_sreg(dst, s32 as u16 as i16 as i32 as u32),
        name @ ("s_and_saveexec_b32"
        | "s_or_saveexec_b32"
        | "s_xor_saveexec_b32"
        | "s_and_not1_saveexec_b32"
        | "s_and_saveexec_b64"
        | "s_or_saveexec_b64"
        | "s_xor_saveexec_b64"
        | "s_and_not1_saveexec_b64") => {
            let wide = name.ends_with("_b64");
            saveexec(w, name, dst, if wide { s64 } else { s32.into() }, wide)
        }
        _ => return false,
    }
    true
}

/// SOP2: two scalar sources, a scalar destination.
fn sop2(inst: &Instruction, w: &mut Wave) -> bool {
    let dst = inst.get(Field::Sdst);
    let (a, a64) = src(inst, w, Field::Ssrc0);
    let (b, b64) = src(inst, w, Field::Ssrc1);
    let name = inst.def().name;
    sop2_arith(name, w, dst, a, b) || sop2_bits(name, w, dst, (a, b), (a64, b64))
}

/// The SOP2 arithmetic: adds and subtracts with their carry or overflow in SCC, multiplies,
/// shift-adds, min and max; `false` for another instruction.
fn sop2_arith(name: &str, w: &mut Wave, dst: u32, a: u32, b: u32) -> bool {
    let with_scc = |w: &mut Wave, r: u32, scc: bool| {
        w.set_sreg(dst, r);
        w.scc = scc;
    };
    let (ai, bi) = (a as i32, b as i32);
    match name {
        "s_add_u32" => {
            let (r, c) = a.overflowing_add(b);
            with_scc(w, r, c);
        }
        "s_sub_u32" => {
            let (r, c) = a.overflowing_sub(b);
            with_scc(w, r, c);
        }
        "s_addc_u32" => {
            let r = a as u64 + b as u64 + w.scc as u64;
            with_scc(w, r as u32, r >> 32 != 0);
        }
        "s_subb_u32" => {
            let r = (a as u64).wrapping_sub(b as u64).wrapping_sub(w.scc as u64);
            let borrow = (b as u64 + w.scc as u64) > a as u64;
            with_scc(w, r as u32, borrow);
        }
        "s_add_i32" => {
            let (r, o) = ai.overflowing_add(bi);
            with_scc(w, r as u32, o);
        }
        "s_sub_i32" => {
            let (r, o) = ai.overflowing_sub(bi);
            with_scc(w, r as u32, o);
        }
        "s_absdiff_i32" => set_nonzero32(w, dst, ai.wrapping_sub(bi).wrapping_abs() as u32),
        "s_mul_i32" => w.set_sreg(dst, a.wrapping_mul(b)),
        "s_mul_hi_u32" => w.set_sreg(dst, ((a as u64 * b as u64) >> 32) as u32),
        "s_mul_hi_i32" => w.set_sreg(dst, ((ai as i64 * bi as i64) >> 32) as u32),
        "s_lshl1_add_u32" | "s_lshl2_add_u32" | "s_lshl3_add_u32" | "s_lshl4_add_u32" => {
            let sh = name.as_bytes()[6] - b'0';
            let r = ((a as u64) << sh) + b as u64;
            with_scc(w, r as u32, r >> 32 != 0);
        }
        // SCC: whether the first source was chosen.
        "s_min_i32" => with_scc(w, if ai < bi { a } else { b }, ai < bi),
        "s_min_u32" => with_scc(w, if a < b { a } else { b }, a < b),
        "s_max_i32" => with_scc(w, if ai > bi { a } else { b }, ai > bi),
        "s_max_u32" => with_scc(w, if a > b { a } else { b }, a > b),
        _ => return false,
    }
    true
}

/// The SOP2 bit operations: shifts and logic (SCC = result != 0), conditional selects,
/// bit-field masks and extracts, and 16-bit packs; `false` for another instruction.
fn sop2_bits(
    name: &str,
    w: &mut Wave,
    dst: u32,
    (a, b): (u32, u32),
    (a64, b64): (u64, u64),
) -> bool {
    let logic32 = |w: &mut Wave, r: u32| set_nonzero32(w, dst, r);
    let logic64 = |w: &mut Wave, r: u64| set_nonzero64(w, dst, r);
    match name {
        "s_lshl_b32" => logic32(w, a << (b & 31)),
        "s_lshr_b32" => logic32(w, a >> (b & 31)),
        "s_ashr_i32" => logic32(w, ((a as i32) >> (b & 31)) as u32),
        "s_lshl_b64" => logic64(w, a64 << (b & 63)),
        "s_lshr_b64" => logic64(w, a64 >> (b & 63)),
        "s_ashr_i64" => logic64(w, ((a64 as i64) >> (b & 63)) as u64),
        "s_and_b32" => logic32(w, a & b),
        "s_or_b32" => logic32(w, a | b),
        "s_xor_b32" => logic32(w, a ^ b),
        "s_nand_b32" => logic32(w, !(a & b)),
        "s_nor_b32" => logic32(w, !(a | b)),
        "s_xnor_b32" => logic32(w, !(a ^ b)),
        "s_and_not1_b32" => logic32(w, a & !b),
        "s_or_not1_b32" => logic32(w, a | !b),
        "s_and_b64" => logic64(w, a64 & b64),
        "s_or_b64" => logic64(w, a64 | b64),
        "s_xor_b64" => logic64(w, a64 ^ b64),
        "s_nand_b64" => logic64(w, !(a64 & b64)),
        "s_nor_b64" => logic64(w, !(a64 | b64)),
        "s_xnor_b64" => logic64(w, !(a64 ^ b64)),
        "s_and_not1_b64" => logic64(w, a64 & !b64),
        "s_or_not1_b64" => logic64(w, a64 | !b64),
        "s_cselect_b32" => w.set_sreg(dst, if w.scc { a } else { b }),
        "s_cselect_b64" => w.set_sreg64(dst, if w.scc { a64 } else { b64 }),
        "s_bfm_b32" => w.set_sreg(dst, ((1u32 << (a & 31)).wrapping_sub(1)) << (b & 31)),
        "s_bfe_u32" => {
            let (off, width) = (b & 31, (b >> 16) & 0x7f);
            let r = if width == 0 {
                0
            } else {
                (a >> off) & (u32::MAX >> (32 - width.min(32)))
            };
            logic32(w, r);
        }
        "s_bfe_i32" => {
            let (off, width) = (b & 31, (b >> 16) & 0x7f);
            let r = if width == 0 {
                0
            } else {
                let width = width.min(32);
                (((a >> off) << (32 - width)) as i32 >> (32 - width)) as u32
            };
            logic32(w, r);
        }
        "s_pack_ll_b32_b16" => w.set_sreg(dst, (a & 0xffff) | b << 16),
        "s_pack_lh_b32_b16" => w.set_sreg(dst, (a & 0xffff) | (b & 0xffff_0000)),
        "s_pack_hh_b32_b16" => w.set_sreg(dst, a >> 16 | (b & 0xffff_0000)),
        "s_pack_hl_b32_b16" => w.set_sreg(dst, a >> 16 | b << 16),
        _ => return false,
    }
    true
}

fn sopc(inst: &Instruction, w: &mut Wave) -> bool {
    let (a, a64) = src(inst, w, Field::Ssrc0);
    let (b, b64) = src(inst, w, Field::Ssrc1);
    let (ai, bi) = (a as i32, b as i32);
    w.scc = match inst.def().name {
        "s_cmp_eq_i32" | "s_cmp_eq_u32" => a == b,
        "s_cmp_lg_i32" | "s_cmp_lg_u32" => a != b,
        "s_cmp_gt_i32" => ai > bi,
        "s_cmp_ge_i32" => ai >= bi,
        "s_cmp_lt_i32" => ai < bi,
        "s_cmp_le_i32" => ai <= bi,
        "s_cmp_gt_u32" => a > b,
        "s_cmp_ge_u32" => a >= b,
        "s_cmp_lt_u32" => a < b,
        "s_cmp_le_u32" => a <= b,
        "s_cmp_eq_u64" => a64 == b64,
        "s_cmp_lg_u64" => a64 != b64,
        "s_bitcmp0_b32" => (a >> (b & 31)) & 1 == 0,
        "s_bitcmp1_b32" => (a >> (b & 31)) & 1 == 1,
        "s_bitcmp0_b64" => (a64 >> (b & 63)) & 1 == 0,
        "s_bitcmp1_b64" => (a64 >> (b & 63)) & 1 == 1,
        _ => return false,
    };
    true
}

fn sopk(inst: &Instruction, w: &mut Wave) -> bool {
    let dst = inst.get(Field::Sdst);
    let imm = inst.get(Field::Simm16);
    let simm = imm as u16 as i16 as i32;
    let cur = w.sreg(dst);
    match inst.def().name {
        "s_movk_i32" => w.set_sreg(dst, simm as u32),
        "s_cmovk_i32" => {
            if w.scc {
                w.set_sreg(dst, simm as u32)
            }
        }
        "s_addk_i32" => {
            let (r, o) = (cur as i32).overflowing_add(simm);
            w.set_sreg(dst, r as u32);
            w.scc = o;
        }
        "s_mulk_i32" => w.set_sreg(dst, (cur as i32).wrapping_mul(simm) as u32),
        "s_cmpk_eq_i32" => w.scc = cur as i32 == simm,
        "s_cmpk_lg_i32" => w.scc = cur as i32 != simm,
        "s_cmpk_gt_i32" => w.scc = cur as i32 > simm,
        "s_cmpk_ge_i32" => w.scc = cur as i32 >= simm,
        "s_cmpk_lt_i32" => w.scc = (cur as i32) < simm,
        "s_cmpk_le_i32" => w.scc = cur as i32 <= simm,
        "s_cmpk_eq_u32" => w.scc = cur == imm,
        "s_cmpk_lg_u32" => w.scc = cur != imm,
        "s_cmpk_gt_u32" => w.scc = cur > imm,
        "s_cmpk_ge_u32" => w.scc = cur >= imm,
        "s_cmpk_lt_u32" => w.scc = cur < imm,
        "s_cmpk_le_u32" => w.scc = cur <= imm,
        "s_getreg_b32" | "s_setreg_b32" | "s_setreg_imm32_b32" => {
            // hwreg(id, offset, size): HW_REG_MODE (id 1) is modelled; FLAT_SCR_LO/HI (20, 21)
            // read the wave's flat_scratch.
            let id = imm & 0x3f;
            let off = (imm >> 6) & 0x1f;
            let size = ((imm >> 11) & 0x1f) + 1;
            let mask = if size == 32 {
                u32::MAX
            } else {
                (1u32 << size) - 1
            };
            if matches!(id, 20 | 21) && inst.def().name == "s_getreg_b32" {
                let v = (w.flat_scratch >> if id == 21 { 32 } else { 0 }) as u32;
                w.set_sreg(dst, (v >> off) & mask);
                return true;
            }
            if id != 1 {
                return false;
            }
            if inst.def().name == "s_getreg_b32" {
                w.set_sreg(dst, (w.mode >> off) & mask);
            } else {
                let v = if inst.def().name == "s_setreg_b32" {
                    cur
                } else {
                    inst.literal.unwrap_or(0)
                };
                w.mode = (w.mode & !(mask << off)) | ((v & mask) << off);
            }
        }
        _ => return false,
    }
    true
}
