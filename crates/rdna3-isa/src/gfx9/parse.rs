//! gfx942 text to an [`Instruction`], as `llvm-mc-19 -mcpu=gfx942` reads it: the inverse of
//! [`super::print`]. Operands are read in the table's order by their [`Kind`], in GFX9's
//! names (`flat_scratch`, `xnack_mask`, `m0` at 124, AGPRs `a0`..`a255`); then the modifiers
//! of the format (`offset:`, `sc0`/`nt`/`sc1`, `format:[...]`, `clamp`, `op_sel:[...]`,
//! `cbsz:`/`abid:`/`blgp:`, the DPP controls, the SDWA selects); then the rules llvm-mc-19
//! applies across operands on gfx942 (one scalar value per VOP3 instruction, no VOP3
//! literal, 64-bit-aligned register tuples, a returning atomic's `sc0`).
//!
//! Where llvm-mc-19 and this parser disagree on an error's wording, only acceptance is
//! pinned (`tests/golden/asm_gfx942.txt` records llvm-mc-19's messages; the test compares
//! whether a line is refused, not how).

use std::collections::HashMap;
use std::sync::OnceLock;

use super::modifiers::modifiers;
use super::print::{HWREG_NAMES, LDS_DIRECT, NULL, SADDR_OFF};
use super::special::{parse_gpr_idx, parse_sendmsg, parse_waitcnt};
use crate::def::{all_in, Flags, Imm, Implicit, Isa, Kind, Opcode, SrcMods, SrcTy};
use crate::fields::Field;
use crate::format::Format;
use crate::inst::Instruction;
use crate::lex::{no_symbols, tokenize, Cursor, PResult, ParseError, Tok};
use crate::parse::{
    constant_source, count_top_level_commas, f64_float_source, int_in, lit_k, packed16,
    set_literal, src16, Parsed, INVALID_OPERAND,
};
use crate::print::Hints;
use crate::special;

fn err<T>(col: usize, msg: impl Into<String>) -> PResult<T> {
    Err(ParseError::new(col, msg))
}

const ALIGN: &str = "invalid register class: vgpr tuples must be 64 bit aligned";

/// How an e32 vector instruction is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    Plain,
    Dpp,
    Sdwa,
}

/// gfx942's mnemonics: the table's names and the older names llvm-mc-19 still reads.
fn names() -> &'static HashMap<String, Opcode> {
    static NAMES: OnceLock<HashMap<String, Opcode>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut m = HashMap::new();
        for (op, d) in all_in(Isa::Gfx940) {
            m.insert(d.name.to_string(), op);
        }
        let aliases: Vec<(String, Opcode)> = m
            .iter()
            .flat_map(|(n, &op)| legacy_names(n).into_iter().map(move |a| (a, op)))
            .collect();
        for (a, op) in aliases {
            m.entry(a).or_insert(op);
        }
        for (alias, canonical) in ALIASES {
            if let Some(&op) = m.get(*canonical) {
                m.entry(alias.to_string()).or_insert(op);
            }
        }
        m
    })
}

/// Names llvm-mc-19 reads for a gfx942 instruction besides its own.
const ALIASES: &[(&str, &str)] = &[
    ("v_accvgpr_write", "v_accvgpr_write_b32"),
    ("v_accvgpr_read", "v_accvgpr_read_b32"),
];

/// The gfx908/gfx90a names of a matrix instruction, which llvm-mc-19 still reads.
///
/// The gfx908/gfx90a name of an MFMA instruction (`v_mfma_f32_16x16x16f16` for
/// `v_mfma_f32_16x16x16_f16`, `v_mfma_f32_32x32x4bf16_1k` for `v_mfma_f32_32x32x4_2b_bf16`),
/// which llvm-mc-19 still reads.
fn legacy_names(name: &str) -> Vec<String> {
    if let Some(rest) = name.strip_prefix("v_smfmac_") {
        // v_smfmac_f32_16x16x32f16 for v_smfmac_f32_16x16x32_f16.
        let Some((head, ty)) = rest.rsplit_once('_') else {
            return Vec::new();
        };
        return match ty {
            "f16" | "bf16" | "i8" => vec![format!("v_smfmac_{head}{ty}")],
            _ => Vec::new(),
        };
    }
    let Some(legacy) = legacy_name(name) else {
        return Vec::new();
    };
    // gfx908's bf16 names (without `_1k`) name gfx942's bf16 instructions too.
    match legacy.strip_suffix("_1k") {
        Some(short) => vec![short.to_string(), legacy.clone()],
        None => vec![legacy],
    }
}

fn legacy_name(name: &str) -> Option<String> {
    let rest = name.strip_prefix("v_mfma_")?;
    let (dst, rest) = rest.split_once('_')?;
    let (shape, rest) = rest.split_once('_')?;
    let ty = match rest.split_once('_') {
        Some((blocks, ty))
            if blocks.ends_with('b') && blocks[..blocks.len() - 1].parse::<u32>().is_ok() =>
        {
            ty
        }
        Some(_) => return None,
        None => rest,
    };
    if !matches!(ty, "f32" | "f16" | "i8" | "bf16" | "f64" | "xf32") {
        return None;
    }
    let k = if ty == "bf16" { "_1k" } else { "" };
    Some(format!("v_mfma_{dst}_{shape}{ty}{k}"))
}

fn lookup(name: &str) -> Option<Opcode> {
    names().get(name).copied()
}

