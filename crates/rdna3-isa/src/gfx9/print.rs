//! gfx942 instructions to text, as `llvm-mc-19 -mcpu=gfx942` prints them: the GFX9 names of
//! the scalar registers (`flat_scratch`, `xnack_mask`, `m0` at 124), the data registers of a
//! memory instruction as AGPRs when its `acc` bit is set, SMEM's immediate and register
//! offsets, gfx940's `sc0`/`nt`/`sc1` scope modifiers, and GFX9's `s_waitcnt`, `hwreg`,
//! `sendmsg` and `gpr_idx` operands. Facts from llvm-mc-19's output for gfx942 (the goldens of
//! `tools/gen_random_goldens.py --mcpu gfx942`).

use crate::def::{Flags, Imm, Implicit, Kind, SrcMods, SrcTy};
use crate::fields::Field;
use crate::format::Format;
use crate::inst::Instruction;
use crate::regs::{inline_int, FLOAT_CONSTANTS};

/// The GFX9 scalar code of `m0`.
pub const M0: u32 = 124;
/// gfx940's `null` (GFX9 leaves code 125 reserved).
pub const NULL: u32 = 125;
/// `src_lds_direct`.
pub const LDS_DIRECT: u32 = 254;
/// The GFX9 "no register" code in 7-bit scalar fields (`off` of GLOBAL/SCRATCH `saddr`).
pub const SADDR_OFF: u32 = 0x7f;
/// Scalar source code: a literal dword follows.
pub const LITERAL: u32 = 255;

/// Text of a GFX9 scalar register code for an operand of `dwords` dwords, or `None` when the
/// code names no register of that size (constants, literal, a misaligned or cut range).
pub fn sreg_name(code: u32, dwords: u8) -> Option<String> {
    let n = dwords as u32;
    let range = |prefix: &str, first: u32| {
        if n == 1 {
            format!("{prefix}{first}")
        } else {
            format!("{prefix}[{}:{}]", first, first + n - 1)
        }
    };
    let pair = |lo: &str, hi: &str, whole: &str, at_hi: bool| -> Option<String> {
        Some(match (n, at_hi) {
            (1, false) => lo.to_string(),
            (1, true) => hi.to_string(),
            (2, false) => whole.to_string(),
            _ => return None,
        })
    };
    match code {
        // A range may run into s102-s103 (the registers that hold flat_scratch): llvm-mc-19
        // prints s[100:103].
        0..=101 => (code + n <= if n == 1 { 102 } else { 104 }).then(|| range("s", code)),
        102 | 103 => pair(
            "flat_scratch_lo",
            "flat_scratch_hi",
            "flat_scratch",
            code == 103,
        ),
        104 | 105 => pair("xnack_mask_lo", "xnack_mask_hi", "xnack_mask", code == 105),
        106 | 107 => pair("vcc_lo", "vcc_hi", "vcc", code == 107),
        108..=123 => (code - 108 + n <= 16).then(|| range("ttmp", code - 108)),
        M0 if n == 1 => Some("m0".into()),
        NULL => Some("null".into()),
        126 | 127 => pair("exec_lo", "exec_hi", "exec", code == 127),
        LDS_DIRECT => Some("src_lds_direct".into()),
        _ => crate::regs::SPECIAL_SRC
            .iter()
            .find(|(c, _)| *c == code)
            .map(|(_, name)| (*name).to_string()),
    }
}

/// The register code llvm-mc-19 decodes for an operand of `dwords` scalar registers: an SGPR
/// or TTMP range starts at a multiple of 2 (64 bits) or 4 (wider), so a misaligned code names
/// the aligned range below it.
fn aligned(code: u32, dwords: u8) -> u32 {
    crate::print::aligned_sreg_of(code, dwords, 102)
}

/// A scalar register range, or an `<invalid ...>` marker the decoder rejects.
fn sreg_or_raw(code: u32, dwords: u8) -> String {
    sreg_name(aligned(code, dwords), dwords)
        .unwrap_or_else(|| format!("<invalid sgpr code {code}>"))
}

/// Text of a scalar source code of `dwords` dwords: a register, an inline constant or the
/// literal (`lit`), or an `<invalid ...>` marker.
fn ssrc_text(code: u32, dwords: u8, lit: Option<u32>) -> String {
    if let Some(i) = inline_int(code) {
        return i.to_string();
    }
    if code == 248 && dwords > 1 {
        return "0.15915494309189532".to_string();
    }
    if (240..=248).contains(&code) {
        return FLOAT_CONSTANTS[(code - 240) as usize].0.to_string();
    }
    if code == LITERAL {
        return crate::special::literal_text(lit.unwrap_or(0), dwords);
    }
    if code == LDS_DIRECT {
        return match dwords {
            1 => "src_lds_direct/*Invalid register, operand has 'SReg_32' register class*/".into(),
            _ => "<invalid src_lds_direct>".into(),
        };
    }
    sreg_name(aligned(code, dwords), dwords)
        .unwrap_or_else(|| format!("<invalid source code {code}>"))
}

/// A 64-bit special register (`flat_scratch`, `xnack_mask`, `vcc`, `exec`) where an SMEM
/// operand of `dwords` registers needs an SGPR range: llvm-mc-19 prints it with a comment
/// naming the operand's class.
fn wide_special(code: u32, dwords: u8) -> String {
    format!(
        "{}/*Invalid register, operand has 'SReg_{}' register class*/",
        sreg_name(code, 2).unwrap_or_default(),
        32 * dwords as u32
    )
}

/// Text of a VGPR (or, `acc`, AGPR) range.
fn vreg(first: u32, dwords: u8, acc: bool) -> String {
    let p = if acc { "a" } else { "v" };
    if first + dwords as u32 > 256 {
        return format!("<invalid {p}gpr range {first}+{dwords}>");
    }
    if dwords == 1 {
        format!("{p}{first}")
    } else {
        format!("{p}[{}:{}]", first, first + dwords as u32 - 1)
    }
}

/// Whether the data registers of a memory instruction are AGPRs (the `acc` bit).
fn acc(inst: &Instruction) -> bool {
    inst.get(Field::Acc) == 1
}

