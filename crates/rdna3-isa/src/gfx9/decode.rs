//! gfx942 bytes to an [`Instruction`]: the format by its identifying bits (GFX9 layouts,
//! [`super::format`]), the table entry by its opcode, a literal dword where a source asks for
//! one, and the acceptance rules llvm-mc-19 -mcpu=gfx942 applies beyond the opcode (each
//! observed on the random-word goldens of `tools/gen_random_goldens.py --mcpu gfx942`).

use super::format::{identify, layout_of, op_range};
use crate::def::{lookup_opcode_in, Flags, Isa, Kind, SrcMods};
use crate::fields::Field;
use crate::format::Format;
use crate::inst::{DecodeError, Instruction};

/// Decodes one gfx942 instruction from the start of `bytes`: the instruction and its size.
pub fn decode(bytes: &[u8]) -> Result<(Instruction, usize), DecodeError> {
    let dword = |at: usize| -> Option<u64> {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64)
    };
    let first = dword(0).ok_or(DecodeError::Truncated)?;
    let format = identify(first).ok_or(DecodeError::Invalid)?;
    let size = layout_of(format).size as usize;
    let word = match size {
        4 => first,
        _ => first | dword(4).ok_or(DecodeError::Truncated)? << 32,
    };
    let op = op_range(format);
    let opcode = lookup_opcode_in(Isa::Gfx940, format, ((word >> op.lo) & op.mask()) as u32)
        .ok_or(DecodeError::Invalid)?;
    let mut inst = Instruction {
        opcode,
        word,
        dpp: 0,
        literal: None,
    };
    if !accepted(&inst) {
        return Err(DecodeError::Invalid);
    }
    let mut total = size;
    if inst.sdwa() {
        inst.dpp = dword(size).ok_or(DecodeError::Truncated)? as u32;
        total += 4;
        if !super::print::sdwa_printable(&inst) {
            return Err(DecodeError::Invalid);
        }
    } else if inst.dpp_kind().is_some() {
        inst.dpp = dword(size).ok_or(DecodeError::Truncated)? as u32;
        total += 4;
        if !super::print::dpp_printable(&inst) {
            return Err(DecodeError::Invalid);
        }
    } else if inst.needs_literal() || sdst_literal(&inst) {
        inst.literal = Some(dword(size).ok_or(DecodeError::Truncated)? as u32);
        total += 4;
    }
    Ok((inst, total))
}

/// The rules llvm-mc-19 applies beyond the opcode: every operand names something, and the
/// bits a format leaves unused for the instruction are 0.
fn accepted(inst: &Instruction) -> bool {
    let d = inst.def();
    if d.format == Format::Sopp && d.operands.is_empty() && inst.get(Field::Simm16) != 0 {
        return false;
    }
    // DS: the global wave sync instructions need `gds` (gfx942 has no other use for it).
    if d.flags.has(Flags::GDS_ONLY) && inst.get(Field::Gds) == 0 {
        return false;
    }
    // DS: a register field the instruction does not use must be 0.
    if d.format == Format::Ds {
        let unused = [Field::Addr, Field::Data0, Field::Data1, Field::Vdst]
            .into_iter()
            .filter(|&f| d.operand(f).is_none());
        if unused.into_iter().any(|f| inst.get(f) != 0) {
            return false;
        }
    }
    // FLAT and GLOBAL: bit 13 (SCRATCH's `sve`) clear; FLAT: no scalar base (saddr 0).
    let flat_global = matches!(d.format, Format::Flat | Format::Global);
    if flat_global && inst.get(Field::Sve) != 0
        || d.format == Format::Flat && inst.get(Field::Saddr) != 0
    {
        return false;
    }
    // The FLAT-family loads into LDS have no data registers: their `acc` bit must be clear.
    if flat_global_scratch(d.format) && d.name.contains("_load_lds_") && inst.get(Field::Acc) != 0 {
        return false;
    }
    // VOP1 without operands (v_nop, v_clrexcp): vdst must be 0 (src0 is ignored).
    if d.format == Format::Vop1 && d.operands.is_empty() && inst.get(Field::Vdst) != 0 {
        return false;
    }
    if d.format == Format::Vop3p && !vop3p_accepted(inst) {
        return false;
    }
    if d.format == Format::Vop3 && !vop3_accepted(inst) {
        return false;
    }
    // No literal soffset on gfx942 (MTBUF; MUBUF's rules say it too).
    if d.format == Format::Mtbuf && inst.get(Field::Soffset) == super::print::LITERAL {
        return false;
    }
    if d.format == Format::Mubuf && !mubuf_accepted(inst) {
        return false;
    }
    // SMEM without an offset operand (s_memtime, s_dcache_wb, ...): `imm` must be clear.
    if d.format == Format::Smem
        && !d.operands.iter().any(|o| o.kind == Kind::SmemOffset)
        && inst.get(Field::SmemImm) != 0
    {
        return false;
    }
    // (A DPP or SDWA form's operands are judged once its dword is read: [`decode`].)
    inst.sdwa() || inst.dpp_kind().is_some() || super::print::operands_printable(inst)
}