pub(super) const DPP_WORDS: [&str; 17] = [
    "quad_perm",
    "row_shl",
    "row_shr",
    "row_ror",
    "wave_shl",
    "wave_rol",
    "wave_shr",
    "wave_ror",
    "row_mirror",
    "row_half_mirror",
    "row_bcast",
    "row_newbcast",
    "row_mask",
    "bank_mask",
    "bound_ctrl",
    "row_share",
    "row_xmask",
];

const SDWA_WORDS: [&str; 4] = ["dst_sel", "dst_unused", "src0_sel", "src1_sel"];

/// The instructions (and forms) a mnemonic may name, in the order llvm-mc-19 tries them: a
/// bare vector mnemonic names the e32 form, then the e64 one.
fn candidates(m: &str, dpp_words: bool, sdwa_words: bool) -> Vec<(Opcode, Form)> {
    let e32_form = |op: Opcode| {
        let f = op.def().flags;
        if dpp_words && f.has(Flags::DPP) {
            Form::Dpp
        } else if sdwa_words && f.has(Flags::SDWA) {
            Form::Sdwa
        } else {
            Form::Plain
        }
    };
    for (suffix, form, flag) in [
        ("_dpp", Form::Dpp, Flags::DPP),
        ("_sdwa", Form::Sdwa, Flags::SDWA),
    ] {
        if let Some(stem) = m.strip_suffix(suffix) {
            return lookup(&format!("{stem}_e32"))
                .or_else(|| lookup(stem))
                .filter(|op| op.def().flags.has(flag))
                .map(|op| vec![(op, form)])
                .unwrap_or_default();
        }
    }
    if let Some(op) = lookup(m) {
        let e32 = matches!(op.def().format, Format::Vop1 | Format::Vop2 | Format::Vopc);
        let form = if e32 { e32_form(op) } else { Form::Plain };
        return vec![(op, form)];
    }
    let mut out = Vec::new();
    if let Some(op) = lookup(&format!("{m}_e32")) {
        out.push((op, e32_form(op)));
    }
    if let Some(op) = lookup(&format!("{m}_e64")) {
        out.push((op, Form::Plain));
    }
    if out.is_empty() {
        // An `_e32`/`_e64` suffix on a name without forms (`v_fma_f32_e64`, `ds_add_u32_e32`).
        // `_e32` on a name that is no VOP3 instruction (v_fmamk_f32, ds_add_u32, s_mov_b32);
        // `_e64` on a VOP3-only one (but not on the lane instructions).
        let vop3 = |f: Format| matches!(f, Format::Vop3 | Format::Vop3p);
        let op = match (m.strip_suffix("_e32"), m.strip_suffix("_e64")) {
            // (v_readlane_b32/v_writelane_b32 were VOP2 on GFX8: their e32 name stays.)
            (Some(base), _) => {
                lookup(base).filter(|op| !vop3(op.def().format) || base.contains("lane_b32"))
            }
            (_, Some(base)) => lookup(base).filter(|op| {
                matches!(op.def().format, Format::Vop3 | Format::Vop3p)
                    && !base.contains("lane_b32")
            }),
            _ => None,
        };
        out.extend(op.map(|op| (op, Form::Plain)));
    }
    out
}

/// Parses one gfx942 instruction statement (no label definition, no comment).
pub fn parse_instruction(text: &str) -> PResult<Parsed> {
    let toks = tokenize(text)?;
    let words = |list: &[&str]| {
        toks.iter()
            .any(|t| matches!(t.tok, Tok::Ident(w) if list.contains(&w)))
    };
    let (dpp_words, sdwa_words) = (words(&DPP_WORDS), words(&SDWA_WORDS));
    let Some(Tok::Ident(m)) = toks.first().map(|t| &t.tok) else {
        return err(1, "expected an instruction mnemonic");
    };
    let mcol = toks[0].col;
    let lower = m.to_ascii_lowercase();
    let tried = candidates(&lower, dpp_words, sdwa_words);
    let mut first_error = None;
    for (op, form) in tried {
        match parse_as(text, op, form) {
            Ok(p) => return Ok(p),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or_else(|| {
        // A name gfx1100 has (ds_load_b32, s_waitcnt_vscnt) is known, but not here.
        let msg = if crate::def::lookup_name(&lower).is_some() {
            "instruction not supported on this GPU"
        } else {
            "invalid instruction"
        };
        ParseError::new(mcol, msg)
    }))
}

/// A register as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reg {
    /// VGPRs (`acc` false) or AGPRs.
    V { first: u32, count: u32, acc: bool },
    /// A scalar operand code and how many dwords the name covers.
    S { code: u32, count: u32 },
}

/// The GFX9 scalar registers and sources by name.
fn fixed_reg(name: &str) -> Option<(u32, u32)> {
    Some(match name {
        "flat_scratch_lo" => (102, 1),
        "flat_scratch_hi" => (103, 1),
        "flat_scratch" => (102, 2),
        "xnack_mask_lo" => (104, 1),
        "xnack_mask_hi" => (105, 1),
        "xnack_mask" => (104, 2),
        "vcc_lo" => (106, 1),
        "vcc_hi" => (107, 1),
        "vcc" => (106, 2),
        "m0" => (super::print::M0, 1),
        "null" => (NULL, 1),
        "exec_lo" => (126, 1),
        "exec_hi" => (127, 1),
        "exec" => (126, 2),
        "src_shared_base" | "shared_base" => (235, 2),
        "src_shared_limit" | "shared_limit" => (236, 2),
        "src_private_base" | "private_base" => (237, 2),
        "src_private_limit" | "private_limit" => (238, 2),
        "src_pops_exiting_wave_id" | "pops_exiting_wave_id" => (239, 1),
        "src_vccz" | "vccz" => (251, 1),
        "src_execz" | "execz" => (252, 1),
        "src_scc" | "scc" => (253, 1),
        "src_lds_direct" | "lds_direct" => (LDS_DIRECT, 1),
        _ => return None,
    })
}

