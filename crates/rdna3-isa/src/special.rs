//! Symbolic operands: `s_waitcnt` counters, `s_waitcnt_depctr`, `s_delay_alu`, `sendmsg(...)`,
//! `hwreg(...)`, `s_version`, `ds_swizzle_b32` patterns, MTBUF `format:`, and how plain
//! immediates and literals are written.
//!
//! Every printing rule here was measured on llvm-mc-19 (`-mcpu=gfx1100 --disassemble`) over all
//! 65536 values of each 16-bit operand; the names are those llvm-mc-19 prints for gfx11.

use crate::def::Imm;
use crate::lex::{no_symbols, Cursor, PResult, ParseError, Tok};
use crate::regs::FLOAT_CONSTANTS;

// ---------------------------------------------------------------------------------------------
// Plain immediates and literals

/// Text of a 16-bit immediate in `style`; `None` when the operand is left out
/// (`s_endpgm` with 0).
pub fn imm_text(style: Imm, v: u32) -> Option<String> {
    Some(match style {
        Imm::Dec => {
            if v <= 64 {
                v.to_string()
            } else {
                format!("0x{v:x}")
            }
        }
        Imm::DecOptional => {
            if v == 0 {
                return None;
            }
            v.to_string()
        }
        Imm::Hex => format!("0x{v:x}"),
        Imm::Label => v.to_string(),
        Imm::Hwreg => hwreg_text(v),
        Imm::Sendmsg => sendmsg_text(v),
        Imm::Waitcnt => waitcnt_text(v),
        Imm::Depctr => depctr_text(v),
        Imm::DelayAlu => delay_alu_text(v),
        Imm::Version => version_text(v),
        Imm::GprIdx => crate::gfx9::print::gpr_idx_text(v),
    })
}

/// Text of a literal dword used by an operand of `dwords` dwords: values that equal an inline
/// constant print as that constant (integers -16..=64, the f32 float constants), others as
/// `0x..` of the 32 bits.
///
/// In 64-bit operands llvm-mc-19 prints literals 0..=64 in decimal and every other value as
/// zero-extended hexadecimal (no negative integers, no floats).
pub fn literal_text(lit: u32, dwords: u8) -> String {
    if dwords > 1 {
        return if lit <= 64 {
            lit.to_string()
        } else {
            format!("0x{lit:x}")
        };
    }
    let i = lit as i32;
    if (-16..=64).contains(&i) {
        return i.to_string();
    }
    if let Some((name, _, _)) = FLOAT_CONSTANTS.iter().find(|(_, b, _)| *b == lit) {
        return (*name).to_string();
    }
    format!("0x{lit:x}")
}

/// Text of an SMEM immediate offset (21-bit signed field).
pub fn smem_offset_text(raw: u32) -> String {
    let v = ((raw << 11) as i32) >> 11;
    if v < 0 {
        format!("-0x{:x}", -(v as i64))
    } else {
        format!("0x{v:x}")
    }
}

// ---------------------------------------------------------------------------------------------
// s_waitcnt: expcnt [2:0], lgkmcnt [9:4], vmcnt [15:10] (bit 3 unused).

const WAITCNT_FIELDS: [(&str, u32, u32); 3] =
    [("vmcnt", 10, 63), ("expcnt", 0, 7), ("lgkmcnt", 4, 63)];

/// Text of an `s_waitcnt` immediate: counters not at their maximum, or all three when every
/// one is at its maximum.
pub fn waitcnt_text(v: u32) -> String {
    let vals: Vec<(&str, u32, u32)> = WAITCNT_FIELDS
        .iter()
        .map(|&(n, lo, max)| (n, (v >> lo) & max, max))
        .collect();
    counters_text(&vals)
}

