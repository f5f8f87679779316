//! The decoder: bytes to an [`Instruction`], with the acceptance rules llvm-mc-19 applies
//! beyond the opcode (bits that must be zero or one, register ranges, DPP dwords), and a
//! last check that every operand prints as a valid operand.

use std::sync::OnceLock;

use crate::def::{lookup_opcode, Flags, InstrDef, Kind, Opcode, SrcMods, Wave};
use crate::dpp::DppKind;
use crate::fields::Field;
use crate::format::Format;
use crate::inst::{positions, DecodeError, Instruction, SGPR_NULL, SRC_LITERAL};
use crate::print::operands_printable;
use crate::table::INSTRUCTIONS;

/// What the decoder checks beyond the opcode, precomputed per table entry: bits that must be
/// zero, bits that must be one, and whether the register ranges need checking.
#[derive(Clone, Copy, Default)]
struct Accept {
    must_zero: u64,
    must_one: u64,
    /// The bits of `must_zero` the hardware ignores: operand fields the instruction does not
    /// use ([`Instruction::decode_hw`]).
    ignored: u64,
    /// The bits of `must_zero` the hardware gives a meaning llvm-mc-19 does not: bit 7 of a
    /// fake16 e32 VGPR field, which names the high half of `v(N & 127)` (true16, as newer
    /// LLVMs encode it). [`Instruction::decode_hw`] keeps them.
    true16: u64,
    /// VOP1/VOP2/VOPC/VOP3 with an operand of several registers ([`vector_regs_ok`]).
    wide_regs: bool,
}

/// The bits field `f` occupies in a word of `format`.
fn field_mask(format: Format, f: Field) -> u64 {
    let p = positions()[format.index()][f as usize];
    p.write(0, u32::MAX)
}

/// The decoder's acceptance rules beyond the opcode, as llvm-mc-19 applies them (each was
/// observed by disassembling words with the field set):
/// - DS words must have zero in every register field the instruction does not use; the
///   GWS/ordered-count/GS-register opcodes need the `gds` bit, and `ds_nop`, the BVH stack and
///   the permutes must not have it; `ds_nop` needs a zero offset.
/// - FLAT-segment words need `saddr` = off (0x7c).
/// - `s_atc_probe*` must not set `glc` or `dlc`.
/// - SOPP instructions without an operand need `simm16` = 0.
/// - VOP3: a source field the instruction does not use must be 0; the `abs` and `neg` bits
///   of a source without [`Flags::VOP3_NEG_ABS0`] (..2) must be 0 (abs is VOP3SD's sdst),
///   `omod` without [`Flags::VOP3_OMOD`] and `clamp` without [`Flags::VOP3_CLAMP`]. An SGPR
///   destination in vdst takes codes 0-127, and a scalar-only source no VGPR. (`op_sel`
///   bits of these instructions are ignored: kept in the word, not printed.)
fn accept_rules(d: &InstrDef) -> Accept {
    let f = d.format;
    let mut a = Accept {
        wide_regs: wide_regs(d),
        ..Accept::default()
    };
    match f {
        Format::Ds => ds_rules(d, &mut a),
        // LDSDIR bits 22-23 are reserved; FLAT/GLOBAL have no `sve` bit; MTBUF and the
        // buffer atomics take no `tfe` (llvm-mc-19 rejects such words).
        Format::Ldsdir => a.must_zero |= 0b11 << 22,
        Format::Global => a.must_zero |= field_mask(f, Field::Sve),
        Format::Mtbuf => a.must_zero |= field_mask(f, Field::Tfe),
        Format::Mubuf if d.name.starts_with("buffer_atomic_") || d.flags.has(Flags::LDS) => {
            a.must_zero |= field_mask(f, Field::Tfe)
        }
        // The cache invalidations without operands: `glc`, `dlc` (and for MUBUF `tfe`,
        // `offen`, `idxen`) must be clear; the other bits are ignored.
        Format::Mubuf if d.operands.is_empty() => {
            a.must_zero |= 0b11 << 13 | 0b111 << 53;
        }
        Format::Smem if d.operands.is_empty() => {
            a.must_zero |= field_mask(f, Field::Glc) | field_mask(f, Field::Dlc);
        }
        Format::Vinterp if !d.flags.has(Flags::OP_SEL) => {
            a.must_zero |= field_mask(f, Field::OpSel);
        }
        Format::Flat => {
            a.must_zero |= field_mask(f, Field::Sve);
            let m = field_mask(f, Field::Saddr);
            a.must_one |= (SGPR_NULL as u64) << 48;
            a.must_zero |= m & !((SGPR_NULL as u64) << 48);
        }
        Format::Smem if d.name.starts_with("s_atc_probe") => {
            a.must_zero |= field_mask(f, Field::Glc) | field_mask(f, Field::Dlc);
        }
        Format::Sopp if d.operands.is_empty() => {
            a.must_zero |= field_mask(f, Field::Simm16);
            a.ignored |= field_mask(f, Field::Simm16);
        }
        Format::Vop3 => vop3_rules(d, &mut a),
        Format::Vop3p => vop3p_rules(d, &mut a),
        // A fake16 destination in v128-v255 cannot be encoded (llvm-mc-19 rejects the word;
        // sources there decode with a register-class comment instead).
        Format::Vop1 | Format::Vop2 | Format::Vopc
            if d.flags.has(Flags::FAKE16) && d.operand(Field::Vdst).is_some() =>
        {
            a.true16 |= field_mask(f, Field::Vdst) & !(field_mask(f, Field::Vdst) >> 1);
            // `v_ldexp_f16`'s exponent (vsrc1) in v128-v255 is rejected too (survey_dpp.py
            // probe `vsrc1_v200`; other fake16 sources decode with a comment).
            if matches!(d.name, "v_ldexp_f16_e32" | "v_fmaak_f16" | "v_fmamk_f16") {
                a.true16 |= 1 << 16;
            }
            a.must_zero |= a.true16;
        }
        // `v_nop`, `v_pipeflush` (e32): vdst must be 0; src0 is ignored.
        Format::Vop1 if d.flags.has(Flags::BARE_NAME) => {
            a.must_zero |= field_mask(f, Field::Vdst);
        }
        _ => {}
    }
    a
}