/// A register file's range `prefix[first .. first+count)`, if it exists on gfx942.
fn range(prefix: &str, first: u32, count: u32, col: usize) -> PResult<Reg> {
    let end = first + count;
    match prefix {
        "v" | "a" if end <= 256 => Ok(Reg::V {
            first,
            count,
            acc: prefix == "a",
        }),
        "s" if end <= 102 => Ok(Reg::S { code: first, count }),
        "s" if first < 106 => err(col, "register not available on this GPU"),
        "ttmp" if end <= 16 => Ok(Reg::S {
            code: 108 + first,
            count,
        }),
        _ => err(col, "register index is out of range"),
    }
}

/// Parses a register reference (`v3`, `a[4:7]`, `s[2:3]`, `ttmp5`, `vcc`, `m0`, ...);
/// `Ok(None)` when the next token names no register.
fn reg(c: &mut Cursor) -> PResult<Option<Reg>> {
    let col = c.col();
    let Some(name) = c.peek_ident() else {
        return Ok(None);
    };
    if matches!(name, "v" | "a" | "s" | "ttmp") && c.peek2() == Some(&Tok::Punct('[')) {
        c.bump();
        c.bump();
        let a = c.expr(&no_symbols)?;
        let b = if c.eat_punct(':') {
            c.expr(&no_symbols)?
        } else {
            a
        };
        c.expect_punct(']', "expected a closing square bracket")?;
        if a < 0 || b < a {
            return err(col, "invalid register range");
        }
        // (No register file reaches 1024: a larger index is out of range, not an overflow.)
        if b >= 1024 {
            return err(col, "register index is out of range");
        }
        return range(name, a as u32, (b - a + 1) as u32, col).map(Some);
    }
    if let Some((code, count)) = fixed_reg(name) {
        c.bump();
        return Ok(Some(Reg::S { code, count }));
    }
    for prefix in ["ttmp", "s", "v", "a"] {
        if let Some(num) = name.strip_prefix(prefix) {
            if !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) && num.len() <= 4 {
                let i: u32 = num
                    .parse()
                    .map_err(|_| ParseError::new(col, INVALID_OPERAND))?;
                c.bump();
                return range(prefix, i, 1, col).map(Some);
            }
        }
    }
    Ok(None)
}

/// An SGPR or TTMP tuple's alignment: a 64-bit value starts at an even register, a wider
/// one at a multiple of 4.
fn scalar_aligned(code: u32, count: u32) -> bool {
    let base = if (108..124).contains(&code) {
        code - 108
    } else if code < 102 {
        code
    } else {
        return true;
    };
    count == 1 || base % if count >= 4 { 4 } else { 2 } == 0
}

/// A scalar source of `dwords` dwords: a register, an inline constant or (`allow_literal`) a
/// literal. gfx942 has no `null`, and `src_lds_direct` is not a scalar source.
fn ssrc(c: &mut Cursor, dwords: u8, allow_literal: bool) -> PResult<(u32, Option<u32>)> {
    let col = c.col();
    let save = c.save();
    match reg(c)? {
        Some(Reg::S { code: NULL, .. }) => {
            return err(col, "'null' operand is not supported on this GPU")
        }
        Some(Reg::S {
            code: LDS_DIRECT, ..
        }) => return err(col, "lds_direct is not supported on this GPU"),
        Some(Reg::S { code, count }) => {
            let special = code >= 235;
            if !(count == dwords as u32 || special && dwords <= 2) {
                return err(col, INVALID_OPERAND);
            }
            if !scalar_aligned(code, count) {
                return err(col, "invalid register alignment");
            }
            return Ok((code, None));
        }
        Some(Reg::V { .. }) => return err(col, INVALID_OPERAND),
        None => c.restore(save),
    }
    constant_source(c, dwords, allow_literal)
}

/// An SGPR (or TTMP, or 64-bit special) destination or operand of exactly `n` dwords.
fn sgpr(c: &mut Cursor, n: u32) -> PResult<u32> {
    let col = c.col();
    match reg(c)? {
        Some(Reg::S { code: NULL, .. }) => err(col, "'null' operand is not supported on this GPU"),
        Some(Reg::S { code, count }) if count == n && code < 128 => {
            if !scalar_aligned(code, count) {
                return err(col, "invalid register alignment");
            }
            Ok(code)
        }
        _ => err(col, INVALID_OPERAND),
    }
}

/// A VGPR or AGPR range of exactly `n` registers (64-bit aligned when wider than one);
/// returns its first register and whether it is AGPRs.
fn vreg(c: &mut Cursor, n: u32) -> PResult<(u32, bool)> {
    let col = c.col();
    match reg(c)? {
        Some(Reg::V { first, count, acc }) if count == n => {
            if n > 1 && first % 2 != 0 {
                return err(col, ALIGN);
            }
            Ok((first, acc))
        }
        _ => err(col, INVALID_OPERAND),
    }
}

/// What the parse of one statement collects besides the instruction.
pub(super) struct State {
    pub(super) form: Form,
    /// The SDWA dword being built.
    pub(super) sdwa: u32,
    /// Register counts written for operands whose width depends on modifiers.
    pub(super) widths: Vec<(Field, u32, usize)>,
    /// Whether a buffer's or scratch instruction's address was written `off`.
    pub(super) vaddr_off: bool,
    /// AGPR data of a memory instruction (its `acc` bit).
    pub(super) acc_data: Option<bool>,
    pub(super) label: Option<(String, usize)>,
    /// A branch offset as written (printed back so).
    pub(super) imm_written: Option<i64>,
    /// A 16-bit integer source written as a float constant (printed back so).
    pub(super) float_written: bool,
}