/// Whether every operand of `inst` names something llvm-mc-19 decodes: the decoder rejects
/// words where the printer would have nothing to print.
pub(crate) fn operands_printable(inst: &Instruction) -> bool {
    if inst.dpp_kind().is_some() {
        return dpp_printable(inst);
    }
    if inst.sdwa() {
        return sdwa_printable(inst);
    }
    inst.def()
        .operands
        .iter()
        .all(|o| operand_text(inst, o.field, o.kind).is_none_or(|t| !t.contains("<invalid")))
}

/// Whether a DPP form's dword names something llvm-mc-19 decodes (its control does; the
/// others print with a comment).
pub(crate) fn dpp_printable(inst: &Instruction) -> bool {
    let d = inst.def();
    // (v_nop's DPP form decodes with a zero source byte only.)
    if d.name == "v_nop" && inst.get(Field::DppSrc0) != 0 {
        return false;
    }
    // The dword's neg/abs bits only for the sources that take them (a neg bit may be sext).
    let sources = d
        .operands
        .iter()
        .filter(|o| matches!(o.field, Field::Src0 | Field::Vsrc1))
        .count();
    for i in 0..2 {
        let (neg, abs) = (
            inst.get(Field::DppNeg) >> i & 1 == 1,
            inst.get(Field::DppAbs) >> i & 1 == 1,
        );
        let mods = i < sources && d.flags.neg_abs(i);
        // (sext: abs ignored; MODS_IGNORED: both ignored.)
        let ignored = i < sources && (d.flags.has(Flags::SEXT) || d.flags.has(Flags::MODS_IGNORED));
        if (abs || neg) && !mods && !ignored {
            return false;
        }
    }
    d.operands
        .iter()
        .filter(|o| o.field != Field::Src0)
        .all(|o| operand_text(inst, o.field, o.kind).is_none_or(|t| !t.contains("<invalid")))
}

/// GFX9's DPP control (`dpp_ctrl`, 9 bits) as llvm-mc-19 -mcpu=gfx942 prints it.
fn dpp_control_text(c: u32) -> String {
    match c {
        0x000..=0x0ff => format!(
            "quad_perm:[{},{},{},{}]",
            c & 3,
            c >> 2 & 3,
            c >> 4 & 3,
            c >> 6 & 3
        ),
        0x101..=0x10f => format!("row_shl:{}", c & 0xf),
        0x111..=0x11f => format!("row_shr:{}", c & 0xf),
        0x121..=0x12f => format!("row_ror:{}", c & 0xf),
        0x130 => "wave_shl:1".into(),
        0x134 => "wave_rol:1".into(),
        0x138 => "wave_shr:1".into(),
        0x13c => "wave_ror:1".into(),
        0x140 => "row_mirror".into(),
        0x141 => "row_half_mirror".into(),
        0x142 => "row_bcast:15".into(),
        0x143 => "row_bcast:31".into(),
        0x150..=0x15f => format!("row_newbcast:{}", c & 0xf),
        0x160..=0x16f => "/* row_xmask is not supported on ASICs earlier than GFX10 */".into(),
        _ => "/* Invalid dpp_ctrl value */".into(),
    }
}

/// A DPP form: `NAME_dpp` (the e32 name without `_e32`), the VGPR source 0 from the dword
/// and source 1 with the dword's neg/abs bits, then the control, `row_mask`, `bank_mask` and
/// `bound_ctrl:1`.
fn print_dpp(inst: &Instruction, fw: bool) -> String {
    let d = inst.def();
    let stem = d.name.strip_suffix("_e32").unwrap_or(d.name);
    // (v_nop's DPP form prints as `v_nop` and its control.)
    let mut out = match d.name {
        "v_nop" => stem.to_string(),
        _ => format!("{stem}_dpp"),
    };
    let mut ops: Vec<String> = Vec::new();
    for o in d.operands {
        let text = match (o.field, o.kind) {
            (Field::Src0 | Field::Vsrc1, Kind::VSrc(n, _) | Kind::V(n)) => {
                let i = o.field.source_index();
                let v = match o.field {
                    Field::Src0 => inst.get(Field::DppSrc0),
                    _ => inst.get(Field::Vsrc1),
                };
                let text = vreg(v, n, false);
                let (neg, abs) = (
                    inst.get(Field::DppNeg) >> i & 1 == 1,
                    inst.get(Field::DppAbs) >> i & 1 == 1,
                );
                if d.flags.neg_abs(i) {
                    crate::print::source_modifiers(text, 256 + v, neg, abs)
                } else if neg && d.flags.has(Flags::SEXT) && i == 1 {
                    // (v_ldexp_f16's exponent: its neg bit prints as sext.)
                    format!("sext({text})")
                } else {
                    text
                }
            }
            (f, k) => match operand_text_as(inst, f, k, fw) {
                Some(t) => t,
                None => continue,
            },
        };
        ops.push(text);
    }
    if !ops.is_empty() {
        out.push(' ');
        out.push_str(&ops.join(", "));
    }
    out.push(' ');
    let ctrl = inst.get(Field::DppCtrl);
    // The 64-bit ALU operations take row_newbcast only.
    let dp = d
        .operands
        .iter()
        .any(|o| matches!(o.kind, Kind::VSrc(2, _) | Kind::V(2)));
    if dp && !(0x150..=0x15f).contains(&ctrl) {
        out.push_str(" /* DP ALU dpp only supports row_newbcast */");
    } else {
        out.push_str(&dpp_control_text(ctrl));
    }
    out.push_str(&format!(
        " row_mask:0x{:x} bank_mask:0x{:x}",
        inst.get(Field::RowMask),
        inst.get(Field::BankMask)
    ));
    flag(inst, Field::BoundCtrl, "bound_ctrl:1", &mut out);
    out
}

/// The SDWA dword's fields: [7:0] src0, [10:8] dst_sel, [12:11] dst_unused, [13] clamp,
/// [15:14] omod (VOPC: [14:8] sdst, [15] sd), [18:16] src0_sel, [19] src0 sext, [20] neg,
/// [21] abs, [23] src0 is scalar, [26:24] src1_sel, [27] sext, [28] neg, [29] abs, [31] src1 is
/// scalar.
struct Sdwa(u32);

impl Sdwa {
    fn bits(&self, lo: u32, width: u32) -> u32 {
        self.0 >> lo & ((1 << width) - 1)
    }
    fn sel(&self, which: u32) -> u32 {
        match which {
            0 => self.bits(16, 3),
            1 => self.bits(24, 3),
            _ => self.bits(8, 3),
        }
    }
}

