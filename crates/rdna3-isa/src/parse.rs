//! The LLVM-syntax parser: one statement of text to an [`Instruction`].
//!
//! Operands are parsed in the order the table gives, each by its [`Kind`]; then modifiers
//! (`offset:`, `glc`, `format:`, ...) in any order; then the cross-operand rules llvm-mc-19
//! enforces (register widths that depend on modifiers, `glc` on returning atomics, `gds`).

use crate::def::{
    lookup_dpp_name, lookup_name, Flags, Imm, Implicit, InstrDef, Kind, Opcode, Operand,
    OperandClass, SrcMods, SrcTy, Wave,
};
use crate::dpp::{self, DppText};
use crate::fields::Field;
use crate::format::Format;
use crate::inst::{Instruction, SGPR_NULL, SRC_LITERAL};
use crate::lex::{no_symbols, tokenize, Cursor, PResult, ParseError, Tok};
use crate::print::Hints;
use crate::regs::{parse_reg_name, reg_range, RegRef, FLOAT_CONSTANTS};
use crate::special;

/// A parsed statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The instruction (a label operand holds 0 until resolved).
    pub inst: Instruction,
    /// How the text was written, for printing it back as llvm-mc does.
    pub hints: Hints,
    /// A branch target label and its column, to resolve to `simm16`.
    pub label: Option<(String, usize)>,
}

fn err<T>(col: usize, msg: impl Into<String>) -> PResult<T> {
    Err(ParseError::new(col, msg))
}

pub(crate) const INVALID_OPERAND: &str = "invalid operand for instruction";

pub(crate) const NOT_VALID: &str = "not a valid operand.";

/// Parses one instruction statement (no label definition, no comment).
pub fn parse_instruction(text: &str) -> PResult<Parsed> {
    parse_instruction_wave(text, Wave::W32)
}

/// Parses one instruction statement as llvm-mc-19 does for `wave`: in wave64
/// (`-mattr=+wavefrontsize64`) lane masks are SGPR pairs (`vcc`, `exec`, `s[2:3]`), and the
/// parsed [`Parsed::hints`] print them so.
pub fn parse_instruction_wave(text: &str, wave: Wave) -> PResult<Parsed> {
    // A VOPD pair, `X :: Y`.
    if let Some(sep) = text.find("::") {
        return crate::vopd_asm::parse_vopd(text, sep, wave);
    }
    let first = parse_as(text, None, wave);
    // A VOP1/VOP2/VOPC mnemonic without suffix names the e32 form; where its operands do
    // not fit it (a modifier, an SGPR where e32 takes a VGPR, an SGPR result, a DPP form the
    // e32 DPP encoding cannot hold), llvm-mc-19 takes the `_e64` (or `_e64_dpp`) form.
    let Err(e32_error) = first else {
        return first;
    };
    let toks = tokenize(text)?;
    let Some(Tok::Ident(m)) = toks.first().map(|t| &t.tok) else {
        return Err(e32_error);
    };
    let lower = m.to_ascii_lowercase();
    if lower.ends_with("_e32") || lower.ends_with("_dpp") {
        return Err(e32_error);
    }
    let e64 = match lookup_name(&lower) {
        Some(op) if matches!(op.def().format, Format::Vop1 | Format::Vop2 | Format::Vopc) => {
            let base = op.def().name.strip_suffix("_e32").unwrap_or(op.def().name);
            lookup_name(&format!("{base}_e64"))
        }
        _ => None,
    };
    match e64 {
        Some(op) => parse_as(text, Some(op), wave).map_err(|_| e32_error),
        None => Err(e32_error),
    }
}

/// The instruction a mnemonic names: canonical, alias, upper case, or with an `_e32` suffix
/// (`_e64` for VINTERP, VOP3 and VOP3P), as llvm-mc-19 accepts them.
fn resolve(mnemonic: &str) -> Option<Opcode> {
    lookup_name(mnemonic).or_else(|| {
        let lower = mnemonic.to_ascii_lowercase();
        lookup_name(&lower).or_else(|| {
            let (base, e64) = match lower.strip_suffix("_e32") {
                Some(b) => (b, false),
                None => (lower.strip_suffix("_e64")?, true),
            };
            let op = lookup_name(base)?;
            let promoted = matches!(
                op.def().format,
                Format::Vinterp | Format::Vop3 | Format::Vop3p
            );
            (e64 == promoted).then_some(op)
        })
    })
}

/// A `..._dpp` mnemonic: the instruction whose DPP form it names, or llvm-mc-19's error
/// (`tools/DPP_VOP3P_NOTES.md` §2, "Names the assembler accepts").
fn resolve_dpp(lower: &str, col: usize) -> PResult<Opcode> {
    if let Some(op) = lookup_dpp_name(lower) {
        return Ok(op);
    }
    let Some(base) = lower.strip_suffix("_dpp") else {
        return err(col, "invalid instruction");
    };
    // VOPC: `v_cmp_eq_f32_dpp` is accepted besides the bare DPP name.
    if let Some(op) = lookup_dpp_name(base).filter(|op| op.def().format == Format::Vopc) {
        return Ok(op);
    }
    if resolve(base).is_some() {
        let msg = if base.ends_with("_e64") {
            "e64_dpp variant of this instruction is not supported"
        } else {
            "dpp variant of this instruction is not supported"
        };
        return err(col, msg);
    }
    err(col, "invalid instruction")
}

/// Parses a statement as the instruction its mnemonic names, or as `forced`.
///
/// A statement is a DPP form when its mnemonic ends in `_dpp` or it contains a DPP word
/// (`row_shl`, `dpp8`, `row_mask`, ... — [`crate::dpp::DPP_WORDS`]) and names an
/// instruction with DPP forms without an `_e32`/`_e64` suffix. Its source 0 must then be a
/// VGPR (it goes to the DPP dword), and the DPP part ends the statement.
fn parse_as(text: &str, forced: Option<Opcode>, wave: Wave) -> PResult<Parsed> {
    let toks = tokenize(text)?;
    let dpp_words = dpp::mentions_dpp(&toks);
    let end_col = text.trim_end().len() + 1;
    let mut c = Cursor::new(toks, end_col);
    let mcol = c.col();
    let Some(mnemonic) = c.peek_ident() else {
        return err(mcol, "expected an instruction mnemonic");
    };
    let lower = mnemonic.to_ascii_lowercase();
    let suffixed = lower.ends_with("_e32") || lower.ends_with("_e64");
    let (opcode, dpp_named) = match forced {
        Some(op) => (op, false),
        None => match resolve(mnemonic) {
            Some(op) => (op, false),
            None if lower.ends_with("_dpp") => (resolve_dpp(&lower, mcol)?, true),
            None => return err(mcol, "invalid instruction"),
        },
    };
    c.bump();
    let d = opcode.def();
    let dpp_mode = dpp_named || dpp_words && !suffixed && d.flags.has(Flags::DPP);
    let mut inst = Instruction::new(opcode);
    let mut hints = Hints {
        wave,
        ..Hints::default()
    };
    let mut label = None;
    set_defaults(&mut inst);
    // Does a returning atomic's destination appear? Count operands at bracket depth 0.
    let total_ops = d.operands.len();
    let with_rtn = d.operands.iter().any(|o| matches!(o.kind, Kind::VRtn(_)));
    let rtn_present = with_rtn && count_top_level_commas(&mut c) + 1 >= total_ops;
    let mut widths = Widths::default();
    let mut need_comma = false;
    for (k, o) in d.operands.iter().enumerate() {
        if matches!(o.kind, Kind::VRtn(_)) && !rtn_present {
            continue;
        }
        if need_comma {
            if c.at_end() {
                return err(c.col(), "too few operands for instruction");
            }
            c.expect_punct(',', INVALID_OPERAND)?;
        }
        if c.at_end() {
            if o.kind == Kind::Imm(Imm::DecOptional) {
                break;
            }
            return err(c.col(), "too few operands for instruction");
        }
        // VOPC writes VCC; llvm-mc-19 takes the e32 form's `vcc_lo` as optional.
        if k == 0
            && d.format == Format::Vopc
            && o.kind == Kind::Implicit(Implicit::VccLo)
            && c.peek_ident() != Some(if wave == Wave::W64 { "vcc" } else { "vcc_lo" })
        {
            continue;
        }
        need_comma = true;
        let col = c.col();
        let mods = source_mods(d, o.field, dpp_mode);
        let (neg, abs) = if matches!(mods, SrcMods::NegAbs | SrcMods::Neg | SrcMods::Sext) {
            modded_source(&mut c, &mut inst, o, mods, &mut widths, &mut hints)?
        } else {
            operand(
                &mut c,
                &mut inst,
                o.field,
                o.kind,
                &mut widths,
                &mut label,
                &mut hints,
            )?;
            (false, false)
        };
        if dpp_mode {
            dpp_source(&mut inst, o.field, col)?;
        }
        set_neg_abs(
            &mut inst,
            &mut hints,
            o.field.source_index(),
            mods,
            neg,
            abs,
        );
    }
    modifiers(&mut c, &mut inst, &mut hints, dpp_mode, suffixed)?;
    check(&inst, &widths, rtn_present)?;
    Ok(Parsed { inst, hints, label })
}