fn parse_as(text: &str, opcode: Opcode, form: Form) -> PResult<Parsed> {
    let toks = tokenize(text)?;
    let end_col = text.trim_end().len() + 1;
    let mut c = Cursor::new(toks, end_col);
    c.bump();
    let d = opcode.def();
    let mut inst = Instruction::new(opcode);
    set_defaults(&mut inst, form);
    let mut st = State {
        form,
        sdwa: if form == Form::Sdwa {
            sdwa_defaults(&inst)
        } else {
            0
        },
        widths: Vec::new(),
        vaddr_off: false,
        acc_data: None,
        label: None,
        imm_written: None,
        float_written: false,
    };
    let with_rtn = d.operands.iter().any(|o| matches!(o.kind, Kind::VRtn(_)));
    let written = count_top_level_commas(&mut c) + 1;
    let rtn_present = with_rtn && written >= d.operands.len();
    // A buffer load into LDS (`lds`) is written without its data register.
    let lds_load = d.format == Format::Mubuf
        && super::print::mubuf_lds_load(d.name)
        && written + 1 == d.operands.len();
    let mut need_comma = false;
    for o in d.operands {
        if matches!(o.kind, Kind::VRtn(_)) && !rtn_present || lds_load && o.field == Field::Vdata {
            continue;
        }
        // The VCC of VOP2's carries and VOPC may be left out (llvm-mc-19 reads it implied).
        let implied_vcc = o.kind == Kind::Implicit(Implicit::VccLo);
        if implied_vcc && !written_vcc(&mut c, need_comma, form, d.format) {
            continue;
        }
        // An SMEM offset may be left out (llvm-mc-19 reads offset 0).
        if o.kind == Kind::SmemOffset && (c.at_end() || c.peek_ident() == Some("glc")) {
            inst.set(Field::SmemImm, 1);
            continue;
        }
        if need_comma {
            if c.at_end() {
                return err(c.col(), "too few operands for instruction");
            }
            // (llvm-mc-19 reads operands without the comma between them too.)
            c.eat_punct(',');
        }
        if c.at_end() {
            if o.kind == Kind::Imm(Imm::DecOptional) {
                break;
            }
            return err(c.col(), "too few operands for instruction");
        }
        need_comma = true;
        operand(&mut c, &mut inst, &mut st, o.field, o.kind)?;
    }
    modifiers(&mut c, &mut inst, &mut st)?;
    if let Some(acc) = st.acc_data {
        inst.set(Field::Acc, acc as u32);
    }
    if form == Form::Sdwa {
        let src0 = inst.get(Field::Src0);
        inst.set(Field::Src0, 249);
        inst.dpp = st.sdwa | (src0 & 0xff);
        if src0 < 256 && d.operand(Field::Src0).is_some() {
            inst.dpp |= 1 << 23;
        }
    }
    if lds_load != (inst.get(Field::Lds) == 1)
        && d.format == Format::Mubuf
        && !d.flags.has(Flags::LDS)
    {
        return err(1, INVALID_OPERAND);
    }
    check(&inst, &st, rtn_present)?;
    Ok(Parsed {
        inst,
        hints: Hints {
            imm_written: st.imm_written,
            float_constant_written: st.float_written,
            ..Hints::default()
        },
        label: st.label,
    })
}

/// Whether the implied VCC operand is written at this point: `vcc` comes next (after the
/// comma that precedes it), or an SGPR pair in an SDWA compare with all three operands.
fn written_vcc(c: &mut Cursor, need_comma: bool, form: Form, fmt: Format) -> bool {
    let save = c.save();
    let written = (!need_comma || c.eat_punct(','))
        && (c.peek_ident() == Some("vcc")
            || form == Form::Sdwa && fmt == Format::Vopc && count_top_level_commas(c) >= 2);
    c.restore(save);
    written
}

/// The fields that are not zero when left out: GLOBAL/SCRATCH `saddr` (`off`), MTBUF's
/// format (BUF_DATA_FORMAT_8), VOP3P `op_sel_hi`, DPP's masks.
fn set_defaults(inst: &mut Instruction, form: Form) {
    let d = inst.def();
    match d.format {
        Format::Global | Format::Scratch => inst.set(Field::Saddr, SADDR_OFF),
        Format::Mtbuf => inst.set(Field::Fmt, 1),
        Format::Vop3p if !d.flags.has(Flags::MFMA) => {
            inst.set(Field::OpSelHi, d.default_op_sel_hi())
        }
        _ => {}
    }
    if form == Form::Dpp {
        inst.set(Field::Src0, 250);
        inst.set(Field::RowMask, 0xf);
        inst.set(Field::BankMask, 0xf);
    }
}

/// SDWA's defaults: every select DWORD, `dst_unused:UNUSED_PRESERVE` (UNUSED_PAD where the
/// destination has no select).
fn sdwa_defaults(inst: &Instruction) -> u32 {
    let fmt = inst.def().format;
    // (v_nop's SDWA form is its word and a zero dword.)
    if inst.def().name == "v_nop" {
        return 0;
    }
    let src = if fmt == Format::Vop1 {
        6 << 16
    } else {
        6 << 16 | 6 << 24
    };
    match fmt {
        Format::Vopc => src,
        _ if super::print::sdwa_wide_dst(inst) => src | 6 << 8,
        _ => src | 6 << 8 | 2 << 11,
    }
}

