//! The printer: an [`Instruction`] to the canonical text llvm-mc-19 prints.

use std::fmt::Write;

use crate::def::{Flags, Imm, Implicit, Kind, OperandClass, SrcMods, SrcTy, Wave};
use crate::dpp::{dpp16_text, dpp8_text, DppKind};
use crate::fields::Field;
use crate::format::Format;
use crate::inst::{Instruction, SGPR_NULL, SRC_LDS_DIRECT, SRC_LITERAL};
use crate::regs::{sreg_name, ssrc_name, vreg_name, F16_CONSTANTS, FLOAT_CONSTANTS};
use crate::special;

/// How the text of one instruction was written, where llvm-mc echoes that in its output
/// although the encoding does not record it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    /// SMEM: an `offset:` modifier was written next to an `soffset` register
    /// (llvm-mc then prints `offset:0x0` even for a zero offset).
    pub smem_explicit_offset: bool,
    /// SMEM: the offset was written as an immediate without `soffset` (llvm-mc then prints
    /// `0x0` where the disassembler prints `null`).
    pub smem_imm_only: bool,
    /// A float constant was written in a 16-bit integer operand (llvm-mc echoes it as a
    /// float where the disassembler prints its f16 bits).
    pub float_constant_written: bool,
    /// A 16-bit immediate as written (llvm-mc echoes branch offsets signed, `s_version` in
    /// hex, and `s_nop`-style values before truncation).
    pub imm_written: Option<i64>,
    /// Sources (bit i: source i) written under `|x|`/`abs(x)` where the instruction has no
    /// abs bit ([`SrcMods::Neg`], `v_div_scale_*`): llvm-mc-19 encodes nothing for it but
    /// echoes the `|x|`.
    pub abs_written: u8,
    /// The wave size the text is for ([`Wave::W64`]: lane masks as SGPR pairs).
    pub wave: Wave,
}

/// Canonical text of `inst`, as `llvm-mc-19 --disassemble` prints it.
pub fn print(inst: &Instruction) -> String {
    print_with(inst, Hints::default())
}

/// Canonical text of `inst` as `llvm-mc-19 --disassemble` prints it for `wave`
/// (`-mattr=+wavefrontsize64` for [`Wave::W64`]).
pub fn print_wave(inst: &Instruction, wave: Wave) -> String {
    print_with(
        inst,
        Hints {
            wave,
            ..Hints::default()
        },
    )
}

/// Canonical text of `inst` as llvm-mc-19 prints it after assembling text with `hints`.
pub fn print_with(inst: &Instruction, hints: Hints) -> String {
    let d = inst.def();
    if d.isa == crate::schema::Isa::Gfx940 {
        return crate::gfx9::print::print_with(inst, hints);
    }
    if d.format == Format::Vopd {
        return print_vopd(inst);
    }
    let mut out = String::with_capacity(48);
    out.push_str(inst.mnemonic());
    let mut first = true;
    for o in d.operands {
        let Some(text) = operand_text(inst, o.field, o.kind, hints) else {
            continue;
        };
        out.push_str(if first { " " } else { ", " });
        first = false;
        out.push_str(&text);
    }
    modifiers(inst, hints, &mut out);
    out
}

/// `X :: Y`: each component as its operands say, Y's read from the Y fields.
fn print_vopd(inst: &Instruction) -> String {
    let mut out = String::with_capacity(64);
    let y = inst.vopd_y();
    // With K in either half, every literal prints by the 32-bit rules (llvm-mc-19 then
    // shows a packed-f16 source's literal as for a b32 one).
    let with_k = [Some(inst.opcode), y]
        .iter()
        .flatten()
        .any(|op| op.def().operands.iter().any(|o| o.kind == Kind::LitK));
    for (i, op) in [Some(inst.opcode), y].into_iter().enumerate() {
        let Some(op) = op else { break };
        let d = op.def();
        if i == 1 {
            out.push_str(" :: ");
        }
        out.push_str(d.name);
        for (j, o) in d.operands.iter().enumerate() {
            out.push_str(if j == 0 { " " } else { ", " });
            let ty = match o.kind {
                Kind::VSrc(_, ty) if !with_k => ty,
                _ => SrcTy::B32,
            };
            let text = match (i, o.field) {
                (1, Field::Vdst) => vreg_name(inst.vopd_vdst_y(), 1),
                (1, Field::Src0) => ssrc_or_vgpr(inst, inst.get(Field::Src0Y), ty),
                (1, Field::Vsrc1) => vreg_name(inst.get(Field::Vsrc1Y), 1),
                (_, Field::Src0) => ssrc_or_vgpr(inst, inst.get(Field::Src0), ty),
                (_, Field::Literal) => format!("0x{:x}", inst.literal.unwrap_or(0)),
                (_, f) => vreg_name(inst.get(f), 1),
            };
            out.push_str(&text);
        }
    }
    out
}

/// A 9-bit vector-ALU source of 32 bits: a VGPR (256+) or a scalar source.
fn ssrc_or_vgpr(inst: &Instruction, v: u32, ty: SrcTy) -> String {
    match v {
        256.. => vreg_name(v - 256, 1),
        254 => "src_lds_direct".into(),
        _ => vsrc_text(inst, v, 1, ty),
    }
}