/// Sets the fields that are not zero when an instruction leaves them out: SMEM `soffset` and
/// FLAT `saddr` (`null`), the MTBUF default format, the VOP3 `v_cmpx_*_e64` vdst and the
/// VOP3P `op_sel_hi` default.
fn set_defaults(inst: &mut Instruction) {
    let d = inst.def();
    match d.format {
        Format::Smem if !d.operands.is_empty() => inst.set(Field::Soffset, SGPR_NULL),
        Format::Flat | Format::Global | Format::Scratch => inst.set(Field::Saddr, SGPR_NULL),
        Format::Mtbuf => inst.set(Field::Fmt, special::DEFAULT_BUF_FORMAT),
        // `v_cmpx_*_e64` writes EXEC only; llvm-mc-19 puts 0x7e (exec_lo) in its vdst.
        Format::Vop3 if d.operand(Field::Vdst).is_none() && !d.flags.has(Flags::BARE_NAME) => {
            inst.set(Field::Vdst, 0x7e)
        }
        Format::Vop3p => inst.set(Field::OpSelHi, vop3p_op_sel_hi(d, d.default_op_sel_hi())),
        _ => {}
    }
}

/// Which modifiers the operand in `field` takes as written: the sources of VOP3, of the DPP
/// forms (with `vsrc1`) and of `v_fma_mix*`; none elsewhere.
fn source_mods(d: &InstrDef, field: Field, dpp_mode: bool) -> SrcMods {
    let is_source = matches!(field, Field::Src0 | Field::Src1 | Field::Src2)
        || field == Field::Vsrc1 && dpp_mode;
    if !is_source {
        return SrcMods::None;
    }
    let i = field.source_index();
    match d.format {
        Format::Vop3 | Format::Vop1 | Format::Vop2 | Format::Vopc if dpp_mode => {
            d.dpp_source_mods(i)
        }
        Format::Vop3 => d.source_mods(i),
        Format::Vop3p if d.flags.has(Flags::MIX) => SrcMods::NegAbs,
        _ => SrcMods::None,
    }
}

/// Records source `i`'s negate and abs in the format's modifier fields (VOP3 `neg`/`abs`,
/// VOP3P `neg_lo`/`neg_hi`, the DPP dword's `neg`/`abs` elsewhere).
fn set_neg_abs(
    inst: &mut Instruction,
    hints: &mut Hints,
    i: usize,
    mods: SrcMods,
    neg: bool,
    abs: bool,
) {
    let (nf, af) = match inst.def().format {
        Format::Vop3 => (Field::Neg, Field::Abs),
        Format::Vop3p => (Field::NegLo, Field::NegHi),
        _ => (Field::DppNeg, Field::DppAbs),
    };
    if neg {
        inst.set(nf, inst.get(nf) | 1 << i);
    }
    if abs && mods == SrcMods::Neg {
        // No abs bit to set (VOP3SD: sdst is there); llvm-mc-19 echoes the `|x|`.
        hints.abs_written |= 1 << i;
    } else if abs {
        inst.set(af, inst.get(af) | 1 << i);
    }
}

/// VOP3P: the `op_sel_hi` field for the written bits `v`; a two-source instruction always
/// has bit 2 set (llvm-mc-19 writes the unused source's bit as 1).
fn vop3p_op_sel_hi(d: &InstrDef, v: u32) -> u32 {
    if d.source_count() == 2 {
        v | 4
    } else {
        v
    }
}

/// DPP forms: source 0 is a VGPR that goes to the DPP dword (the word's `src0` becomes the
/// DPP16 selector until a `dpp8:` part says otherwise); a VOP3/VOP3P source 1 must be a VGPR,
/// and no source takes a literal.
fn dpp_source(inst: &mut Instruction, field: Field, col: usize) -> PResult<()> {
    let v = inst.get(field);
    match field {
        Field::Src0 => {
            if v < 256 {
                return err(col, INVALID_OPERAND);
            }
            inst.set(Field::Src0, crate::dpp::SRC_DPP16);
            inst.set(Field::DppSrc0, v - 256);
        }
        Field::Src1 if v < 256 => {
            let msg = if matches!(v, 128..=208 | 240..=248) {
                "src1 immediate operand invalid for instruction"
            } else {
                INVALID_OPERAND
            };
            return err(col, msg);
        }
        Field::Src2 if v == SRC_LITERAL => return err(col, INVALID_OPERAND),
        _ => {}
    }
    Ok(())
}

/// A source with modifiers: `-x`, `|x|`, `-|x|`, `neg(x)`, `abs(x)`, `neg(|x|)`... for
/// [`SrcMods::NegAbs`] and [`SrcMods::Neg`] (a `-` before a number is part of the constant,
/// as in `-1.0`), `sext(x)` for [`SrcMods::Sext`]. Returns whether the source was negated
/// (or sign-extended) and whether it was under `abs`.
fn modded_source(
    c: &mut Cursor,
    inst: &mut Instruction,
    o: &Operand,
    mods: SrcMods,
    widths: &mut Widths,
    hints: &mut Hints,
) -> PResult<(bool, bool)> {
    let (field, kind) = (o.field, o.kind);
    let col = c.col();
    if mods == SrcMods::Sext {
        let sext = c.peek_ident() == Some("sext") && c.peek2() == Some(&Tok::Punct('('));
        if sext {
            c.bump();
            c.bump();
        }
        let mut label = None;
        operand(c, inst, field, kind, widths, &mut label, hints)?;
        if sext {
            c.expect_punct(')', INVALID_OPERAND)?;
        }
        return Ok((sext, false));
    }
    let mut neg = false;
    let mut neg_paren = false;
    if c.is_punct('-') && matches!(c.peek2(), Some(Tok::Punct('|') | Tok::Ident(_))) {
        c.bump();
        neg = true;
    } else if c.peek_ident() == Some("neg") && c.peek2() == Some(&Tok::Punct('(')) {
        c.bump();
        c.bump();
        neg = true;
        neg_paren = true;
    }
    let mut abs_close = None;
    if c.eat_punct('|') {
        abs_close = Some('|');
    } else if c.peek_ident() == Some("abs") && c.peek2() == Some(&Tok::Punct('(')) {
        c.bump();
        c.bump();
        abs_close = Some(')');
    }
    let mut label = None;
    let float_token = matches!(c.peek(), Some(Tok::Float(_)))
        || c.is_punct('-') && matches!(c.peek2(), Some(Tok::Float(_)));
    // llvm-mc-19 takes src_vccz and src_execz in a VOP3 source only under a modifier.
    let save = c.save();
    let vccz = match reg(c) {
        Some(RegRef::S {
            code: code @ (251 | 252),
            ..
        }) if (neg || abs_close.is_some()) && inst.def().format == Format::Vop3 => Some(code),
        _ => None,
    };
    if let Some(code) = vccz {
        inst.set(field, code);
    } else {
        c.restore(save);
        c.set_bar_ends_expr(abs_close == Some('|'));
        let inner = operand(c, inst, field, kind, widths, &mut label, hints);
        c.set_bar_ends_expr(false);
        inner?;
    }
    if let Some(close) = abs_close {
        c.expect_punct(close, INVALID_OPERAND)?;
    }
    if neg_paren {
        c.expect_punct(')', INVALID_OPERAND)?;
    }
    let code = inst.get(field);
    if (neg || abs_close.is_some())
        && code == SRC_LITERAL
        && !float_token
        && matches!(kind, Kind::VSrc(_, SrcTy::F64))
    {
        // llvm-mc-19 refuses modifiers on a 64-bit float literal written as an integer
        // (`neg(0x12345678)`; `neg(1.5)` is its literal 0x3ff80000, negated).
        return err(col, INVALID_OPERAND);
    }
    Ok((neg, abs_close.is_some()))
}

