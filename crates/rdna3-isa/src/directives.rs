//! Assembler directives that put bytes in the program, read and printed as llvm-mc-19 reads
//! and prints them: `.byte`, `.short` (`.hword`, `.2byte`), `.long` (`.int`, `.4byte`),
//! `.quad` (`.8byte`), `.p2align N[, FILL[, MAX]]` (code is padded with `s_nop 0`, as
//! llvm-mc-19 pads a code section), and `.text`. Any other directive is an error naming it:
//! nothing is dropped silently.

use crate::lex::{comma_fields, ParseError};

/// What a directive line puts in the program: its bytes and the lines llvm-mc-19 prints for
/// it (one per value; none for `.text`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assembled {
    /// The bytes, placed at the directive's address.
    pub bytes: Vec<u8>,
    /// The printed lines, without indentation (`.long\t3212836864`).
    pub text: Vec<String>,
}

/// The most padding one `.p2align` may add (1 MiB): a program is small.
pub const MAX_PADDING: u64 = 1 << 20;

/// `s_nop 0`: what llvm-mc-19 pads code with.
const S_NOP: [u8; 4] = 0xbf80_0000u32.to_le_bytes();

fn error<T>(col: usize, msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        col,
        msg: msg.into(),
    })
}

/// Reads directive `body` (starting with `.`, at column `col` of its line) placed at byte
/// `address` of the program.
pub(crate) fn assemble_directive(
    body: &str,
    col: usize,
    address: u32,
) -> Result<Assembled, ParseError> {
    let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
    let (name, rest) = body.split_at(name_end);
    let lower = name.to_ascii_lowercase();
    let args_col = col + name_end;
    let width = match lower.as_str() {
        ".text" => {
            return if rest.trim().is_empty() {
                Ok(Assembled::default())
            } else {
                error(args_col + 1, "unexpected token in '.text' directive")
            }
        }
        ".p2align" => return p2align(rest, args_col, address),
        ".byte" => 1,
        ".short" | ".hword" | ".2byte" => 2,
        ".long" | ".int" | ".4byte" => 4,
        ".quad" | ".8byte" => 8,
        _ => {
            return error(
                col,
                format!("unknown directive (gpumemsim assembles .byte, .short, .long, .quad, .p2align and .text; not {name})"),
            )
        }
    };
    let printed = match width {
        1 => ".byte",
        2 => ".short",
        4 => ".long",
        _ => ".quad",
    };
    let mut out = Assembled::default();
    if rest.trim().is_empty() {
        return Ok(out);
    }
    for (at, text) in comma_fields(rest, args_col) {
        if text.is_empty() {
            return error(at, "unknown token in expression");
        }
        let v = value(text, at)?;
        let bits = 8 * width as u32;
        let fits = bits == 64 || (v >= -(1i128 << (bits - 1)) && v < 1i128 << bits);
        if !fits {
            return error(at, "out of range literal value");
        }
        out.bytes
            .extend_from_slice(&(v as u64).to_le_bytes()[..width as usize]);
        out.text.push(format!("{printed}\t{v}"));
    }
    Ok(out)
}

/// An integer expression: literals (decimal, `0x` hex, `0b` binary, `0` octal) joined by `+`
/// and `-`, each with an optional leading `-` or `~`.
fn value(text: &str, col: usize) -> Result<i128, ParseError> {
    let mut total: i128 = 0;
    let mut sign = 1i128;
    let mut rest = text.trim();
    let mut at = col;
    loop {
        let (neg, body) = match rest.strip_prefix('-') {
            Some(b) => (true, b.trim_start()),
            None => (false, rest),
        };
        let end = body
            .find(|c: char| c == '+' || c == '-' || c.is_whitespace())
            .unwrap_or(body.len());
        let (lit, after) = body.split_at(end);
        let v = literal(lit).ok_or_else(|| ParseError {
            col: at,
            msg: if lit
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            {
                format!("gpumemsim assembles numbers in data directives, not symbols (`{lit}`)")
            } else {
                "unknown token in expression".to_string()
            },
        })?;
        total += sign * if neg { -v } else { v };
        let after = after.trim_start();
        at = col + (text.len() - after.len());
        match after.chars().next() {
            None => return Ok(total),
            Some('+') => sign = 1,
            Some('-') => sign = -1,
            Some(_) => return error(at, "unexpected token in directive"),
        }
        rest = after[1..].trim_start();
        if total.unsigned_abs() > u64::MAX as u128 * 2 {
            return error(col, "out of range literal value");
        }
    }
}

/// One integer literal.
fn literal(s: &str) -> Option<i128> {
    let (digits, radix) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        (b, 2)
    } else if s.len() > 1 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    if digits.is_empty() {
        return None;
    }
    u64::from_str_radix(digits, radix).ok().map(i128::from)
}