/// Whether a VOP1/VOP2/VOPC/VOP3 instruction has an operand of several registers (whose
/// range [`vector_regs_ok`] checks).
fn wide_regs(d: &InstrDef) -> bool {
    matches!(
        d.format,
        Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3
    ) && d
        .operands
        .iter()
        .any(|o| matches!(o.kind, Kind::V(2..) | Kind::VSrc(2.., _)))
}

/// DS: unused register fields zero, the `gds` bit as the opcode needs it, `ds_nop`'s offset
/// zero.
fn ds_rules(d: &InstrDef, a: &mut Accept) {
    let f = d.format;
    for r in [Field::Addr, Field::Data0, Field::Data1, Field::Vdst] {
        if d.operand(r).is_none() {
            a.must_zero |= field_mask(f, r);
            a.ignored |= field_mask(f, r);
        }
    }
    if d.flags.has(Flags::GDS_ONLY) {
        a.must_one |= field_mask(f, Field::Gds);
    }
    if d.flags.has(Flags::NO_GDS) {
        a.must_zero |= field_mask(f, Field::Gds);
    }
    if d.name == "ds_nop" {
        a.must_zero |= field_mask(f, Field::Offset0) | field_mask(f, Field::Offset1);
    }
}

/// VOP3: unused sources, modifier bits the instruction does not take, and the `op_sel` bits
/// llvm-mc-19 rejects must be zero.
fn vop3_rules(d: &InstrDef, a: &mut Accept) {
    let f = d.format;
    let sdst = d.operand(Field::Sdst).is_some();
    for (i, src) in [Field::Src0, Field::Src1, Field::Src2]
        .into_iter()
        .enumerate()
    {
        if d.operand(src).is_none() {
            a.must_zero |= field_mask(f, src);
            a.ignored |= field_mask(f, src);
        }
        if d.source_mods(i) == SrcMods::None {
            a.must_zero |= 1 << (61 + i);
            // VOP3SD's sdst overlays abs.
            if !sdst {
                a.must_zero |= 1 << (8 + i);
            }
        }
    }
    if let Some(l) = d.op_sel_layout() {
        a.must_zero |= l.rejected;
    }
    if !d.flags.has(Flags::VOP3_OMOD) {
        a.must_zero |= field_mask(f, Field::Omod);
    }
    if !d.flags.has(Flags::VOP3_CLAMP) {
        a.must_zero |= field_mask(f, Field::Clamp);
    }
    // `v_nop_e64`, `v_pipeflush_e64`: vdst must be 0 too.
    if d.flags.has(Flags::BARE_NAME) {
        a.must_zero |= field_mask(f, Field::Vdst);
    }
    // An SGPR destination in the 8-bit vdst field (compares, `v_readlane_b32`): the
    // codes 128-255 are constants, which llvm-mc-19 prints as invalid.
    if matches!(d.operand(Field::Vdst), Some(o) if matches!(o.kind, Kind::S(_))) {
        a.must_zero |= 0x80;
    }
    // (A VGPR in a scalar-only source decodes: the printer marks it.)
}