/// The register code llvm-mc-19 decodes for an operand of `dwords` scalar registers: an SGPR
/// or TTMP range starts at a multiple of 2 (64 bits) or 4 (wider), so a misaligned code names
/// the aligned range below it (`s[27:30]` prints as `s[24:27]`).
pub(crate) fn aligned_sreg(code: u32, dwords: u8) -> u32 {
    aligned_sreg_of(code, dwords, 106)
}

/// [`aligned_sreg`] for an instruction set with `sgprs` SGPRs (gfx1100 106, gfx942 102).
pub(crate) fn aligned_sreg_of(code: u32, dwords: u8, sgprs: u32) -> u32 {
    let align = (dwords as u32).clamp(1, 4);
    match code {
        _ if code < sgprs => code & !(align - 1),
        108..=123 => 108 + ((code - 108) & !(align - 1)),
        _ => code,
    }
}

/// A range of `dwords` VGPRs from `first`; one past v255 names nothing (llvm-mc-19 rejects it).
fn vrange(first: u32, dwords: u8) -> String {
    if first + dwords as u32 > 256 {
        return format!("<invalid vgpr range v{first}+{dwords}>");
    }
    vreg_name(first, dwords)
}

fn sreg_or_raw(code: u32, dwords: u8) -> String {
    sreg_name(aligned_sreg(code, dwords), dwords)
        .unwrap_or_else(|| format!("<invalid sgpr code {code}>"))
}

/// `vcc` or `exec` (code 106 or 126) in an SMEM operand of 4 or more registers: llvm-mc-19
/// prints the 64-bit register with a comment naming the operand's class.
fn wide_vcc_exec(code: u32, dwords: u8) -> String {
    let name = if code == 106 { "vcc" } else { "exec" };
    format!(
        "{name}/*Invalid register, operand has 'SReg_{}' register class*/",
        32 * dwords as u32
    )
}

/// `src_lds_direct` where a 32-bit scalar operand cannot take it (llvm-mc-19 decodes it with
/// this comment).
const LDS_DIRECT_SREG: &str =
    "src_lds_direct/*Invalid register, operand has 'SReg_32' register class*/";

fn ssrc_text(inst: &Instruction, code: u32, dwords: u8) -> String {
    if code == SRC_LITERAL {
        let lit = inst.literal.unwrap_or(0);
        return special::literal_text(lit, dwords);
    }
    if code == SRC_LDS_DIRECT && dwords == 1 {
        return LDS_DIRECT_SREG.into();
    }
    ssrc_name(aligned_sreg(code, dwords), dwords)
        .unwrap_or_else(|| format!("<invalid source code {code}>"))
}

/// Whether every operand of `inst` names something llvm-mc-19 decodes (a register range that
/// exists, a source code that is not reserved): the decoder rejects words where the printer
/// would have nothing to print.
pub(crate) fn operands_printable(inst: &Instruction, wave: Wave) -> bool {
    let hints = Hints {
        wave,
        ..Hints::default()
    };
    inst.def()
        .operands
        .iter()
        .all(|o| operand_text(inst, o.field, o.kind, hints).is_none_or(|t| !t.contains("<invalid")))
}

/// Text of one operand, or `None` when the operand is absent (an atomic without return), by
/// operand class: vector registers, scalar registers and sources, immediates and literals,
/// and vector-ALU sources. A wave64 lane mask (an SGPR pair) is printed apart.
fn operand_text(inst: &Instruction, field: Field, kind: Kind, hints: Hints) -> Option<String> {
    let v = inst.get(field);
    if hints.wave == Wave::W64 && inst.def().is_lane_mask(field, kind) {
        return Some(wave64_mask_text(inst, v, kind));
    }
    match kind.class() {
        OperandClass::VectorRegister => vector_register_text(inst, field, kind, v),
        OperandClass::Scalar => Some(scalar_text(inst, field, kind, v, hints)),
        OperandClass::Immediate => immediate_text(inst, kind, v, hints),
        OperandClass::VectorSource => Some(vector_source_text(inst, field, kind, v, hints)),
    }
}