pub(crate) fn count_top_level_commas(c: &mut Cursor) -> usize {
    let save = c.save();
    let mut depth = 0i32;
    let mut n = 0;
    while let Some(t) = c.peek() {
        match t {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            Tok::Punct(',') if depth == 0 => n += 1,
            _ => {}
        }
        c.bump();
    }
    c.restore(save);
    n
}

/// Register counts seen while parsing, checked once modifiers are known.
#[derive(Default)]
struct Widths {
    /// (field, count written, column)
    vregs: Vec<(Field, u32, usize)>,
    /// A vector address written as `off`.
    vaddr_off: bool,
}

/// Parses a register reference: a name or `prefix[a:b]`.
fn reg(c: &mut Cursor) -> Option<RegRef> {
    let name = c.peek_ident()?.to_string();
    if matches!(name.as_str(), "v" | "s" | "ttmp") && c.peek2() == Some(&Tok::Punct('[')) {
        let save = c.save();
        c.bump();
        c.bump();
        let r = (|| {
            let Some(Tok::Int(a)) = c.peek().cloned() else {
                return None;
            };
            c.bump();
            let b = if c.eat_punct(':') {
                let Some(Tok::Int(b)) = c.peek().cloned() else {
                    return None;
                };
                c.bump();
                b
            } else {
                a
            };
            // (An index past u32 is no register: it must not be cut to one.)
            if !c.eat_punct(']') || b < a || a < 0 || b > u32::MAX as i64 {
                return None;
            }
            reg_range(&name, a as u32, (b - a + 1) as u32)
        })();
        if r.is_none() {
            c.restore(save);
        }
        return r;
    }
    let r = parse_reg_name(&name)?;
    c.bump();
    Some(r)
}

fn vgpr(c: &mut Cursor) -> PResult<(u32, u32)> {
    let col = c.col();
    match reg(c) {
        Some(RegRef::V { first, count }) => Ok((first, count)),
        _ => err(col, INVALID_OPERAND),
    }
}

/// A scalar register of exactly `n` dwords with the alignment llvm-mc requires; returns its
/// code. `null` fits any width.
/// A lane mask in wave64: `vcc` where VCC is implicit; else an aligned SGPR or TTMP pair,
/// `vcc`, `exec` or `null` (llvm-mc-19 takes `exec` as a [`Kind::LaneMask`] source too and
/// prints it as invalid there), or for a [`Kind::LaneMask`] source a `src_*` register.
fn wave64_mask(c: &mut Cursor, inst: &mut Instruction, field: Field, kind: Kind) -> PResult<()> {
    let col = c.col();
    if let Kind::Implicit(_) = kind {
        if !c.eat_ident("vcc") {
            return err(col, "expected vcc");
        }
        return Ok(());
    }
    let special = c
        .peek_ident()
        .is_some_and(|id| id.to_ascii_lowercase().starts_with("src_"));
    if kind == Kind::LaneMask && special {
        let (code, lit) = ssrc(c, 1, false)?;
        if lit.is_some() || !matches!(code, 235..=239 | 251..=253) {
            return err(col, INVALID_OPERAND);
        }
        inst.set(field, code);
        return Ok(());
    }
    let code = sgpr(c, 2, 2)?;
    if !matches!(code, 0..=106 | 108..=124 | 126) {
        return err(col, INVALID_OPERAND);
    }
    inst.set(field, code);
    Ok(())
}

fn sgpr(c: &mut Cursor, n: u32, align: u32) -> PResult<u32> {
    let col = c.col();
    match reg(c) {
        Some(RegRef::S { code, count }) if code == crate::regs::NULL => {
            let _ = count;
            Ok(code)
        }
        Some(RegRef::S { code, count }) if count == n && code < 235 => {
            let sgpr_or_ttmp = code < 106 || (108..124).contains(&code);
            let base = if code >= 108 { code - 108 } else { code };
            if sgpr_or_ttmp && n > 1 && base % align != 0 {
                return err(col, "invalid register alignment");
            }
            Ok(code)
        }
        _ => err(col, INVALID_OPERAND),
    }
}

/// The operand code and literal of a numeric scalar source written as `v` (an integer).
pub(crate) fn int_source(v: i64, dwords: u8, col: usize) -> PResult<(u32, Option<u32>)> {
    if (-16..=64).contains(&v) {
        let code = if v >= 0 { 128 + v } else { 192 - v };
        return Ok((code as u32, None));
    }
    if dwords == 1 {
        if !(-(1i64 << 31)..(1i64 << 32)).contains(&v) {
            return err(col, INVALID_OPERAND);
        }
        let bits = v as u32;
        if (-16..=64).contains(&(bits as i32)) {
            return int_source(bits as i32 as i64, 1, col);
        }
        if let Some(i) = FLOAT_CONSTANTS.iter().position(|(_, b, _)| *b == bits) {
            return Ok((240 + i as u32, None));
        }
        return Ok((SRC_LITERAL, Some(bits)));
    }
    let bits = v as u64;
    if let Some(i) = FLOAT_CONSTANTS.iter().position(|(_, _, b)| *b == bits) {
        return Ok((240 + i as u32, None));
    }
    if !(-(1i64 << 31)..(1i64 << 32)).contains(&v) {
        return err(col, INVALID_OPERAND);
    }
    Ok((SRC_LITERAL, Some(v as u32)))
}

/// A float scalar source `f` (already negated if written with `-`).
pub(crate) fn float_source(f: f64, dwords: u8, col: usize) -> PResult<(u32, Option<u32>)> {
    let i = FLOAT_CONSTANTS.iter().position(|(_, b, b64)| {
        f32::from_bits(*b) as f64 == f
            || f64::from_bits(*b64) == f
            || (f == 0.15915494 && *b == 0x3e22_f983)
    });
    if let Some(i) = i {
        return Ok((240 + i as u32, None));
    }
    if f == 0.0 && f.is_sign_positive() {
        return Ok((128, None));
    }
    if dwords == 1 {
        let x = f as f32;
        if x.is_infinite() && f.is_finite() {
            return err(col, INVALID_OPERAND);
        }
        return Ok((SRC_LITERAL, Some(x.to_bits())));
    }
    // llvm-mc-19 rejects non-inline float literals in 64-bit scalar operands.
    err(col, INVALID_OPERAND)
}

/// A float written in a 64-bit float vector source (`1.5`, `-0.1`): an inline constant, or
/// the high dword of the double as the literal. llvm-mc-19 drops the low dword (warning when
/// it is not zero): `1.5` → 0x3ff80000, `0.1` → 0x3fb99999, and a double whose high dword is
/// 0 is the constant 0.
pub(crate) fn f64_float_source(c: &mut Cursor, col: usize) -> PResult<(u32, Option<u32>)> {
    let neg = c.eat_punct('-');
    let Some(Tok::Float(f)) = c.peek().cloned() else {
        return err(col, INVALID_OPERAND);
    };
    c.bump();
    let f = if neg { -f } else { f };
    if let Ok(inline) = float_source(f, 2, col) {
        return Ok(inline);
    }
    let hi = (f.to_bits() >> 32) as u32;
    let v64 = (hi as u64) << 32;
    if v64 == 0 {
        return Ok((128, None));
    }
    if let Some(i) = FLOAT_CONSTANTS.iter().position(|(_, _, b)| *b == v64) {
        return Ok((240 + i as u32, None));
    }
    Ok((SRC_LITERAL, Some(hi)))
}

/// A scalar source: register, inline constant or literal.
fn ssrc(c: &mut Cursor, dwords: u8, allow_literal: bool) -> PResult<(u32, Option<u32>)> {
    let col = c.col();
    if c.peek_ident().is_some() {
        let save = c.save();
        if let Some(r) = reg(c) {
            return match r {
                RegRef::S {
                    code: 251 | 252, ..
                } => err(col, "execz and vccz are not supported on this GPU"),
                RegRef::S { code: 239, .. } => err(col, "register not available on this GPU"),
                RegRef::S { code, count } => {
                    let special = code >= 235;
                    let width_ok = count == dwords as u32
                        || code == crate::regs::NULL
                        || (special && dwords <= 2);
                    let base = if (108..124).contains(&code) {
                        code - 108
                    } else {
                        code
                    };
                    if !width_ok {
                        err(col, INVALID_OPERAND)
                    } else if dwords > 1 && !special && code < 124 && base % 2 != 0 {
                        err(col, "invalid register alignment")
                    } else {
                        Ok((code, None))
                    }
                }
                RegRef::V { .. } => err(col, INVALID_OPERAND),
            };
        }
        c.restore(save);
    }
    constant_source(c, dwords, allow_literal)
}

