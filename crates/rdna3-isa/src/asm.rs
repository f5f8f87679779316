//! Whole programs: assembling a text with labels, and disassembling llvm-mc style byte lists.

use std::collections::HashMap;

use crate::def::Wave;
use crate::fields::Field;
use crate::inst::{DecodeError, Instruction};
use crate::lex::ParseError;
use crate::parse::parse_instruction_wave;
use crate::print::{print, print_with, Hints};

/// One assembled statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmLine {
    /// 1-based line number in the source.
    pub line: usize,
    /// Byte address of the instruction from the start of the program.
    pub address: u32,
    /// The instruction.
    pub inst: Instruction,
    /// How it was written (for printing it back as llvm-mc does).
    pub hints: Hints,
    /// The instruction as the code holds it, when `inst` is what an executor runs in its
    /// place (another chip's instruction lowered to gfx1100's); `None` when they are one.
    pub original: Option<Instruction>,
}

impl AsmLine {
    /// The canonical text, as `llvm-mc-19 -show-encoding` prints it for this input (for a
    /// lowered instruction, its original's text).
    pub fn text(&self) -> String {
        print_with(self.original.as_ref().unwrap_or(&self.inst), self.hints)
    }
}

/// An error in a source line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// Message.
    pub msg: String,
}

/// The bytes a data or alignment directive put in the program ([`crate::directives`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataLine {
    /// 1-based line number in the source.
    pub line: usize,
    /// Byte address of its first byte.
    pub address: u32,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The lines llvm-mc-19 prints for it (`.long\t3212836864`), one per value.
    pub text: Vec<String>,
}

/// One statement of a program: an instruction or a directive's bytes.
enum Piece<'a> {
    Inst(&'a AsmLine),
    Data(&'a DataLine),
}

/// The result of assembling a text: every good statement, and every error.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Instructions in source order.
    pub lines: Vec<AsmLine>,
    /// Data and alignment directives in source order.
    pub data: Vec<DataLine>,
    /// Errors in source order.
    pub errors: Vec<AsmError>,
    /// Label addresses.
    pub labels: HashMap<String, u32>,
}

impl Program {
    /// The instructions and directives in address order (a directive before an instruction
    /// at the same address: it came first in the source).
    fn in_address_order(&self) -> impl Iterator<Item = Piece<'_>> {
        let mut data = self.data.iter().peekable();
        let mut lines = self.lines.iter().peekable();
        std::iter::from_fn(move || match (lines.peek(), data.peek()) {
            (Some(l), Some(d)) if d.address <= l.address => data.next().map(Piece::Data),
            (Some(_), _) => lines.next().map(Piece::Inst),
            (None, _) => data.next().map(Piece::Data),
        })
    }

    /// The program's bytes: every instruction's encoding and every directive's bytes, by
    /// address.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for p in self.in_address_order() {
            match p {
                Piece::Inst(l) => l.inst.encode_into(&mut out),
                Piece::Data(d) => out.extend_from_slice(&d.bytes),
            }
        }
        out
    }

    /// The instructions a wave runs: the assembled ones, and the words of data directives
    /// among them (`.long 0xbf800000` is an `s_nop 0`), decoded as the hardware decodes
    /// them, by address. Data that is no whole instruction is an error where an instruction
    /// follows it (a wave would run into it); after the last instruction it is left out.
    pub fn executable_lines(&self) -> Result<Vec<AsmLine>, AsmError> {
        self.executable_lines_with(Instruction::decode_hw)
    }

    /// [`Program::executable_lines`] with data words decoded by `decode` (another chip's
    /// decoder).
    pub fn executable_lines_with(
        &self,
        decode: impl Fn(&[u8]) -> Result<(Instruction, usize), DecodeError>,
    ) -> Result<Vec<AsmLine>, AsmError> {
        let last = self.lines.last().map(|l| l.address);
        let mut out: Vec<AsmLine> = Vec::with_capacity(self.lines.len());
        let push_data = |d: &DataLine, out: &mut Vec<AsmLine>| -> Result<(), AsmError> {
            let mut at = 0;
            let mut decoded = Vec::new();
            while d.address.is_multiple_of(4) && at < d.bytes.len() {
                let Ok((inst, size)) = decode(&d.bytes[at..]) else {
                    break;
                };
                decoded.push(AsmLine {
                    line: d.line,
                    address: d.address + at as u32,
                    inst,
                    hints: Hints::default(),
                    original: None,
                });
                at += size;
            }
            if at == d.bytes.len() {
                out.extend(decoded);
                Ok(())
            } else if last.is_some_and(|l| l > d.address) {
                Err(AsmError {
                    line: d.line,
                    col: 1,
                    msg: format!(
                        "the program runs through these {} bytes, which are no whole instruction",
                        d.bytes.len()
                    ),
                })
            } else {
                Ok(())
            }
        };
        for p in self.in_address_order() {
            match p {
                Piece::Inst(l) => out.push(l.clone()),
                Piece::Data(d) => push_data(d, &mut out)?,
            }
        }
        Ok(out)
    }
}