const SDWA_SELS: [&str; 7] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
];

/// Whether an SDWA form names something llvm-mc-19 decodes: selects 0-6, modifiers only
/// where the instruction takes them, nothing of source 1 in a VOP1.
pub(crate) fn sdwa_printable(inst: &Instruction) -> bool {
    let d = inst.def();
    let s = Sdwa(inst.dpp_dword());
    // (v_nop's SDWA form decodes with a zero dword only.)
    if d.name == "v_nop" {
        return s.0 == 0;
    }
    let vopc = d.format == Format::Vopc;
    let two = d.format != Format::Vop1;
    if s.sel(0) == 7 || two && s.sel(1) == 7 || !vopc && s.sel(2) == 7 {
        return false;
    }
    // A destination written whole (v_cvt_pk_f32_fp8, v_cvt_f32_fp8): dst_sel DWORD.
    if sdwa_wide_dst(inst) && s.sel(2) != 6 {
        return false;
    }
    if !two && (s.bits(24, 6) != 0 || s.bits(31, 1) != 0) {
        return false;
    }
    for i in 0..if two { 2 } else { 1 } {
        let base = if i == 0 { 19 } else { 27 };
        let (sext, neg, abs) = (s.bits(base, 1), s.bits(base + 1, 1), s.bits(base + 2, 1));
        // (v_ldexp_f16's exponent, source 1, takes sext where source 0 takes neg/abs.)
        let sext_ok = d.flags.has(Flags::SDWA_SEXT) || i == 1 && d.flags.has(Flags::SEXT);
        if sext == 1 && !sext_ok || (neg == 1 || abs == 1) && !d.flags.neg_abs(i) {
            return false;
        }
    }
    if !vopc
        && (s.bits(13, 1) == 1 && !d.flags.has(Flags::SDWA_CLAMP)
            || s.bits(14, 2) != 0 && !d.flags.has(Flags::SDWA_OMOD))
    {
        return false;
    }
    if vopc && s.bits(15, 1) == 1 && sreg_or_raw(s.bits(8, 7), 2).contains("<invalid") {
        return false;
    }
    sdwa_sources(inst, false)
        .iter()
        .all(|t| !t.contains("<invalid"))
        && d.operands
            .iter()
            .filter(|o| !matches!(o.field, Field::Src0 | Field::Vsrc1))
            .all(|o| operand_text(inst, o.field, o.kind).is_none_or(|t| !t.contains("<invalid")))
}

/// Whether an SDWA form prints no destination select: a 64-bit destination, written whole
/// (v_cvt_pk_f32_fp8), and the fp8/bf8 conversions to f32 (llvm-mc-19 prints neither
/// `dst_sel` nor `dst_unused` for them, and decodes only `dst_sel:DWORD`).
pub(crate) fn sdwa_wide_dst(inst: &Instruction) -> bool {
    let d = inst.def();
    matches!(d.operand(Field::Vdst), Some(o) if o.kind == Kind::V(2))
        || matches!(d.name, "v_cvt_f32_fp8_e32" | "v_cvt_f32_bf8_e32")
}

/// An SDWA form's sources with their modifiers: a VGPR, or (the scalar bit) a scalar source.
fn sdwa_sources(inst: &Instruction, fw: bool) -> Vec<String> {
    let d = inst.def();
    let s = Sdwa(inst.dpp_dword());
    let mut out = Vec::new();
    let fields: &[Field] = if d.format == Format::Vop1 {
        &[Field::Src0]
    } else {
        &[Field::Src0, Field::Vsrc1]
    };
    for (i, f) in fields.iter().enumerate() {
        let (code, scalar) = match f {
            Field::Src0 => (s.bits(0, 8), s.bits(23, 1) == 1),
            _ => (inst.get(Field::Vsrc1), s.bits(31, 1) == 1),
        };
        let text = if scalar && code == LITERAL {
            // (No literal in an SDWA form.)
            "<invalid literal>".to_string()
        } else if scalar && code == LDS_DIRECT {
            "src_lds_direct".to_string()
        } else if scalar {
            // (A constant prints by the instruction's source type, source 0's.)
            let ty = d
                .operands
                .iter()
                .find_map(|o| match o.kind {
                    Kind::VSrc(_, ty) if o.field == Field::Src0 => Some(written(ty, fw)),
                    _ => None,
                })
                .unwrap_or(SrcTy::B32);
            vsrc_text(inst, code, 1, ty)
        } else {
            vreg(code, 1, false)
        };
        let base = if i == 0 { 19 } else { 27 };
        let (sext, neg, abs) = (s.bits(base, 1), s.bits(base + 1, 1), s.bits(base + 2, 1));
        let text = if sext == 1 {
            format!("sext({text})")
        } else {
            crate::print::source_modifiers(
                text,
                if scalar { code } else { 256 },
                neg == 1,
                abs == 1,
            )
        };
        out.push(text);
    }
    out
}

/// An SDWA form: `NAME_sdwa` (the e32 name without `_e32`), the operands, then `clamp`, the
/// output modifier, `dst_sel`, `dst_unused` (not for VOPC, whose destination is VCC or, with
/// `sd`, an SGPR pair), `src0_sel` and `src1_sel`.
fn print_sdwa(inst: &Instruction, fw: bool) -> String {
    let d = inst.def();
    if d.name == "v_nop" {
        return "v_nop".to_string();
    }
    let s = Sdwa(inst.dpp_dword());
    let stem = d.name.strip_suffix("_e32").unwrap_or(d.name);
    let mut ops: Vec<String> = Vec::new();
    let mut sources = sdwa_sources(inst, fw).into_iter();
    for o in d.operands {
        match (o.field, o.kind) {
            (Field::Src0 | Field::Vsrc1, _) => ops.push(sources.next().unwrap_or_default()),
            (_, Kind::Implicit(Implicit::VccLo))
                if d.format == Format::Vopc && s.bits(15, 1) == 1 =>
            {
                ops.push(sreg_or_raw(s.bits(8, 7), 2))
            }
            (f, k) => {
                if let Some(t) = operand_text_as(inst, f, k, fw) {
                    ops.push(t);
                }
            }
        }
    }
    let mut out = format!("{stem}_sdwa");
    if !ops.is_empty() {
        out.push(' ');
        out.push_str(&ops.join(", "));
    }
    if d.format != Format::Vopc {
        if s.bits(13, 1) == 1 {
            out.push_str(" clamp");
        }
        match s.bits(14, 2) {
            1 => out.push_str(" mul:2"),
            2 => out.push_str(" mul:4"),
            3 => out.push_str(" div:2"),
            _ => {}
        }
        let unused = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD"];
        if !sdwa_wide_dst(inst) {
            out.push_str(&format!(
                " dst_sel:{} dst_unused:{}",
                SDWA_SELS[s.sel(2) as usize],
                unused[s.bits(11, 2) as usize]
            ));
        }
    }
    out.push_str(&format!(" src0_sel:{}", SDWA_SELS[s.sel(0) as usize]));
    if d.format != Format::Vop1 {
        out.push_str(&format!(" src1_sel:{}", SDWA_SELS[s.sel(1) as usize]));
    }
    out
}