/// A scalar source that is a number: an inline constant, or (`allow_literal`) a literal; a
/// float (`1.0`, `-0.5`) or an integer expression.
pub(crate) fn constant_source(
    c: &mut Cursor,
    dwords: u8,
    allow_literal: bool,
) -> PResult<(u32, Option<u32>)> {
    let col = c.col();
    let neg = c.is_punct('-') && matches!(c.peek2(), Some(Tok::Float(_)));
    if neg {
        c.bump();
    }
    let (code, lit) = if let Some(Tok::Float(f)) = c.peek().cloned() {
        c.bump();
        float_source(if neg { -f } else { f }, dwords, col)?
    } else {
        let v = c.expr(&no_symbols)?;
        int_source(v, dwords, col)?
    };
    if lit.is_some() && !allow_literal {
        return err(col, INVALID_OPERAND);
    }
    Ok((code, lit))
}

/// Parses one operand of kind `kind` into `field` (or the fields that kind fills), by
/// operand class: vector registers, scalar registers and sources, immediates and literals, and
/// vector-ALU sources. A wave64 lane mask (an SGPR pair) is parsed apart.
fn operand(
    c: &mut Cursor,
    inst: &mut Instruction,
    field: Field,
    kind: Kind,
    widths: &mut Widths,
    label: &mut Option<(String, usize)>,
    hints: &mut Hints,
) -> PResult<()> {
    if hints.wave == Wave::W64 && inst.def().is_lane_mask(field, kind) {
        return wave64_mask(c, inst, field, kind);
    }
    match kind.class() {
        OperandClass::VectorRegister => vector_register_operand(c, inst, field, kind, widths),
        OperandClass::Scalar => scalar_operand(c, inst, field, kind, hints),
        OperandClass::Immediate => immediate_operand(c, inst, field, kind, label, hints),
        OperandClass::VectorSource => vector_source(c, inst, field, kind, widths, hints),
    }
}

/// A vector-register operand: a VGPR or a range of them (`off` for an absent address), a
/// `.l`/`.h` half, a VINTERP source with its negate, or a WMMA matrix (C may also be a
/// constant).
fn vector_register_operand(
    c: &mut Cursor,
    inst: &mut Instruction,
    field: Field,
    kind: Kind,
    widths: &mut Widths,
) -> PResult<()> {
    let col = c.col();
    let fmt = inst.def().format;
    match kind {
        Kind::V(n) | Kind::VRtn(n) => {
            let (first, count) = vgpr(c)?;
            if !(fmt == Format::Mubuf && field == Field::Vdata) && count != n as u32 {
                return err(col, INVALID_OPERAND);
            }
            widths.vregs.push((field, count, col));
            inst.set(field, first);
        }
        Kind::BufVaddr | Kind::FlatVaddr => {
            if c.eat_ident("off") {
                widths.vaddr_off = true;
            } else {
                let (first, count) = vgpr(c)?;
                widths.vregs.push((field, count, col));
                inst.set(field, first);
                if fmt == Format::Scratch {
                    inst.set(Field::Sve, 1);
                }
            }
        }
        Kind::WmmaAB(n) | Kind::WmmaC(n) => {
            // A range of exactly `n` VGPRs (no alignment needed); C also an inline constant,
            // `null` or a `src_*` register (an SGPR or a literal llvm-mc-19 refuses).
            let save = c.save();
            if let Some(RegRef::V { first, count }) = reg(c) {
                if count != n as u32 {
                    return err(col, INVALID_OPERAND);
                }
                inst.set(field, 256 + first);
                return Ok(());
            }
            c.restore(save);
            if matches!(kind, Kind::WmmaAB(_)) {
                return err(col, INVALID_OPERAND);
            }
            let (code, lit) = ssrc(c, 2, false)?;
            if lit.is_some() || !matches!(code, SGPR_NULL | 128..=208 | 235..=248 | 253) {
                return err(col, INVALID_OPERAND);
            }
            inst.set(field, code);
        }
        Kind::VLoHi(_) => {
            let Some(v) = lohi(c) else {
                return err(col, INVALID_OPERAND);
            };
            inst.set(field, v);
        }
        Kind::VinterpSrc(i) => {
            if c.eat_punct('-') {
                inst.set(Field::Neg, inst.get(Field::Neg) | 1 << i);
            }
            let (first, count) = vgpr(c)?;
            if count != 1 {
                return err(col, INVALID_OPERAND);
            }
            inst.set(field, 256 + first);
        }
        _ => unreachable!("{kind:?} is not a vector-register operand"),
    }
    Ok(())
}

/// A scalar operand: an SGPR or a range of them (aligned as the kind requires), a scalar
/// source (register, constant or literal), an SMEM base, offset or probe, a buffer resource
/// or offset, or a FLAT `saddr`.
fn scalar_operand(
    c: &mut Cursor,
    inst: &mut Instruction,
    field: Field,
    kind: Kind,
    hints: &mut Hints,
) -> PResult<()> {
    let col = c.col();
    let fmt = inst.def().format;
    match kind {
        Kind::S(n) => {
            let align = if n >= 4 { 4 } else { 2 };
            inst.set(field, sgpr(c, n as u32, align)?);
        }
        Kind::Ssrc(n) => {
            let (code, lit) = ssrc(c, n, true)?;
            let lane_select = matches!(inst.def().name, "v_readlane_b32" | "v_writelane_b32");
            if lit.is_some() && fmt == Format::Vop3 && field == Field::Src1 && lane_select {
                // `v_readlane_b32`/`v_writelane_b32`'s lane select takes no literal; the
                // permlanes' src1 does (llvm-mc-19, tests/golden/asm.txt).
                return err(col, INVALID_OPERAND);
            }
            if let Some(l) = lit {
                set_literal(inst, l, col)?;
            }
            inst.set(field, code);
        }
        Kind::LaneMask => {
            // One SGPR (wave32): `vcc_lo`, `s6`, `m0`, `null`; llvm-mc-19 also takes
            // `exec_lo`/`exec_hi` (printing them as invalid), but no constant.
            let (code, lit) = ssrc(c, 1, true)?;
            if lit.is_some() || code >= 128 {
                return err(col, INVALID_OPERAND);
            }
            inst.set(field, code);
        }
        Kind::SsrcReg(n) => {
            let (code, lit) = ssrc(c, n, true)?;
            if lit.is_some() || code >= 128 {
                return err(col, INVALID_OPERAND);
            }
            inst.set(field, code);
        }
        Kind::SBase(n) => {
            let code = sgpr(c, n as u32, 2)?;
            if code >= 106 && !(108..124).contains(&code) && code != 106 && code != 126 {
                return err(col, INVALID_OPERAND);
            }
            inst.set(field, code / 2);
        }
        Kind::SmemOffset => {
            if c.peek_ident().is_some() {
                let code = sgpr(c, 1, 1)?;
                inst.set(Field::Soffset, code);
            } else {
                let v = smem_offset_value(c, inst)?;
                inst.set(Field::Offset, v as u32 & 0x1f_ffff);
                inst.set(Field::Soffset, SGPR_NULL);
                hints.smem_imm_only = true;
            }
        }
        Kind::SmemProbe => {
            let v = c.expr(&no_symbols)?;
            if !(0..=7).contains(&v) {
                return err(col, INVALID_OPERAND);
            }
            inst.set(field, v as u32);
        }
        Kind::Rsrc => {
            let code = sgpr(c, 4, 4)?;
            if code % 4 != 0 || code == crate::regs::NULL {
                return err(col, INVALID_OPERAND);
            }
            inst.set(field, code / 4);
        }
        Kind::BufSoffset => {
            let (code, _) = ssrc(c, 1, false)?;
            if (240..=248).contains(&code) || code >= 235 && code != 253 {
                return err(col, INVALID_OPERAND);
            }
            inst.set(field, code);
        }
        Kind::FlatSaddr => {
            if c.eat_ident("off") {
                inst.set(field, SGPR_NULL);
            } else {
                let n = if fmt == Format::Global { 2 } else { 1 };
                // `null` is accepted for `off` (the same code).
                inst.set(field, sgpr(c, n, 2)?);
            }
        }
        _ => unreachable!("{kind:?} is not a scalar operand"),
    }
    Ok(())
}

