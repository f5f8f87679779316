//! Reading VOPD text, `X :: Y` (`v_dual_add_f32 v1, v2, v3 :: v_dual_mul_f32 v4, v5, v6`),
//! as llvm-mc-19 reads it (tools/VOPD_NOTES.md; tests/golden/vopd_asm.txt, from
//! tools/gen_vopd_asm_goldens.py, holds its encodings and errors).
//!
//! Each component is read as its VOP1/VOP2 counterpart would be (`v_dual_add_f32` as
//! `v_add_f32_e32`, `v_dual_cndmask_b32` with its implicit `vcc_lo`), so operands, inline
//! constants and literals follow the table's rules; then the pair is held to the VOPD rules,
//! in llvm-mc-19's order, each error at the Y component's operand: one literal value at most;
//! at most two scalar values (SGPRs, the literal, `vcc_lo` of a cndmask) on the constant bus;
//! destinations of different parity; sources in different VGPR banks — src0 and src1 by
//! register mod 4, src2 (an fmac's or dot2acc's accumulator, an fmamk's addend) by parity.

use crate::def::Wave;
use crate::fields::Field;
use crate::format::Format;
use crate::inst::Instruction;
use crate::lex::{comma_fields, PResult, ParseError};
use crate::lookup::{all, Opcode};
use crate::parse::{parse_instruction_wave, Parsed};
use crate::print::Hints;

/// One component as read: its table entry, its fields, and each operand's column.
struct Component {
    op: Opcode,
    vdst: u32,
    /// The 9-bit source code (256+ a VGPR).
    src0: u32,
    vsrc1: Option<u32>,
    /// A literal source's value (src0 = 255).
    src0_literal: Option<u32>,
    /// fmaak's and fmamk's K.
    k: Option<u32>,
    /// src0 is written as a float (`0.5`): in an fmaak or fmamk, llvm-mc-19 places a
    /// literal error there even when the value is inline.
    src0_float: bool,
    /// Columns (1-based, in the whole line) of vdst, src0, and the other operands in order.
    cols: Vec<usize>,
    name: &'static str,
}

fn error<T>(col: usize, msg: &str) -> PResult<T> {
    Err(ParseError {
        col,
        msg: msg.to_string(),
    })
}

/// The VOPD table entry called `name` (`v_dual_...`, any case); `y`: as the Y component
/// (opcodes 0x10 and up are Y only).
fn vopd_op(name: &str, y: bool) -> Option<Opcode> {
    let lower = name.to_ascii_lowercase();
    all()
        .find(|(_, d)| d.format == Format::Vopd && d.name == lower)
        .map(|(op, _)| op)
        .filter(|op| y || op.def().opcode < 0x10)
}