fn flat_global_scratch(f: Format) -> bool {
    matches!(f, Format::Flat | Format::Global | Format::Scratch)
}

/// MUBUF's rules: the cache operations without operands have no address, LDS or AGPR bits
/// (and `buffer_wbinvl1*` no scope bits); only the one-dword loads take `lds`, and not with
/// AGPRs; `buffer_store_lds_dword` needs it; `soffset` is never a literal.
fn mubuf_accepted(inst: &Instruction) -> bool {
    let d = inst.def();
    let set = |f: Field| inst.get(f) != 0;
    if d.operands.is_empty() {
        let scope = d.name.starts_with("buffer_wbinvl1") && (set(Field::Sc0) || set(Field::Sc1));
        return !(set(Field::Offen)
            || set(Field::Idxen)
            || set(Field::Lds)
            || set(Field::Acc)
            || scope);
    }
    // No literal soffset on gfx942.
    if inst.get(Field::Soffset) == super::print::LITERAL {
        return false;
    }
    // buffer_store_lds_dword exists only with the lds bit.
    // It has no address VGPR and no data register either.
    if d.flags.has(Flags::LDS) {
        return set(Field::Lds) && !(set(Field::Offen) || set(Field::Idxen) || set(Field::Acc));
    }
    !set(Field::Lds) || super::print::mubuf_lds_load(d.name) && !set(Field::Acc)
}

/// VOP3's rules: a source field the instruction does not use is 0, and none is a literal; the
/// `neg` and `abs` bits,
/// `clamp`, the output modifier and `op_sel` only where the instruction takes them (VOP3b's
/// bits 8-14 are its SGPR destination).
fn vop3_accepted(inst: &Instruction) -> bool {
    let d = inst.def();
    for (i, f) in [Field::Src0, Field::Src1, Field::Src2]
        .into_iter()
        .enumerate()
    {
        let used = d.operand(f).is_some();
        // (No literal in gfx942's VOP3.)
        if !used && inst.get(f) != 0 || used && inst.get(f) == super::print::LITERAL {
            return false;
        }
        let mods = d.source_mods(i);
        // (sext: the neg bit prints as sext(x), the abs bit is ignored.)
        let ignored = matches!(mods, SrcMods::Ignored | SrcMods::Sext);
        if inst.get(Field::Neg) >> i & 1 == 1
            && !ignored
            && !matches!(mods, SrcMods::NegAbs | SrcMods::Neg)
        {
            return false;
        }
        let sdst = d.operand(Field::Sdst).is_some();
        if !sdst && inst.get(Field::Abs) >> i & 1 == 1 && mods != SrcMods::NegAbs && !ignored {
            return false;
        }
    }
    let sdst = d.operand(Field::Sdst).is_some();
    !(inst.get(Field::Clamp) == 1 && !d.flags.has(Flags::VOP3_CLAMP)
        || inst.get(Field::Omod) != 0 && !d.flags.has(Flags::VOP3_OMOD)
        || !sdst
            && inst.get(Field::OpSel) != 0
            && !d.flags.has(Flags::OP_SEL)
            && !d.flags.has(Flags::OP_SEL_IGNORED))
}

/// VOP3P's rules: unused source fields are 0 and take no modifier bits (neg_lo, neg_hi,
/// op_sel); v_accvgpr_read/write take no neg or op_sel bits (op_sel_hi and clamp are
/// ignored); SMFMAC has no blgp.
fn vop3p_accepted(inst: &Instruction) -> bool {
    let d = inst.def();
    let n = d.vector_sources();
    for f in [Field::Src0, Field::Src1, Field::Src2] {
        // (No literal in gfx942's VOP3P.)
        let used = d.operand(f).is_some();
        if !used && inst.get(f) != 0 || used && inst.get(f) == super::print::LITERAL {
            return false;
        }
    }
    if d.flags.has(Flags::MFMA) {
        return !(d.name.starts_with("v_smfmac") && inst.get(Field::NegLo) != 0);
    }
    let beyond = !((1u32 << n) - 1);
    let acc = d.name.starts_with("v_accvgpr_");
    let bits = |f: Field| inst.get(f) & if acc { 7 } else { beyond };
    bits(Field::NegLo) == 0 && bits(Field::NegHi) == 0 && bits(Field::OpSel) == 0
}

/// v_readfirstlane_b32's 8-bit SGPR destination holding 255: llvm-mc-19 reads a literal dword
/// for it, as for a source.
fn sdst_literal(inst: &Instruction) -> bool {
    let d = inst.def();
    d.format == Format::Vop1
        && matches!(d.operand(Field::Vdst), Some(o) if matches!(o.kind, Kind::S(_)))
        && inst.get(Field::Vdst) == super::print::LITERAL
}