/// An immediate or literal operand: a branch label or offset, a 16-bit immediate in its
/// style (`hwreg`, `sendmsg`, `waitcnt`...), a 32-bit literal, an interpolation attribute, or
/// the implicit `vcc_lo` written out.
fn immediate_operand(
    c: &mut Cursor,
    inst: &mut Instruction,
    field: Field,
    kind: Kind,
    label: &mut Option<(String, usize)>,
    hints: &mut Hints,
) -> PResult<()> {
    let col = c.col();
    match kind {
        Kind::Imm(Imm::Label) => {
            if let Some(name) = c.peek_ident().map(str::to_string) {
                c.bump();
                *label = Some((name, col));
            } else {
                let v = c.expr(&no_symbols)?;
                if !(-32768..=65535).contains(&v) {
                    return err(col, "expected a 16-bit signed jump offset");
                }
                hints.imm_written = Some(v);
                inst.set(field, v as u32 & 0xffff);
            }
        }
        Kind::Imm(style) => {
            let save = c.save();
            let v = special::parse_imm(style, c)?;
            if matches!(style, Imm::Dec | Imm::Version) {
                let end = c.save();
                c.restore(save);
                let sym = |n: &str| special::version_symbol(n);
                hints.imm_written = c.expr(&sym).ok();
                c.restore(end);
            }
            inst.set(field, v);
        }
        Kind::Lit32 => {
            let v = match c.peek() {
                Some(Tok::Float(_)) => {
                    c.bump();
                    0
                }
                Some(Tok::Punct('-')) if matches!(c.peek2(), Some(Tok::Float(_))) => {
                    c.bump();
                    c.bump();
                    0
                }
                _ => c.expr(&no_symbols)? as u32,
            };
            inst.literal = Some(v);
        }
        Kind::SendmsgRtn => {
            let v = special::parse_sendmsg(c)?;
            inst.set(field, v & 0xff);
        }
        Kind::AttrName => {
            let Some(name) = c.peek_ident().map(str::to_string) else {
                return err(col, INVALID_OPERAND);
            };
            let parsed = name.strip_prefix("attr").and_then(|rest| {
                let (num, chan) = rest.split_once('.')?;
                let n: u32 = num.parse().ok()?;
                let ch = ["x", "y", "z", "w"].iter().position(|x| *x == chan)?;
                Some((n, ch as u32))
            });
            let Some((n, ch)) = parsed else {
                return err(col, INVALID_OPERAND);
            };
            if n > 32 {
                return err(col, "out of bounds interpolation attribute number");
            }
            c.bump();
            inst.set(Field::Attr, n);
            inst.set(Field::AttrChan, ch);
        }
        Kind::Implicit(Implicit::VccLo) => {
            if !c.eat_ident("vcc_lo") {
                return err(col, "expected vcc_lo");
            }
        }
        Kind::LitK => lit_k(c, inst, col)?,
        _ => unreachable!("{kind:?} is not an immediate operand"),
    }
    Ok(())
}

/// The K constant of `v_fmamk`/`v_fmaak` (and GFX9's `v_madmk`/`v_madak`): a float, as its
/// f32 bits, or an integer expression, the instruction's literal.
pub(crate) fn lit_k(c: &mut Cursor, inst: &mut Instruction, col: usize) -> PResult<()> {
    let v = match c.peek().cloned() {
        Some(Tok::Float(f)) => {
            c.bump();
            (f as f32).to_bits()
        }
        _ => c.expr(&no_symbols)? as u32,
    };
    set_literal(inst, v, col)
}

/// A vector-ALU source ([`Kind::VSrc`] of `n` dwords and type `ty`): a VGPR range (or `.l`/`.h` half), then,
/// unless the source takes VGPRs only, an SGPR, inline constant or literal as the type
/// encodes them.
fn vector_source(
    c: &mut Cursor,
    inst: &mut Instruction,
    field: Field,
    kind: Kind,
    widths: &mut Widths,
    hints: &mut Hints,
) -> PResult<()> {
    let Kind::VSrc(n, ty) = kind else {
        unreachable!("{kind:?} is not a vector-ALU source")
    };
    let col = c.col();
    if ty == SrcTy::B16LoHi {
        if let Some(v) = lohi(c) {
            inst.set(field, 256 + v);
            return Ok(());
        }
    }
    let save = c.save();
    if let Some(RegRef::V { first, count }) = reg(c) {
        if count != n as u32 {
            return err(col, INVALID_OPERAND);
        }
        widths.vregs.push((field, count, col));
        inst.set(field, 256 + first);
        return Ok(());
    }
    c.restore(save);
    if ty == SrcTy::VgprOnly {
        return err(col, INVALID_OPERAND);
    }

    let float_token = matches!(c.peek(), Some(Tok::Float(_)))
        || c.is_punct('-') && matches!(c.peek2(), Some(Tok::Float(_)));
    if matches!(ty, SrcTy::I16 | SrcTy::B16LoHi) && float_token {
        hints.float_constant_written = true;
    }
    let (code, lit) = match ty {
        SrcTy::F16 | SrcTy::I16 | SrcTy::B16LoHi => src16(c, col, ty == SrcTy::F16)?,
        SrcTy::PackedF16 => packed16(c, col)?,
        SrcTy::PackedBf16 => bf16_source(c, col, true)?,
        SrcTy::Bf16 => bf16_source(c, col, false)?,
        SrcTy::F64 if float_token => f64_float_source(c, col)?,
        SrcTy::F64 | SrcTy::B64 => ssrc(c, 2, true)?,
        _ => ssrc(c, n, true)?,
    };
    if let Some(l) = lit {
        set_literal(inst, l, col)?;
    }
    inst.set(field, code);
    Ok(())
}

/// An SMEM immediate offset: 21-bit signed, but 20-bit unsigned for the buffer forms
/// (`s_buffer_load_*`, `s_atc_probe_buffer`), as llvm-mc-19 requires (for gfx1100 and
/// gfx942 alike).
pub(crate) fn smem_offset_value(c: &mut Cursor, inst: &Instruction) -> PResult<i64> {
    if inst.def().name.contains("buffer") {
        int_in(c, 0, (1 << 20) - 1, "expected a 20-bit unsigned offset")
    } else {
        int_in(
            c,
            -(1 << 20),
            (1 << 20) - 1,
            "expected a 21-bit signed offset",
        )
    }
}

/// Records the instruction's literal dword; an instruction has at most one, so a second,
/// different literal is an error.
pub(crate) fn set_literal(inst: &mut Instruction, value: u32, col: usize) -> PResult<()> {
    if inst.literal.is_some_and(|x| x != value) {
        return err(col, "only one unique literal operand is allowed");
    }
    inst.literal = Some(value);
    Ok(())
}

/// A true16 register half `vN.l` / `vN.h` (N < 128): the 8-bit field value.
fn lohi(c: &mut Cursor) -> Option<u32> {
    let name = c.peek_ident()?;
    let (reg, half) = name.split_once('.')?;
    let n: u32 = reg.strip_prefix('v')?.parse().ok()?;
    let hi = match half {
        "l" => 0,
        "h" => 0x80,
        _ => return None,
    };
    if n >= 128 {
        return None;
    }
    c.bump();
    Some(n | hi)
}

/// A packed-f16 source constant: inline integers and float constants, integers equal to an
/// f16 constant's bits inline; anything else a 32-bit literal (an f32 pattern stays literal).
pub(crate) fn packed16(c: &mut Cursor, col: usize) -> PResult<(u32, Option<u32>)> {
    let float_token = matches!(c.peek(), Some(Tok::Float(_)))
        || c.is_punct('-') && matches!(c.peek2(), Some(Tok::Float(_)));
    if c.peek_ident().is_some() || float_token {
        return src16(c, col, true);
    }
    let v = c.expr(&no_symbols)?;
    if (-16..=64).contains(&v) {
        return int_source(v, 1, col);
    }
    if !(-(1i64 << 31)..(1i64 << 32)).contains(&v) {
        return err(col, INVALID_OPERAND);
    }
    let bits = v as u32;
    if let Some(i) = crate::regs::F16_CONSTANTS
        .iter()
        .position(|&x| x as u32 == bits)
    {
        return Ok((240 + i as u32, None));
    }
    Ok((SRC_LITERAL, Some(bits)))
}