/// A vector-register operand (raw field value `v`): a VGPR or a range, `off`, a `.l`/`.h`
/// half, a WMMA matrix or a VINTERP source; `None` for the destination of an atomic without
/// return.
fn vector_register_text(inst: &Instruction, field: Field, kind: Kind, v: u32) -> Option<String> {
    let d = inst.def();
    Some(match kind {
        Kind::V(n) if field == Field::Vsrc1 && inst.dpp_kind() == Some(DppKind::Dpp16) => {
            // e32 DPP16: vsrc1 takes the DPP dword's neg/abs bit 1.
            let text = if v >= 128 && sixteen_bit_sources(inst) {
                format!(
                    "{}/*Invalid register, operand has 'VGPR_32_Lo128' register class*/",
                    vreg_name(v, n)
                )
            } else {
                vreg_name(v, n)
            };
            let (neg, abs) = (
                inst.get(Field::DppNeg) >> 1 & 1,
                inst.get(Field::DppAbs) >> 1 & 1,
            );
            apply_mods(text, 256 + v, d.source_mods(1), neg == 1, abs == 1)
        }
        Kind::V(n) if field == Field::Vsrc1 && v >= 128 && sixteen_bit_sources(inst) => format!(
            "{}/*Invalid register, operand has 'VGPR_32_Lo128' register class*/",
            vreg_name(v, n)
        ),
        Kind::V(n) => {
            let extra = (d.format == Format::Mubuf && field == Field::Vdata) as u8
                * inst.get(Field::Tfe) as u8;
            vrange(v, n + extra)
        }
        Kind::VRtn(n) => {
            if inst.get(Field::Glc) == 0 {
                return None;
            }
            vrange(v, n)
        }
        Kind::BufVaddr => match (inst.get(Field::Idxen), inst.get(Field::Offen)) {
            (1, 1) => vrange(v, 2),
            (0, 0) => "off".into(),
            _ => vreg_name(v, 1),
        },
        Kind::FlatVaddr => match d.format {
            Format::Global if inst.get(Field::Saddr) != SGPR_NULL => vreg_name(v, 1),
            Format::Scratch if inst.get(Field::Sve) == 0 => "off".into(),
            Format::Scratch => vreg_name(v, 1),
            _ => vrange(v, 2),
        },
        Kind::WmmaAB(n) => wmma_text(inst, v, n, false),
        Kind::WmmaC(n) => wmma_text(inst, v, n, true),
        Kind::VLoHi(_) => lohi_name(v),
        Kind::VinterpSrc(i) => {
            // A VGPR; llvm-mc-19 prints scalar registers and constants with a comment.
            let neg = (inst.get(Field::Neg) >> i) & 1 == 1;
            let constant = matches!(v, 128..=208 | 240..=248 | SRC_LITERAL);
            let reg = match v {
                256.. => vreg_name(v - 256, 1),
                SGPR_NULL | 235..=239 | 251..=253 => ssrc_name(v, 1).unwrap_or_default(),
                SRC_LDS_DIRECT | 0..=127 => format!(
                    "{}/*Invalid register, operand has 'VGPR_32' register class*/",
                    ssrc_name(v, 1).unwrap_or_else(|| "src_lds_direct".into())
                ),
                _ if constant => format!("{}/*Invalid immediate*/", ssrc_text(inst, v, 1)),
                _ => format!("<invalid source code {v}>"),
            };
            match (neg, constant) {
                (true, true) => format!("neg({reg})"),
                (true, false) => format!("-{reg}"),
                _ => reg,
            }
        }

        _ => unreachable!("{kind:?} is not a vector-register operand"),
    })
}

/// A scalar operand (raw field value `v`): an SGPR or a range, a scalar source, an SMEM base,
/// offset or probe, a buffer resource or offset, a FLAT `saddr` or a wave32 lane mask, with
/// llvm-mc-19's comments on codes the operand cannot hold.
fn scalar_text(inst: &Instruction, field: Field, kind: Kind, v: u32, hints: Hints) -> String {
    let d = inst.def();
    match kind {
        Kind::S(1) if d.format == Format::Smem && matches!(v, 125..=127) => format!(
            "{}/*Invalid register, operand has 'SReg_32_XM0_XEXEC' register class*/",
            sreg_or_raw(v, 1)
        ),
        Kind::S(2) if d.format == Format::Smem && v == 126 => {
            "exec/*Invalid register, operand has 'SReg_64_XEXEC' register class*/".to_string()
        }
        Kind::S(1) if field == Field::Vdst && d.format == Format::Vop1 && v >= 128 => {
            // `v_readfirstlane_b32`'s 8-bit SGPR destination: llvm-mc-19 reads the code as a
            // scalar source, marking constants (`src_lds_direct` has its own comment).
            match v {
                235..=239 | 251..=253 | SRC_LDS_DIRECT => ssrc_text(inst, v, 1),
                _ => format!("{}/*Invalid immediate*/", ssrc_text(inst, v, 1)),
            }
        }
        Kind::S(n @ 4..) if d.format == Format::Smem && matches!(v, 106 | 126) => {
            wide_vcc_exec(v, n)
        }
        Kind::S(n) => sreg_or_raw(v, n),
        Kind::SsrcReg(n) => {
            if v == SRC_LITERAL || !(0..128).contains(&v) && v < 235 || (240..=248).contains(&v) {
                // llvm-mc-19 prints the constant as for a 32-bit operand, then the comment.
                format!("{}/*Invalid immediate*/", ssrc_text(inst, v, 1))
            } else {
                ssrc_text(inst, v, n)
            }
        }
        Kind::Ssrc(n) if v >= 256 => format!(
            "{}/*Invalid register, operand has 'SReg_32' register class*/",
            vreg_name(v - 256, n)
        ),
        Kind::Ssrc(n) => ssrc_text(inst, v, n),
        Kind::SBase(n @ 4..) if matches!(v * 2, 106 | 126) => wide_vcc_exec(v * 2, n),
        Kind::SBase(n) => sreg_or_raw(v * 2, n),
        Kind::SmemOffset => {
            if smem_offset_as_register(inst, hints) {
                sreg_or_raw(inst.get(Field::Soffset), 1)
            } else {
                special::smem_offset_text(inst.get(Field::Offset))
            }
        }
        Kind::SmemProbe if v > 64 => format!("0x{v:x}"),
        Kind::SmemProbe => v.to_string(),
        Kind::Rsrc => sreg_or_raw(v * 4, 4),
        Kind::BufSoffset => ssrc_text(inst, v, 1),
        Kind::FlatSaddr => {
            if v == SGPR_NULL {
                "off".into()
            } else if v == 127 && d.format == Format::Scratch {
                "exec_hi/*Invalid register, operand has 'SReg_32_XEXEC_HI' register class*/".into()
            } else {
                sreg_or_raw(v, if d.format == Format::Global { 2 } else { 1 })
            }
        }
        Kind::LaneMask => match v {
            0..=125 => sreg_or_raw(v, 1),
            235..=239 | 251..=253 => ssrc_text(inst, v, 1),
            126 | 127 => format!(
                "{}/*Invalid register, operand has 'SReg_1_XEXEC' register class*/",
                sreg_or_raw(v, 1)
            ),
            256.. => format!(
                "{}/*Invalid register, operand has 'SReg_1_XEXEC' register class*/",
                vreg_name(v - 256, 1)
            ),
            _ => format!("{}/*Invalid immediate*/", ssrc_text(inst, v, 1)),
        },
        _ => unreachable!("{kind:?} is not a scalar operand"),
    }
}