/// Reads one component at column `base` of the line.
fn component(text: &str, base: usize, y: bool, wave: Wave) -> PResult<Component> {
    let trimmed = text.trim_start();
    let base = base + (text.len() - trimmed.len());
    let end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
    let (mnemonic, rest) = trimmed.split_at(end);
    let Some(op) = vopd_op(mnemonic, y) else {
        return if y {
            error(base, "invalid VOPDY instruction")
        } else {
            error(base, "invalid instruction")
        };
    };
    let name = op.def().name;
    let ops = comma_fields(rest, base + end);
    let mut cols: Vec<usize> = ops.iter().map(|o| o.0).collect();
    // The VOP1/VOP2 counterpart: v_dual_X as v_X_e32 (fmaak/fmamk have no suffix).
    let base_name = name.trim_start_matches("v_dual_");
    let counterpart = match base_name {
        "fmaak_f32" | "fmamk_f32" => format!("v_{base_name}"),
        _ => format!("v_{base_name}_e32"),
    };
    let mut e32 = format!("{counterpart} {}", rest.trim());
    if base_name == "cndmask_b32" {
        if ops.len() > 3 {
            return error(ops[3].0, "invalid operand for instruction");
        }
        e32.push_str(", vcc_lo");
    }
    // Errors of the counterpart are placed at the operand they name.
    let shift = |e: ParseError| -> ParseError {
        let at = e.col.saturating_sub(counterpart.len() + 1);
        let col = ops
            .iter()
            .rev()
            .find(|o| o.0 - (base + end) <= at)
            .map_or(base, |o| o.0);
        ParseError { col, msg: e.msg }
    };
    let parsed = match parse_instruction_wave(&e32, wave) {
        Ok(p) => p,
        // fmaak/fmamk with a literal src0 other than K: the VOPD rule reports it (below).
        Err(e) if e.msg.starts_with("only one unique literal") && ops.len() == 4 => {
            return two_literals(op, base_name, &ops, wave);
        }
        Err(e) => return Err(shift(e)),
    };
    let inst = parsed.inst;
    let d = inst.def();
    if !matches!(d.format, Format::Vop1 | Format::Vop2) || inst.dpp != 0 {
        // A modifier or an operand only the VOP3 form takes.
        return error(ops.get(1).map_or(base, |o| o.0), "not a valid operand.");
    }
    if cols.len() < 2 {
        cols.resize(2, base);
    }
    Ok(Component {
        op,
        vdst: inst.get(Field::Vdst),
        src0: inst.get(Field::Src0),
        vsrc1: d.operand(Field::Vsrc1).map(|_| inst.get(Field::Vsrc1)),
        src0_literal: inst.literal.filter(|_| inst.get(Field::Src0) == 255),
        k: inst
            .literal
            .filter(|_| matches!(base_name, "fmaak_f32" | "fmamk_f32")),
        src0_float: ops.get(1).is_some_and(|o| o.1.contains('.')),
        cols,
        name: base_name,
    })
}

/// An fmaak/fmamk whose literal src0 differs from its K: each read apart (src0 as a mov's
/// source, K as the counterpart's with a VGPR src0), for the pair's literal rule to report.
fn two_literals(
    op: Opcode,
    name: &'static str,
    ops: &[(usize, &str)],
    wave: Wave,
) -> PResult<Component> {
    let text = |k: usize| ops[k].1;
    let k_at = if name == "fmaak_f32" { 3 } else { 2 };
    let src0 = parse_instruction_wave(&format!("v_mov_b32_e32 v0, {}", text(1)), wave)
        .map_err(|e| ParseError {
            col: ops[1].0,
            msg: e.msg,
        })?
        .inst;
    let with_k = if name == "fmaak_f32" {
        format!("v_fmaak_f32 {}, v0, {}, {}", text(0), text(2), text(3))
    } else {
        format!("v_fmamk_f32 {}, v0, {}, {}", text(0), text(2), text(3))
    };
    let rest = parse_instruction_wave(&with_k, wave)
        .map_err(|e| ParseError {
            col: ops[k_at].0,
            msg: e.msg,
        })?
        .inst;
    Ok(Component {
        op,
        vdst: rest.get(Field::Vdst),
        src0: src0.get(Field::Src0),
        vsrc1: Some(rest.get(Field::Vsrc1)),
        src0_literal: src0.literal,
        k: rest.literal,
        src0_float: text(1).contains('.'),
        cols: ops.iter().map(|o| o.0).collect(),
        name,
    })
}

impl Component {
    /// The column of operand `k` (0 vdst, 1 src0, then in written order).
    fn col(&self, k: usize) -> usize {
        self.cols.get(k).copied().unwrap_or(self.cols[0])
    }

    /// The VGPR in bank slot `slot` (0 dst, 1 src0, 2 src1, 3 src2) and its operand's
    /// index, where the component has one.
    fn bank_reg(&self, slot: usize) -> Option<(u32, usize)> {
        match slot {
            0 => Some((self.vdst, 0)),
            1 => (self.src0 >= 256).then(|| (self.src0 - 256, 1)),
            2 => match self.name {
                "mov_b32" | "fmamk_f32" => None,
                _ => self.vsrc1.map(|v| (v, 2)),
            },
            _ => match self.name {
                "fmac_f32" | "dot2acc_f32_f16" => Some((self.vdst, 0)),
                "fmamk_f32" => self.vsrc1.map(|v| (v, 3)),
                _ => None,
            },
        }
    }

