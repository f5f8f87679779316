//! The modifiers after a gfx942 instruction's operands, as llvm-mc-19 -mcpu=gfx942 reads
//! them: the memory formats' offsets, cache-policy bits and buffer format; VOP3's and VOP3P's
//! output modifier, `op_sel` lists and the matrix instructions' `cbsz`/`abid`/`blgp`/`neg`;
//! the DPP controls and masks; the SDWA selects. Each format wants its modifiers in an order
//! ([`modifier_rank`]); the cache-policy bits come in any order among themselves.

use super::parse::{Form, State, DPP_WORDS};
use super::special::parse_format;
use crate::def::{Flags, Kind};
use crate::fields::Field;
use crate::format::Format;
use crate::inst::Instruction;
use crate::lex::{no_symbols, Cursor, PResult, ParseError};
use crate::parse::{bit_list, int_in, INVALID_OPERAND, NOT_VALID};

fn err<T>(col: usize, msg: impl Into<String>) -> PResult<T> {
    Err(ParseError::new(col, msg))
}

/// The modifiers after the operands, in any order (each once).
pub(super) fn modifiers(c: &mut Cursor, inst: &mut Instruction, st: &mut State) -> PResult<()> {
    let mut seen: Vec<String> = Vec::new();
    let mut dpp_ctrl = None;
    let mut stage = 0;
    while !c.at_end() {
        let col = c.col();
        let Some(name) = c.peek_ident().map(str::to_string) else {
            return err(col, INVALID_OPERAND);
        };
        {
            let rank = modifier_rank(inst.def().format, st.form, &name);
            if rank != 0 {
                if rank < stage || rank == stage && rank != CACHE_RANK {
                    return err(col, NOT_VALID);
                }
                stage = rank;
            }
        }
        c.bump();
        if seen.contains(&name) {
            return err(col, INVALID_OPERAND);
        }
        seen.push(name.clone());
        let has_value = c.eat_punct(':');
        let done = match st.form {
            Form::Dpp => dpp_modifier(c, inst, &name, has_value, &mut dpp_ctrl, col)?,
            Form::Sdwa => sdwa_modifier(c, inst, st, &name, has_value, col)?,
            Form::Plain => false,
        };
        if done {
            continue;
        }
        // `nosc0`, `nosc1`, `nont`: the bit left clear, written out.
        let cleared = name
            .strip_prefix("no")
            .and_then(|n| flag_modifier(inst, n))
            .filter(|f| matches!(f, Field::Sc0 | Field::Sc1 | Field::Nt));
        if cleared.is_some() && !has_value {
            continue;
        }
        if let Some(f) = flag_modifier(inst, &name) {
            if has_value {
                return err(col, INVALID_OPERAND);
            }
            inst.set(f, 1);
            continue;
        }
        if !has_value {
            return err(col, NOT_VALID);
        }
        match inst.def().format {
            Format::Vop3 | Format::Vop3p if st.form == Form::Plain => {
                alu_modifier(c, inst, &name, col)?
            }
            _ if st.form == Form::Plain => memory_modifier(c, inst, &name, col)?,
            _ => return err(col, NOT_VALID),
        }
    }
    if st.form == Form::Dpp {
        match dpp_ctrl {
            Some(ctrl) => inst.set(Field::DppCtrl, ctrl),
            None => return err(c.col(), "too few operands for instruction"),
        }
    }
    Ok(())
}

/// The rank of the cache-policy bits, which come in any order among themselves.
const CACHE_RANK: u32 = 6;