/// An immediate or literal operand (raw field value `v`): a 16-bit immediate in its style, a
/// literal, an interpolation attribute or the implicit `vcc_lo`.
fn immediate_text(inst: &Instruction, kind: Kind, v: u32, hints: Hints) -> Option<String> {
    Some(match kind {
        Kind::Imm(style) => match (hints.imm_written, style) {
            (Some(w), Imm::Label) => w.to_string(),
            (Some(w), Imm::Version) => format!("0x{:x}", w as u16),
            (Some(w), Imm::Dec) if !(0..=64).contains(&w) && w >= 0 => format!("0x{w:x}"),
            (Some(w), Imm::Dec) => w.to_string(),
            _ => special::imm_text(style, v)?,
        },
        Kind::Lit32 => special::literal_text(inst.literal.unwrap_or(0), 1),
        Kind::SendmsgRtn => special::sendmsg_rtn_text(v),
        Kind::AttrName => format!(
            "attr{}.{}",
            inst.get(Field::Attr),
            ['x', 'y', 'z', 'w'][inst.get(Field::AttrChan) as usize & 3]
        ),
        Kind::Implicit(Implicit::VccLo) => "vcc_lo".into(),
        Kind::LitK => format!("0x{:x}", inst.literal.unwrap_or(0)),
        _ => unreachable!("{kind:?} is not an immediate operand"),
    })
}

/// A vector-ALU source ([`Kind::VSrc`] of `n` dwords and type `ty`; raw field value `v`): the DPP source 0,
/// a VOP3/VOP3P source with its modifiers, or a plain one.
fn vector_source_text(
    inst: &Instruction,
    field: Field,
    kind: Kind,
    v: u32,
    hints: Hints,
) -> String {
    let Kind::VSrc(n, ty) = kind else {
        unreachable!("{kind:?} is not a vector-ALU source")
    };
    let d = inst.def();
    match ty {
        SrcTy::I16 | SrcTy::B16LoHi if hints.float_constant_written && (240..=248).contains(&v) => {
            FLOAT_CONSTANTS[(v - 240) as usize].0.to_string()
        }
        _ if field == Field::Src0 && inst.dpp_kind().is_some() => {
            // The DPP source 0: a VGPR from the DPP dword, with the modifiers of the form.
            let r = inst.get(Field::DppSrc0);
            let mut text = match ty {
                SrcTy::B16LoHi => lohi_name(r),
                _ => vreg_name(r, n),
            };
            let e32 = matches!(d.format, Format::Vop1 | Format::Vop2 | Format::Vopc);
            if e32 && r >= 128 && sixteen_bit_sources(inst) {
                text.push_str("/*Invalid register, operand has 'VGPR_32_Lo128' register class*/");
            }
            let (neg, abs) = source_mod_bits(inst, 0);
            apply_mods(text, 256 + r, source_mods_of(inst, 0), neg, abs)
        }
        _ if matches!(d.format, Format::Vop3 | Format::Vop3p) => {
            let i = field.source_index();
            let mix_dpp_src1 =
                d.flags.has(Flags::MIX) && i == 1 && v < 256 && inst.dpp_kind().is_some();
            // (llvm-mc-19 prints such a constant by the 32-bit rules.)
            let ty = if mix_dpp_src1 { SrcTy::B32 } else { ty };
            let mut text = vsrc_text(inst, v, n, ty);
            if mix_dpp_src1 {
                // `v_fma_mix*` DPP: src1 is a VGPR; llvm-mc-19 marks scalar registers and
                // constants (not `null` and the `src_*` registers).
                match v {
                    0..=123 | 125..=127 | SRC_LDS_DIRECT => {
                        text.push_str("/*Invalid register, operand has 'VGPR_32' register class*/")
                    }
                    128..=208 | 240..=248 | SRC_LITERAL => text.push_str("/*Invalid immediate*/"),
                    _ => {}
                }
            }
            let (neg, abs) = source_mod_bits(inst, i);
            let mods = source_mods_of(inst, i);
            let abs = match mods {
                SrcMods::Neg => hints.abs_written >> i & 1 == 1,
                _ => abs,
            };
            apply_mods(text, v, mods, neg, abs)
        }
        _ => {
            let text = vsrc_text(inst, v, n, ty);
            if matches!(ty, SrcTy::F16 | SrcTy::I16) && v >= 384 && d.format != Format::Vop3 {
                format!("{text}/*Invalid register, operand has 'VS_32_Lo128' register class*/")
            } else {
                text
            }
        }
    }
}