/// `.p2align N[, FILL[, MAX]]`: pads to a multiple of 2^N bytes (with FILL bytes, or in code
/// with `s_nop 0` after zero bytes up to a 4-byte boundary), unless more than MAX bytes would
/// be needed.
fn p2align(rest: &str, base: usize, address: u32) -> Result<Assembled, ParseError> {
    let f = comma_fields(rest, base);
    let Some(&(at, n)) = f.first().filter(|f| !f.1.is_empty()) else {
        return error(base + 1, "unknown token in expression");
    };
    let n = value(n, at)?;
    if !(0..=31).contains(&n) {
        return error(at, "invalid alignment value");
    }
    let fill = match f.get(1) {
        Some(&(at, t)) if !t.is_empty() => Some(value(t, at)? as u8),
        _ => None,
    };
    let max = match f.get(2) {
        Some(&(at, t)) if !t.is_empty() => Some(value(t, at)?),
        _ => None,
    };
    let align = 1u64 << n;
    let pad = (align - u64::from(address) % align) % align;
    let mut out = Assembled::default();
    out.text.push(match fill {
        Some(b) => format!(".p2align\t{n}, 0x{b:x}"),
        None => format!(".p2align\t{n}"),
    });
    if max.is_some_and(|m| (pad as i128) > m) {
        return Ok(out);
    }
    if pad > MAX_PADDING {
        return error(
            at,
            format!("alignment needs {pad} bytes of padding; gpumemsim pads at most {MAX_PADDING}"),
        );
    }
    match fill {
        Some(b) => out.bytes = vec![b; pad as usize],
        None => {
            let odd = (4 - address % 4) % 4;
            let odd = u64::from(odd).min(pad);
            out.bytes = vec![0; odd as usize];
            while (out.bytes.len() as u64) < pad {
                out.bytes.extend_from_slice(&S_NOP);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(body: &str, address: u32) -> Assembled {
        assemble_directive(body, 1, address).expect("assembles")
    }

    /// Bytes and printed text as llvm-mc-19 gives them (-show-encoding, and -filetype=obj
    /// with llvm-objdump-19 -s for the padding).
    #[test]
    fn data_and_alignment_as_llvm_mc_19() {
        let a = ok(".long 0xbf800000, -1", 0);
        assert_eq!(a.bytes, [0, 0, 0x80, 0xbf, 0xff, 0xff, 0xff, 0xff]);
        assert_eq!(a.text, [".long\t3212836864", ".long\t-1"]);
        assert_eq!(ok(".byte 1,2", 0).bytes, [1, 2]);
        assert_eq!(ok(".short 0x1234", 0).text, [".short\t4660"]);
        assert_eq!(ok(".long 1+2", 0).text, [".long\t3"]);
        assert_eq!(ok(".byte 0b101", 0).bytes, [5]);
        assert_eq!(ok(".long 010", 0).bytes, [8, 0, 0, 0]);
        assert_eq!(ok(".quad 7", 0).bytes, [7, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(ok(".text", 0), Assembled::default());
        // s_nop 1 (4 bytes), then .p2align 4: three s_nop 0 words.
        let p = ok(".p2align 4", 4);
        assert_eq!(p.bytes, [S_NOP, S_NOP, S_NOP].concat());
        assert_eq!(p.text, [".p2align\t4"]);
        assert_eq!(ok(".p2align 3, 0xff", 0x18).bytes, Vec::<u8>::new());
        assert_eq!(ok(".p2align 3, 0xff", 0x13).bytes, [0xff; 5]);
        assert_eq!(ok(".p2align 2,,0", 2).bytes, Vec::<u8>::new());
    }

    #[test]
    fn mistakes_are_named_at_their_column() {
        let e = |body: &str| assemble_directive(body, 1, 0).expect_err(body);
        assert_eq!(
            e(".byte 256"),
            ParseError {
                col: 7,
                msg: "out of range literal value".into()
            }
        );
        assert_eq!(e(".byte -129").col, 7);
        assert_eq!(e(".short 70000").col, 8);
        assert_eq!(
            e(".p2align 40"),
            ParseError {
                col: 10,
                msg: "invalid alignment value".into()
            }
        );
        assert_eq!(
            e(".long 1,"),
            ParseError {
                col: 9,
                msg: "unknown token in expression".into()
            }
        );
        assert!(e(".long x").msg.contains("not symbols"));
        assert!(e(".globl x").msg.starts_with("unknown directive"));
        assert!(assemble_directive(".p2align 31", 1, 4)
            .expect_err("too much")
            .msg
            .contains("at most"));
    }
}