/// Where a modifier stands in the order llvm-mc-19 wants them in (0: anywhere).
fn modifier_rank(fmt: Format, form: Form, name: &str) -> u32 {
    let dpp_control = DPP_WORDS[..12].contains(&name);
    match (form, fmt, name) {
        (Form::Dpp, _, _) if dpp_control => 1,
        (Form::Dpp, _, "row_mask") => 2,
        (Form::Dpp, _, "bank_mask") => 3,
        (Form::Dpp, _, "bound_ctrl") => 4,
        (Form::Sdwa, _, "clamp") => 1,
        (Form::Sdwa, _, "mul" | "div") => 2,
        (Form::Sdwa, _, "dst_sel") => 3,
        (Form::Sdwa, _, "dst_unused") => 4,
        (Form::Sdwa, _, "src0_sel") => 5,
        (Form::Sdwa, _, "src1_sel") => 6,
        (Form::Dpp | Form::Sdwa, _, _) => 0,
        (_, Format::Vop3 | Format::Vop3p, "op_sel") => 1,
        (_, Format::Vop3p, "op_sel_hi") => 2,
        (_, Format::Vop3p, "neg_lo") => 3,
        (_, Format::Vop3p, "neg_hi") => 4,
        (_, Format::Vop3 | Format::Vop3p, "clamp") => 5,
        (_, Format::Vop3, "mul" | "div") => 6,
        (_, Format::Vop3p, "cbsz") => 1,
        (_, Format::Vop3p, "abid") => 2,
        (_, Format::Vop3p, "blgp" | "neg") => 3,
        (_, Format::Vop3 | Format::Vop3p, _) => 0,
        (_, _, "format") => 1,
        (_, _, "idxen") => 2,
        (_, _, "offen") => 3,
        (_, _, "offset" | "offset0") => 4,
        (_, _, "offset1") => 5,
        (_, _, "sc0" | "sc1" | "nt" | "glc" | "lds" | "gds") => CACHE_RANK,
        _ => 0,
    }
}

/// The one-bit field a flag modifier sets in this instruction's format, if `name` is one.
fn flag_modifier(inst: &Instruction, name: &str) -> Option<Field> {
    let d = inst.def();
    let fmt = d.format;
    let memory = matches!(
        fmt,
        Format::Flat | Format::Global | Format::Scratch | Format::Mubuf | Format::Mtbuf
    );
    Some(match name {
        "sc0" if memory => Field::Sc0,
        "sc1" if memory => Field::Sc1,
        "nt" if memory => Field::Nt,
        "glc" if fmt == Format::Smem && smem_takes_glc(inst) => Field::Glc,
        "idxen" if matches!(fmt, Format::Mubuf | Format::Mtbuf) => Field::Idxen,
        "offen" if matches!(fmt, Format::Mubuf | Format::Mtbuf) => Field::Offen,
        "lds" if fmt == Format::Mubuf && super::print::mubuf_lds_load(d.name) => Field::Lds,
        "lds" if fmt == Format::Mubuf && d.flags.has(Flags::LDS) => Field::Lds,
        "gds" if d.flags.has(Flags::GDS_ONLY) => Field::Gds,
        "clamp" if fmt == Format::Vop3 && d.flags.has(Flags::VOP3_CLAMP) => Field::Clamp,
        "clamp" if fmt == Format::Vop3p && !d.flags.has(Flags::MFMA) => Field::Clamp,
        _ => return None,
    })
}

fn smem_takes_glc(inst: &Instruction) -> bool {
    let d = inst.def();
    matches!(d.operands.first(), Some(o) if o.field == Field::Sdata && matches!(o.kind, Kind::S(_)))
        && d.operands.len() == 3
}

/// A `name:value` modifier of a memory format.
fn memory_modifier(c: &mut Cursor, inst: &mut Instruction, name: &str, col: usize) -> PResult<()> {
    if let Some(done) = crate::parse::ds_offset(c, inst, name) {
        return done;
    }
    let d = inst.def();
    match (name, d.format) {
        ("offset", Format::Smem)
            if inst.get(Field::SmemImm) == 0 && d.operand(Field::Soffset).is_some() =>
        {
            let v = crate::parse::smem_offset_value(c, inst)?;
            inst.set(Field::Soe, 1);
            inst.set(Field::Soffset, inst.get(Field::Offset));
            inst.set(Field::SmemImm, 1);
            inst.set(Field::Offset, v as u32 & 0x1f_ffff);
        }
        ("offset", Format::Flat) => {
            let v = int_in(c, 0, 4095, "expected a 12-bit unsigned offset")?;
            inst.set(Field::Offset, v as u32);
        }
        ("offset", Format::Global | Format::Scratch) => {
            let v = int_in(c, -4096, 4095, "expected a 13-bit signed offset")?;
            inst.set(Field::Offset, v as u32 & 0x1fff);
        }
        ("offset", Format::Mubuf | Format::Mtbuf) => {
            let v = int_in(c, 0, 4095, "expected a 12-bit unsigned offset")?;
            inst.set(Field::Offset, v as u32);
        }
        ("format", Format::Mtbuf) => inst.set(Field::Fmt, parse_format(c)?),
        _ => return err(col, NOT_VALID),
    }
    Ok(())
}