/// A bf16 source constant (`v_dot2_f32_bf16`, `v_dot2_bf16_bf16`), as llvm-mc-19 reads it:
/// inline integers and float constants; an integer equal to an inline float's bf16 bits
/// (`0x3f80` = 1.0) inlined; another float becomes its bf16 bits (rounded to nearest even) in
/// a literal; other integers are literals as written (`packed`: 32 bits; else 16 bits).
fn bf16_source(c: &mut Cursor, col: usize, packed: bool) -> PResult<(u32, Option<u32>)> {
    if c.peek_ident().is_some() {
        return ssrc(c, 1, false);
    }
    let neg = c.is_punct('-') && matches!(c.peek2(), Some(Tok::Float(_)));
    if neg {
        c.bump();
    }
    let inline_bf16 = |bits: u32| FLOAT_CONSTANTS.iter().position(|(_, b, _)| b >> 16 == bits);
    if let Some(Tok::Float(f)) = c.peek().cloned() {
        c.bump();
        let f = if neg { -f } else { f };
        if f == 0.0 {
            return Ok((128, None));
        }
        let bits = (f as f32).to_bits();
        let bf16 = ((bits as u64 + 0x7fff + (bits as u64 >> 16 & 1)) >> 16) as u32 & 0xffff;
        let exact = FLOAT_CONSTANTS.iter().position(|(_, b, _)| {
            f32::from_bits(*b) as f64 == f || (f == 0.15915494 && *b == 0x3e22_f983)
        });
        return Ok(match exact.or_else(|| inline_bf16(bf16)) {
            Some(i) => (240 + i as u32, None),
            None => (SRC_LITERAL, Some(bf16)),
        });
    }
    let v = c.expr(&no_symbols)?;
    if (-16..=64).contains(&v) {
        return int_source(v, 1, col);
    }
    let range = if packed {
        -(1i64 << 31)..(1i64 << 32)
    } else {
        -32768..65536
    };
    if !range.contains(&v) {
        return err(col, INVALID_OPERAND);
    }
    let bits = if packed { v as u32 } else { v as u32 & 0xffff };
    Ok(match inline_bf16(bits) {
        Some(i) => (240 + i as u32, None),
        None => (SRC_LITERAL, Some(bits)),
    })
}

/// A 16-bit source constant: an inline integer or float constant, or a 16-bit literal. A
/// value equal to an f16 constant's bits is inlined only for float operands (llvm-mc-19
/// keeps `0x3c00` a literal for integer ones).
pub(crate) fn src16(c: &mut Cursor, col: usize, float: bool) -> PResult<(u32, Option<u32>)> {
    if c.peek_ident().is_some() {
        return ssrc(c, 1, false);
    }
    let neg = c.is_punct('-') && matches!(c.peek2(), Some(Tok::Float(_)));
    if neg {
        c.bump();
    }
    if let Some(Tok::Float(f)) = c.peek().cloned() {
        c.bump();
        let f = if neg { -f } else { f };
        let found = FLOAT_CONSTANTS.iter().position(|(_, b, _)| {
            f32::from_bits(*b) as f64 == f || (f == 0.15915494 && *b == 0x3e22_f983)
        });
        return match found {
            Some(i) => Ok((240 + i as u32, None)),
            None if f == 0.0 => Ok((128, None)),
            None => err(
                col,
                "only inline float constants are supported in 16-bit operands",
            ),
        };
    }
    let v = c.expr(&no_symbols)?;
    if (-16..=64).contains(&v) {
        return int_source(v, 1, col);
    }
    if !(-32768..=65535).contains(&v) {
        return err(col, INVALID_OPERAND);
    }
    let h = v as u32 & 0xffff;
    if float {
        if let Some(i) = crate::regs::F16_CONSTANTS
            .iter()
            .position(|&x| x as u32 == h)
        {
            return Ok((240 + i as u32, None));
        }
    }
    Ok((SRC_LITERAL, Some(h)))
}

pub(crate) fn int_in(c: &mut Cursor, lo: i64, hi: i64, msg: &str) -> PResult<i64> {
    let col = c.col();
    let v = c.expr(&no_symbols)?;
    if !(lo..=hi).contains(&v) {
        return err(col, msg);
    }
    Ok(v)
}

/// The modifiers after the operands, then (in a DPP form) the DPP part, which ends the
/// statement.
fn modifiers(
    c: &mut Cursor,
    inst: &mut Instruction,
    hints: &mut Hints,
    dpp_mode: bool,
    suffixed: bool,
) -> PResult<()> {
    let fmt = inst.def().format;
    let mut seen: Vec<String> = Vec::new();
    // VOP3 and VOP3P modifiers come in a fixed order; `stage` is the rank of the last one.
    let mut stage = 0;
    let mut saw_dpp = false;
    while !c.at_end() {
        let col = c.col();
        let Some(name) = c.peek_ident().map(str::to_string) else {
            return err(col, INVALID_OPERAND);
        };
        if dpp::DPP_WORDS.contains(&name.as_str()) {
            if !dpp_mode {
                return err(col, if suffixed { INVALID_OPERAND } else { NOT_VALID });
            }
            let t = dpp::parse_dpp(c)?;
            apply_dpp(inst, t, col)?;
            saw_dpp = true;
            break;
        }
        let rank = modifier_rank(fmt, &name);
        if rank != 0 {
            if rank <= stage {
                return err(col, NOT_VALID);
            }
            stage = rank;
        }
        c.bump();
        if seen.contains(&name) && name != "offset" {
            return err(col, INVALID_OPERAND);
        }
        seen.push(name.clone());
        let has_value = c.eat_punct(':');
        if let Some(f) = flag_modifier(inst, &name, col)? {
            if has_value {
                return err(col, INVALID_OPERAND);
            }
            inst.set(f, 1);
            continue;
        }
        if !has_value {
            return err(col, INVALID_OPERAND);
        }
        match fmt {
            Format::Vop3 | Format::Vop3p | Format::Vinterp => alu_modifier(c, inst, &name, col)?,
            _ => memory_modifier(c, inst, hints, &name, col)?,
        }
    }
    if dpp_mode && !saw_dpp {
        return err(c.col(), "too few operands for instruction");
    }
    Ok(())
}

/// The rank of a VOP3/VOP3P modifier in the fixed order llvm-mc-19 wants them in (0: a
/// modifier with no place in that order).
fn modifier_rank(fmt: Format, name: &str) -> u32 {
    match (fmt, name) {
        (Format::Vop3, "op_sel") => 1,
        (Format::Vop3, "clamp") => 2,
        (Format::Vop3, "mul" | "div") => 3,
        (Format::Vop3p, "op_sel") => 1,
        (Format::Vop3p, "op_sel_hi") => 2,
        (Format::Vop3p, "neg_lo") => 3,
        (Format::Vop3p, "neg_hi") => 4,
        (Format::Vop3p, "clamp") => 5,
        _ => 0,
    }
}

/// The one-bit field a flag modifier (`glc`, `gds`, `idxen`, `clamp`...) sets in this
/// instruction's format, if `name` is one.
fn flag_modifier(inst: &Instruction, name: &str, col: usize) -> PResult<Option<Field>> {
    let d = inst.def();
    let fmt = d.format;
    // glc and dlc exist in every memory format with a cache policy; slc not in SMEM.
    let cache_policy = matches!(
        fmt,
        Format::Smem
            | Format::Flat
            | Format::Global
            | Format::Scratch
            | Format::Mubuf
            | Format::Mtbuf
    );
    Ok(match name {
        "glc" if cache_policy => Some(Field::Glc),
        "dlc" if cache_policy => Some(Field::Dlc),
        "slc"
            if matches!(
                fmt,
                Format::Flat | Format::Global | Format::Scratch | Format::Mubuf | Format::Mtbuf
            ) =>
        {
            Some(Field::Slc)
        }
        "gds" if fmt == Format::Ds => Some(Field::Gds),
        "tfe" if fmt == Format::Mubuf => Some(Field::Tfe),
        "idxen" if matches!(fmt, Format::Mubuf | Format::Mtbuf) => Some(Field::Idxen),
        "offen" if matches!(fmt, Format::Mubuf | Format::Mtbuf) => Some(Field::Offen),
        "clamp" if fmt == Format::Vinterp => Some(Field::Clamp),
        "clamp" if fmt == Format::Vop3 && d.flags.has(Flags::VOP3_CLAMP) => {
            // llvm-mc-19 wants clamp before the output modifier.
            if inst.get(Field::Omod) != 0 {
                return err(col, INVALID_OPERAND);
            }
            Some(Field::Clamp)
        }
        "clamp" if fmt == Format::Vop3p && d.flags.has(Flags::VOP3_CLAMP) => Some(Field::Clamp),
        _ => None,
    })
}