/// SMEM's last operand: llvm-mc-19 prints the `soffset` register unless it is `null` with a
/// nonzero offset (then the offset alone), and echoes assembly text the way it was written.
fn smem_offset_as_register(inst: &Instruction, hints: Hints) -> bool {
    if hints.smem_imm_only {
        return false;
    }
    inst.get(Field::Soffset) != SGPR_NULL
        || inst.get(Field::Offset) == 0
        || hints.smem_explicit_offset
}

/// Whether the instruction's sources are 16-bit "fake16" operands (v0-v127 only).
pub(crate) fn sixteen_bit_sources(inst: &Instruction) -> bool {
    inst.def()
        .operand(Field::Src0)
        .is_some_and(|o| matches!(o.kind, Kind::VSrc(_, SrcTy::F16 | SrcTy::I16)))
}

/// `vN.l` / `vN.h` of an 8-bit true16 register field.
fn lohi_name(v: u32) -> String {
    format!("v{}.{}", v & 0x7f, if v & 0x80 != 0 { 'h' } else { 'l' })
}

/// Which of the form's neg/abs bits apply to vector-ALU source `i`: VOP3's `neg`/`abs`, an
/// e32 DPP16 dword's `dpp_neg`/`dpp_abs`, or `v_fma_mix*`'s `neg_lo`/`neg_hi`.
fn source_mod_bits(inst: &Instruction, i: usize) -> (bool, bool) {
    let (nf, af) = match inst.def().format {
        Format::Vop3 => (Field::Neg, Field::Abs),
        Format::Vop3p => (Field::NegLo, Field::NegHi),
        _ if inst.dpp_kind() == Some(DppKind::Dpp16) => (Field::DppNeg, Field::DppAbs),
        _ => return (false, false),
    };
    (inst.get(nf) >> i & 1 == 1, inst.get(af) >> i & 1 == 1)
}

/// What source `i`'s modifier bits mean in this instruction's form.
fn source_mods_of(inst: &Instruction, i: usize) -> SrcMods {
    let d = inst.def();
    match d.format {
        // `v_fma_mix*` write neg_lo/neg_hi on the operands; other VOP3P list them.
        Format::Vop3p if d.flags.has(Flags::MIX) => SrcMods::NegAbs,
        Format::Vop3p => SrcMods::None,
        Format::Vop3 if inst.dpp_kind().is_some() => d.dpp_source_mods(i),
        Format::Vop3 => d.source_mods(i),
        _ if inst.dpp_kind() == Some(DppKind::Dpp16) => d.dpp_source_mods(i),
        _ => SrcMods::None,
    }
}

/// A source's text with its modifiers as [`SrcMods`] says they print.
fn apply_mods(text: String, code: u32, mods: SrcMods, neg: bool, abs: bool) -> String {
    match mods {
        SrcMods::NegAbs | SrcMods::Neg => source_modifiers(text, code, neg, abs),
        SrcMods::Sext if neg => format!("sext({text})"),
        _ => text,
    }
}

/// A WMMA matrix operand: a VGPR range; C also an inline constant (printed as an f64 one).
/// Scalar registers llvm-mc-19 prints with a comment (A/B also constants); `null` and the
/// `src_*` registers plain.
/// Anything else llvm-mc-19 prints with a comment (and will not assemble).
fn wmma_text(inst: &Instruction, v: u32, n: u8, c: bool) -> String {
    match v {
        256.. => vreg_name(v - 256, n),
        128..=208 | 240..=248 if c => vsrc_text(inst, v, 2, SrcTy::F64),
        SRC_LITERAL if c => vsrc_text(inst, v, 2, SrcTy::F64),
        128..=208 | 240..=248 | SRC_LITERAL => {
            format!("{}/*Invalid immediate*/", vsrc_text(inst, v, 1, SrcTy::B32))
        }
        SGPR_NULL => "null".into(),
        0..=127 => {
            // A scalar range, aligned down as llvm-mc-19 prints it (the decoder refuses the
            // ranges that do not exist).
            let align = (n as u32).min(4);
            let name = match v {
                106 => Some("vcc".to_string()),
                126 => Some("exec".to_string()),
                108..=123 => sreg_name(108 + ((v - 108) & !(align - 1)), n),
                _ => sreg_name(v & !(align - 1), n),
            }
            .unwrap_or_else(|| format!("<invalid register code {v}>"));
            format!(
                "{name}/*Invalid register, operand has 'VReg_{}' register class*/",
                32 * n as u32
            )
        }
        _ => ssrc_name(v, 1).unwrap_or_else(|| format!("<invalid source code {v}>")),
    }
}