/// A `name:value` modifier of VOP3 or VOP3P: the output modifier, `op_sel` and its
/// companions, and the matrix instructions' `cbsz`, `abid`, `blgp` and `neg`.
fn alu_modifier(c: &mut Cursor, inst: &mut Instruction, name: &str, col: usize) -> PResult<()> {
    let d = inst.def();
    let mfma = d.flags.has(Flags::MFMA);
    match (name, d.format) {
        ("mul" | "div", Format::Vop3)
            if d.flags.has(Flags::VOP3_OMOD) && inst.get(Field::Omod) == 0 =>
        {
            inst.set(Field::Omod, omod(c, name, col)?);
        }
        ("op_sel", Format::Vop3) if d.flags.has(Flags::OP_SEL) => {
            let bits = bit_list(c, "op_sel")?;
            let sources = d.vector_sources();
            let byte_select = super::print::op_sel_byte_select(d.name);
            if bits.len() != if byte_select { 4 } else { sources + 1 } {
                return err(col, "invalid op_sel operand");
            }
            let mut v = 0;
            for (k, (b, _)) in bits.iter().enumerate() {
                let bit = if k == sources && !byte_select { 3 } else { k };
                v |= b << bit;
            }
            inst.set(Field::OpSel, v);
        }
        ("op_sel" | "op_sel_hi" | "neg_lo" | "neg_hi", Format::Vop3p) if !mfma => {
            let n = d.vector_sources();
            let bits = bit_list(c, name)?;
            if bits.len() != n {
                return err(col, format!("invalid {name} operand"));
            }
            let v = bits
                .iter()
                .enumerate()
                .fold(0, |acc, (k, (b, _))| acc | b << k);
            let f = match name {
                "op_sel" => Field::OpSel,
                "op_sel_hi" => Field::OpSelHi,
                "neg_lo" => Field::NegLo,
                _ => Field::NegHi,
            };
            if d.flags.has(Flags::MIX) && name.starts_with("neg") {
                return err(col, NOT_VALID);
            }
            // The dot products read their sources whole: no op_sel, no op_sel_hi.
            if d.name.starts_with("v_dot") && name.starts_with("op_sel") {
                return err(col, "invalid op_sel operand");
            }
            let keep = if f == Field::OpSelHi {
                inst.get(f) & !((1 << n) - 1)
            } else {
                0
            };
            inst.set(f, keep | v);
        }
        ("cbsz", Format::Vop3p) if mfma => {
            let v = int_in(c, 0, 7, "invalid cbsz value.")?;
            inst.set(Field::NegHi, v as u32);
        }
        ("abid", Format::Vop3p) if mfma => {
            let v = int_in(c, 0, 15, "invalid abid value.")? as u32;
            inst.set(Field::OpSel, v & 7);
            inst.set(Field::OpSelHi, inst.get(Field::OpSelHi) & 3 | (v >> 3) << 2);
        }
        ("blgp", Format::Vop3p) if mfma && !d.name.starts_with("v_mfma_f64") => {
            let v = int_in(c, 0, 7, "invalid blgp value.")?;
            inst.set(Field::NegLo, v as u32);
        }
        ("neg", Format::Vop3p) if d.name.starts_with("v_mfma_f64") => {
            let bits = bit_list(c, "neg")?;
            if bits.len() != 3 {
                return err(col, "invalid neg operand");
            }
            let v = bits
                .iter()
                .enumerate()
                .fold(0, |acc, (k, (b, _))| acc | b << k);
            inst.set(Field::NegLo, v);
        }
        _ => return err(col, NOT_VALID),
    }
    Ok(())
}

/// `mul:2`, `mul:4`, `div:2` (and the no-op `mul:1`, `div:1`) as the 2-bit output modifier.
fn omod(c: &mut Cursor, name: &str, col: usize) -> PResult<u32> {
    let v = c.expr(&no_symbols)?;
    Ok(match (name, v) {
        (_, 1) => 0,
        ("mul", 2) => 1,
        ("mul", 4) => 2,
        ("div", 2) => 3,
        _ => return err(col, format!("invalid {name} value.")),
    })
}