/// VOP3P: a two-source instruction's src2 bits, `clamp` and `op_sel` where not taken must be
/// zero.
fn vop3p_rules(d: &InstrDef, a: &mut Accept) {
    let f = d.format;
    // tools/DPP_VOP3P_NOTES.md §5.1-5.2: a two-source instruction needs src2 = 0 and
    // no op_sel/neg_lo/neg_hi bit for it (op_sel_hi[2] is ignored); clamp only where
    // taken; WMMA with an f32/i32 result takes no op_sel.
    if d.operand(Field::Src2).is_none() {
        a.must_zero |= field_mask(f, Field::Src2) | 1 << 13 | 1 << 63 | 1 << 10;
        a.ignored |= field_mask(f, Field::Src2) | 1 << 13 | 1 << 63 | 1 << 10;
    }
    if !d.flags.has(Flags::VOP3_CLAMP) {
        a.must_zero |= field_mask(f, Field::Clamp);
    }
    if d.flags.has(Flags::NO_OP_SEL) {
        a.must_zero |= field_mask(f, Field::OpSel);
    }
}

/// A VOP3P register operand of `n` registers that llvm-mc-19 decodes: a VGPR range that ends
/// by v255; a scalar register range that fits once aligned (SGPRs below 106, TTMPs below
/// 124; 2 or 4 registers apart), `vcc`, `exec`, `null`; a constant, `src_*` or the literal.
/// (WMMA's matrices; checked on the disassembler tool's probes, survey_dpp.py.)
fn vop3p_reg_ok(code: u32, n: u32) -> bool {
    let align = n.min(4);
    match code {
        256.. => code - 256 + n <= 256,
        0..=105 => (code & !(align - 1)) + n <= 106,
        108..=123 => ((code - 108) & !(align - 1)) + n <= 16,
        106 | 124 | 126 => true,
        107 | 125 | 127 => false,
        _ => true,
    }
}

/// VOP1/VOP2/VOPC/VOP3 operands of several registers (the 64-bit ones, `v_mqsad_u32_u8`'s
/// quads): a VGPR range must end by v255, and a 64-bit scalar source must not be `vcc_hi`,
/// `m0` or `exec_hi` (107, 125, 127; other odd SGPRs name the aligned pair). llvm-mc-19
/// rejects such words: `v_add_f64 v[5:6], v[255:256], v[2:3]`, `v_div_scale_f64` with
/// src0 = 107.
fn vector_regs_ok(d: &InstrDef, word: u64) -> bool {
    d.operands.iter().all(|o| {
        let p = positions()[d.format.index()][o.field as usize];
        let v = p.read(word);
        match o.kind {
            Kind::V(n) if n > 1 => v + n as u32 <= 256,
            Kind::VSrc(n, _) if n > 1 => match v {
                256.. => v - 256 + n as u32 <= 256,
                107 | 125 | 127 => false,
                _ => true,
            },
            _ => true,
        }
    })
}

/// VOP3P operands with more than one register (WMMA): the destination and the matrix
/// sources must name registers that exist (see [`vop3p_reg_ok`]).
fn vop3p_regs_ok(d: &InstrDef, word: u64) -> bool {
    d.operands.iter().all(|o| {
        let p = positions()[Format::Vop3p.index()][o.field as usize];
        let v = p.read(word);
        match o.kind {
            Kind::V(n) if n > 1 => v + n as u32 <= 256,
            Kind::WmmaAB(n) | Kind::WmmaC(n) => vop3p_reg_ok(v, n as u32),
            _ => true,
        }
    })
}

fn accept(op: Opcode) -> &'static Accept {
    static ACCEPT: OnceLock<Vec<Accept>> = OnceLock::new();
    &ACCEPT.get_or_init(|| INSTRUCTIONS.iter().map(accept_rules).collect())[op.0 as usize]
}