/// A VOP3 source with its `neg`/`abs` bits, as llvm-mc-19 prints them: registers as `-x`,
/// `|x|`, `-|x|`; an inline constant or literal with only `neg` as `neg(x)` (a leading `-`
/// would read as a negative constant).
pub(crate) fn source_modifiers(text: String, code: u32, neg: bool, abs: bool) -> String {
    let constant = matches!(code, 128..=208 | 240..=248 | SRC_LITERAL);
    match (neg, abs) {
        (false, false) => text,
        (false, true) => format!("|{text}|"),
        (true, true) => format!("-|{text}|"),
        (true, false) if constant => format!("neg({text})"),
        (true, false) => format!("-{text}"),
    }
}

/// Text of a 9-bit vector-ALU source of `n` dwords and type `ty`.
fn vsrc_text(inst: &Instruction, v: u32, n: u8, ty: SrcTy) -> String {
    if v >= 256 {
        return match ty {
            SrcTy::B16LoHi => lohi_name(v - 256),
            _ => vreg_name(v - 256, n),
        };
    }
    let lit = inst.literal.unwrap_or(0);
    let text = match ty {
        _ if v == SRC_LITERAL => typed_literal(lit, ty),
        SrcTy::I16 | SrcTy::B16LoHi if (240..=248).contains(&v) => {
            format!("0x{:x}", F16_CONSTANTS[(v - 240) as usize])
        }
        SrcTy::F64 | SrcTy::B64 => {
            // A 64-bit SGPR or TTMP pair ignores the low bit of its number
            // (tools/VOP3_NOTES.md: `s1` prints as `s[0:1]`).
            let v = if matches!(v, 0..=105 | 108..=123) {
                v & !1
            } else {
                v
            };
            ssrc_name(v, 2).unwrap_or_else(|| format!("<invalid source code {v}>"))
        }
        _ if v == SRC_LDS_DIRECT && n == 1 => "src_lds_direct".to_string(),
        _ => {
            ssrc_name(aligned_sreg(v, n), n).unwrap_or_else(|| format!("<invalid source code {v}>"))
        }
    };
    if ty == SrcTy::VgprOnly {
        let d = inst.def();
        let lanes = matches!(d.name, "v_readfirstlane_b32" | "v_readlane_b32");
        if d.format == Format::Vop1 && matches!(v, SGPR_NULL | 235..=239 | 251..=253)
            || d.name == "v_readfirstlane_b32" && v == SRC_LDS_DIRECT
        {
            // (llvm-mc-19 prints these e32 sources without a comment.)
            return text;
        }
        if (v < 128) || (235..=254).contains(&v) && !(240..=248).contains(&v) {
            // The readlanes read a VGPR or LDS_DIRECT; the others a VGPR.
            let class = if lanes { "VRegOrLds_32" } else { "VGPR_32" };
            return format!("{text}/*Invalid register, operand has '{class}' register class*/");
        }
        return format!("{text}/*Invalid immediate*/");
    }
    text
}

/// Text of a literal dword in a vector-ALU source of type `ty`, as llvm-mc-19 prints it (the
/// same on gfx1100 and gfx942).
pub(crate) fn typed_literal(lit: u32, ty: SrcTy) -> String {
    match ty {
        SrcTy::F64 => {
            let v64 = (lit as u64) << 32;
            if v64 == 0 {
                "0".to_string()
            } else if let Some(k) = FLOAT_CONSTANTS.iter().position(|c| c.2 == v64) {
                ssrc_name(240 + k as u32, 2).unwrap_or_default()
            } else {
                format!("0x{lit:x}")
            }
        }
        SrcTy::B64 => special::literal_text(lit, 2),
        SrcTy::PackedF16 => {
            if (-16..=64).contains(&(lit as i32)) {
                (lit as i32).to_string()
            } else if let Some(k) = F16_CONSTANTS.iter().position(|&c| c as u32 == lit) {
                FLOAT_CONSTANTS[k].0.to_string()
            } else {
                format!("0x{lit:x}")
            }
        }
        SrcTy::F16 => {
            // The low 16 bits; values that equal an inline constant print as it.
            let h = lit & 0xffff;
            let i = h as u16 as i16;
            if (-16..=64).contains(&i) {
                i.to_string()
            } else if let Some(k) = F16_CONSTANTS.iter().position(|&c| c as u32 == h) {
                FLOAT_CONSTANTS[k].0.to_string()
            } else {
                format!("0x{h:x}")
            }
        }
        SrcTy::I16 | SrcTy::B16LoHi => {
            let inline32 =
                (-16..=64).contains(&(lit as i32)) || FLOAT_CONSTANTS.iter().any(|c| c.1 == lit);
            if inline32 {
                special::literal_text(lit, 1)
            } else {
                format!("0x{:x}", lit & 0xffff)
            }
        }
        SrcTy::PackedBf16 => {
            if (-16..=64).contains(&(lit as i32)) {
                (lit as i32).to_string()
            } else {
                format!("0x{lit:x}")
            }
        }
        SrcTy::Bf16 => {
            let i = (lit & 0xffff) as u16 as i16;
            if (-16..=64).contains(&i) {
                i.to_string()
            } else {
                format!("0x{lit:x}")
            }
        }
        SrcTy::B32 | SrcTy::VgprOnly => special::literal_text(lit, 1),
    }
}