/// A `name:value` modifier of a memory format: the DS, SMEM, FLAT and buffer offsets, the
/// MTBUF `format` and LDSDIR's `wait_vdst`.
fn memory_modifier(
    c: &mut Cursor,
    inst: &mut Instruction,
    hints: &mut Hints,
    name: &str,
    col: usize,
) -> PResult<()> {
    if let Some(done) = ds_offset(c, inst, name) {
        return done;
    }
    let d = inst.def();
    match (name, d.format) {
        ("offset", Format::Smem) if !d.operands.is_empty() => {
            let v = smem_offset_value(c, inst)?;
            inst.set(Field::Offset, v as u32 & 0x1f_ffff);
            hints.smem_explicit_offset = true;
        }
        ("offset", Format::Flat) => {
            let v = int_in(c, 0, 4095, "expected a 12-bit unsigned offset")?;
            inst.set(Field::Offset, v as u32);
        }
        ("offset", Format::Global | Format::Scratch) => {
            let v = int_in(c, -4096, 4095, "expected a 13-bit signed offset")?;
            inst.set(Field::Offset, v as u32 & 0x1fff);
        }
        ("offset", Format::Mubuf | Format::Mtbuf) if !d.operands.is_empty() => {
            let v = int_in(c, 0, 4095, "expected a 12-bit unsigned offset")?;
            inst.set(Field::Offset, v as u32);
        }
        ("format", Format::Mtbuf) => {
            inst.set(Field::Fmt, special::parse_buf_format(c)?);
        }
        ("wait_vdst", Format::Ldsdir) => {
            let v = int_in(c, 0, 15, "invalid wait_vdst value")?;
            inst.set(Field::WaitVdst, v as u32);
        }
        _ => return err(col, INVALID_OPERAND),
    }
    Ok(())
}

/// A DS instruction's `offset:` (16 bits, or a swizzle pattern for `ds_swizzle_b32`), or
/// `offset0:`/`offset1:` (8 bits each) of the two-address forms; `None` when `name` is not
/// one the instruction takes.
pub(crate) fn ds_offset(c: &mut Cursor, inst: &mut Instruction, name: &str) -> Option<PResult<()>> {
    let d = inst.def();
    let pair = d.flags.has(Flags::OFFSET_PAIR);
    let r = match (name, d.format) {
        ("offset", Format::Ds) if !pair => (|| {
            let v = if d.flags.has(Flags::SWIZZLE) {
                special::parse_swizzle(c)?
            } else {
                int_in(c, 0, 65535, "expected a 16-bit offset")? as u32
            };
            inst.set(Field::Offset0, v & 0xff);
            inst.set(Field::Offset1, v >> 8);
            Ok(())
        })(),
        ("offset0" | "offset1", Format::Ds) if pair => {
            int_in(c, 0, 255, "expected an 8-bit unsigned offset").map(|v| {
                let f = if name == "offset0" {
                    Field::Offset0
                } else {
                    Field::Offset1
                };
                inst.set(f, v as u32);
            })
        }
        _ => return None,
    };
    Some(r)
}

/// A `name:value` modifier of VOP3, VOP3P or VINTERP: the output modifier (`mul`/`div`),
/// `wait_exp`, and the `op_sel`, `op_sel_hi`, `neg_lo`, `neg_hi` lists.
fn alu_modifier(c: &mut Cursor, inst: &mut Instruction, name: &str, col: usize) -> PResult<()> {
    let d = inst.def();
    match (name, d.format) {
        ("mul" | "div", Format::Vop3)
            if d.flags.has(Flags::VOP3_OMOD) && inst.get(Field::Omod) == 0 =>
        {
            let v = int_in(c, 1, 4, "invalid output modifier")?;
            let omod = match (name, v) {
                ("mul", 1) | ("div", 1) => 0,
                ("mul", 2) => 1,
                ("mul", 4) => 2,
                ("div", 2) => 3,
                _ => return err(col, "invalid output modifier"),
            };
            inst.set(Field::Omod, omod);
        }
        ("wait_exp", Format::Vinterp) => {
            let v = int_in(c, 0, 7, "invalid wait_exp value")?;
            inst.set(Field::WaitExp, v as u32);
        }
        ("op_sel", Format::Vop3) => {
            let Some(l) = d.op_sel_layout() else {
                return err(col, NOT_VALID);
            };
            let bits = bit_list(c, "op_sel")?;
            let mut v = 0u32;
            for (k, (b, bcol)) in bits.into_iter().enumerate() {
                match l.entries.get(k).copied().flatten() {
                    Some(bit) => v |= b << (bit - 11),
                    // An entry llvm-mc-19 has no bit for: dropped past the printed ones
                    // (and the third of v_fmac_f16_e64), refused where it is a source
                    // the instruction reads whole (dot2 sources, permlane src2/dst).
                    None if b == 1
                        && (d.flags.has(Flags::OP_SEL_SRC2_DST) || d.flags.has(Flags::OP_SEL2)) =>
                    {
                        return err(bcol, "invalid op_sel operand");
                    }
                    None => {}
                }
            }
            inst.set(Field::OpSel, v);
        }
        ("op_sel" | "op_sel_hi" | "neg_lo" | "neg_hi", Format::Vop3p) => {
            let n = d.source_count();
            let no_op_sel = d.flags.has(Flags::NO_OP_SEL);
            if no_op_sel && name.starts_with("op_sel")
                || d.flags.has(Flags::MIX) && name.starts_with("neg")
            {
                return err(col, NOT_VALID);
            }
            let bits = bit_list(c, name)?;
            let v = bits
                .iter()
                .take(n)
                .enumerate()
                .fold(0u32, |acc, (k, (b, _))| acc | b << k);
            match name {
                "op_sel" => inst.set(Field::OpSel, v),
                "op_sel_hi" => inst.set(Field::OpSelHi, vop3p_op_sel_hi(d, v)),
                "neg_lo" => inst.set(Field::NegLo, v),
                _ => inst.set(Field::NegHi, v),
            }
        }
        ("op_sel", Format::Vinterp) if d.flags.has(Flags::OP_SEL) => {
            c.expect_punct('[', "expected a left square bracket")?;
            let mut v = 0;
            for i in 0..4 {
                if i > 0 {
                    c.expect_punct(',', "expected a comma")?;
                }
                v |= (int_in(c, 0, 1, "invalid op_sel value.")? as u32) << i;
            }
            c.expect_punct(']', "expected a closing square bracket")?;
            inst.set(Field::OpSel, v);
        }
        _ => return err(col, INVALID_OPERAND),
    }
    Ok(())
}

/// `[b0,b1,...]`: one to four 0/1 entries (llvm-mc-19's `op_sel`, `op_sel_hi`, `neg_lo`,
/// `neg_hi` lists), each with its column.
pub(crate) fn bit_list(c: &mut Cursor, what: &str) -> PResult<Vec<(u32, usize)>> {
    c.expect_punct('[', "expected a left square bracket")?;
    if c.is_punct(']') {
        return err(c.col(), "unknown token in expression");
    }
    let mut out = Vec::with_capacity(4);
    loop {
        let col = c.col();
        let v = c.expr(&no_symbols)?;
        if !(0..=1).contains(&v) {
            return err(col, format!("invalid {what} value."));
        }
        out.push((v as u32, col));
        if out.len() == 4 || !c.eat_punct(',') {
            break;
        }
    }
    c.expect_punct(']', "expected a closing square bracket")?;
    Ok(out)
}