/// VOPD: the X operation is `x` (OPX 0-13); the Y one, [`Instruction::vopd_y`], must
/// exist; a literal follows when either takes K or reads one as src0; a component without
/// `vsrc1` (`v_dual_mov_b32`) needs that field 0 (llvm-mc-19 rejects the word otherwise).
fn decode_vopd(bytes: &[u8], x: Opcode, word: u64) -> Result<(Instruction, usize), DecodeError> {
    let mut inst = Instruction {
        opcode: x,
        word,
        dpp: 0,
        literal: None,
    };
    if x.def().opcode > 13 {
        return Err(DecodeError::Invalid);
    }
    let y = inst.vopd_y().ok_or(DecodeError::Invalid)?;
    let mut lit = false;
    for (d, src0, vsrc1) in [
        (x.def(), Field::Src0, Field::Vsrc1),
        (y.def(), Field::Src0Y, Field::Vsrc1Y),
    ] {
        lit |= d.operands.iter().any(|o| o.kind == Kind::LitK) || inst.get(src0) == SRC_LITERAL;
        if d.operand(Field::Vsrc1).is_none() && inst.get(vsrc1) != 0 {
            return Err(DecodeError::Invalid);
        }
        // (`src_lds_direct`, 254, decodes and assembles in VOPD, unlike in VOP3.)
        if matches!(inst.get(src0), 209..=234 | 249 | 250) {
            return Err(DecodeError::Invalid);
        }
    }
    if lit {
        let l = bytes.get(8..12).ok_or(DecodeError::Truncated)?;
        inst.literal = Some(u32::from_le_bytes([l[0], l[1], l[2], l[3]]));
        return Ok((inst, 12));
    }
    Ok((inst, 8))
}

/// The decoder's checks of a DPP dword (tools/DPP_VOP3P_NOTES.md §4.1): in an e32 DPP16
/// form, a neg/abs bit of a source that takes no such modifier makes the word invalid (bits
/// that [`SrcMods`] says are ignored are kept). Bit 17, and bits 20-23 of a VOP3/VOP3P
/// form's dword, are ignored.
fn dpp_dword_ok(d: &InstrDef, kind: DppKind, dword: u32) -> bool {
    if kind != DppKind::Dpp16 || matches!(d.format, Format::Vop3 | Format::Vop3p) {
        return true;
    }
    (0..2).all(|i| {
        let neg = dword >> (20 + 2 * i) & 1 == 1;
        let abs = dword >> (21 + 2 * i) & 1 == 1;
        d.dpp_source_mods(i) != SrcMods::None || !neg && !abs
    })
}

impl Instruction {
    /// Decodes one instruction as llvm-mc-19 does for `wave`: in wave64 (`-mattr=
    /// +wavefrontsize64`) VOPD words are invalid, and so are lane masks that name no SGPR
    /// pair (`vcc_hi`, `m0`, `exec_hi`).
    pub fn decode_wave(bytes: &[u8], wave: Wave) -> Result<(Instruction, usize), DecodeError> {
        let (inst, size) = Instruction::decode(bytes)?;
        if wave == Wave::W64
            && (inst.def().format == Format::Vopd || !operands_printable(&inst, Wave::W64))
        {
            return Err(DecodeError::Invalid);
        }
        Ok((inst, size))
    }

    /// Decodes one instruction as the hardware executes it: where [`Instruction::decode`]
    /// (llvm-mc-19's rules) rejects a word only for bits in operand fields the instruction
    /// does not use — a VOP3 or VOP3P source it does not read, a DS register field, a SOPP
    /// immediate it takes none of — those fields are ignored, as AMD's RDNA3 ISA guide says
    /// unused fields are, and the word decodes with them cleared (newer LLVMs emit
    /// `v_lshlrev_b64` with src2 = 0x80). It also accepts the instructions the hardware has
    /// and llvm-mc-19 lacks ([`Flags::HW_ONLY`]: `v_mov_b16_e64`), and fake16 e32 words with a
    /// destination in v128-v255, the high half of `v(N & 127)` (`v_cvt_f16_f32_e32 v66.h`
    /// from Triton). The disassembler keeps `decode`.
    pub fn decode_hw(bytes: &[u8]) -> Result<(Instruction, usize), DecodeError> {
        let err = match Instruction::decode_any(bytes, true) {
            Ok(done) => return Ok(done),
            Err(e) => e,
        };
        let Some(first) = bytes.first_chunk::<4>() else {
            return Err(err);
        };
        let format = Format::identify(u32::from_le_bytes(*first)).ok_or(err)?;
        let size = format.layout().size as usize;
        let mut buf = [0u8; 16];
        let n = bytes.len().min(16);
        buf[..n].copy_from_slice(&bytes[..n]);
        let word = if size == 8 {
            u64::from_le_bytes(buf[..8].try_into().map_err(|_| err)?)
        } else {
            u32::from_le_bytes(*first) as u64
        };
        let oprange = format.op_range();
        let op = ((word >> oprange.lo) & oprange.mask()) as u32;
        let opcode = lookup_opcode(format, op).ok_or(err)?;
        let ignored = accept(opcode).ignored;
        if word & ignored == 0 {
            return Err(err);
        }
        let clean = word & !ignored;
        buf[..size].copy_from_slice(&clean.to_le_bytes()[..size]);
        Instruction::decode_any(&buf[..n], true)
    }