/// A lane mask in wave64: an SGPR pair (aligned down, as llvm-mc-19 decodes it), `vcc`,
/// `exec`, a TTMP pair or `null`; `vcc_hi`, `m0` and `exec_hi` name no pair (the decoder
/// rejects them). A [`Kind::LaneMask`] source prints constants and VGPRs as in wave32.
fn wave64_mask_text(inst: &Instruction, v: u32, kind: Kind) -> String {
    match (kind, v) {
        (Kind::Implicit(_), _) => "vcc".into(),
        (_, 107 | 125 | 127) => format!("<invalid lane mask code {v}>"),
        (Kind::LaneMask, 126) => {
            "exec/*Invalid register, operand has 'SReg_1_XEXEC' register class*/".into()
        }
        (_, 0..=127) => sreg_or_raw(v, 2),
        (Kind::LaneMask, 235..=239 | 251..=253) => ssrc_text(inst, v, 1),
        (Kind::LaneMask, 256..=510) => format!(
            "{}/*Invalid register, operand has 'SReg_1_XEXEC' register class*/",
            vreg_name(v - 256, 2)
        ),
        (Kind::LaneMask, 254 | 511) => format!("<invalid lane mask code {v}>"),
        (Kind::LaneMask, _) => format!("{}/*Invalid immediate*/", ssrc_text(inst, v, 1)),
        _ => format!("<invalid lane mask code {v}>"),
    }
}

/// Appends ` name` when the one-bit field `f` is set.
fn flag(inst: &Instruction, f: Field, name: &str, out: &mut String) {
    if inst.get(f) != 0 {
        out.push(' ');
        out.push_str(name);
    }
}

/// The modifiers after the operands: the format's (offsets, cache policy, op_sel,
/// clamp...), then a DPP form's DPP part.
fn modifiers(inst: &Instruction, hints: Hints, out: &mut String) {
    match inst.def().format {
        Format::Smem
        | Format::Ds
        | Format::Flat
        | Format::Global
        | Format::Scratch
        | Format::Mubuf
        | Format::Mtbuf
        | Format::Ldsdir => memory_modifiers(inst, hints, out),
        Format::Vinterp | Format::Vop3 | Format::Vop3p => alu_modifiers(inst, out),
        _ => {}
    }
    dpp_modifiers(inst, out);
}

/// The modifiers of a memory format: offsets, `format:`, the cache-policy and other flags,
/// LDSDIR's `wait_vdst`.
fn memory_modifiers(inst: &Instruction, hints: Hints, out: &mut String) {
    let d = inst.def();
    match d.format {
        Format::Smem => {
            if d.operands.is_empty() {
                return;
            }
            let off = inst.get(Field::Offset);
            if smem_offset_as_register(inst, hints) && (off != 0 || hints.smem_explicit_offset) {
                let _ = write!(out, " offset:{}", special::smem_offset_text(off));
            }
            flag(inst, Field::Glc, "glc", out);
            flag(inst, Field::Dlc, "dlc", out);
        }
        Format::Ds => {
            let (o0, o1) = (inst.get(Field::Offset0), inst.get(Field::Offset1));
            if d.flags.has(Flags::OFFSET_PAIR) {
                if o0 != 0 {
                    let _ = write!(out, " offset0:{o0}");
                }
                if o1 != 0 {
                    let _ = write!(out, " offset1:{o1}");
                }
            } else {
                let off = o1 << 8 | o0;
                if off != 0 {
                    if d.flags.has(Flags::SWIZZLE) {
                        let _ = write!(out, " offset:{}", special::swizzle_text(off));
                    } else {
                        let _ = write!(out, " offset:{off}");
                    }
                }
            }
            flag(inst, Field::Gds, "gds", out);
        }
        Format::Flat | Format::Global | Format::Scratch => {
            let raw = inst.get(Field::Offset);
            let off = if d.format == Format::Flat {
                // (13 bits, unsigned: llvm-mc-19 prints bit 12 too, though it will not
                // assemble an offset past 4095.)
                raw as i32
            } else {
                ((raw << 19) as i32) >> 19
            };
            if off != 0 {
                let _ = write!(out, " offset:{off}");
            }
            flag(inst, Field::Glc, "glc", out);
            flag(inst, Field::Slc, "slc", out);
            flag(inst, Field::Dlc, "dlc", out);
        }
        Format::Mubuf | Format::Mtbuf => {
            if d.operands.is_empty() {
                return;
            }
            if d.format == Format::Mtbuf {
                if let Some(f) = special::buf_format_text(inst.get(Field::Fmt)) {
                    let _ = write!(out, " format:{f}");
                }
            }
            flag(inst, Field::Idxen, "idxen", out);
            flag(inst, Field::Offen, "offen", out);
            let off = inst.get(Field::Offset);
            if off != 0 {
                let _ = write!(out, " offset:{off}");
            }
            flag(inst, Field::Glc, "glc", out);
            flag(inst, Field::Slc, "slc", out);
            flag(inst, Field::Dlc, "dlc", out);
            flag(inst, Field::Tfe, "tfe", out);
        }
        Format::Ldsdir => {
            let _ = write!(out, " wait_vdst:{}", inst.get(Field::WaitVdst));
        }
        _ => {}
    }
}