/// `inst` as llvm-mc-19 -mcpu=gfx942 prints it.
pub fn print(inst: &Instruction) -> String {
    print_with(inst, crate::print::Hints::default())
}

/// `inst` as llvm-mc-19 -mcpu=gfx942 -show-encoding prints it after reading it from text
/// written as `hints` says (a branch offset is echoed as written: `-1`, not `65535`).
pub fn print_with(inst: &Instruction, hints: crate::print::Hints) -> String {
    if inst.dpp_kind().is_some() {
        return print_dpp(inst, hints.float_constant_written);
    }
    if inst.sdwa() {
        return print_sdwa(inst, hints.float_constant_written);
    }
    let d = inst.def();
    let mut ops: Vec<String> = Vec::new();
    for o in d.operands {
        let written = match (o.kind, hints.imm_written) {
            (Kind::Imm(Imm::Label), Some(v)) => Some(v.to_string()),
            _ => operand_text_as(inst, o.field, o.kind, hints.float_constant_written),
        };
        if let Some(t) = written {
            ops.push(t);
        }
    }
    let mut out = d.name.to_string();
    if !ops.is_empty() {
        out.push(' ');
        out.push_str(&ops.join(", "));
    }
    modifiers(inst, &mut out);
    out
}

fn operand_text(inst: &Instruction, field: Field, kind: Kind) -> Option<String> {
    operand_text_as(inst, field, kind, false)
}

/// [`operand_text`]; `fw`: a float constant in a 16-bit integer source prints as the float
/// (how llvm-mc-19 echoes one written so; it disassembles one as its f16 bits).
fn operand_text_as(inst: &Instruction, field: Field, kind: Kind, fw: bool) -> Option<String> {
    let v = inst.get(field);
    let d = inst.def();
    Some(match kind {
        Kind::S(1) if d.format == Format::Smem && matches!(v, M0 | 126 | 127) => format!(
            "{}/*Invalid register, operand has 'SReg_32_XM0_XEXEC' register class*/",
            sreg_or_raw(v, 1)
        ),
        Kind::S(2) if d.format == Format::Smem && v == 126 => {
            "exec/*Invalid register, operand has 'SReg_64_XEXEC' register class*/".to_string()
        }
        Kind::S(n @ 4..) if d.format == Format::Smem && matches!(v, 102 | 104 | 106 | 126) => {
            wide_special(v, n)
        }
        // v_readfirstlane_b32's 8-bit SGPR destination: llvm-mc-19 reads a code above the
        // SGPRs as a scalar source and marks it.
        // An SGPR destination in an 8-bit field (v_readfirstlane_b32, a VOP3 compare's
        // result): llvm-mc-19 reads a code above the SGPRs as a scalar source and marks it.
        Kind::S(_) if matches!(d.format, Format::Vop1 | Format::Vop3) && v >= 128 => match v {
            LDS_DIRECT | LITERAL if d.format == Format::Vop3 => format!("<invalid sdst {v}>"),
            235..=239 | 251..=253 | LDS_DIRECT => ssrc_text(v, 1, None),
            // (Code 255 reads a literal dword, as a source would.)
            _ => format!("{}/*Invalid immediate*/", ssrc_text(v, 1, inst.literal)),
        },
        Kind::S(n) => sreg_or_raw(v, n),
        // A scalar-only source in a 9-bit VOP3 field (v_writelane_b32's, v_readlane_b32's
        // lane select): llvm-mc-19 prints a VGPR with a comment.
        Kind::Ssrc(n) if v >= 256 => format!(
            "{}/*Invalid register, operand has 'SReg_32' register class*/",
            vreg(v - 256, n, false)
        ),
        Kind::Ssrc(n) => ssrc_text(v, n, inst.literal),
        Kind::SsrcReg(n) => {
            if v == LITERAL || (128..235).contains(&v) || (240..=248).contains(&v) {
                // llvm-mc-19 prints the constant as for a 32-bit operand, then the comment.
                format!("{}/*Invalid immediate*/", ssrc_text(v, 1, inst.literal))
            } else {
                ssrc_text(v, n, None)
            }
        }
        Kind::SBase(n @ 4..) if matches!(v * 2, 102 | 104 | 106 | 126) => wide_special(v * 2, n),
        Kind::SBase(n) => sreg_or_raw(v * 2, n),
        Kind::SmemOffset => smem_offset(inst),
        Kind::SmemProbe if v > 64 => format!("0x{v:x}"),
        Kind::SmemProbe => v.to_string(),
        Kind::Imm(style) => imm_text(style, v)?,
        // (s_setreg_imm32_b32's value: decimal from -16 to 64, as an inline constant.)
        Kind::Lit32 => match inst.literal.unwrap_or(0) as i32 {
            v @ -16..=64 => v.to_string(),
            v => format!("0x{:x}", v as u32),
        },
        // A load into LDS has no data register.
        Kind::V(_)
            if d.format == Format::Mubuf && field == Field::Vdata && inst.get(Field::Lds) == 1 =>
        {
            return None
        }
        Kind::V(n) if matches!(d.format, Format::Vop1 | Format::Vop2 | Format::Vopc) => {
            vreg(v, n, field == Field::Vdst && d.flags.has(Flags::ACC_DST))
        }
        Kind::V(n) if d.format == Format::Vop3p => {
            let acc = d.flags.has(Flags::ACC_DST)
                || d.flags.has(Flags::MFMA) && inst.get(Field::Clamp) == 1;
            vreg(v, n, acc)
        }
        Kind::V(n) => {
            let data = field != Field::Addr && field != Field::Vaddr;
            vreg(v, n, data && acc(inst))
        }
        Kind::VSrc(n, ty) if d.format == Format::Vop3 => {
            let i = field.source_index();
            let text = vsrc_text(inst, v, n, written(ty, fw));
            let (neg, abs) = (
                inst.get(Field::Neg) >> i & 1 == 1,
                inst.get(Field::Abs) >> i & 1 == 1,
            );
            match d.source_mods(i) {
                SrcMods::NegAbs => crate::print::source_modifiers(text, v, neg, abs),
                SrcMods::Neg => crate::print::source_modifiers(text, v, neg, false),
                SrcMods::Sext if neg => format!("sext({text})"),
                _ => text,
            }
        }
        // A lane mask (the carry-in of v_addc_co_u32_e64, v_cndmask_b32_e64's mask): an SGPR
        // pair; a VGPR or EXEC with llvm-mc-19's comment.
        Kind::LaneMask => match v {
            256.. => format!(
                "{}/*Invalid register, operand has 'SReg_1_XEXEC' register class*/",
                vreg(v - 256, 2, false)
            ),
            126 | 127 => format!(
                "{}/*Invalid register, operand has 'SReg_1_XEXEC' register class*/",
                ssrc_text(v, 2, None)
            ),
            0..=125 | 235..=239 | 251..=253 => ssrc_text(v, 2, None),
            // A constant prints as for a 32-bit operand, marked.
            _ => format!("{}/*Invalid immediate*/", ssrc_text(v, 1, None)),
        },
        Kind::VSrc(n, _) if d.flags.has(Flags::MFMA) => mfma_source(inst, field, v, n),
        Kind::VSrc(n, ty) if d.flags.has(Flags::MIX) => {
            let i = field.source_index();
            let (neg, abs) = (
                inst.get(Field::NegLo) >> i & 1 == 1,
                inst.get(Field::NegHi) >> i & 1 == 1,
            );
            crate::print::source_modifiers(vsrc_text(inst, v, n, written(ty, fw)), v, neg, abs)
        }
        Kind::VSrc(n, ty) => vsrc_text(inst, v, n, written(ty, fw)),
        Kind::Implicit(Implicit::VccLo) => "vcc".to_string(),
        Kind::LitK => format!("0x{:x}", inst.literal.unwrap_or(0)),
        Kind::VRtn(n) => {
            let returns = match d.format {
                Format::Mubuf | Format::Flat | Format::Global | Format::Scratch => {
                    inst.get(Field::Sc0) == 1
                }
                _ => true,
            };
            if !returns {
                return None;
            }
            vreg(v, n, acc(inst))
        }
        Kind::FlatVaddr => flat_vaddr(inst, v),
        Kind::FlatSaddr => flat_saddr(inst, v)?,
        Kind::BufVaddr => buf_vaddr(inst, v),
        Kind::Rsrc if v * 4 == 104 => wide_special(v * 4, 4),
        Kind::Rsrc => sreg_or_raw(v * 4, 4),
        Kind::BufSoffset => ssrc_text(v, 1, None),
        _ => format!("<{kind:?}>"),
    })
}