/// Reads one operand into its field(s).
fn operand(
    c: &mut Cursor,
    inst: &mut Instruction,
    st: &mut State,
    field: Field,
    kind: Kind,
) -> PResult<()> {
    let col = c.col();
    let d = inst.def();
    let fmt = d.format;
    match kind {
        // The second source of a DPP or SDWA form takes modifiers.
        Kind::V(_) if field == Field::Vsrc1 && st.form != Form::Plain => {
            source(c, inst, st, field, 1, SrcTy::B32)?
        }
        Kind::V(n) | Kind::VRtn(n) => {
            let (first, acc) = vreg(c, n as u32)?;
            data_register(inst, st, field, acc, col)?;
            inst.set(field, first);
        }
        Kind::BufVaddr => {
            if c.eat_ident("off") {
                st.vaddr_off = true;
            } else {
                let (first, count) = any_vgprs(c)?;
                st.widths.push((field, count, col));
                inst.set(field, first);
            }
        }
        Kind::FlatVaddr => {
            if fmt == Format::Scratch && c.eat_ident("off") {
                st.vaddr_off = true;
            } else {
                let (first, count) = any_vgprs(c)?;
                st.widths.push((field, count, col));
                inst.set(field, first);
                if fmt == Format::Scratch {
                    inst.set(Field::Sve, 1);
                }
            }
        }
        Kind::FlatSaddr => {
            if c.eat_ident("off") {
                inst.set(field, SADDR_OFF);
            } else {
                let n = if fmt == Format::Global { 2 } else { 1 };
                inst.set(field, sgpr(c, n)?);
            }
        }
        Kind::S(n) => {
            // A VOP3 compare's result may also name a `src_*` register (llvm-mc-19 reads it).
            let save = c.save();
            let special = match reg(c)? {
                Some(Reg::S {
                    code: code @ (235..=239 | 251..=253),
                    ..
                }) if fmt == Format::Vop3 => Some(code),
                _ => None,
            };
            let code = match special {
                Some(code) => code,
                None => {
                    c.restore(save);
                    sgpr(c, n as u32)?
                }
            };
            inst.set(field, code);
        }
        Kind::Ssrc(n) => {
            let (code, lit) = ssrc(c, n, fmt != Format::Vop3)?;
            if let Some(l) = lit {
                set_literal(inst, l, col)?;
            }
            inst.set(field, code);
        }
        // A scalar register only (s_rfe_b64, s_cbranch_join...): no constant, no src_*.
        Kind::SsrcReg(n) => {
            let (code, _) = ssrc(c, n, false)?;
            if code >= 128 {
                return err(col, INVALID_OPERAND);
            }
            inst.set(field, code);
        }
        // A lane mask (v_cndmask_b32_e64's, a carry-in): an SGPR pair, VCC or a src_*
        // register; not EXEC, no constant.
        Kind::LaneMask => {
            let (code, _) = ssrc(c, 2, false)?;
            if matches!(code, 126..=234 | 240..=250) {
                return err(col, INVALID_OPERAND);
            }
            inst.set(field, code);
        }
        Kind::SBase(n) => {
            let code = sgpr(c, n as u32)?;
            if code % 2 != 0 {
                return err(col, INVALID_OPERAND);
            }
            inst.set(field, code / 2);
        }
        Kind::SmemOffset => smem_offset(c, inst)?,
        Kind::SmemProbe => {
            let v = int_in(c, 0, 127, "invalid immediate: only 7-bit values are legal")?;
            inst.set(field, v as u32);
        }
        Kind::Rsrc => {
            let code = sgpr(c, 4)?;
            inst.set(field, code / 4);
        }
        Kind::BufSoffset => {
            // An SGPR, a constant or a `src_*` register; no literal.
            let (code, _) = ssrc(c, 1, false)?;
            inst.set(field, code);
        }
        Kind::Imm(style) => immediate(c, inst, st, field, style)?,
        Kind::Lit32 => {
            let v = c.expr(&no_symbols)?;
            if !(-(1i64 << 31)..(1i64 << 32)).contains(&v) {
                return err(col, INVALID_OPERAND);
            }
            inst.literal = Some(v as u32);
        }
        Kind::LitK => lit_k(c, inst, col)?,
        Kind::Implicit(_) => {
            if st.form == Form::Sdwa && fmt == Format::Vopc && c.peek_ident() != Some("vcc") {
                let code = sgpr(c, 2)?;
                st.sdwa |= code << 8 | 1 << 15;
            } else if !c.eat_ident("vcc") {
                return err(col, INVALID_OPERAND);
            }
        }
        Kind::VSrc(n, ty) => source(c, inst, st, field, n, ty)?,
        _ => return err(col, INVALID_OPERAND),
    }
    Ok(())
}

/// A VGPR range of any width (checked against the modifiers later).
fn any_vgprs(c: &mut Cursor) -> PResult<(u32, u32)> {
    let col = c.col();
    match reg(c)? {
        Some(Reg::V {
            first,
            count,
            acc: false,
        }) => {
            if count > 1 && first % 2 != 0 {
                return err(col, ALIGN);
            }
            Ok((first, count))
        }
        _ => err(col, INVALID_OPERAND),
    }
}