    /// Decodes one instruction from the start of `bytes`; returns it and its size.
    #[inline]
    pub fn decode(bytes: &[u8]) -> Result<(Instruction, usize), DecodeError> {
        Instruction::decode_any(bytes, false)
    }

    /// [`Instruction::decode`], which with `hw_only` also accepts the [`Flags::HW_ONLY`]
    /// entries.
    #[inline]
    fn decode_any(bytes: &[u8], hw_only: bool) -> Result<(Instruction, usize), DecodeError> {
        let Some(first) = bytes.first_chunk::<4>() else {
            return Err(DecodeError::Truncated);
        };
        let first = u32::from_le_bytes(*first);
        let format = Format::identify(first).ok_or(DecodeError::Invalid)?;
        let size = format.layout().size as usize;
        let word = if size == 8 {
            match bytes.first_chunk::<8>() {
                Some(b) => u64::from_le_bytes(*b),
                None => return Err(DecodeError::Truncated),
            }
        } else {
            first as u64
        };
        let oprange = format.op_range();
        let op = ((word >> oprange.lo) & oprange.mask()) as u32;
        let opcode = lookup_opcode(format, op).ok_or(DecodeError::Invalid)?;
        if !hw_only && opcode.def().flags.has(Flags::HW_ONLY) {
            return Err(DecodeError::Invalid);
        }
        let a = accept(opcode);
        let must_zero = if hw_only {
            a.must_zero & !a.true16
        } else {
            a.must_zero
        };
        if word & must_zero != 0 || word & a.must_one != a.must_one {
            return Err(DecodeError::Invalid);
        }
        if format == Format::Vopd {
            return decode_vopd(bytes, opcode, word);
        }
        let mut inst = Instruction {
            opcode,
            word,
            dpp: 0,
            literal: None,
        };
        let mut end = size;
        let vector = matches!(
            format,
            Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3 | Format::Vop3p
        );
        if vector {
            let d = opcode.def();
            let src0 = inst.get(Field::Src0);
            // (An instruction without src0, `v_nop`, ignores the field: no DPP dword.)
            let dpp = DppKind::from_src0(src0).filter(|_| d.operand(Field::Src0).is_some());
            if let Some(kind) = dpp {
                // DPP16 (250) and DPP8 (233, 234): a dword follows the word, for the
                // instructions that have DPP forms; elsewhere these codes are invalid.
                if !d.flags.has(Flags::DPP) {
                    return Err(DecodeError::Invalid);
                }
                let b = bytes.get(size..size + 4).ok_or(DecodeError::Truncated)?;
                let dword = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                if !dpp_dword_ok(d, kind, dword) {
                    return Err(DecodeError::Invalid);
                }
                inst.dpp = dword;
                end += 4;
            }
            if format == Format::Vop3p && !vop3p_regs_ok(d, word) {
                return Err(DecodeError::Invalid);
            }
            if a.wide_regs && !vector_regs_ok(d, word) {
                return Err(DecodeError::Invalid);
            }
            if matches!(format, Format::Vop3 | Format::Vop3p) {
                // Source codes 209-234, 249 and 250 name nothing a VOP3 source can be
                // (254 is `src_lds_direct`, which llvm-mc-19 decodes but will not assemble).
                // A DPP src0 was handled above.
                let skip = dpp.is_some() as usize;
                for lo in [32, 41, 50].into_iter().skip(skip) {
                    if matches!((word >> lo) & 0x1ff, 209..=234 | 249 | 250) {
                        return Err(DecodeError::Invalid);
                    }
                }
            }
        }
        if inst.needs_literal() {
            let lit = bytes.get(end..end + 4).ok_or(DecodeError::Truncated)?;
            inst.literal = Some(u32::from_le_bytes([lit[0], lit[1], lit[2], lit[3]]));
            end += 4;
        }
        if !operands_printable(&inst, Wave::W32) {
            return Err(DecodeError::Invalid);
        }
        Ok((inst, end))
    }
}

#[cfg(test)]
mod hw_tests {
    use super::*;