/// The modifiers of VINTERP, VOP3 and VOP3P: `clamp`, `op_sel`, the output modifier,
/// `wait_exp`.
fn alu_modifiers(inst: &Instruction, out: &mut String) {
    let d = inst.def();
    match d.format {
        Format::Vinterp => {
            flag(inst, Field::Clamp, "clamp", out);
            let opsel = inst.get(Field::OpSel);
            if d.flags.has(Flags::OP_SEL) && opsel != 0 {
                let b = |i: u32| (opsel >> i) & 1;
                let _ = write!(out, " op_sel:[{},{},{},{}]", b(0), b(1), b(2), b(3));
            }
            let _ = write!(out, " wait_exp:{}", inst.get(Field::WaitExp));
        }
        Format::Vop3 => {
            if let Some(l) = d.op_sel_layout() {
                let bit = |k: usize| l.entries[k].map_or(0, |b| (inst.word() >> b & 1) as u32);
                if (0..l.count).any(|k| bit(k) == 1) {
                    let list: Vec<String> = (0..l.count).map(|k| bit(k).to_string()).collect();
                    let _ = write!(out, " op_sel:[{}]", list.join(","));
                }
            }
            flag(inst, Field::Clamp, "clamp", out);
            match inst.get(Field::Omod) {
                1 => out.push_str(" mul:2"),
                2 => out.push_str(" mul:4"),
                3 => out.push_str(" div:2"),
                _ => {}
            }
        }
        Format::Vop3p => vop3p_modifiers(inst, out),
        _ => {}
    }
}

/// A DPP form's DPP part (`quad_perm:[...] row_mask:... `, `dpp8:[...]`).
fn dpp_modifiers(inst: &Instruction, out: &mut String) {
    match inst.dpp_kind() {
        Some(DppKind::Dpp16) => {
            out.push(' ');
            out.push_str(&dpp16_text(
                inst.get(Field::DppCtrl),
                inst.get(Field::RowMask),
                inst.get(Field::BankMask),
                inst.get(Field::BoundCtrl) == 1,
                inst.get(Field::Fi) == 1,
            ));
        }
        Some(DppKind::Dpp8) => {
            out.push(' ');
            out.push_str(&dpp8_text(
                inst.get(Field::Dpp8Sel),
                inst.get(Field::Fi) == 1,
            ));
        }
        None => {}
    }
}

/// VOP3P modifiers as llvm-mc-19 prints them (`tools/DPP_VOP3P_NOTES.md` §5.2): `op_sel`
/// when any bit of a source is set, `op_sel_hi` when it differs from the instruction's
/// default, `neg_lo`/`neg_hi` when set (not for `v_fma_mix*`, which write them on the
/// operands), then `clamp`; one list entry per source.
fn vop3p_modifiers(inst: &Instruction, out: &mut String) {
    let d = inst.def();
    let n = d.source_count();
    let m = (1u32 << n) - 1;
    let list = |v: u32| {
        let b: Vec<String> = (0..n).map(|i| (v >> i & 1).to_string()).collect();
        format!("[{}]", b.join(","))
    };
    let no_op_sel = d.flags.has(Flags::NO_OP_SEL);
    let op_sel = inst.get(Field::OpSel) & m;
    if !no_op_sel && op_sel != 0 {
        let _ = write!(out, " op_sel:{}", list(op_sel));
    }
    let hi = inst.get(Field::OpSelHi) & m;
    if !no_op_sel && hi != d.default_op_sel_hi() & m {
        let _ = write!(out, " op_sel_hi:{}", list(hi));
    }
    if !d.flags.has(Flags::MIX) {
        for (f, name) in [(Field::NegLo, "neg_lo"), (Field::NegHi, "neg_hi")] {
            let v = inst.get(f) & m;
            if v != 0 {
                let _ = write!(out, " {name}:{}", list(v));
            }
        }
    }
    flag(inst, Field::Clamp, "clamp", out);
}