/// Where a register operand may be AGPRs: a memory instruction's data (all of them alike,
/// the `acc` bit), `v_accvgpr_write`'s and a matrix instruction's destination.
fn data_register(
    inst: &mut Instruction,
    st: &mut State,
    field: Field,
    acc: bool,
    col: usize,
) -> PResult<()> {
    let d = inst.def();
    let memory = matches!(
        d.format,
        Format::Ds
            | Format::Flat
            | Format::Global
            | Format::Scratch
            | Format::Mubuf
            | Format::Mtbuf
    );
    let address = matches!(field, Field::Addr | Field::Vaddr);
    if memory && !address {
        if st.acc_data.is_some_and(|a| a != acc) {
            return err(col, INVALID_OPERAND);
        }
        st.acc_data = Some(acc);
        return Ok(());
    }
    let wants_acc = if field == Field::Vdst && d.flags.has(Flags::ACC_DST) {
        Some(true)
    } else if field == Field::Vdst && d.flags.has(Flags::MFMA) {
        inst.set(Field::Clamp, acc as u32);
        None
    } else {
        Some(false)
    };
    if wants_acc.is_some_and(|w| w != acc) {
        return err(col, INVALID_OPERAND);
    }
    Ok(())
}

/// SMEM's offset operand: an SGPR (optionally followed later by `offset:`), or a signed
/// 21-bit immediate (20-bit unsigned for the buffer forms).
fn smem_offset(c: &mut Cursor, inst: &mut Instruction) -> PResult<()> {
    if c.peek_ident().is_some() {
        // An SGPR alone sits in the offset field (`imm` and `soe` clear); `offset:` after it
        // moves it to `soffset` ([`memory_modifier`]).
        let code = sgpr(c, 1)?;
        inst.set(Field::Offset, code);
        return Ok(());
    }
    let v = crate::parse::smem_offset_value(c, inst)?;
    inst.set(Field::SmemImm, 1);
    inst.set(Field::Offset, v as u32 & 0x1f_ffff);
    Ok(())
}

/// An immediate operand in its style.
fn immediate(
    c: &mut Cursor,
    inst: &mut Instruction,
    st: &mut State,
    field: Field,
    style: Imm,
) -> PResult<()> {
    let col = c.col();
    let v = match style {
        Imm::Label => {
            if let Some(name) = c.peek_ident().map(str::to_string) {
                c.bump();
                st.label = Some((name, col));
                return Ok(());
            }
            let v = c.expr(&no_symbols)?;
            if !(-32768..=65535).contains(&v) {
                return err(col, "expected a 16-bit signed jump offset");
            }
            st.imm_written = Some(v);
            v as u32 & 0xffff
        }
        Imm::Hwreg => special::parse_hwreg_with(c, &HWREG_NAMES)?,
        Imm::Sendmsg => parse_sendmsg(c)?,
        Imm::Waitcnt => parse_waitcnt(c)?,
        Imm::GprIdx => parse_gpr_idx(c)?,
        _ => {
            let v = c.expr(&no_symbols)?;
            if !(-32768..=65535).contains(&v) {
                return err(col, "invalid immediate: only 16-bit values are legal");
            }
            v as u32 & 0xffff
        }
    };
    inst.set(field, v);
    Ok(())
}

/// Source modifiers as written around a source.
#[derive(Default)]
struct Mods {
    neg: bool,
    abs: bool,
    sext: bool,
}

/// A vector-ALU source with its modifiers, placed by the form.
fn source(
    c: &mut Cursor,
    inst: &mut Instruction,
    st: &mut State,
    field: Field,
    n: u8,
    ty: SrcTy,
) -> PResult<()> {
    let col = c.col();
    let mut mods = Mods::default();
    let mut closers = Vec::new();
    loop {
        if c.is_punct('-') && matches!(c.peek2(), Some(Tok::Punct('|') | Tok::Ident(_))) {
            c.bump();
            mods.neg = true;
        } else if let Some(w @ ("neg" | "abs" | "sext")) = c.peek_ident() {
            if c.peek2() != Some(&Tok::Punct('(')) {
                break;
            }
            match w {
                "neg" => mods.neg = true,
                "abs" => mods.abs = true,
                _ => mods.sext = true,
            }
            c.bump();
            c.bump();
            closers.push(')');
        } else if c.is_punct('|') {
            c.bump();
            mods.abs = true;
            closers.push('|');
        } else {
            break;
        }
    }
    c.set_bar_ends_expr(closers.contains(&'|'));
    let value = source_value(c, inst, st, field, n, ty);
    c.set_bar_ends_expr(false);
    value?;
    while let Some(close) = closers.pop() {
        c.expect_punct(close, INVALID_OPERAND)?;
    }
    if mods.neg || mods.abs || mods.sext {
        place_mods(inst, st, field, &mods, col)?;
    }
    Ok(())
}

