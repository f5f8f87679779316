//! The scalar ALU instructions the executor implements (SOP1, SOP2, SOPC, SOPK), per AMD's
//! pseudocode (`../shared/reference/rdna3-isa-pseudocode.txt`).

use std::sync::OnceLock;

use rdna3_isa::{Field, Format, Instruction, Opcode};

use crate::wave::Wave;

/// Declares [`S`], one variant per scalar ALU operation the executor implements, with the
/// name the instruction table gives it.
macro_rules! salu_ops {
    ($($op:ident = $name:literal,)*) => {
        /// A scalar ALU operation, looked up once per opcode ([`op_of`]) so that executing
        /// one matches no instruction names.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum S {
            $($op,)*
        }

        impl S {
            /// Every operation with its name.
            #[cfg(test)]
            const ALL: &[(S, &str)] = &[$((S::$op, $name),)*];

            /// The operation called `name`, if the executor implements it.
            fn named(name: &str) -> Option<S> {
                match name {
                    $($name => Some(S::$op),)*
                    _ => None,
                }
            }
        }
    };
}

salu_ops! {
    MovB32 = "s_mov_b32",
    MovB64 = "s_mov_b64",
    CmovB32 = "s_cmov_b32",
    CmovB64 = "s_cmov_b64",
    NotB32 = "s_not_b32",
    NotB64 = "s_not_b64",
    BrevB32 = "s_brev_b32",
    BrevB64 = "s_brev_b64",
    AbsI32 = "s_abs_i32",
    Bcnt1I32B32 = "s_bcnt1_i32_b32",
    Bcnt1I32B64 = "s_bcnt1_i32_b64",
    CtzI32B32 = "s_ctz_i32_b32",
    CtzI32B64 = "s_ctz_i32_b64",
    ClzI32U32 = "s_clz_i32_u32",
    SextI32I8 = "s_sext_i32_i8",
    SextI32I16 = "s_sext_i32_i16",
    AndSaveexecB32 = "s_and_saveexec_b32",
    OrSaveexecB32 = "s_or_saveexec_b32",
    XorSaveexecB32 = "s_xor_saveexec_b32",
    AndNot1SaveexecB32 = "s_and_not1_saveexec_b32",
    AndSaveexecB64 = "s_and_saveexec_b64",
    OrSaveexecB64 = "s_or_saveexec_b64",
    XorSaveexecB64 = "s_xor_saveexec_b64",
    AndNot1SaveexecB64 = "s_and_not1_saveexec_b64",
    AddU32 = "s_add_u32",
    SubU32 = "s_sub_u32",
    AddcU32 = "s_addc_u32",
    SubbU32 = "s_subb_u32",
    AddI32 = "s_add_i32",
    SubI32 = "s_sub_i32",
    AbsdiffI32 = "s_absdiff_i32",
    MulI32 = "s_mul_i32",
    MulHiU32 = "s_mul_hi_u32",
    MulHiI32 = "s_mul_hi_i32",
    Lshl1AddU32 = "s_lshl1_add_u32",
    Lshl2AddU32 = "s_lshl2_add_u32",
    Lshl3AddU32 = "s_lshl3_add_u32",
    Lshl4AddU32 = "s_lshl4_add_u32",
    MinI32 = "s_min_i32",
    MinU32 = "s_min_u32",
    MaxI32 = "s_max_i32",
    MaxU32 = "s_max_u32",
    LshlB32 = "s_lshl_b32",
    LshrB32 = "s_lshr_b32",
    AshrI32 = "s_ashr_i32",
    LshlB64 = "s_lshl_b64",
    LshrB64 = "s_lshr_b64",
    AshrI64 = "s_ashr_i64",
    AndB32 = "s_and_b32",
    OrB32 = "s_or_b32",
    XorB32 = "s_xor_b32",
    NandB32 = "s_nand_b32",
    NorB32 = "s_nor_b32",
    XnorB32 = "s_xnor_b32",
    AndNot1B32 = "s_and_not1_b32",
    OrNot1B32 = "s_or_not1_b32",
    AndB64 = "s_and_b64",
    OrB64 = "s_or_b64",
    XorB64 = "s_xor_b64",
    NandB64 = "s_nand_b64",
    NorB64 = "s_nor_b64",
    XnorB64 = "s_xnor_b64",
    AndNot1B64 = "s_and_not1_b64",
    OrNot1B64 = "s_or_not1_b64",
    CselectB32 = "s_cselect_b32",
    CselectB64 = "s_cselect_b64",
    BfmB32 = "s_bfm_b32",
    BfeU32 = "s_bfe_u32",
    BfeI32 = "s_bfe_i32",
    PackLlB32B16 = "s_pack_ll_b32_b16",
    PackLhB32B16 = "s_pack_lh_b32_b16",
    PackHhB32B16 = "s_pack_hh_b32_b16",
    PackHlB32B16 = "s_pack_hl_b32_b16",
    CmpEqI32 = "s_cmp_eq_i32",
    CmpEqU32 = "s_cmp_eq_u32",
    CmpLgI32 = "s_cmp_lg_i32",
    CmpLgU32 = "s_cmp_lg_u32",
    CmpGtI32 = "s_cmp_gt_i32",
    CmpGeI32 = "s_cmp_ge_i32",
    CmpLtI32 = "s_cmp_lt_i32",
    CmpLeI32 = "s_cmp_le_i32",
    CmpGtU32 = "s_cmp_gt_u32",
    CmpGeU32 = "s_cmp_ge_u32",
    CmpLtU32 = "s_cmp_lt_u32",
    CmpLeU32 = "s_cmp_le_u32",
    CmpEqU64 = "s_cmp_eq_u64",
    CmpLgU64 = "s_cmp_lg_u64",
    Bitcmp0B32 = "s_bitcmp0_b32",
    Bitcmp1B32 = "s_bitcmp1_b32",
    Bitcmp0B64 = "s_bitcmp0_b64",
    Bitcmp1B64 = "s_bitcmp1_b64",
    MovkI32 = "s_movk_i32",
    CmovkI32 = "s_cmovk_i32",
    AddkI32 = "s_addk_i32",
    MulkI32 = "s_mulk_i32",
    CmpkEqI32 = "s_cmpk_eq_i32",
    CmpkLgI32 = "s_cmpk_lg_i32",
    CmpkGtI32 = "s_cmpk_gt_i32",
    CmpkGeI32 = "s_cmpk_ge_i32",
    CmpkLtI32 = "s_cmpk_lt_i32",
    CmpkLeI32 = "s_cmpk_le_i32",
    CmpkEqU32 = "s_cmpk_eq_u32",
    CmpkLgU32 = "s_cmpk_lg_u32",
    CmpkGtU32 = "s_cmpk_gt_u32",
    CmpkGeU32 = "s_cmpk_ge_u32",
    CmpkLtU32 = "s_cmpk_lt_u32",
    CmpkLeU32 = "s_cmpk_le_u32",
    GetregB32 = "s_getreg_b32",
    SetregB32 = "s_setreg_b32",
    SetregImm32B32 = "s_setreg_imm32_b32",
}