/// Index of the start of a comment (`//` or `;`) outside a string, if any.
fn comment_start(line: &str) -> Option<usize> {
    if !line.contains([';', '/']) {
        return None;
    }
    let b = line.as_bytes();
    let mut in_str = false;
    for i in 0..b.len() {
        match b[i] {
            b'"' => in_str = !in_str,
            b';' if !in_str => return Some(i),
            b'/' if !in_str && b.get(i + 1) == Some(&b'/') => return Some(i),
            _ => {}
        }
    }
    None
}

/// Splits off a leading `label:` definition; returns (label, column of the rest, rest).
fn split_label(code: &str) -> (Option<&str>, usize, &str) {
    let trimmed = code.trim_start();
    let lead = code.len() - trimmed.len();
    let ident_end = trimmed
        .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '.' || ch == '$'))
        .unwrap_or(trimmed.len());
    if ident_end > 0 && trimmed[ident_end..].starts_with(':') {
        let after = &trimmed[ident_end + 1..];
        return (Some(&trimmed[..ident_end]), lead + ident_end + 1, after);
    }
    (None, 0, code)
}

/// Assembles a program: one statement per line, `label:` definitions, `//` and `;` comments,
/// and the data and alignment directives of [`crate::directives`] (any other directive is an
/// error). Branches may name a
/// label; it resolves to `(target - (branch + 4)) / 4` dwords.
pub fn assemble(text: &str) -> Program {
    assemble_wave(text, Wave::W32)
}

/// [`assemble`] for `wave` (in wave64 lane masks are SGPR pairs: `vcc`, `s[2:3]`).
pub fn assemble_wave(text: &str, wave: Wave) -> Program {
    assemble_with(text, |line| parse_instruction_wave(line, wave))
}

/// [`assemble`] for the instruction set `isa`: gfx1100 in `wave`, or gfx942 (wave64 always;
/// [`crate::gfx9::parse`]).
pub fn assemble_in(isa: crate::schema::Isa, text: &str, wave: Wave) -> Program {
    match isa {
        crate::schema::Isa::Gfx11 => assemble_wave(text, wave),
        crate::schema::Isa::Gfx940 => assemble_with(text, crate::gfx9::parse::parse_instruction),
    }
}

/// Assembles `text`, reading each instruction statement with `parse`.
fn assemble_with(
    text: &str,
    parse: impl Fn(&str) -> Result<crate::parse::Parsed, ParseError>,
) -> Program {
    let mut prog = Program {
        lines: Vec::with_capacity(text.len() / 24),
        ..Program::default()
    };
    let mut pending: Vec<(usize, String, usize)> = Vec::new();
    let mut address = 0u32;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let code = match comment_start(raw) {
            Some(k) => &raw[..k],
            None => raw,
        };
        let (label, offset, rest) = split_label(code);
        if let Some(l) = label {
            // A label defined twice is an error, as llvm-mc-19 says ("symbol 'L0' is already
            // defined"); the first definition stands.
            if prog.labels.contains_key(l) {
                prog.errors.push(AsmError {
                    line: line_no,
                    col: code.len() - code.trim_start().len() + 1,
                    msg: format!("symbol '{l}' is already defined"),
                });
            } else {
                prog.labels.insert(l.to_string(), address);
            }
        }
        let body = rest.trim();
        if body.is_empty() {
            continue;
        }
        let lead = rest.len() - rest.trim_start().len();
        if body.starts_with('.') {
            match crate::directives::assemble_directive(body, offset + lead + 1, address) {
                Ok(d) => {
                    let Some(next) = u32::try_from(d.bytes.len())
                        .ok()
                        .and_then(|n| address.checked_add(n))
                    else {
                        prog.errors.push(AsmError {
                            line: line_no,
                            col: offset + lead + 1,
                            msg: "the program passes 4 GiB".into(),
                        });
                        continue;
                    };
                    if !d.bytes.is_empty() || !d.text.is_empty() {
                        prog.data.push(DataLine {
                            line: line_no,
                            address,
                            bytes: d.bytes,
                            text: d.text,
                        });
                    }
                    address = next;
                }
                Err(ParseError { col, msg }) => prog.errors.push(AsmError {
                    line: line_no,
                    col,
                    msg,
                }),
            }
            continue;
        }
        match parse(rest) {
            Ok(p) => {
                if let Some((name, col)) = p.label {
                    pending.push((prog.lines.len(), name, offset + col));
                }
                let size = p.inst.size() as u32;
                prog.lines.push(AsmLine {
                    line: line_no,
                    address,
                    inst: p.inst,
                    hints: p.hints,
                    original: None,
                });
                address += size;
            }
            Err(ParseError { col, msg }) => {
                let _ = lead;
                prog.errors.push(AsmError {
                    line: line_no,
                    col: offset + col,
                    msg,
                });
            }
        }
    }
    for (idx, name, col) in pending {
        let target = prog.labels.get(&name).copied();
        let line = &mut prog.lines[idx];
        match target {
            Some(t) => {
                let delta = (t as i64 - (line.address as i64 + 4)) / 4;
                if !(-32768..=32767).contains(&delta) {
                    prog.errors.push(AsmError {
                        line: line.line,
                        col,
                        msg: format!("branch to '{name}' is out of range"),
                    });
                }
                line.inst.set(Field::Simm16, delta as u32 & 0xffff);
            }
            None => prog.errors.push(AsmError {
                line: line.line,
                col,
                msg: format!("undefined label '{name}'"),
            }),
        }
    }
    prog.errors.sort_by_key(|e| (e.line, e.col));
    prog
}