/// The source's register, constant or literal.
fn source_value(
    c: &mut Cursor,
    inst: &mut Instruction,
    st: &mut State,
    field: Field,
    n: u8,
    ty: SrcTy,
) -> PResult<()> {
    let col = c.col();
    let d = inst.def();
    let i = field.source_index();
    let mfma = d.flags.has(Flags::MFMA);
    let save = c.save();
    if let Some(Reg::V { first, count, acc }) = reg(c)? {
        if count != n as u32 {
            return err(col, INVALID_OPERAND);
        }
        if count > 1 && first % 2 != 0 {
            return err(col, ALIGN);
        }
        let smfmac = d.name.starts_with("v_smfmac");
        let acc_ok = match field {
            Field::Src0 if d.flags.has(Flags::ACC_SRC0) => acc,
            // A and B, and C (but SMFMAC's third source is a VGPR index).
            _ if mfma && (i < 2 || !smfmac) => true,
            _ => !acc,
        };
        if !acc_ok {
            return err(col, INVALID_OPERAND);
        }
        if mfma && i < 2 && acc {
            inst.set(Field::OpSelHi, inst.get(Field::OpSelHi) | 1 << i);
        }
        if mfma && i == 2 && !d.name.starts_with("v_smfmac") && acc != (inst.get(Field::Clamp) == 1)
        {
            return err(col, INVALID_OPERAND);
        }
        match st.form {
            Form::Dpp if field == Field::Src0 => inst.set(Field::DppSrc0, first),
            Form::Sdwa | Form::Dpp if field == Field::Vsrc1 => inst.set(field, first),
            Form::Sdwa if field == Field::Src0 => inst.set(field, 256 + first),
            _ if field == Field::Vsrc1 => inst.set(field, first),
            _ => inst.set(field, 256 + first),
        }
        return Ok(());
    }
    c.restore(save);
    let vgpr_only = ty == SrcTy::VgprOnly || field == Field::Vsrc1 && st.form != Form::Sdwa;
    if vgpr_only || st.form == Form::Dpp || mfma && i < 2 {
        return err(col, INVALID_OPERAND);
    }
    let float_token = matches!(c.peek(), Some(Tok::Float(_)))
        || c.is_punct('-') && matches!(c.peek2(), Some(Tok::Float(_)));
    let dwords = match ty {
        SrcTy::F64 | SrcTy::B64 => 2,
        SrcTy::F16 | SrcTy::I16 | SrcTy::PackedF16 => 1,
        _ if mfma => 1,
        _ => n,
    };
    if ty == SrcTy::I16 && float_token {
        st.float_written = true;
    }
    let (code, lit) = match ty {
        _ if c.peek_ident().is_some() => ssrc(c, dwords, false)?,
        SrcTy::F16 | SrcTy::I16 => src16(c, col, ty == SrcTy::F16)?,
        SrcTy::PackedF16 => packed16(c, col)?,
        SrcTy::F64 if float_token => f64_float_source(c, col)?,
        SrcTy::F64 | SrcTy::B64 => ssrc(c, 2, true)?,
        _ if mfma => ssrc(c, 1, false)?,
        _ => ssrc(c, n, true)?,
    };
    if matches!(code, NULL | LDS_DIRECT) {
        return err(col, INVALID_OPERAND);
    }
    if let Some(l) = lit {
        let e32 = matches!(d.format, Format::Vop1 | Format::Vop2 | Format::Vopc);
        if !e32 || st.form != Form::Plain {
            return err(col, "literal operands are not supported");
        }
        set_literal(inst, l, col)?;
    }
    if st.form == Form::Sdwa && field == Field::Vsrc1 {
        st.sdwa |= 1 << 31;
    }
    inst.set(field, code);
    Ok(())
}

/// Records source modifiers where the form keeps them.
fn place_mods(
    inst: &mut Instruction,
    st: &mut State,
    field: Field,
    m: &Mods,
    col: usize,
) -> PResult<()> {
    let d = inst.def();
    let i = field.source_index();
    match st.form {
        Form::Sdwa => {
            let base = if i == 0 { 19 } else { 27 };
            // (The fp8 conversions decode a sext bit but llvm-mc-19 does not read one.)
            let sext_ok = (d.flags.has(Flags::SDWA_SEXT) && !super::print::sdwa_wide_dst(inst))
                || i == 1 && d.flags.has(Flags::SEXT);
            if m.sext && !sext_ok
                || (m.neg || m.abs) && !d.flags.neg_abs(i)
                || m.sext && (m.neg || m.abs)
            {
                return err(col, INVALID_OPERAND);
            }
            st.sdwa |= (m.sext as u32) << base
                | (m.neg as u32) << (base + 1)
                | (m.abs as u32) << (base + 2);
        }
        Form::Dpp => {
            let ok = if m.sext {
                i == 1 && d.flags.has(Flags::SEXT) && !m.neg && !m.abs
            } else {
                d.flags.neg_abs(i)
            };
            if !ok {
                return err(col, INVALID_OPERAND);
            }
            let neg = m.neg || m.sext;
            inst.set(Field::DppNeg, inst.get(Field::DppNeg) | (neg as u32) << i);
            inst.set(Field::DppAbs, inst.get(Field::DppAbs) | (m.abs as u32) << i);
        }
        Form::Plain if d.format == Format::Vop3 => {
            let ok = match d.source_mods(i) {
                SrcMods::NegAbs => !m.sext,
                SrcMods::Neg => !m.sext && !m.abs,
                SrcMods::Sext => m.sext && !m.neg && !m.abs,
                _ => false,
            };
            if !ok {
                return err(col, INVALID_OPERAND);
            }
            let neg = m.neg || m.sext;
            inst.set(Field::Neg, inst.get(Field::Neg) | (neg as u32) << i);
            inst.set(Field::Abs, inst.get(Field::Abs) | (m.abs as u32) << i);
        }
        Form::Plain if d.format == Format::Vop3p && d.flags.has(Flags::MIX) && !m.sext => {
            inst.set(Field::NegLo, inst.get(Field::NegLo) | (m.neg as u32) << i);
            inst.set(Field::NegHi, inst.get(Field::NegHi) | (m.abs as u32) << i);
        }
        _ => return err(col, INVALID_OPERAND),
    }
    Ok(())
}