/// [`S`] of each table entry, worked out once per process.
fn op_of(op: Opcode) -> Option<S> {
    static TABLE: OnceLock<Vec<Option<S>>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            rdna3_isa::def::every()
                .map(|(_, d)| S::named(d.name))
                .collect()
        })
        .get(op.0 as usize)
        .copied()
        .flatten()
}

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
    let Some(op) = op_of(inst.opcode) else {
        return false;
    };
    match op {
        S::MovB32 => w.set_sreg(dst, s32),
        S::MovB64 => w.set_sreg64(dst, s64),
        S::CmovB32 => {
            if w.scc {
                w.set_sreg(dst, s32)
            }
        }
        S::CmovB64 => {
            if w.scc {
                w.set_sreg64(dst, s64)
            }
        }
        S::NotB32 => set_nonzero32(w, dst, !s32),
        S::NotB64 => set_nonzero64(w, dst, !s64),
        S::BrevB32 => w.set_sreg(dst, s32.reverse_bits()),
        S::BrevB64 => w.set_sreg64(dst, s64.reverse_bits()),
        S::AbsI32 => set_nonzero32(w, dst, (s32 as i32).wrapping_abs() as u32),
        S::Bcnt1I32B32 => set_nonzero32(w, dst, s32.count_ones()),
        S::Bcnt1I32B64 => set_nonzero32(w, dst, s64.count_ones()),
        S::CtzI32B32 => w.set_sreg(dst, bit_scan(s32.into(), s32.trailing_zeros())),
        S::CtzI32B64 => w.set_sreg(dst, bit_scan(s64, s64.trailing_zeros())),
        S::ClzI32U32 => w.set_sreg(dst, bit_scan(s32.into(), s32.leading_zeros())),
        S::SextI32I8 => w.set_sreg(dst, s32 as u8 as i8 as i32 as u32),
        S::SextI32I16 => w.set_sreg(dst, s32 as u16 as i16 as i32 as u32),
        S::AndSaveexecB32
        | S::OrSaveexecB32
        | S::XorSaveexecB32
        | S::AndNot1SaveexecB32
        | S::AndSaveexecB64
        | S::OrSaveexecB64
        | S::XorSaveexecB64
        | S::AndNot1SaveexecB64 => {
            let name = inst.def().name;
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
    let Some(op) = op_of(inst.opcode) else {
        return false;
    };
    let name = inst.def().name;
    sop2_arith(op, name, w, dst, a, b) || sop2_bits(op, w, dst, (a, b), (a64, b64))
}

/// The SOP2 arithmetic: adds and subtracts with their carry or overflow in SCC, multiplies,
/// shift-adds, min and max; `false` for another instruction.
fn sop2_arith(op: S, name: &str, w: &mut Wave, dst: u32, a: u32, b: u32) -> bool {
    let with_scc = |w: &mut Wave, r: u32, scc: bool| {
        w.set_sreg(dst, r);
        w.scc = scc;
    };
    let (ai, bi) = (a as i32, b as i32);
    match op {
        S::AddU32 => {
            let (r, c) = a.overflowing_add(b);
            with_scc(w, r, c);
        }
        S::SubU32 => {
            let (r, c) = a.overflowing_sub(b);
            with_scc(w, r, c);
        }
        S::AddcU32 => {
            let r = a as u64 + b as u64 + w.scc as u64;
            with_scc(w, r as u32, r >> 32 != 0);
        }
        S::SubbU32 => {
            let r = (a as u64).wrapping_sub(b as u64).wrapping_sub(w.scc as u64);
            let borrow = (b as u64 + w.scc as u64) > a as u64;
            with_scc(w, r as u32, borrow);
        }
        S::AddI32 => {
            let (r, o) = ai.overflowing_add(bi);
            with_scc(w, r as u32, o);
        }
        S::SubI32 => {
            let (r, o) = ai.overflowing_sub(bi);
            with_scc(w, r as u32, o);
        }
        S::AbsdiffI32 => set_nonzero32(w, dst, ai.wrapping_sub(bi).wrapping_abs() as u32),
        S::MulI32 => w.set_sreg(dst, a.wrapping_mul(b)),
        S::MulHiU32 => w.set_sreg(dst, ((a as u64 * b as u64) >> 32) as u32),
        S::MulHiI32 => w.set_sreg(dst, ((ai as i64 * bi as i64) >> 32) as u32),
        S::Lshl1AddU32 | S::Lshl2AddU32 | S::Lshl3AddU32 | S::Lshl4AddU32 => {
            let sh = name.as_bytes()[6] - b'0';
            let r = ((a as u64) << sh) + b as u64;
            with_scc(w, r as u32, r >> 32 != 0);
        }
        // SCC: whether the first source was chosen.
        S::MinI32 => with_scc(w, if ai < bi { a } else { b }, ai < bi),
        S::MinU32 => with_scc(w, if a < b { a } else { b }, a < b),
        S::MaxI32 => with_scc(w, if ai > bi { a } else { b }, ai > bi),
        S::MaxU32 => with_scc(w, if a > b { a } else { b }, a > b),
        _ => return false,
    }
    true
}

/// The SOP2 bit operations: shifts and logic (SCC = result != 0), conditional selects,
/// bit-field masks and extracts, and 16-bit packs; `false` for another instruction.
fn sop2_bits(op: S, w: &mut Wave, dst: u32, (a, b): (u32, u32), (a64, b64): (u64, u64)) -> bool {
    let logic32 = |w: &mut Wave, r: u32| set_nonzero32(w, dst, r);
    let logic64 = |w: &mut Wave, r: u64| set_nonzero64(w, dst, r);
    match op {
        S::LshlB32 => logic32(w, a << (b & 31)),
        S::LshrB32 => logic32(w, a >> (b & 31)),
        S::AshrI32 => logic32(w, ((a as i32) >> (b & 31)) as u32),
        S::LshlB64 => logic64(w, a64 << (b & 63)),
        S::LshrB64 => logic64(w, a64 >> (b & 63)),
        S::AshrI64 => logic64(w, ((a64 as i64) >> (b & 63)) as u64),
        S::AndB32 => logic32(w, a & b),
        S::OrB32 => logic32(w, a | b),
        S::XorB32 => logic32(w, a ^ b),
        S::NandB32 => logic32(w, !(a & b)),
        S::NorB32 => logic32(w, !(a | b)),
        S::XnorB32 => logic32(w, !(a ^ b)),
        S::AndNot1B32 => logic32(w, a & !b),
        S::OrNot1B32 => logic32(w, a | !b),
        S::AndB64 => logic64(w, a64 & b64),
        S::OrB64 => logic64(w, a64 | b64),
        S::XorB64 => logic64(w, a64 ^ b64),
        S::NandB64 => logic64(w, !(a64 & b64)),
        S::NorB64 => logic64(w, !(a64 | b64)),
        S::XnorB64 => logic64(w, !(a64 ^ b64)),
        S::AndNot1B64 => logic64(w, a64 & !b64),
        S::OrNot1B64 => logic64(w, a64 | !b64),
        S::CselectB32 => w.set_sreg(dst, if w.scc { a } else { b }),
        S::CselectB64 => w.set_sreg64(dst, if w.scc { a64 } else { b64 }),
        S::BfmB32 => w.set_sreg(dst, ((1u32 << (a & 31)).wrapping_sub(1)) << (b & 31)),
        S::BfeU32 => {
            let (off, width) = (b & 31, (b >> 16) & 0x7f);
            let r = if width == 0 {
                0
            } else {
                (a >> off) & (u32::MAX >> (32 - width.min(32)))
            };
            logic32(w, r);
        }
        S::BfeI32 => {
            let (off, width) = (b & 31, (b >> 16) & 0x7f);
            let r = if width == 0 {
                0
            } else {
                let width = width.min(32);
                (((a >> off) << (32 - width)) as i32 >> (32 - width)) as u32
            };
            logic32(w, r);
        }
        S::PackLlB32B16 => w.set_sreg(dst, (a & 0xffff) | b << 16),
        S::PackLhB32B16 => w.set_sreg(dst, (a & 0xffff) | (b & 0xffff_0000)),
        S::PackHhB32B16 => w.set_sreg(dst, a >> 16 | (b & 0xffff_0000)),
        S::PackHlB32B16 => w.set_sreg(dst, a >> 16 | b << 16),
        _ => return false,
    }
    true
}

fn sopc(inst: &Instruction, w: &mut Wave) -> bool {
    let (a, a64) = src(inst, w, Field::Ssrc0);
    let (b, b64) = src(inst, w, Field::Ssrc1);
    let (ai, bi) = (a as i32, b as i32);
    let Some(op) = op_of(inst.opcode) else {
        return false;
    };
    w.scc = match op {
        S::CmpEqI32 | S::CmpEqU32 => a == b,
        S::CmpLgI32 | S::CmpLgU32 => a != b,
        S::CmpGtI32 => ai > bi,
        S::CmpGeI32 => ai >= bi,
        S::CmpLtI32 => ai < bi,
        S::CmpLeI32 => ai <= bi,
        S::CmpGtU32 => a > b,
        S::CmpGeU32 => a >= b,
        S::CmpLtU32 => a < b,
        S::CmpLeU32 => a <= b,
        S::CmpEqU64 => a64 == b64,
        S::CmpLgU64 => a64 != b64,
        S::Bitcmp0B32 => (a >> (b & 31)) & 1 == 0,
        S::Bitcmp1B32 => (a >> (b & 31)) & 1 == 1,
        S::Bitcmp0B64 => (a64 >> (b & 63)) & 1 == 0,
        S::Bitcmp1B64 => (a64 >> (b & 63)) & 1 == 1,
        _ => return false,
    };
    true
}

fn sopk(inst: &Instruction, w: &mut Wave) -> bool {
    let dst = inst.get(Field::Sdst);
    let imm = inst.get(Field::Simm16);
    let simm = imm as u16 as i16 as i32;
    let cur = w.sreg(dst);
    let Some(op) = op_of(inst.opcode) else {
        return false;
    };
    match op {
        S::MovkI32 => w.set_sreg(dst, simm as u32),
        S::CmovkI32 => {
            if w.scc {
                w.set_sreg(dst, simm as u32)
            }
        }
        S::AddkI32 => {
            let (r, o) = (cur as i32).overflowing_add(simm);
            w.set_sreg(dst, r as u32);
            w.scc = o;
        }
        S::MulkI32 => w.set_sreg(dst, (cur as i32).wrapping_mul(simm) as u32),
        S::CmpkEqI32 => w.scc = cur as i32 == simm,
        S::CmpkLgI32 => w.scc = cur as i32 != simm,
        S::CmpkGtI32 => w.scc = cur as i32 > simm,
        S::CmpkGeI32 => w.scc = cur as i32 >= simm,
        S::CmpkLtI32 => w.scc = (cur as i32) < simm,
        S::CmpkLeI32 => w.scc = cur as i32 <= simm,
        S::CmpkEqU32 => w.scc = cur == imm,
        S::CmpkLgU32 => w.scc = cur != imm,
        S::CmpkGtU32 => w.scc = cur > imm,
        S::CmpkGeU32 => w.scc = cur >= imm,
        S::CmpkLtU32 => w.scc = cur < imm,
        S::CmpkLeU32 => w.scc = cur <= imm,
        S::GetregB32 | S::SetregB32 | S::SetregImm32B32 => {
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
            if matches!(id, 20 | 21) && op == S::GetregB32 {
                let v = (w.flat_scratch >> if id == 21 { 32 } else { 0 }) as u32;
                w.set_sreg(dst, (v >> off) & mask);
                return true;
            }
            if id != 1 {
                return false;
            }
            if op == S::GetregB32 {
                w.set_sreg(dst, (w.mode >> off) & mask);
            } else {
                let v = if op == S::SetregB32 {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation names an instruction of the table, and every table entry of that
    /// name (gfx11's and the other chips' alike) looks it up.
    #[test]
    fn every_operation_is_an_instruction_of_the_table() {
        for &(op, name) in S::ALL {
            let entries: Vec<Opcode> = rdna3_isa::def::every()
                .filter(|(_, d)| d.name == name)
                .map(|(o, _)| o)
                .collect();
            assert!(!entries.is_empty(), "{name}: no such instruction");
            for o in entries {
                assert_eq!(op_of(o), Some(op), "{name}");
            }
        }
        assert!(S::ALL.len() > 100, "{}", S::ALL.len());
    }
}