/// `name(value)` of the counters (name, value, maximum) not at their maximum, or of all of
/// them when every one is: how llvm-mc-19 writes `s_waitcnt` on gfx1100 and gfx942 alike.
pub(crate) fn counters_text(vals: &[(&str, u32, u32)]) -> String {
    let all_max = vals.iter().all(|(_, x, m)| x == m);
    vals.iter()
        .filter(|(_, x, m)| all_max || x != m)
        .map(|(n, x, _)| format!("{n}({x})"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A counter's low bit, maximum, and whether it saturates (`*_sat`).
type CounterInfo = Option<(u32, u32, bool)>;

fn parse_counter_list(
    c: &mut Cursor,
    base: u32,
    lookup: &dyn Fn(&str) -> CounterInfo,
    dup_check: bool,
) -> PResult<u32> {
    let mut v = base;
    let mut seen = Vec::new();
    loop {
        let col = c.col();
        let Some(name) = c.peek_ident().map(str::to_string) else {
            return Err(ParseError::new(col, "expected a counter name"));
        };
        let Some((lo, max, sat)) = lookup(&name) else {
            return Err(ParseError::new(col, format!("invalid counter name {name}")));
        };
        if dup_check && seen.contains(&name) {
            return Err(ParseError::new(
                col,
                format!("duplicate counter name {name}"),
            ));
        }
        seen.push(name.clone());
        c.bump();
        c.expect_punct('(', "expected a left parenthesis")?;
        let vcol = c.col();
        let mut x = c.expr(&no_symbols)?;
        c.expect_punct(')', "expected a closing parenthesis")?;
        if sat {
            if x < 0 || x > max as i64 {
                x = max as i64;
            }
        } else if x < 0 || x > max as i64 {
            let msg = if dup_check {
                format!("invalid value for {name}")
            } else {
                format!("too large value for {}", name.trim_end_matches("_sat"))
            };
            return Err(ParseError::new(vcol, msg));
        }
        v = (v & !(max << lo)) | ((x as u32) << lo);
        if c.at_end() {
            return Ok(v);
        }
        if c.eat_punct('&') || c.eat_punct(',') {
            if c.peek_ident().is_none() {
                return Err(ParseError::new(c.col(), "expected a counter name"));
            }
        } else if c.peek_ident().is_none() {
            return Err(ParseError::new(c.col(), "expected a counter name"));
        }
    }
}

fn parse_waitcnt(c: &mut Cursor) -> PResult<u32> {
    if matches!(c.peek(), Some(Tok::Ident(_))) && c.peek2() == Some(&Tok::Punct('(')) {
        parse_counter_list(
            c,
            0xfff7,
            &|n| {
                let (base, sat) = match n.strip_suffix("_sat") {
                    Some(b) => (b, true),
                    None => (n, false),
                };
                let (_, lo, max) = WAITCNT_FIELDS.iter().find(|(f, _, _)| *f == base)?;
                Some((*lo, *max, sat))
            },
            false,
        )
    } else {
        Ok(c.expr(&no_symbols)? as u32 & 0xffff)
    }
}

// ---------------------------------------------------------------------------------------------
// s_waitcnt_depctr

/// depctr fields in printing order: name, low bit, maximum.
const DEPCTR_FIELDS: [(&str, u32, u32); 7] = [
    ("depctr_hold_cnt", 7, 1),
    ("depctr_sa_sdst", 0, 1),
    ("depctr_va_vdst", 12, 15),
    ("depctr_va_sdst", 9, 7),
    ("depctr_va_ssrc", 8, 1),
    ("depctr_va_vcc", 1, 1),
    ("depctr_vm_vsrc", 2, 7),
];

/// Text of an `s_waitcnt_depctr` immediate: raw hex when the unused bits 6:5 are set, else the
/// fields not at their maximum (all of them when every one is at its maximum).
pub fn depctr_text(v: u32) -> String {
    if v & 0x60 != 0 {
        return format!("0x{v:x}");
    }
    let any_non_default = DEPCTR_FIELDS
        .iter()
        .any(|&(_, lo, max)| (v >> lo) & max != max);
    DEPCTR_FIELDS
        .iter()
        .filter(|&&(_, lo, max)| !any_non_default || (v >> lo) & max != max)
        .map(|&(n, lo, max)| format!("{n}({})", (v >> lo) & max))
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse_depctr(c: &mut Cursor) -> PResult<u32> {
    if matches!(c.peek(), Some(Tok::Ident(_))) && c.peek2() == Some(&Tok::Punct('(')) {
        parse_counter_list(
            c,
            0xff9f,
            &|n| {
                let (_, lo, max) = DEPCTR_FIELDS.iter().find(|(f, _, _)| *f == n)?;
                Some((*lo, *max, false))
            },
            true,
        )
    } else {
        let col = c.col();
        let v = c.expr(&no_symbols)?;
        if !(-32768..=65535).contains(&v) {
            return Err(ParseError::new(col, "invalid operand for instruction"));
        }
        Ok(v as u32 & 0xffff)
    }
}

// ---------------------------------------------------------------------------------------------
// s_delay_alu: instid0 [3:0], instskip [6:4], instid1 [10:7]

const INSTID: [&str; 12] = [
    "NO_DEP",
    "VALU_DEP_1",
    "VALU_DEP_2",
    "VALU_DEP_3",
    "VALU_DEP_4",
    "TRANS32_DEP_1",
    "TRANS32_DEP_2",
    "TRANS32_DEP_3",
    "FMA_ACCUM_CYCLE_1",
    "SALU_CYCLE_1",
    "SALU_CYCLE_2",
    "SALU_CYCLE_3",
];
const INSTSKIP: [&str; 6] = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"];

/// Text of an `s_delay_alu` immediate.
pub fn delay_alu_text(v: u32) -> String {
    let id0 = v & 0xf;
    let skip = (v >> 4) & 7;
    let id1 = (v >> 7) & 0xf;
    let id = |x: u32| {
        INSTID
            .get(x as usize)
            .copied()
            .unwrap_or("/* invalid instid value */")
    };
    let mut parts = Vec::new();
    if id0 != 0 {
        parts.push(format!("instid0({})", id(id0)));
    }
    if skip != 0 {
        let s = INSTSKIP
            .get(skip as usize)
            .copied()
            .unwrap_or("/* invalid instskip value */");
        parts.push(format!("instskip({s})"));
    }
    if id1 != 0 {
        parts.push(format!("instid1({})", id(id1)));
    }
    if parts.is_empty() {
        "0".into()
    } else {
        parts.join(" | ")
    }
}

fn parse_delay_alu(c: &mut Cursor) -> PResult<u32> {
    if !(matches!(c.peek(), Some(Tok::Ident(_))) && c.peek2() == Some(&Tok::Punct('('))) {
        return Ok(c.expr(&no_symbols)? as u32 & 0xffff);
    }
    let mut v = 0u32;
    loop {
        let col = c.col();
        let Some(field) = c.peek_ident().map(str::to_string) else {
            return Err(ParseError::new(col, "expected a field name"));
        };
        let (lo, names): (u32, &[&str]) = match field.as_str() {
            "instid0" => (0, &INSTID),
            "instskip" => (4, &INSTSKIP),
            "instid1" => (7, &INSTID),
            _ => return Err(ParseError::new(col, format!("invalid field name {field}"))),
        };
        c.bump();
        c.expect_punct('(', "expected a left parenthesis")?;
        let vcol = c.col();
        let Some(name) = c.peek_ident().map(str::to_string) else {
            return Err(ParseError::new(vcol, "expected a value name"));
        };
        let Some(x) = names.iter().position(|n| *n == name) else {
            return Err(ParseError::new(vcol, format!("invalid value name {name}")));
        };
        c.bump();
        c.expect_punct(')', "expected a right parenthesis")?;
        v |= (x as u32) << lo;
        if c.at_end() {
            return Ok(v);
        }
        if !c.eat_punct('|') {
            return Err(ParseError::new(c.col(), "invalid operand for instruction"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// sendmsg

const MSG_NAMES: [(u32, &str); 13] = [
    (1, "MSG_INTERRUPT"),
    (2, "MSG_HS_TESSFACTOR"),
    (3, "MSG_DEALLOC_VGPRS"),
    (5, "MSG_STALL_WAVE_GEN"),
    (6, "MSG_HALT_WAVES"),
    (9, "MSG_GS_ALLOC_REQ"),
    (128, "MSG_RTN_GET_DOORBELL"),
    (129, "MSG_RTN_GET_DDID"),
    (130, "MSG_RTN_GET_TMA"),
    (131, "MSG_RTN_GET_REALTIME"),
    (132, "MSG_RTN_SAVE_WAVE"),
    (133, "MSG_RTN_GET_TBA"),
    (134, "MSG_RTN_GET_TBA_TO_PC"),
];

/// Text of an `s_sendmsg` immediate: the message named by the low 8 bits, else
/// `sendmsg(N, 0, 0)` below 256, else the raw decimal value.
pub fn sendmsg_text(v: u32) -> String {
    let m = v & 0xff;
    if let Some((_, n)) = MSG_NAMES.iter().find(|(id, _)| *id == m) {
        format!("sendmsg({n})")
    } else if v < 256 {
        format!("sendmsg({m}, 0, 0)")
    } else {
        v.to_string()
    }
}

/// Text of `s_sendmsg_rtn_*`'s 8-bit message operand.
pub fn sendmsg_rtn_text(v: u32) -> String {
    sendmsg_text(v & 0xff)
}

const SYSMSG_OPS: [(&str, i64); 3] = [
    ("SYSMSG_OP_ECC_ERR_INTERRUPT", 1),
    ("SYSMSG_OP_REG_RD", 2),
    ("SYSMSG_OP_TTRACE_PC", 4),
];
const GS_OPS: [(&str, i64); 4] = [
    ("GS_OP_NOP", 0),
    ("GS_OP_CUT", 1),
    ("GS_OP_EMIT", 2),
    ("GS_OP_EMIT_CUT", 3),
];

/// Parses `sendmsg(ID[, OP[, STREAM]])` or an integer 0..=65535.
pub fn parse_sendmsg(c: &mut Cursor) -> PResult<u32> {
    if !c.eat_ident("sendmsg") {
        return absolute_simm16(c, "expected a sendmsg macro or an absolute expression");
    }
    c.expect_punct('(', "expected a left parenthesis")?;
    let col = c.col();
    let (id, symbolic) = if let Some(name) = c.peek_ident().map(str::to_string) {
        let id = if name == "MSG_SYSMSG" {
            15
        } else if let Some((id, _)) = MSG_NAMES.iter().find(|(_, n)| *n == name) {
            *id as i64
        } else if name.starts_with("MSG_") {
            return Err(ParseError::new(
                col,
                "specified message id is not supported on this GPU",
            ));
        } else {
            return Err(ParseError::new(
                col,
                "expected a message name or an absolute expression",
            ));
        };
        c.bump();
        (id, true)
    } else {
        let v = c.expr(&no_symbols)?;
        if !(0..=255).contains(&v) {
            return Err(ParseError::new(col, "invalid message id"));
        }
        (v, false)
    };
    let mut op = 0i64;
    let mut stream = 0i64;
    let mut has_op = false;
    if c.eat_punct(',') {
        let ocol = c.col();
        if symbolic && id != 15 {
            return Err(ParseError::new(ocol, "message does not support operations"));
        }
        let table: &[(&str, i64)] = if id == 15 { &SYSMSG_OPS } else { &GS_OPS };
        op = if let Some(name) = c.peek_ident().map(str::to_string) {
            let Some((_, v)) = table.iter().find(|(n, _)| *n == name) else {
                return Err(ParseError::new(
                    ocol,
                    "expected an operation name or an absolute expression",
                ));
            };
            c.bump();
            *v
        } else {
            c.expr(&no_symbols)?
        };
        let valid = if symbolic {
            SYSMSG_OPS.iter().any(|(_, v)| *v == op)
        } else {
            (0..=7).contains(&op)
        };
        if !valid {
            return Err(ParseError::new(ocol, "invalid operation id"));
        }
        has_op = true;
        if c.eat_punct(',') {
            let scol = c.col();
            if symbolic {
                return Err(ParseError::new(
                    scol,
                    "message operation does not support streams",
                ));
            }
            stream = c.expr(&no_symbols)?;
            if !(0..=3).contains(&stream) {
                return Err(ParseError::new(scol, "invalid message stream id"));
            }
        }
    }
    if symbolic && id == 15 && !has_op {
        return Err(ParseError::new(c.col(), "missing message operation"));
    }
    c.expect_punct(')', "expected a closing parenthesis")?;
    Ok((id | op << 4 | stream << 8) as u32)
}

// ---------------------------------------------------------------------------------------------
// hwreg: id [5:0], offset [10:6], width-1 [15:11]

const HWREG_NAMES: [(u32, &str); 15] = [
    (1, "HW_REG_MODE"),
    (2, "HW_REG_STATUS"),
    (3, "HW_REG_TRAPSTS"),
    (5, "HW_REG_GPR_ALLOC"),
    (6, "HW_REG_LDS_ALLOC"),
    (7, "HW_REG_IB_STS"),
    (15, "HW_REG_SH_MEM_BASES"),
    (18, "HW_REG_PERF_SNAPSHOT_PC_LO"),
    (19, "HW_REG_PERF_SNAPSHOT_PC_HI"),
    (20, "HW_REG_FLAT_SCR_LO"),
    (21, "HW_REG_FLAT_SCR_HI"),
    (23, "HW_REG_HW_ID1"),
    (24, "HW_REG_HW_ID2"),
    (27, "HW_REG_PERF_SNAPSHOT_DATA"),
    (29, "HW_REG_SHADER_CYCLES"),
];

/// Text of a `hwreg(...)` immediate.
pub fn hwreg_text(v: u32) -> String {
    hwreg_text_with(v, &HWREG_NAMES)
}

/// `hwreg(ID[, OFFSET, WIDTH])` with the ids of `names` by name (gfx942 has its own list).
pub(crate) fn hwreg_text_with(v: u32, names: &[(u32, &str)]) -> String {
    let id = v & 0x3f;
    let offset = (v >> 6) & 0x1f;
    let width = ((v >> 11) & 0x1f) + 1;
    let name = names
        .iter()
        .find(|(i, _)| *i == id)
        .map_or_else(|| id.to_string(), |(_, n)| (*n).to_string());
    if offset == 0 && width == 32 {
        format!("hwreg({name})")
    } else {
        format!("hwreg({name}, {offset}, {width})")
    }
}

fn hwreg_checks(id: i64, off: i64, width: i64, cols: [usize; 3]) -> PResult<u32> {
    if !(0..=63).contains(&id) {
        return Err(ParseError::new(
            cols[0],
            "invalid hardware register: only 6-bit values are legal",
        ));
    }
    if !(0..=31).contains(&off) {
        return Err(ParseError::new(
            cols[1],
            "invalid bit offset: only 5-bit values are legal",
        ));
    }
    if !(1..=32).contains(&width) {
        return Err(ParseError::new(
            cols[2],
            "invalid bitfield width: only values from 1 to 32 are legal",
        ));
    }
    Ok((id | off << 6 | (width - 1) << 11) as u32)
}

/// Parses `hwreg(ID[, OFFSET, WIDTH])`, `{id: .., offset: .., size: ..}` or an integer.
pub fn parse_hwreg(c: &mut Cursor) -> PResult<u32> {
    parse_hwreg_with(c, &HWREG_NAMES)
}

/// [`parse_hwreg`] with the register names of `names` (gfx942 has its own list).
pub(crate) fn parse_hwreg_with(c: &mut Cursor, names: &[(u32, &str)]) -> PResult<u32> {
    if c.eat_ident("hwreg") {
        c.expect_punct('(', "expected a left parenthesis")?;
        let col = c.col();
        let id = if let Some(name) = c.peek_ident().map(str::to_string) {
            let Some((id, _)) = names.iter().find(|(_, n)| *n == name) else {
                return Err(ParseError::new(
                    col,
                    if name.starts_with("HW_REG_") {
                        "invalid hardware register: not supported on this GPU"
                    } else {
                        "expected a register name or an absolute expression"
                    },
                ));
            };
            c.bump();
            *id as i64
        } else {
            c.expr(&no_symbols)?
        };
        let (mut off, mut width) = (0, 32);
        let (mut ocol, mut wcol) = (col, col);
        if c.eat_punct(',') {
            ocol = c.col();
            off = c.expr(&no_symbols)?;
            c.expect_punct(',', "expected a comma")?;
            wcol = c.col();
            width = c.expr(&no_symbols)?;
        }
        c.expect_punct(')', "expected a closing parenthesis")?;
        return hwreg_checks(id, off, width, [col, ocol, wcol]);
    }
    if c.eat_punct('{') {
        let (mut id, mut off, mut size) = (0, 0, 32);
        let mut cols = [c.col(); 3];
        let mut seen: Vec<String> = Vec::new();
        while !c.eat_punct('}') {
            let col = c.col();
            let Some(name) = c.peek_ident().map(str::to_string) else {
                return Err(ParseError::new(col, "field name expected"));
            };
            if seen.contains(&name) {
                return Err(ParseError::new(col, "duplicate field"));
            }
            c.bump();
            c.expect_punct(':', "colon expected")?;
            let vcol = c.col();
            let v = c.expr(&no_symbols)?;
            match name.as_str() {
                "id" => (id, cols[0]) = (v, vcol),
                "offset" => (off, cols[1]) = (v, vcol),
                "size" => (size, cols[2]) = (v, vcol),
                _ => return Err(ParseError::new(col, "unknown field")),
            }
            seen.push(name);
            if !c.eat_punct(',') && !c.is_punct('}') {
                return Err(ParseError::new(c.col(), "comma or closing brace expected"));
            }
        }
        return hwreg_checks(id, off, size, cols);
    }
    absolute_simm16(
        c,
        "expected a hwreg macro, structured immediate or an absolute expression",
    )
}

/// The plain form of a 16-bit operand that also has a macro form (`sendmsg(...)`,
/// `hwreg(...)`): an absolute expression in 0..=65535. A name followed by `(` is a macro this
/// operand does not take, reported as `macro_error`.
pub(crate) fn absolute_simm16(c: &mut Cursor, macro_error: &str) -> PResult<u32> {
    let col = c.col();
    if matches!(c.peek(), Some(Tok::Ident(_))) && c.peek2() == Some(&Tok::Punct('(')) {
        return Err(ParseError::new(col, macro_error));
    }
    let v = c.expr(&no_symbols)?;
    if !(0..=65535).contains(&v) {
        return Err(ParseError::new(
            col,
            "invalid immediate: only 16-bit values are legal",
        ));
    }
    Ok(v as u32)
}

// ---------------------------------------------------------------------------------------------
// s_version

const VERSION_NAMES: [(u32, &str); 4] = [
    (0, "UC_VERSION_GFX7"),
    (4, "UC_VERSION_GFX10"),
    (6, "UC_VERSION_GFX11"),
    (9, "UC_VERSION_GFX12"),
];
const VERSION_BITS: [(u32, &str); 3] = [
    (0x2000, "UC_VERSION_W64_BIT"),
    (0x4000, "UC_VERSION_W32_BIT"),
    (0x8000, "UC_VERSION_MDP_BIT"),
];

/// Text of an `s_version` immediate.
pub fn version_text(v: u32) -> String {
    if v & 0x1f00 != 0 {
        return format!("0x{v:x}");
    }
    let low = v & 0xff;
    let mut s = VERSION_NAMES
        .iter()
        .find(|(x, _)| *x == low)
        .map_or_else(|| low.to_string(), |(_, n)| (*n).to_string());
    let mut n = 0;
    for (bit, name) in VERSION_BITS {
        if v & bit != 0 {
            s = if n > 0 {
                format!("({s})|{name}")
            } else {
                format!("{s}|{name}")
            };
            n += 1;
        }
    }
    s
}

/// The value of an `s_version` symbol (`UC_VERSION_*`).
pub fn version_symbol(name: &str) -> Option<i64> {
    VERSION_NAMES
        .iter()
        .chain(VERSION_BITS.iter())
        .find(|(_, n)| *n == name)
        .map(|(v, _)| *v as i64)
}

// ---------------------------------------------------------------------------------------------
// Parsing a 16-bit immediate of any style (labels are handled by the caller).

/// Parses the immediate of `style` (not [`Imm::Label`]); returns the 16-bit field value.
pub fn parse_imm(style: Imm, c: &mut Cursor) -> PResult<u32> {
    let col = c.col();
    match style {
        Imm::Dec => Ok(c.expr(&no_symbols)? as u32 & 0xffff),
        Imm::Hex | Imm::Label => {
            let v = c.expr(&no_symbols)?;
            if !(-32768..=65535).contains(&v) {
                return Err(ParseError::new(col, "invalid operand for instruction"));
            }
            Ok(v as u32 & 0xffff)
        }
        Imm::DecOptional => {
            let v = c.expr(&no_symbols)?;
            if !(0..=65535).contains(&v) {
                return Err(ParseError::new(col, "expected a 16-bit value"));
            }
            Ok(v as u32)
        }
        Imm::Hwreg => parse_hwreg(c),
        Imm::Sendmsg => parse_sendmsg(c),
        Imm::Waitcnt => parse_waitcnt(c),
        Imm::Depctr => parse_depctr(c),
        Imm::DelayAlu => parse_delay_alu(c),
        // Only gfx942's table has it (crate::gfx9::parse reads it there).
        Imm::GprIdx => Err(ParseError::new(col, "gpr_idx operands are gfx942's")),
        Imm::Version => {
            let v = c.expr(&version_symbol)?;
            if !(-32768..=65535).contains(&v) {
                return Err(ParseError::new(col, "invalid operand for instruction"));
            }
            Ok(v as u32 & 0xffff)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// ds_swizzle_b32 offset

/// Text of a nonzero `ds_swizzle_b32` offset (after `offset:`).
pub fn swizzle_text(v: u32) -> String {
    if v & 0xff00 == 0x8000 {
        return format!(
            "swizzle(QUAD_PERM,{},{},{},{})",
            v & 3,
            (v >> 2) & 3,
            (v >> 4) & 3,
            (v >> 6) & 3
        );
    }
    if v & 0x8000 != 0 {
        return v.to_string();
    }
    let and = v & 31;
    let or = (v >> 5) & 31;
    let xor = (v >> 10) & 31;
    if and == 31 && or == 0 && xor.count_ones() == 1 {
        return format!("swizzle(SWAP,{xor})");
    }
    if and == 31 && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        return format!("swizzle(REVERSE,{})", xor + 1);
    }
    let g = 32 - and;
    if g > 1 && g.is_power_of_two() && or < g && xor == 0 {
        return format!("swizzle(BROADCAST,{g},{or})");
    }
    let p0 = or ^ xor;
    let p1 = ((31 & and) | or) ^ xor;
    let mask: String = (0..5)
        .rev()
        .map(|b| {
            let (b0, b1) = ((p0 >> b) & 1, (p1 >> b) & 1);
            match (b0 == b1, b0) {
                (true, 0) => '0',
                (true, _) => '1',
                (false, 0) => 'p',
                (false, _) => 'i',
            }
        })
        .collect();
    format!("swizzle(BITMASK_PERM,\"{mask}\")")
}

/// Parses a `ds_swizzle_b32` offset: `swizzle(MODE, ...)` or an integer 0..=65535.
pub fn parse_swizzle(c: &mut Cursor) -> PResult<u32> {
    let col = c.col();
    if !c.eat_ident("swizzle") {
        if c.peek_ident().is_some() {
            return Err(ParseError::new(
                col,
                "expected a swizzle macro or an absolute expression",
            ));
        }
        let v = c.expr(&no_symbols)?;
        if !(0..=65535).contains(&v) {
            return Err(ParseError::new(col, "expected a 16-bit offset"));
        }
        return Ok(v as u32);
    }
    c.expect_punct('(', "expected a left parenthesis")?;
    let mcol = c.col();
    let mode = c.peek_ident().map(str::to_string).unwrap_or_default();
    let v = match mode.as_str() {
        "QUAD_PERM" => {
            c.bump();
            let mut v = 0x8000u32;
            for i in 0..4 {
                let (x, col) = swizzle_arg(c)?;
                if !(0..=3).contains(&x) {
                    return Err(ParseError::new(col, "expected a 2-bit lane id"));
                }
                v |= (x as u32) << (2 * i);
            }
            v
        }
        "SWAP" => {
            c.bump();
            let n = swizzle_group_size(c, 1, 16)?;
            0x1f | (n as u32) << 10
        }
        "REVERSE" => {
            c.bump();
            let n = swizzle_group_size(c, 2, 32)?;
            0x1f | ((n as u32) - 1) << 10
        }
        "BROADCAST" => {
            c.bump();
            let g = swizzle_group_size(c, 2, 32)?;
            let (l, lcol) = swizzle_arg(c)?;
            if !(0..g).contains(&l) {
                return Err(ParseError::new(
                    lcol,
                    "lane id must be in the interval [0,group size - 1]",
                ));
            }
            (32 - g as u32) | (l as u32) << 5
        }
        "BITMASK_PERM" => {
            c.bump();
            c.expect_punct(',', "expected a comma")?;
            let scol = c.col();
            let Some(Tok::Str(s)) = c.peek().cloned() else {
                return Err(ParseError::new(scol, "expected a string"));
            };
            c.bump();
            if s.len() != 5 {
                return Err(ParseError::new(scol, "expected a 5-character mask"));
            }
            let (mut and, mut or, mut xor) = (0u32, 0u32, 0u32);
            for (i, ch) in s.chars().enumerate() {
                let bit = 1 << (4 - i);
                match ch {
                    '0' => {}
                    '1' => or |= bit,
                    'p' => and |= bit,
                    'i' => {
                        and |= bit;
                        xor |= bit;
                    }
                    _ => return Err(ParseError::new(scol, "invalid mask")),
                }
            }
            and | or << 5 | xor << 10
        }
        _ => return Err(ParseError::new(mcol, "expected a swizzle mode")),
    };
    c.expect_punct(')', "expected a closing parentheses")?;
    Ok(v)
}

/// `, expr`: the next argument of a swizzle macro, with its column.
fn swizzle_arg(c: &mut Cursor) -> PResult<(i64, usize)> {
    c.expect_punct(',', "expected a comma")?;
    let col = c.col();
    Ok((c.expr(&no_symbols)?, col))
}

/// `, expr`: a swizzle group size, which must be a power of two in `lo..=hi`.
fn swizzle_group_size(c: &mut Cursor, lo: i64, hi: i64) -> PResult<i64> {
    let (n, col) = swizzle_arg(c)?;
    if !(lo..=hi).contains(&n) {
        return Err(ParseError::new(
            col,
            format!("group size must be in the interval [{lo},{hi}]"),
        ));
    }
    if (n as u32).count_ones() != 1 {
        return Err(ParseError::new(col, "group size must be a power of two"));
    }
    Ok(n)
}

// ---------------------------------------------------------------------------------------------
// MTBUF format

/// The legacy buffer data formats (`BUF_DATA_FORMAT_*`) by their 4-bit value (`dfmt`), as
/// GFX9's MTBUF encodes them and as gfx11's assembler still reads them by name (value 15 is
/// reserved).
pub(crate) const DATA_FORMATS: [&str; 16] = [
    "INVALID",
    "8",
    "16",
    "8_8",
    "32",
    "16_16",
    "10_11_11",
    "11_11_10",
    "10_10_10_2",
    "2_10_10_10",
    "8_8_8_8",
    "32_32",
    "16_16_16_16",
    "32_32_32",
    "32_32_32_32",
    "RESERVED_15",
];

/// The legacy buffer number formats (`BUF_NUM_FORMAT_*`) by their 3-bit value (`nfmt`), as
/// [`DATA_FORMATS`] (value 6 is reserved).
pub(crate) const NUM_FORMATS: [&str; 8] = [
    "UNORM",
    "SNORM",
    "USCALED",
    "SSCALED",
    "UINT",
    "SINT",
    "RESERVED_6",
    "FLOAT",
];

/// gfx1100's unified buffer format ([`BUF_FORMATS`]) of a GFX9 MTBUF format or V# format
/// (data format in bits 3:0, number format in bits 6:4), matched by name (`32` and `FLOAT` are
/// `32_FLOAT`); `None` where gfx1100 has no such format (INVALID, the reserved values, a
/// number format the data format does not take).
pub fn unified_buf_format(gfx9: u32) -> Option<u32> {
    let (dfmt, nfmt) = (gfx9 & 0xf, gfx9 >> 4 & 7);
    let name = format!(
        "{}_{}",
        DATA_FORMATS[dfmt as usize], NUM_FORMATS[nfmt as usize]
    );
    BUF_FORMATS
        .iter()
        .position(|n| *n == name)
        .map(|v| v as u32)
}

/// Whether `name` is a format name an assembler reads (the reserved values have none).
fn named_format(name: &str) -> bool {
    !name.starts_with("RESERVED_")
}

/// The unified buffer formats of gfx11, by value 0..=63 (`BUF_FMT_` + name).
pub const BUF_FORMATS: [&str; 64] = [
    "INVALID",
    "8_UNORM",
    "8_SNORM",
    "8_USCALED",
    "8_SSCALED",
    "8_UINT",
    "8_SINT",
    "16_UNORM",
    "16_SNORM",
    "16_USCALED",
    "16_SSCALED",
    "16_UINT",
    "16_SINT",
    "16_FLOAT",
    "8_8_UNORM",
    "8_8_SNORM",
    "8_8_USCALED",
    "8_8_SSCALED",
    "8_8_UINT",
    "8_8_SINT",
    "32_UINT",
    "32_SINT",
    "32_FLOAT",
    "16_16_UNORM",
    "16_16_SNORM",
    "16_16_USCALED",
    "16_16_SSCALED",
    "16_16_UINT",
    "16_16_SINT",
    "16_16_FLOAT",
    "10_11_11_FLOAT",
    "11_11_10_FLOAT",
    "10_10_10_2_UNORM",
    "10_10_10_2_SNORM",
    "10_10_10_2_UINT",
    "10_10_10_2_SINT",
    "2_10_10_10_UNORM",
    "2_10_10_10_SNORM",
    "2_10_10_10_USCALED",
    "2_10_10_10_SSCALED",
    "2_10_10_10_UINT",
    "2_10_10_10_SINT",
    "8_8_8_8_UNORM",
    "8_8_8_8_SNORM",
    "8_8_8_8_USCALED",
    "8_8_8_8_SSCALED",
    "8_8_8_8_UINT",
    "8_8_8_8_SINT",
    "32_32_UINT",
    "32_32_SINT",
    "32_32_FLOAT",
    "16_16_16_16_UNORM",
    "16_16_16_16_SNORM",
    "16_16_16_16_USCALED",
    "16_16_16_16_SSCALED",
    "16_16_16_16_UINT",
    "16_16_16_16_SINT",
    "16_16_16_16_FLOAT",
    "32_32_32_UINT",
    "32_32_32_SINT",
    "32_32_32_FLOAT",
    "32_32_32_32_UINT",
    "32_32_32_32_SINT",
    "32_32_32_32_FLOAT",
];

/// The default MTBUF format (BUF_FMT_8_UNORM), left out when printing.
pub const DEFAULT_BUF_FORMAT: u32 = 1;

/// Text after `format:` for an MTBUF format value, or `None` for the default.
pub fn buf_format_text(v: u32) -> Option<String> {
    if v == DEFAULT_BUF_FORMAT {
        None
    } else if v < 64 {
        Some(format!("[BUF_FMT_{}]", BUF_FORMATS[v as usize]))
    } else {
        Some(v.to_string())
    }
}

/// Parses the text after `format:`: `[BUF_FMT_x]`, `[BUF_DATA_FORMAT_x, BUF_NUM_FORMAT_y]`,
/// or an integer 0..=127.
pub fn parse_buf_format(c: &mut Cursor) -> PResult<u32> {
    let col = c.col();
    if !c.eat_punct('[') {
        let v = c.expr(&no_symbols)?;
        if !(0..=127).contains(&v) {
            return Err(ParseError::new(col, "out of range format"));
        }
        return Ok(v as u32);
    }
    let ncol = c.col();
    let Some(first) = c.peek_ident().map(str::to_string) else {
        return Err(ParseError::new(ncol, "expected a format string"));
    };
    if let Some(name) = first.strip_prefix("BUF_FMT_") {
        let Some(v) = BUF_FORMATS.iter().position(|n| *n == name) else {
            return Err(ParseError::new(ncol, "unsupported format"));
        };
        c.bump();
        c.expect_punct(']', "expected a closing square bracket")?;
        return Ok(v as u32);
    }
    let (mut dfmt, mut nfmt): (Option<&str>, Option<&str>) = (None, None);
    loop {
        let pcol = c.col();
        let Some(part) = c.peek_ident().map(str::to_string) else {
            return Err(ParseError::new(pcol, "expected a format string"));
        };
        if let Some(d) = part.strip_prefix("BUF_DATA_FORMAT_") {
            let Some(d) = DATA_FORMATS.iter().find(|x| **x == d && named_format(x)) else {
                return Err(ParseError::new(pcol, "unsupported format"));
            };
            if dfmt.replace(d).is_some() {
                return Err(ParseError::new(pcol, "duplicate data format"));
            }
        } else if let Some(n) = part.strip_prefix("BUF_NUM_FORMAT_") {
            let Some(n) = NUM_FORMATS.iter().find(|x| **x == n && named_format(x)) else {
                return Err(ParseError::new(pcol, "unsupported format"));
            };
            if nfmt.replace(n).is_some() {
                return Err(ParseError::new(pcol, "duplicate numeric format"));
            }
        } else {
            return Err(ParseError::new(pcol, "unsupported format"));
        }
        c.bump();
        if c.eat_punct(']') {
            break;
        }
        if !c.eat_punct(',') {
            return Err(ParseError::new(c.col(), "unsupported format"));
        }
    }
    let d = dfmt.unwrap_or("8");
    if d == "INVALID" && matches!(nfmt, None | Some("UNORM")) {
        return Ok(0);
    }
    let name = format!("{d}_{}", nfmt.unwrap_or("UNORM"));
    BUF_FORMATS
        .iter()
        .position(|n| *n == name)
        .map(|v| v as u32)
        .ok_or_else(|| ParseError::new(ncol, "unsupported format"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gfx9_buffer_formats_map_to_gfx11_ones_by_name() {
        let unified = |name: &str| {
            BUF_FORMATS
                .iter()
                .position(|n| *n == name)
                .map(|v| v as u32)
        };
        // BUF_DATA_FORMAT_32 (4) with BUF_NUM_FORMAT_FLOAT (7), 16 (2) with FLOAT, 8_8_8_8 (10)
        // with UNORM (0).
        assert_eq!(unified_buf_format(4 | 7 << 4), unified("32_FLOAT"));
        assert_eq!(unified_buf_format(2 | 7 << 4), unified("16_FLOAT"));
        assert_eq!(unified_buf_format(10), unified("8_8_8_8_UNORM"));
        // INVALID and the reserved values have no gfx11 format.
        assert_eq!(unified_buf_format(0), None);
        assert_eq!(unified_buf_format(15 | 7 << 4), None);
        assert_eq!(unified_buf_format(4 | 6 << 4), None);
    }
}