fn imm_text(style: Imm, v: u32) -> Option<String> {
    Some(match style {
        // Decimal up to 64, hex above (as llvm-mc-19 prints GFX9's plain immediates).
        Imm::Dec if v <= 64 => v.to_string(),
        Imm::Dec => format!("0x{v:x}"),
        Imm::DecOptional => {
            if v == 0 {
                return None;
            }
            v.to_string()
        }
        // Branch offsets print unsigned on gfx942.
        Imm::Label => v.to_string(),
        Imm::Hwreg => hwreg_text(v),
        Imm::Sendmsg => sendmsg_text(v),
        Imm::Waitcnt => waitcnt_text(v),
        Imm::GprIdx => gpr_idx_text(v),
        Imm::Hex | Imm::Depctr | Imm::DelayAlu | Imm::Version => format!("0x{v:x}"),
    })
}

/// A source type as printed: a 16-bit integer source whose float constant was written as a
/// float (`fw`) prints it so.
fn written(ty: SrcTy, fw: bool) -> SrcTy {
    match ty {
        SrcTy::I16 if fw => SrcTy::B32,
        _ => ty,
    }
}

/// A 9-bit vector-ALU source of `n` dwords and type `ty`: a VGPR (AGPR for
/// [`Flags::ACC_SRC0`]), a scalar register, a constant or the literal, with llvm-mc-19's
/// comments where the operand takes only VGPRs.
fn vsrc_text(inst: &Instruction, v: u32, n: u8, ty: SrcTy) -> String {
    let d = inst.def();
    if v >= 256 {
        return vreg(v - 256, n, d.flags.has(Flags::ACC_SRC0));
    }
    let text = match ty {
        _ if v == LITERAL => crate::print::typed_literal(inst.literal.unwrap_or(0), ty),
        // (A pair of f32 lanes, v_pk_fma_f32's: the float constants are f32 ones.)
        SrcTy::B32 if (240..=248).contains(&v) => ssrc_text(v, 1, None),
        SrcTy::I16 if (240..=248).contains(&v) => {
            format!("0x{:x}", crate::regs::F16_CONSTANTS[(v - 240) as usize])
        }
        _ if v == LDS_DIRECT && n == 1 => "src_lds_direct".to_string(),
        _ => ssrc_text(v, n, None),
    };
    if ty == SrcTy::VgprOnly {
        // (llvm-mc-19 prints these e32 sources without a comment.)
        if d.format == Format::Vop1 && matches!(v, NULL | 235..=239 | 251..=253)
            || d.name == "v_readfirstlane_b32" && v == LDS_DIRECT
        {
            return text;
        }
        if v < 128 || (235..=254).contains(&v) && !(240..=248).contains(&v) {
            let class = match d.name {
                "v_readfirstlane_b32" | "v_readlane_b32" => "VRegOrLds_32".to_string(),
                _ if d.flags.has(Flags::ACC_SRC0) => "AGPR_32".to_string(),
                _ if n > 1 => format!("VReg_{}", 32 * n as u32),
                _ => "VGPR_32".to_string(),
            };
            return format!("{text}/*Invalid register, operand has '{class}' register class*/");
        }
        return format!("{text}/*Invalid immediate*/");
    }
    text
}