    /// The word Triton's LLVM emits for `v_lshlrev_b64 v[0:1], 2, v[2:3]` with src2 = 0x80:
    /// llvm-mc-19 rejects it (`decode`); the hardware ignores the unused field (`decode_hw`),
    /// and the instruction is the one with the field cleared.
    #[test]
    fn unused_operand_fields_are_ignored_only_by_the_hardware_decoder() {
        let triton = [0x00, 0x00, 0x3c, 0xd7, 0x82, 0x04, 0x02, 0x02];
        assert_eq!(Instruction::decode(&triton), Err(DecodeError::Invalid));
        let clean = [0x00, 0x00, 0x3c, 0xd7, 0x82, 0x04, 0x02, 0x00];
        let want = Instruction::decode(&clean).expect("the word without src2");
        assert_eq!(want.0.mnemonic(), "v_lshlrev_b64");
        assert_eq!(Instruction::decode_hw(&triton), Ok(want));
        // A DS word with a register field it does not use (ds_add_u32 has no vdst).
        let ds = [0x10, 0x00, 0x00, 0xd8, 0x01, 0x02, 0x00, 0x05];
        assert_eq!(Instruction::decode(&ds), Err(DecodeError::Invalid));
        let (inst, size) = Instruction::decode_hw(&ds).expect("decodes");
        assert_eq!((inst.mnemonic(), size), ("ds_add_u32", 8));
        assert_eq!(inst.get(Field::Vdst), 0);
        // Valid words decode the same either way; a word invalid for another reason (the
        // clamp bit of an instruction without clamp) stays invalid.
        for w in [clean, [0x10, 0x00, 0x00, 0xd8, 0x01, 0x02, 0x00, 0x00]] {
            assert_eq!(Instruction::decode_hw(&w), Instruction::decode(&w));
        }
        let clamp = [0x00, 0x80, 0x3c, 0xd7, 0x82, 0x04, 0x02, 0x02];
        assert_eq!(Instruction::decode(&clamp), Err(DecodeError::Invalid));
        assert_eq!(Instruction::decode_hw(&clamp), Err(DecodeError::Invalid));
        assert_eq!(
            Instruction::decode_hw(&[0x00, 0x00]),
            Err(DecodeError::Truncated)
        );
    }

    /// VOP3 412, `v_mov_b16_e64` (AMD's pseudocode lists it; llvm-mc-19 refuses the word and
    /// the mnemonic; Triton 3.9 emits it, with unused src1/src2 fields set): only the
    /// hardware decoder takes it, and prints its op_sel as [src0, dst].
    #[test]
    fn hardware_only_instructions_decode_only_for_the_hardware() {
        let dst_hi = [0x01, 0x40, 0x9c, 0xd5, 0x02, 0x01, 0x00, 0x00];
        assert_eq!(Instruction::decode(&dst_hi), Err(DecodeError::Invalid));
        let (inst, size) = Instruction::decode_hw(&dst_hi).expect("the hardware runs it");
        assert_eq!(size, 8);
        assert_eq!(
            crate::print::print(&inst),
            "v_mov_b16_e64 v1, v2 op_sel:[0,1]"
        );
        let triton = [0xb1, 0x40, 0x9c, 0xd5, 0xbc, 0x01, 0x01, 0x02];
        let (inst, _) = Instruction::decode_hw(&triton).expect("unused fields ignored");
        assert_eq!(
            crate::print::print(&inst),
            "v_mov_b16_e64 v177, v188 op_sel:[0,1]"
        );
        assert!(crate::lookup::lookup_name("v_mov_b16_e64").is_none());
        // v_cvt_f16_f32_e32 with vdst 194 (v66.h), as Triton's LLVM encodes a true16 result:
        // llvm-mc-19 refuses it (fake16: v0-v127 only); the hardware writes v66's high half.
        let true16 = [0x4a, 0x15, 0x84, 0x7f];
        assert_eq!(Instruction::decode(&true16), Err(DecodeError::Invalid));
        let (inst, size) = Instruction::decode_hw(&true16).expect("the hardware runs it");
        assert_eq!((inst.mnemonic(), size), ("v_cvt_f16_f32_e32", 4));
        assert_eq!(inst.get(Field::Vdst), 194);
        assert!(crate::lookup::known_to_llvm().all(|(_, d)| !d.flags.has(Flags::HW_ONLY)));
        assert!(crate::lookup::all().any(|(_, d)| d.flags.has(Flags::HW_ONLY)));
    }
}