/// A DPP modifier: the control, `row_mask`, `bank_mask`, `bound_ctrl`. Returns whether
/// `name` was one.
fn dpp_modifier(
    c: &mut Cursor,
    inst: &mut Instruction,
    name: &str,
    has_value: bool,
    ctrl: &mut Option<u32>,
    col: usize,
) -> PResult<bool> {
    let value = |c: &mut Cursor, lo: i64, hi: i64| -> PResult<u32> {
        if !has_value {
            return err(col, INVALID_OPERAND);
        }
        int_in(c, lo, hi, &format!("invalid {name} value")).map(|v| v as u32)
    };
    let new_ctrl = match name {
        "quad_perm" => {
            if !has_value {
                return err(col, INVALID_OPERAND);
            }
            c.expect_punct('[', "expected a left square bracket")?;
            let mut v = 0;
            for k in 0..4 {
                if k > 0 {
                    c.expect_punct(',', "expected a comma")?;
                }
                v |= (int_in(c, 0, 3, "invalid quad_perm lane id")? as u32) << (2 * k);
            }
            c.expect_punct(']', "expected a closing square bracket")?;
            v
        }
        "row_shl" => 0x100 | value(c, 1, 15)?,
        "row_shr" => 0x110 | value(c, 1, 15)?,
        "row_ror" => 0x120 | value(c, 1, 15)?,
        "wave_shl" => value(c, 1, 1).map(|_| 0x130)?,
        "wave_rol" => value(c, 1, 1).map(|_| 0x134)?,
        "wave_shr" => value(c, 1, 1).map(|_| 0x138)?,
        "wave_ror" => value(c, 1, 1).map(|_| 0x13c)?,
        "row_mirror" if !has_value => 0x140,
        "row_half_mirror" if !has_value => 0x141,
        "row_bcast" => match value(c, 15, 31)? {
            15 => 0x142,
            31 => 0x143,
            _ => return err(col, "invalid row_bcast value"),
        },
        "row_newbcast" => 0x150 | value(c, 0, 15)?,
        "row_mask" => {
            inst.set(Field::RowMask, value(c, 0, 15)?);
            return Ok(true);
        }
        "bank_mask" => {
            inst.set(Field::BankMask, value(c, 0, 15)?);
            return Ok(true);
        }
        "bound_ctrl" => {
            value(c, 0, 1)?;
            inst.set(Field::BoundCtrl, 1);
            return Ok(true);
        }
        _ => return Ok(false),
    };
    if ctrl.replace(new_ctrl).is_some() {
        return err(col, INVALID_OPERAND);
    }
    // The 64-bit operations take row_newbcast only.
    let dp = inst
        .def()
        .operands
        .iter()
        .any(|o| matches!(o.kind, Kind::VSrc(2, _) | Kind::V(2)));
    if dp && !(0x150..=0x15f).contains(&new_ctrl) {
        return err(col, INVALID_OPERAND);
    }
    Ok(true)
}

const SDWA_SELS: [&str; 7] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
];

/// An SDWA modifier: the selects, `dst_unused`, `clamp` and the output modifier. Returns
/// whether `name` was one.
fn sdwa_modifier(
    c: &mut Cursor,
    inst: &mut Instruction,
    st: &mut State,
    name: &str,
    has_value: bool,
    col: usize,
) -> PResult<bool> {
    let d = inst.def();
    if d.name == "v_nop" {
        return Ok(false);
    }
    let vopc = d.format == Format::Vopc;
    let whole = super::print::sdwa_wide_dst(inst);
    let word = |c: &mut Cursor, list: &[&str]| -> PResult<u32> {
        if !has_value {
            return err(col, INVALID_OPERAND);
        }
        let vcol = c.col();
        let Some(w) = c.peek_ident() else {
            return err(vcol, format!("invalid {name} value"));
        };
        let Some(i) = list.iter().position(|x| *x == w) else {
            return err(vcol, format!("invalid {name} value"));
        };
        c.bump();
        Ok(i as u32)
    };
    let (lo, width, v) = match name {
        "dst_sel" if !vopc && !whole => (8, 3, word(c, &SDWA_SELS)?),
        "dst_unused" if !vopc && !whole => (
            11,
            2,
            word(c, &["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"])?,
        ),
        "src0_sel" => (16, 3, word(c, &SDWA_SELS)?),
        "src1_sel" if d.format != Format::Vop1 => (24, 3, word(c, &SDWA_SELS)?),
        "clamp" if !vopc && !has_value && d.flags.has(Flags::SDWA_CLAMP) => (13, 1, 1),
        "mul" | "div" if !vopc && has_value && d.flags.has(Flags::SDWA_OMOD) => {
            (14, 2, omod(c, name, col)?)
        }
        _ => return Ok(false),
    };
    st.sdwa = st.sdwa & !(((1 << width) - 1) << lo) | v << lo;
    Ok(true)
}