/// SMEM's offset operand: with `imm`, the signed 21-bit immediate, after the `soffset` SGPR
/// when `soe` is set; without, an SGPR: the `soffset` field's with `soe`, else the offset
/// field's low 7 bits.
fn smem_offset(inst: &Instruction) -> String {
    let off = inst.get(Field::Offset);
    let soffset = || sreg_or_raw(inst.get(Field::Soffset), 1);
    match (inst.get(Field::SmemImm), inst.get(Field::Soe)) {
        (0, 0) => sreg_or_raw(off & 0x7f, 1),
        (0, _) => soffset(),
        (_, 0) => crate::special::smem_offset_text(off),
        _ => format!(
            "{} offset:{}",
            soffset(),
            crate::special::smem_offset_text(off)
        ),
    }
}

/// The MUBUF loads that may load into LDS (`lds`): one dword or less, not d16.
pub(crate) fn mubuf_lds_load(name: &str) -> bool {
    matches!(
        name,
        "buffer_load_ubyte"
            | "buffer_load_sbyte"
            | "buffer_load_ushort"
            | "buffer_load_sshort"
            | "buffer_load_dword"
            | "buffer_load_format_x"
    )
}

fn smem_takes_glc(d: &crate::def::InstrDef) -> bool {
    matches!(d.operands.first(), Some(o) if o.field == Field::Sdata && matches!(o.kind, Kind::S(_)))
        && d.operands.len() == 3
}

fn flat_vaddr(inst: &Instruction, v: u32) -> String {
    match inst.def().format {
        Format::Flat => vreg(v, 2, false),
        Format::Global if inst.get(Field::Saddr) == SADDR_OFF => vreg(v, 2, false),
        Format::Global => vreg(v, 1, false),
        _ if inst.get(Field::Sve) == 1 => vreg(v, 1, false),
        _ => "off".to_string(),
    }
}

fn flat_saddr(inst: &Instruction, v: u32) -> Option<String> {
    Some(match (inst.def().format, v) {
        (Format::Flat, _) => return None,
        (_, SADDR_OFF) => "off".to_string(),
        (Format::Global, _) => sreg_or_raw(v, 2),
        _ => sreg_or_raw(v, 1),
    })
}

fn buf_vaddr(inst: &Instruction, v: u32) -> String {
    match (inst.get(Field::Idxen), inst.get(Field::Offen)) {
        (0, 0) => "off".to_string(),
        (1, 1) => vreg(v, 2, false),
        _ => vreg(v, 1, false),
    }
}

fn flag(inst: &Instruction, f: Field, name: &str, out: &mut String) {
    if inst.get(f) == 1 {
        out.push(' ');
        out.push_str(name);
    }
}

fn modifiers(inst: &Instruction, out: &mut String) {
    let d = inst.def();
    match d.format {
        // Loads, stores and atomics take glc; s_memtime, s_memrealtime, s_dcache_discard and
        // s_atc_probe ignore it (llvm-mc-19 drops it).
        Format::Smem if smem_takes_glc(d) => flag(inst, Field::Glc, "glc", out),
        Format::Ds => {
            if d.flags.has(Flags::OFFSET_PAIR) {
                for (f, name) in [(Field::Offset0, "offset0"), (Field::Offset1, "offset1")] {
                    let v = inst.get(f);
                    if v != 0 {
                        out.push_str(&format!(" {name}:{v}"));
                    }
                }
            } else {
                let v = inst.get(Field::Offset0) | inst.get(Field::Offset1) << 8;
                if v != 0 && d.flags.has(Flags::SWIZZLE) {
                    // (As gfx1100's: the swizzle patterns by name.)
                    out.push_str(&format!(" offset:{}", crate::special::swizzle_text(v)));
                } else if v != 0 {
                    out.push_str(&format!(" offset:{v}"));
                }
            }
            // gfx942 has no GDS memory: llvm-mc-19 ignores the bit, except in the global wave
            // sync instructions, which need it.
            if d.flags.has(Flags::GDS_ONLY) {
                out.push_str(" gds");
            }
        }
        Format::Flat | Format::Global | Format::Scratch => {
            let raw = inst.get(Field::Offset);
            let v = if d.format == Format::Flat {
                raw as i32
            } else {
                ((raw << 19) as i32) >> 19
            };
            if v != 0 {
                out.push_str(&format!(" offset:{v}"));
            }
            flag(inst, Field::Sc0, "sc0", out);
            flag(inst, Field::Nt, "nt", out);
            flag(inst, Field::Sc1, "sc1", out);
        }
        Format::Vop3 => vop3_modifiers(inst, out),
        Format::Vop3p if d.flags.has(Flags::MFMA) => mfma_modifiers(inst, out),
        Format::Vop3p => vop3p_modifiers(inst, out),
        Format::Mtbuf => {
            // The data format (bits 0-3 of the field) and number format (4-6), where they are
            // not the defaults (8, UNORM).
            let f = inst.get(Field::Fmt);
            let (dfmt, nfmt) = (f & 0xf, f >> 4);
            let mut names = Vec::new();
            if dfmt != 1 {
                names.push(format!(
                    "BUF_DATA_FORMAT_{}",
                    crate::special::DATA_FORMATS[dfmt as usize]
                ));
            }
            if nfmt != 0 {
                names.push(format!(
                    "BUF_NUM_FORMAT_{}",
                    crate::special::NUM_FORMATS[nfmt as usize]
                ));
            }
            if !names.is_empty() {
                out.push_str(&format!(" format:[{}]", names.join(",")));
            }
            flag(inst, Field::Idxen, "idxen", out);
            flag(inst, Field::Offen, "offen", out);
            let v = inst.get(Field::Offset);
            if v != 0 {
                out.push_str(&format!(" offset:{v}"));
            }
            flag(inst, Field::Sc0, "sc0", out);
            flag(inst, Field::Nt, "nt", out);
            flag(inst, Field::Sc1, "sc1", out);
        }
        Format::Mubuf if d.operands.is_empty() => {
            flag(inst, Field::Sc0, "sc0", out);
            flag(inst, Field::Sc1, "sc1", out);
        }
        Format::Mubuf => {
            flag(inst, Field::Idxen, "idxen", out);
            flag(inst, Field::Offen, "offen", out);
            let v = inst.get(Field::Offset);
            if v != 0 {
                out.push_str(&format!(" offset:{v}"));
            }
            // buffer_store_lds_dword writes `lds` as part of its syntax, before the scope.
            let lds_first = d.flags.has(Flags::LDS);
            if lds_first {
                out.push_str(" lds");
            }
            flag(inst, Field::Sc0, "sc0", out);
            flag(inst, Field::Nt, "nt", out);
            flag(inst, Field::Sc1, "sc1", out);
            if !lds_first {
                flag(inst, Field::Lds, "lds", out);
            }
        }
        _ => {}
    }
}