/// One scalar value per VOP3 instruction on gfx942 (the constant bus): SGPRs, VCC, M0, EXEC,
/// TTMPs and the `src_*` registers count, the same register twice counts once, inline
/// constants are free; `v_div_fmas_*` read VCC besides.
fn check_constant_bus(inst: &Instruction, sdwa: bool) -> PResult<()> {
    let d = inst.def();
    let mut used: Vec<u32> = Vec::new();
    if d.name.starts_with("v_div_fmas_") {
        used.push(106);
    }
    for o in d.operands {
        let sdwa_src1 = sdwa && o.field == Field::Vsrc1;
        if !matches!(o.kind, Kind::VSrc(..) | Kind::LaneMask | Kind::Ssrc(_)) && !sdwa_src1 {
            continue;
        }
        let mut code = inst.get(o.field);
        if sdwa && o.field == Field::Src0 {
            if inst.dpp_dword() >> 23 & 1 == 0 {
                continue;
            }
            code = inst.dpp_dword() & 0xff;
        }
        if sdwa && o.field == Field::Vsrc1 && inst.dpp_dword() >> 31 == 0 {
            continue;
        }
        let scalar = matches!(code, 0..=127 | 235..=239 | 251..=253);
        if scalar && !used.contains(&code) {
            used.push(code);
        }
    }
    if used.len() > 1 {
        return err(1, "invalid operand (violates constant bus restrictions)");
    }
    Ok(())
}

/// Whether an e32 VOP2 instruction reads VCC (`v_cndmask_b32`, the carry-ins).
fn reads_vcc(d: &crate::def::InstrDef) -> bool {
    let last = d.operands.last().map(|o| o.kind);
    last == Some(Kind::Implicit(Implicit::VccLo))
}

/// Rules across operands and modifiers.
fn check(inst: &Instruction, st: &State, rtn_present: bool) -> PResult<()> {
    let d = inst.def();
    let width_of = |f: Field| st.widths.iter().find(|(x, _, _)| *x == f).copied();
    match d.format {
        Format::Vop3 | Format::Vop3p => check_constant_bus(inst, false)?,
        Format::Vop2 if st.form == Form::Plain && reads_vcc(d) => {
            // VCC is on the constant bus already: source 0 may not be a scalar register.
            if matches!(inst.get(Field::Src0), 0..=127 | 235..=239 | 251..=253) {
                return err(1, "invalid operand (violates constant bus restrictions)");
            }
        }
        Format::Vop2 if d.operands.iter().any(|o| o.kind == Kind::LitK) => {
            // The K of v_madmk/v_madak/v_fmamk/v_fmaak is on the constant bus, with an SGPR
            // source 0; an f16 K fits 16 bits.
            if inst.get(Field::Src0) < 128 || matches!(inst.get(Field::Src0), 235..=239 | 251..=253)
            {
                return err(1, "invalid operand (violates constant bus restrictions)");
            }
            if d.name.ends_with("_f16") && inst.literal.is_some_and(|k| k > 0xffff) {
                return err(1, INVALID_OPERAND);
            }
        }
        Format::Vop1 | Format::Vop2 | Format::Vopc if st.form == Form::Sdwa => {
            check_constant_bus(inst, true)?;
            // VCC, read by v_cndmask_b32 and the carry-ins, is on the bus too.
            let src0 = inst.dpp_dword() & 0xff;
            let register = matches!(src0, 0..=127 | 235..=239 | 251..=253);
            if reads_vcc(d) && inst.dpp_dword() >> 23 & 1 == 1 && register {
                return err(1, "invalid operand (violates constant bus restrictions)");
            }
        }

        Format::Flat | Format::Global | Format::Scratch => {
            if d.flags.has(Flags::ATOMIC) && rtn_present != (inst.get(Field::Sc0) == 1) {
                return err(1, INVALID_OPERAND);
            }
            if let Some((_, count, col)) = width_of(Field::Addr) {
                let want =
                    crate::parse::flat_vaddr_dwords(d.format, inst.get(Field::Saddr) != SADDR_OFF);
                if count != want {
                    return err(col, INVALID_OPERAND);
                }
            }
        }
        Format::Ds if d.flags.has(Flags::GDS_ONLY) => {
            if inst.get(Field::Gds) == 0 {
                return err(1, "too few operands for instruction");
            }
            // (gfx90a and later take the wave sync data from an even VGPR pair.)
            if d.operand(Field::Addr).is_some() && !inst.get(Field::Addr).is_multiple_of(2) {
                return err(1, "vgpr must be even aligned");
            }
        }
        Format::Mubuf | Format::Mtbuf => {
            crate::parse::buffer_vaddr(inst, width_of(Field::Vaddr))?;
            if inst.get(Field::Lds) == 1 && st.acc_data == Some(true) {
                return err(1, INVALID_OPERAND);
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(text: &str) -> Vec<u8> {
        match parse_instruction(text) {
            Ok(p) => p.inst.encode(),
            Err(e) => panic!("{text}: {e}"),
        }
    }

    #[test]
    fn legacy_matrix_names_are_derived_from_the_canonical_ones() {
        assert_eq!(
            legacy_name("v_mfma_f32_16x16x16_f16").as_deref(),
            Some("v_mfma_f32_16x16x16f16")
        );
        assert_eq!(
            legacy_name("v_mfma_f32_32x32x4_2b_bf16").as_deref(),
            Some("v_mfma_f32_32x32x4bf16_1k")
        );
        assert_eq!(legacy_name("v_mfma_f32_16x16x32_fp8_fp8"), None);
    }

    #[test]
    fn a_few_encodings_match_llvm_mc() {
        // llvm-mc-19 -mcpu=gfx942 -show-encoding (tests/golden/asm_gfx942.txt has the rest).
        assert_eq!(
            bytes("s_waitcnt vmcnt(0) lgkmcnt(0)"),
            [0x70, 0x00, 0x8c, 0xbf]
        );
        assert_eq!(bytes("v_add_co_u32 v0, v1, v2"), [0x01, 0x05, 0x00, 0x32]);
    }
}