    /// The scalar values it reads on the constant bus: SGPR codes (0-105 and the special
    /// registers below 128) and `vcc_lo` (106) for a cndmask.
    fn scalar_reads(&self) -> Vec<u32> {
        let mut out = Vec::new();
        if self.src0 < 128 {
            out.push(self.src0);
        }
        if self.name == "cndmask_b32" {
            out.push(106);
        }
        out
    }

    /// Its literal operands in written order: (value, column, whether it is K).
    fn literals(&self) -> Vec<(Option<u32>, usize, bool)> {
        // A float-written src0 of an fmaak/fmamk: a place for the error, not a value.
        let place = self.k.is_some() && self.src0_float;
        let src0 = match self.src0_literal {
            Some(v) => Some((Some(v), self.col(1), false)),
            None if place => Some((None, self.col(1), false)),
            None => None,
        };
        let k_col = if self.name == "fmaak_f32" { 3 } else { 2 };
        let k = self.k.map(|v| (Some(v), self.col(k_col), true));
        // K is written after src0 in fmaak, before the addend in fmamk: after src0 in both.
        src0.into_iter().chain(k).collect()
    }
}

/// Reads a VOPD line `X :: Y` (`sep`: the byte offset of `::` in `text`).
pub(crate) fn parse_vopd(text: &str, sep: usize, wave: Wave) -> PResult<Parsed> {
    let (xt, rest) = (&text[..sep], &text[sep + 2..]);
    if let Some(k) = rest.find("::") {
        return error(sep + 2 + k + 1, "invalid operand for instruction");
    }
    if wave == Wave::W64 {
        return error(1, "instruction requires wavesize=32");
    }
    let x = component(xt, 1, false, wave)?;
    if rest.trim().is_empty() {
        return error(
            text.trim_end().len() + 2,
            "expected a VOPDY instruction after ::",
        );
    }
    let y = component(rest, sep + 3, true, wave)?;
    // One literal value. The error names (as llvm-mc-19's `getLitLoc` does) the last source
    // written as a literal, or, with none, the last K.
    let literals: Vec<(Option<u32>, usize, bool)> =
        [&x, &y].iter().flat_map(|c| c.literals()).collect();
    let literal = literals.iter().find_map(|l| l.0);
    if literals.iter().any(|l| l.0.is_some() && l.0 != literal) {
        let at = literals
            .iter()
            .rev()
            .find(|l| !l.2)
            .or(literals.last())
            .map_or(1, |l| l.1);
        return error(at, "only one unique literal operand is allowed");
    }
    // The constant bus: at most two scalar values.
    let mut scalars = x.scalar_reads();
    for s in y.scalar_reads() {
        if !scalars.contains(&s) {
            scalars.push(s);
        }
    }
    if scalars.len() + usize::from(literal.is_some()) > 2 {
        return error(
            y.col(1),
            "invalid operand (violates constant bus restrictions)",
        );
    }
    for (slot, banks, what) in [
        (0, 2, "one dst register must be even and the other odd"),
        (1, 4, "src0 operands must use different VGPR banks"),
        (2, 4, "src1 operands must use different VGPR banks"),
        (3, 2, "src2 operands must use different VGPR banks"),
    ] {
        if let (Some((a, _)), Some((b, k))) = (x.bank_reg(slot), y.bank_reg(slot)) {
            if a % banks == b % banks {
                return error(y.col(k), what);
            }
        }
    }
    let mut inst = Instruction::new(x.op);
    inst.set(Field::Vdst, x.vdst);
    inst.set(Field::Src0, x.src0);
    inst.set(Field::Vsrc1, x.vsrc1.unwrap_or(0));
    inst.set(Field::OpY, u32::from(y.op.def().opcode));
    inst.set(Field::VdstY, y.vdst >> 1);
    inst.set(Field::Src0Y, y.src0);
    inst.set(Field::Vsrc1Y, y.vsrc1.unwrap_or(0));
    inst.literal = literal;
    Ok(Parsed {
        inst,
        hints: Hints {
            wave,
            ..Hints::default()
        },
        label: None,
    })
}