/// VOP3's `op_sel:[...]` (one entry per source, then the destination's), `clamp` and the
/// output modifier, in llvm-mc-19's order.
fn vop3_modifiers(inst: &Instruction, out: &mut String) {
    let d = inst.def();
    let op_sel = inst.get(Field::OpSel);
    if d.flags.has(Flags::OP_SEL) && op_sel != 0 {
        let sources = d.vector_sources();
        let mut entries: Vec<String> = (0..sources)
            .map(|i| (op_sel >> i & 1).to_string())
            .collect();
        // (v_cvt_sr_fp8_f32/v_cvt_sr_bf8_f32: bits 2 and 3 pick the destination byte.)
        if op_sel_byte_select(d.name) {
            entries.push((op_sel >> 2 & 1).to_string());
        }
        entries.push((op_sel >> 3 & 1).to_string());
        out.push_str(&format!(" op_sel:[{}]", entries.join(",")));
    }
    flag(inst, Field::Clamp, "clamp", out);
    match inst.get(Field::Omod) {
        1 => out.push_str(" mul:2"),
        2 => out.push_str(" mul:4"),
        3 => out.push_str(" div:2"),
        _ => {}
    }
}

/// Whether an instruction's `op_sel` has four entries, the last two a destination byte
/// select (the stochastic-rounding fp8 conversions).
pub(crate) fn op_sel_byte_select(name: &str) -> bool {
    name.starts_with("v_cvt_sr_")
}

/// A matrix instruction's source: A and B are VGPRs or AGPRs (op_sel_hi bits 0 and 1), C a
/// register range (AGPRs with `acc_cd`) or a constant; SMFMAC's third source is a VGPR index.
fn mfma_source(inst: &Instruction, field: Field, v: u32, n: u8) -> String {
    let d = inst.def();
    let i = field.source_index();
    let smfmac = d.name.starts_with("v_smfmac");
    if v >= 256 {
        let acc = match i {
            0 | 1 => inst.get(Field::OpSelHi) >> i & 1 == 1,
            _ => !smfmac && inst.get(Field::Clamp) == 1,
        };
        return vreg(v - 256, n, acc);
    }
    if matches!(v, 235..=239 | 251..=253 | NULL) {
        return vsrc_text_plain(inst, v, 1);
    }
    // A 64-bit special register where an operand of 4 registers needs a range: its name.
    let text = match v {
        102 | 104 | 106 | 126 if n == 4 => sreg_name(v, 2).unwrap_or_default(),
        _ => vsrc_text_plain(inst, v, n),
    };
    if i < 2 {
        let comment = if v < 128 || v == LDS_DIRECT {
            format!(
                "/*Invalid register, operand has 'AV_{}' register class*/",
                32 * n as u32
            )
        } else {
            "/*Invalid immediate*/".to_string()
        };
        return format!("{text}{comment}");
    }
    if smfmac {
        return if v < 128 || v == LDS_DIRECT {
            format!("{text}/*Invalid register, operand has 'VGPR_32' register class*/")
        } else {
            format!("{text}/*Invalid immediate*/")
        };
    }
    if v < 128 {
        // C in SGPRs: llvm-mc-19 names the range (one register where no range of that size
        // exists) and the register class C needs.
        let class = if inst.get(Field::Clamp) == 1 {
            "AReg"
        } else {
            "VReg"
        };
        // (No SGPR range of 32: llvm-mc-19 names the one register.)
        let name = match v {
            102 | 104 | 106 | 126 if n > 2 => sreg_name(v, 2),
            0..=101 | 108..=123 if n == 32 => sreg_name(v, 1),
            _ if n == 32 => None,
            _ => sreg_name(aligned(v, n), n),
        }
        .unwrap_or_else(|| format!("<invalid sgpr code {v}>"));
        return format!(
            "{name}/*Invalid register, operand has '{class}_{}' register class*/",
            32 * n as u32
        );
    }
    if v == LDS_DIRECT {
        return "<invalid src_lds_direct>".into();
    }
    // A constant C prints as a 32-bit one.
    vsrc_text_plain(inst, v, 1)
}

/// A source as a plain 32-bit scalar source (no type rules): a register range or constant.
fn vsrc_text_plain(inst: &Instruction, v: u32, n: u8) -> String {
    vsrc_text(inst, v, n, SrcTy::B32)
}

/// `cbsz:`, `abid:` and `blgp:` of a matrix instruction, where nonzero.
fn mfma_modifiers(inst: &Instruction, out: &mut String) {
    let abid = inst.get(Field::OpSel) | (inst.get(Field::OpSelHi) >> 2 & 1) << 3;
    for (name, v) in [("cbsz", inst.get(Field::NegHi)), ("abid", abid)] {
        if v != 0 {
            out.push_str(&format!(" {name}:{v}"));
        }
    }
    // The f64 matrix instructions negate their sources where the others have blgp.
    let neg = inst.get(Field::NegLo);
    if neg != 0 && inst.def().name.starts_with("v_mfma_f64") {
        let e: Vec<String> = (0..3).map(|i| (neg >> i & 1).to_string()).collect();
        out.push_str(&format!(" neg:[{}]", e.join(",")));
    } else if neg != 0 {
        out.push_str(&format!(" blgp:{neg}"));
    }
}