/// One item of a disassembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DisasmItem {
    /// A decoded instruction at a byte offset.
    Inst {
        /// Byte offset within the input.
        offset: usize,
        /// The instruction.
        inst: Instruction,
    },
    /// Bytes at `offset` that decode to nothing (4 bytes are skipped, as llvm-mc does).
    Invalid {
        /// Byte offset within the input.
        offset: usize,
        /// Why.
        error: DecodeError,
    },
}

/// Disassembles `bytes`: each instruction in turn; on an invalid word, reports it and goes on
/// 4 bytes later.
pub fn disassemble(bytes: &[u8]) -> Vec<DisasmItem> {
    disassemble_wave(bytes, Wave::W32)
}

/// [`disassemble`] as llvm-mc-19 decodes for `wave` ([`Instruction::decode_wave`]).
pub fn disassemble_wave(bytes: &[u8], wave: Wave) -> Vec<DisasmItem> {
    disassemble_with(bytes, |b| Instruction::decode_wave(b, wave))
}

/// [`disassemble`] as llvm-mc-19 decodes for `isa` (gfx1100 in `wave`, or gfx942).
pub fn disassemble_in(isa: crate::schema::Isa, bytes: &[u8], wave: Wave) -> Vec<DisasmItem> {
    match isa {
        crate::schema::Isa::Gfx11 => disassemble_wave(bytes, wave),
        crate::schema::Isa::Gfx940 => disassemble_with(bytes, crate::gfx9::decode::decode),
    }
}

/// Decodes `bytes` with `decode`, skipping 4 bytes past a word it rejects, as llvm-mc-19 does.
fn disassemble_with(
    bytes: &[u8],
    decode: impl Fn(&[u8]) -> Result<(Instruction, usize), crate::inst::DecodeError>,
) -> Vec<DisasmItem> {
    let mut out = Vec::new();
    let mut off = 0;
    while off < bytes.len() {
        match decode(&bytes[off..]) {
            Ok((inst, size)) => {
                out.push(DisasmItem::Inst { offset: off, inst });
                off += size;
            }
            Err(error) => {
                out.push(DisasmItem::Invalid { offset: off, error });
                off += 4;
            }
        }
    }
    out
}

/// Parses one line of llvm-mc disassembler input: byte values (`0x1f`, `31`) separated by
/// commas and/or white space; `#`, `;` and `//` start comments. Returns the bytes or the
/// 1-based column of a bad token.
pub fn parse_byte_list(line: &str) -> Result<Vec<u8>, (usize, String)> {
    let code = line.find(['#', ';']).map_or(line, |k| &line[..k]);
    let code = code.find("//").map_or(code, |k| &code[..k]);
    let mut out = Vec::new();
    let mut i = 0;
    let b = code.as_bytes();
    while i < b.len() {
        if b[i].is_ascii_whitespace() || b[i] == b',' || b[i] == b'[' || b[i] == b']' {
            i += 1;
            continue;
        }
        let s = i;
        while i < b.len() && !(b[i].is_ascii_whitespace() || b[i] == b',' || b[i] == b']') {
            i += 1;
        }
        let tok = &code[s..i];
        let v = if let Some(h) = tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")) {
            u64::from_str_radix(h, 16).ok()
        } else {
            tok.parse::<u64>().ok()
        };
        match v {
            Some(v) if v <= 0xff => out.push(v as u8),
            _ => return Err((s + 1, format!("invalid input token '{tok}'"))),
        }
    }
    Ok(out)
}

/// Canonical text of every decoded instruction in `bytes` (invalid words give `None`).
pub fn disassemble_text(bytes: &[u8]) -> Vec<Option<String>> {
    disassemble(bytes)
        .into_iter()
        .map(|it| match it {
            DisasmItem::Inst { inst, .. } => Some(print(&inst)),
            DisasmItem::Invalid { .. } => None,
        })
        .collect()
}
