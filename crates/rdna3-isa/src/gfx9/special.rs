//! gfx942's symbolic immediates as llvm-mc-19 -mcpu=gfx942 reads them: GFX9's `s_waitcnt`
//! counters, `sendmsg(...)`, `gpr_idx(...)` and the MTBUF `format:[...]` (the inverses of
//! [`super::print`]'s `waitcnt_text`, `sendmsg_text`, `gpr_idx_text` and format names).

use super::print::{GS_OPS, MSG_NAMES, SYSMSG_OPS};
use crate::lex::{no_symbols, Cursor, PResult, ParseError};
use crate::parse::int_in;
use crate::special;

fn err<T>(col: usize, msg: impl Into<String>) -> PResult<T> {
    Err(ParseError::new(col, msg))
}

/// GFX9's `s_waitcnt`: `vmcnt(N) expcnt(N) lgkmcnt(N)` joined by spaces, `&` or `,`, or a
/// number. A counter left out is at its maximum.
pub(super) fn parse_waitcnt(c: &mut Cursor) -> PResult<u32> {
    if c.peek_ident().is_none() {
        let col = c.col();
        let v = c.expr(&no_symbols)?;
        if !(-32768..=65535).contains(&v) {
            return err(col, "invalid immediate: only 16-bit values are legal");
        }
        return Ok(v as u32 & 0xffff);
    }
    let mut v: u32 = 0xcf7f;
    while let Some(name) = c.peek_ident().map(str::to_string) {
        let col = c.col();
        let (max, sat) = match name.as_str() {
            "vmcnt" | "vmcnt_sat" => (63, name.ends_with("_sat")),
            "expcnt" | "expcnt_sat" => (7, name.ends_with("_sat")),
            "lgkmcnt" | "lgkmcnt_sat" => (15, name.ends_with("_sat")),
            _ => return err(col, "invalid counter name"),
        };
        c.bump();
        c.expect_punct('(', "expected a left parenthesis")?;
        let n = c.expr(&no_symbols)?;
        c.expect_punct(')', "expected a closing parenthesis")?;
        let n = if sat { n.clamp(0, max) } else { n };
        if !(0..=max).contains(&n) {
            return err(
                col,
                format!("too large value for {}", name.trim_end_matches("_sat")),
            );
        }
        let n = n as u32;
        v = match name.trim_end_matches("_sat") {
            "vmcnt" => v & !0xc00f | (n & 0xf) | (n >> 4) << 14,
            "expcnt" => v & !0x70 | n << 4,
            _ => v & !0xf00 | n << 8,
        };
        if !c.eat_punct('&') {
            c.eat_punct(',');
        }
    }
    Ok(v)
}

/// GFX9's `sendmsg(MSG[, OP[, STREAM]])` (message bits 3:0, operation 6:4, stream 9:8) or a
/// number.
pub(super) fn parse_sendmsg(c: &mut Cursor) -> PResult<u32> {
    if !c.eat_ident("sendmsg") {
        return special::absolute_simm16(c, "expected a sendmsg macro or an absolute expression");
    }
    c.expect_punct('(', "expected a left parenthesis")?;
    let col = c.col();
    let id = match c.peek_ident().map(str::to_string) {
        Some(name) => {
            let Some(&(id, _)) = MSG_NAMES.iter().find(|(_, n)| *n == name) else {
                return err(col, "expected a message name or an absolute expression");
            };
            c.bump();
            id
        }
        None => {
            let v = c.expr(&no_symbols)?;
            if !(0..=15).contains(&v) {
                return err(col, "invalid message id");
            }
            v as u32
        }
    };
    let (mut op, mut stream) = (0u32, 0u32);
    if c.eat_punct(',') {
        let ocol = c.col();
        op = match c.peek_ident().map(str::to_string) {
            Some(name) => {
                let gs = GS_OPS.iter().position(|n| *n == name).map(|i| i as u32);
                let sys = SYSMSG_OPS.iter().find(|(_, n)| *n == name).map(|(o, _)| *o);
                let Some(op) = gs.or(sys) else {
                    return err(ocol, "expected an operation name or an absolute expression");
                };
                c.bump();
                op
            }
            None => int_in(c, 0, 7, "invalid operation id")? as u32,
        };
        if c.eat_punct(',') {
            stream = int_in(c, 0, 3, "invalid message stream id")? as u32;
        }
    }
    c.expect_punct(')', "expected a closing parenthesis")?;
    Ok(id | op << 4 | stream << 8)
}

/// `gpr_idx(SRC0,SRC1,SRC2,DST)` (any of them, each once) or a number.
pub(super) fn parse_gpr_idx(c: &mut Cursor) -> PResult<u32> {
    if !c.eat_ident("gpr_idx") {
        let col = c.col();
        let v = c.expr(&no_symbols)?;
        if !(0..=15).contains(&v) {
            return err(col, "invalid immediate: only 4-bit values are legal");
        }
        return Ok(v as u32);
    }
    c.expect_punct('(', "expected a left parenthesis")?;
    let mut v = 0u32;
    while let Some(name) = c.peek_ident() {
        let col = c.col();
        let Some(bit) = ["SRC0", "SRC1", "SRC2", "DST"]
            .iter()
            .position(|n| *n == name)
        else {
            return err(col, "expected a VGPR index mode");
        };
        if v >> bit & 1 == 1 {
            return err(col, "duplicate VGPR index mode");
        }
        v |= 1 << bit;
        c.bump();
        if !c.eat_punct(',') {
            break;
        }
    }
    c.expect_punct(')', "expected a closing parenthesis")?;
    Ok(v)
}

/// GFX9's MTBUF format: `[BUF_DATA_FORMAT_x, BUF_NUM_FORMAT_y]` (either may be left out) or
/// a number 0..=127 (data format bits 3:0, number format 6:4).
pub(super) fn parse_format(c: &mut Cursor) -> PResult<u32> {
    let col = c.col();
    if !c.eat_punct('[') {
        let v = int_in(c, 0, 127, "out of range format")?;
        return Ok(v as u32);
    }
    let (mut dfmt, mut nfmt) = (None, None);
    loop {
        let pcol = c.col();
        let Some(part) = c.peek_ident().map(str::to_string) else {
            return err(pcol, "expected a format string");
        };
        // (gfx942 reads the reserved values by name too: BUF_DATA_FORMAT_RESERVED_15.)
        let named =
            |list: &[&str], name: &str| list.iter().position(|x| *x == name).map(|v| v as u32);
        if let Some(v) = part
            .strip_prefix("BUF_DATA_FORMAT_")
            .and_then(|n| named(&special::DATA_FORMATS, n))
        {
            if dfmt.replace(v).is_some() {
                return err(pcol, "duplicate data format");
            }
        } else if let Some(v) = part
            .strip_prefix("BUF_NUM_FORMAT_")
            .and_then(|n| named(&special::NUM_FORMATS, n))
        {
            if nfmt.replace(v).is_some() {
                return err(pcol, "duplicate numeric format");
            }
        } else {
            return err(pcol, "unsupported format");
        }
        c.bump();
        if c.eat_punct(']') {
            break;
        }
        if !c.eat_punct(',') {
            return err(col, "unsupported format");
        }
    }
    Ok(dfmt.unwrap_or(1) | nfmt.unwrap_or(0) << 4)
}