/// VOP3P's lists, one entry per source: `op_sel` (where any is set), `op_sel_hi` (where not
/// all are set; `v_fma_mix*`: where any is), `neg_lo` and `neg_hi` (where any is set; written
/// on the operands of `v_fma_mix*`), then `clamp`.
fn vop3p_modifiers(inst: &Instruction, out: &mut String) {
    let d = inst.def();
    let n = d.vector_sources();
    let list = |v: u32| -> String {
        let e: Vec<String> = (0..n).map(|i| (v >> i & 1).to_string()).collect();
        format!("[{}]", e.join(","))
    };
    let all = (1u32 << n) - 1;
    let mix = d.flags.has(Flags::MIX);
    let op_sel = inst.get(Field::OpSel) & all;
    let op_sel_hi = inst.get(Field::OpSelHi) & all;
    if op_sel != 0 {
        out.push_str(&format!(" op_sel:{}", list(op_sel)));
    }
    if mix && op_sel_hi != 0 || !mix && op_sel_hi != all {
        out.push_str(&format!(" op_sel_hi:{}", list(op_sel_hi)));
    }
    if !mix {
        for (f, name) in [(Field::NegLo, "neg_lo"), (Field::NegHi, "neg_hi")] {
            let v = inst.get(f) & all;
            if v != 0 {
                out.push_str(&format!(" {name}:{}", list(v)));
            }
        }
    }
    flag(inst, Field::Clamp, "clamp", out);
}

/// GFX9 `s_waitcnt`: vmcnt bits 3:0 and 15:14, expcnt 6:4, lgkmcnt 11:8; the counters not at
/// their maximum are printed, or all three when every one is.
pub fn waitcnt_text(v: u32) -> String {
    let vm = (v & 0xf) | ((v >> 14) & 3) << 4;
    crate::special::counters_text(&[
        ("vmcnt", vm, 63),
        ("expcnt", (v >> 4) & 7, 7),
        ("lgkmcnt", (v >> 8) & 15, 15),
    ])
}

/// The hardware registers llvm-mc-19 names for gfx942 (`hwreg(HW_REG_...)`), by id.
pub(crate) const HWREG_NAMES: [(u32, &str); 17] = [
    (1, "HW_REG_MODE"),
    (2, "HW_REG_STATUS"),
    (3, "HW_REG_TRAPSTS"),
    (4, "HW_REG_HW_ID"),
    (5, "HW_REG_GPR_ALLOC"),
    (6, "HW_REG_LDS_ALLOC"),
    (7, "HW_REG_IB_STS"),
    (15, "HW_REG_SH_MEM_BASES"),
    (16, "HW_REG_TBA_LO"),
    (17, "HW_REG_TBA_HI"),
    (18, "HW_REG_TMA_LO"),
    (19, "HW_REG_TMA_HI"),
    (20, "HW_REG_XCC_ID"),
    (21, "HW_REG_SQ_PERF_SNAPSHOT_DATA"),
    (22, "HW_REG_SQ_PERF_SNAPSHOT_DATA1"),
    (23, "HW_REG_SQ_PERF_SNAPSHOT_PC_LO"),
    (24, "HW_REG_SQ_PERF_SNAPSHOT_PC_HI"),
];

/// `hwreg(ID[, OFFSET, WIDTH])`, the id by name where gfx942 has one.
pub fn hwreg_text(v: u32) -> String {
    crate::special::hwreg_text_with(v, &HWREG_NAMES)
}

/// GFX9's messages by id (bits 3:0 of `s_sendmsg`'s immediate).
pub(crate) const MSG_NAMES: [(u32, &str); 11] = [
    (1, "MSG_INTERRUPT"),
    (2, "MSG_GS"),
    (3, "MSG_GS_DONE"),
    (4, "MSG_SAVEWAVE"),
    (5, "MSG_STALL_WAVE_GEN"),
    (6, "MSG_HALT_WAVES"),
    (7, "MSG_ORDERED_PS_DONE"),
    (8, "MSG_EARLY_PRIM_DEALLOC"),
    (9, "MSG_GS_ALLOC_REQ"),
    (10, "MSG_GET_DOORBELL"),
    (15, "MSG_SYSMSG"),
];
pub(crate) const GS_OPS: [&str; 4] = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];
pub(crate) const SYSMSG_OPS: [(u32, &str); 3] = [
    (1, "SYSMSG_OP_ECC_ERR_INTERRUPT"),
    (2, "SYSMSG_OP_REG_RD"),
    (4, "SYSMSG_OP_TTRACE_PC"),
];

/// GFX9 `sendmsg(MSG[, OP[, STREAM]])`: message bits 3:0, operation 6:4, stream 9:8.
pub fn sendmsg_text(v: u32) -> String {
    let (id, op, stream) = (v & 0xf, (v >> 4) & 7, (v >> 8) & 3);
    let name = MSG_NAMES.iter().find(|(i, _)| *i == id).map(|(_, n)| *n);
    let symbolic = match (name, id) {
        (Some(n), 2 | 3) if op < 4 && (op != 0 || (id == 3 && stream == 0)) => Some(if op == 0 {
            format!("sendmsg({n}, {})", GS_OPS[0])
        } else {
            format!("sendmsg({n}, {}, {stream})", GS_OPS[op as usize])
        }),
        (Some(n), 15) if stream == 0 => SYSMSG_OPS
            .iter()
            .find(|(o, _)| *o == op)
            .map(|(_, o)| format!("sendmsg({n}, {o})")),
        (Some(n), _) if op == 0 && stream == 0 && id != 2 && id != 3 && id != 15 => {
            Some(format!("sendmsg({n})"))
        }
        _ => None,
    };
    // A valid message prints by name whatever the bits above it hold; an invalid one as its
    // three numbers when nothing else is set, else the immediate in decimal.
    symbolic.unwrap_or_else(|| {
        if v & !0x37f != 0 {
            v.to_string()
        } else {
            format!("sendmsg({id}, {op}, {stream})")
        }
    })
}

/// `gpr_idx(SRC0,SRC1,SRC2,DST)` of the bits 0-3 set, or hex when other bits are.
pub fn gpr_idx_text(v: u32) -> String {
    if v & !0xf != 0 {
        return format!("0x{v:x}");
    }
    let names: Vec<&str> = ["SRC0", "SRC1", "SRC2", "DST"]
        .iter()
        .enumerate()
        .filter(|(i, _)| v >> i & 1 == 1)
        .map(|(_, n)| *n)
        .collect();
    format!("gpr_idx({})", names.join(","))
}