/// Writes the parsed DPP part into a DPP form whose source 0 is already in the DPP dword.
/// DPP8 has no neg/abs bits: an e32 form with source modifiers cannot be DPP8 (llvm-mc-19
/// then takes the VOP3 DPP8 form, or refuses an explicit `_dpp`).
fn apply_dpp(inst: &mut Instruction, t: DppText, col: usize) -> PResult<()> {
    match t {
        DppText::Dpp16 {
            ctrl,
            row_mask,
            bank_mask,
            bound_ctrl,
            fi,
        } => {
            inst.set(Field::DppCtrl, ctrl);
            inst.set(Field::RowMask, row_mask);
            inst.set(Field::BankMask, bank_mask);
            inst.set(Field::BoundCtrl, bound_ctrl as u32);
            inst.set(Field::Fi, fi as u32);
        }
        DppText::Dpp8 { sel, fi } => {
            if inst.get(Field::DppNeg) != 0 || inst.get(Field::DppAbs) != 0 {
                return err(col, INVALID_OPERAND);
            }
            let src0 = inst.get(Field::DppSrc0);
            inst.set(
                Field::Src0,
                if fi { dpp::SRC_DPP8_FI } else { dpp::SRC_DPP8 },
            );
            inst.set(Field::DppSrc0, src0);
            inst.set(Field::Dpp8Sel, sel);
        }
    }
    Ok(())
}

/// A buffer instruction's address VGPRs (`written`: how many, and where): one per `idxen` and
/// `offen`, none (`off`) without either (on gfx1100 and gfx942 alike).
pub(crate) fn buffer_vaddr(
    inst: &Instruction,
    written: Option<(Field, u32, usize)>,
) -> PResult<()> {
    let want = inst.get(Field::Idxen) + inst.get(Field::Offen);
    match written {
        Some((_, count, col)) if count != want || want == 0 => err(col, INVALID_OPERAND),
        None if want != 0 && !inst.def().operands.is_empty() => err(1, INVALID_OPERAND),
        _ => Ok(()),
    }
}

/// The VGPRs of a FLAT/GLOBAL/SCRATCH address: 64 bits, but 32 as an offset from an SGPR base
/// (GLOBAL with `saddr`) or within a wave's scratch (on gfx1100 and gfx942 alike).
pub(crate) fn flat_vaddr_dwords(fmt: Format, saddr: bool) -> u32 {
    match fmt {
        Format::Global if saddr => 1,
        Format::Scratch => 1,
        _ => 2,
    }
}

/// The constant bus: a VOP3 instruction reads at most two distinct scalar values (SGPRs,
/// VCC, M0, EXEC, TTMPs, the `src_*` registers; a literal counts once; inline constants are
/// free), the 64-bit shifts only one, and `v_div_fmas_*` read VCC besides (llvm-mc-19's
/// rules, observed on the golden lines).
fn check_constant_bus(inst: &Instruction) -> PResult<()> {
    let d = inst.def();
    let mut used: Vec<(u32, u8)> = Vec::new();
    if d.name.starts_with("v_div_fmas_") {
        // The implicit read is of the 64-bit VCC: an explicit `vcc` is the same register.
        used.push((crate::regs::VCC_LO, 2));
    }
    for o in d.operands {
        let (n, ty) = match o.kind {
            Kind::VSrc(n, ty) => (n, ty),
            Kind::LaneMask => (1, SrcTy::B32),
            Kind::Ssrc(n) if d.format == Format::Vop3 => (n, SrcTy::B32),
            _ => continue,
        };
        let code = inst.get(o.field);
        let n = if matches!(ty, SrcTy::F64 | SrcTy::B64) {
            2
        } else {
            n
        };
        let scalar = match code {
            // A literal counts once per operand size (a 32-bit and a 64-bit use of the same
            // value count twice, as llvm-mc-19 counts them).
            SRC_LITERAL => Some((SRC_LITERAL, n)),
            SGPR_NULL => None,
            0..=127 | 235..=239 | 251..=253 => Some((code, n)),
            _ => None,
        };
        if let Some(s) = scalar.filter(|s| !used.contains(s)) {
            used.push(s);
        }
    }
    let limit = if matches!(d.name, "v_lshlrev_b64" | "v_lshrrev_b64" | "v_ashrrev_i64") {
        1
    } else {
        2
    };
    if used.len() > limit {
        return err(1, "invalid operand (violates constant bus restrictions)");
    }
    Ok(())
}

/// Rules that involve several operands or modifiers.
fn check(inst: &Instruction, widths: &Widths, rtn_present: bool) -> PResult<()> {
    let d = inst.def();
    // e32 forms with 16-bit sources reach v0-v127 only (llvm-mc-19 prints others with an
    // "Invalid register" comment and refuses to assemble them).
    if matches!(d.format, Format::Vop1 | Format::Vop2 | Format::Vopc)
        && crate::print::sixteen_bit_sources(inst)
        && (inst.get(Field::Src0) >= 384
            || inst.dpp_kind().is_some() && inst.get(Field::DppSrc0) >= 128
            || d.operand(Field::Vsrc1).is_some() && inst.get(Field::Vsrc1) >= 128)
    {
        return err(1, "operands are not valid for this GPU or mode");
    }
    let width_of = |f: Field| widths.vregs.iter().find(|(x, _, _)| *x == f).copied();
    match d.format {
        Format::Vop2
            if d.flags.has(Flags::FAKE16)
                && d.operands.iter().any(|o| o.kind == Kind::LitK)
                && inst.literal.is_some_and(|k| k > 0xffff) =>
        {
            return err(
                1,
                "the constant K of an f16 fmamk/fmaak must fit in 16 bits",
            );
        }
        Format::Vop1 | Format::Vop2 | Format::Vopc if d.flags.has(Flags::FAKE16) => {
            if let Some((_, _, col)) = widths.vregs.iter().find(|(f, _, _)| {
                let v = inst.get(*f);
                if *f == Field::Src0 {
                    v >= 384
                } else {
                    v >= 128
                }
            }) {
                return err(
                    *col,
                    "only v0-v127 can be encoded in this 16-bit instruction",
                );
            }
        }
        Format::Vop3 | Format::Vop3p => check_constant_bus(inst)?,
        Format::Sopk if d.name.starts_with("s_waitcnt_") && inst.get(Field::Sdst) != SGPR_NULL => {
            return err(1, "src0 must be null");
        }
        Format::Ds => {
            if d.flags.has(Flags::GDS_ONLY) && inst.get(Field::Gds) == 0 {
                return err(1, "missing gds operand");
            }
            if d.flags.has(Flags::NO_GDS) && inst.get(Field::Gds) == 1 {
                return err(1, "gds modifier is not supported on this instruction");
            }
        }
        Format::Flat | Format::Global | Format::Scratch => {
            if d.flags.has(Flags::ATOMIC) {
                if rtn_present && inst.get(Field::Glc) == 0 {
                    return err(1, "instruction must use glc");
                }
                if !rtn_present && inst.get(Field::Glc) == 1 {
                    return err(1, "instruction must not use glc");
                }
            }
            if let Some((_, count, col)) = width_of(Field::Addr) {
                let want = flat_vaddr_dwords(d.format, inst.get(Field::Saddr) != SGPR_NULL);
                if count != want {
                    return err(col, INVALID_OPERAND);
                }
            } else if widths.vaddr_off && d.format != Format::Scratch {
                return err(1, INVALID_OPERAND);
            }
            if d.format == Format::Scratch
                && inst.get(Field::Sve) == 1
                && inst.get(Field::Saddr) != SGPR_NULL
            {
                // vaddr and saddr may both be given on gfx11.
            }
        }
        Format::Mubuf | Format::Mtbuf => {
            buffer_vaddr(inst, width_of(Field::Vaddr))?;
            if let (Some((_, count, col)), Some(o)) =
                (width_of(Field::Vdata), d.operand(Field::Vdata))
            {
                // Every MUBUF/MTBUF vdata in the table is a VGPR operand; a table entry that
                // broke this would reject the line rather than panic.
                let Kind::V(n) = o.kind else {
                    return err(col, INVALID_OPERAND);
                };
                if count != n as u32 + inst.get(Field::Tfe) {
                    return err(col, INVALID_OPERAND);
                }
            }
            if inst.get(Field::Tfe) == 1 {
                let is_load = d.name.contains("_load_") && !d.flags.has(Flags::LDS);
                if !is_load {
                    return err(1, INVALID_OPERAND);
                }
            }
        }
        _ => {}
    }
    Ok(())
}
