//! Tokens of one assembly line, and a cursor with the small expression language operands use.

use std::fmt;

/// An error in assembly text, at a 1-based column of its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based column (in bytes).
    pub col: usize,
    /// What is wrong.
    pub msg: String,
}

impl ParseError {
    /// An error at `col`.
    pub fn new(col: usize, msg: impl Into<String>) -> ParseError {
        ParseError {
            col,
            msg: msg.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.col, self.msg)
    }
}

/// Result of parsing.
pub type PResult<T> = Result<T, ParseError>;

/// A token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok<'a> {
    /// Identifier (letters, digits, `_`, `.`, `$`).
    Ident(&'a str),
    /// Integer literal.
    Int(i64),
    /// Floating-point literal (has a `.` or exponent).
    Float(f64),
    /// Double-quoted string.
    Str(&'a str),
    /// Punctuation; two-character operators `<<` and `>>` are `'«'` and `'»'`.
    Punct(char),
}

/// A token and its 1-based column.
#[derive(Clone, Debug, PartialEq)]
pub struct Token<'a> {
    /// The token.
    pub tok: Tok<'a>,
    /// 1-based column of its first character.
    pub col: usize,
}

/// Splits `line` into tokens (`line` has no line comment; a `/* ... */` block comment, as
/// llvm-mc-19 prints after an invalid operand, is skipped like white space).
pub fn tokenize(line: &str) -> PResult<Vec<Token<'_>>> {
    let b = line.as_bytes();
    let mut i = 0;
    let mut out = Vec::with_capacity(16);
    while i < b.len() {
        let c = b[i];
        let col = i + 1;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            match line[i + 2..].find("*/") {
                Some(e) => i += e + 4,
                None => return Err(ParseError::new(col, "unterminated comment")),
            }
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'.' && !next_is_digit(b, i) {
            let s = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b'$'))
            {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(&line[s..i]),
                col,
            });
        } else if c.is_ascii_digit() || c == b'.' {
            let (tok, end) = number(line, i, col)?;
            out.push(Token { tok, col });
            i = end;
        } else if c == b'"' {
            let s = i + 1;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += 1;
            }
            if i >= b.len() {
                return Err(ParseError::new(col, "unterminated string"));
            }
            out.push(Token {
                tok: Tok::Str(&line[s..i]),
                col,
            });
            i += 1;
        } else if (c == b'<' || c == b'>') && i + 1 < b.len() && b[i + 1] == c {
            out.push(Token {
                tok: Tok::Punct(if c == b'<' { '«' } else { '»' }),
                col,
            });
            i += 2;
        } else if c.is_ascii_punctuation() {
            out.push(Token {
                tok: Tok::Punct(c as char),
                col,
            });
            i += 1;
        } else {
            return Err(ParseError::new(col, "unexpected character"));
        }
    }
    Ok(out)
}

/// Lexes the number that starts at byte `i` of `line`: `0x` hexadecimal, `0b` binary, or a
/// decimal integer or float (`1.5`, `.5`, `1e3`). Returns the token and the index past it.
fn number(line: &str, i: usize, col: usize) -> PResult<(Tok<'_>, usize)> {
    let b = line.as_bytes();
    let c = b[i];
    if c == b'0' && i + 1 < b.len() && (b[i + 1] | 0x20) == b'x' {
        return prefixed_int(line, i + 2, 16, col, "invalid hexadecimal number");
    }
    if c == b'0' && i + 1 < b.len() && (b[i + 1] | 0x20) == b'b' && next_is_bin(b, i + 2) {
        return prefixed_int(line, i + 2, 2, col, "invalid binary number");
    }
    decimal(line, i, col)
}

/// The digits of `radix` from byte `start` (after a `0x` or `0b`) as an integer token, and
/// the index past them.
fn prefixed_int(
    line: &str,
    start: usize,
    radix: u32,
    col: usize,
    msg: &str,
) -> PResult<(Tok<'static>, usize)> {
    let b = line.as_bytes();
    let mut i = start;
    while i < b.len() && (b[i] as char).is_digit(radix) {
        i += 1;
    }
    let v = u64::from_str_radix(&line[start..i], radix).map_err(|_| ParseError::new(col, msg))?;
    Ok((Tok::Int(v as i64), i))
}

/// A decimal integer or float from byte `s`, and the index past it.
fn decimal(line: &str, s: usize, col: usize) -> PResult<(Tok<'static>, usize)> {
    let b = line.as_bytes();
    let mut i = s;
    let mut float = false;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i < b.len() && b[i] == b'.' {
        float = true;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < b.len() && (b[i] | 0x20) == b'e' {
        let save = i;
        i += 1;
        if i < b.len() && matches!(b[i], b'+' | b'-') {
            i += 1;
        }
        if i < b.len() && b[i].is_ascii_digit() {
            float = true;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        } else {
            i = save;
        }
    }
    let text = &line[s..i];
    let tok = if float {
        Tok::Float(
            text.parse()
                .map_err(|_| ParseError::new(col, "invalid number"))?,
        )
    } else {
        Tok::Int(
            text.parse::<u64>()
                .map_err(|_| ParseError::new(col, "invalid number"))? as i64,
        )
    };
    Ok((tok, i))
}

/// Whether the byte after `i` is a decimal digit.
fn next_is_digit(b: &[u8], i: usize) -> bool {
    i + 1 < b.len() && b[i + 1].is_ascii_digit()
}

/// Whether byte `i` is a binary digit.
fn next_is_bin(b: &[u8], i: usize) -> bool {
    i < b.len() && matches!(b[i], b'0' | b'1')
}

/// Deepest nesting of parentheses and unary operators an expression may have (deeper input
/// is an error, not a stack overflow).
pub const MAX_EXPR_DEPTH: u32 = 256;

/// A cursor over a line's tokens.
pub struct Cursor<'a> {
    toks: Vec<Token<'a>>,
    pos: usize,
    end_col: usize,
    depth: u32,
    /// Inside `|x|` (a VOP3 absolute value), `|` ends an expression instead of or-ing.
    bar_ends_expr: bool,
    /// A shift count outside 0-63 is an error ([`Cursor::strict_shifts`]), instead of being
    /// taken mod 64 as llvm-mc-19 takes it in assembly (`1<<70` is 64 there).
    strict_shifts: bool,
}

impl<'a> Cursor<'a> {
    /// A cursor at the first token; `end_col` is the column just past the line's text.
    pub fn new(toks: Vec<Token<'a>>, end_col: usize) -> Cursor<'a> {
        Cursor {
            toks,
            pos: 0,
            end_col,
            depth: 0,
            bar_ends_expr: false,
            strict_shifts: false,
        }
    }

    /// Makes a shift count outside 0-63 an error: for expressions that are not assembly (the
    /// CLI's `--set v1=lane<<2`), where a count taken mod 64 would silently mislead.
    pub fn strict_shifts(&mut self) {
        self.strict_shifts = true;
    }

    /// The current token.
    pub fn peek(&self) -> Option<&Tok<'a>> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    /// The token after the current one.
    pub fn peek2(&self) -> Option<&Tok<'a>> {
        self.toks.get(self.pos + 1).map(|t| &t.tok)
    }

    /// Column of the current token (or of the line's end).
    pub fn col(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end_col, |t| t.col)
    }

    /// Moves past the current token.
    pub fn bump(&mut self) {
        self.pos += 1;
    }

    /// Saved position, for [`Cursor::restore`].
    pub fn save(&self) -> usize {
        self.pos
    }

    /// Returns to a saved position.
    pub fn restore(&mut self, pos: usize) {
        self.pos = pos;
    }

    /// Whether every token was consumed.
    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Whether the current token is punctuation `c`.
    pub fn is_punct(&self, c: char) -> bool {
        matches!(self.peek(), Some(Tok::Punct(p)) if *p == c)
    }

    /// Consumes punctuation `c` if it is next.
    pub fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Consumes punctuation `c` or fails with `msg`.
    pub fn expect_punct(&mut self, c: char, msg: &str) -> PResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            Err(ParseError::new(self.col(), msg))
        }
    }

    /// The current identifier, if it is one.
    pub fn peek_ident(&self) -> Option<&'a str> {
        match self.peek() {
            Some(Tok::Ident(s)) => Some(s),
            _ => None,
        }
    }

    /// Consumes identifier `name` if it is next.
    pub fn eat_ident(&mut self, name: &str) -> bool {
        if self.peek_ident() == Some(name) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Makes `|` end expressions (inside a VOP3 `|x|`) or be the or-operator again.
    pub fn set_bar_ends_expr(&mut self, on: bool) {
        self.bar_ends_expr = on;
    }

    /// Parses an absolute integer expression: integers, symbols from `sym`, unary `- ~ !`,
    /// binary `* / % + - << >> & ^ |` with C precedence, parentheses.
    pub fn expr(&mut self, sym: &dyn Fn(&str) -> Option<i64>) -> PResult<i64> {
        self.binary(0, sym)
    }

    fn binary(&mut self, min_prec: u8, sym: &dyn Fn(&str) -> Option<i64>) -> PResult<i64> {
        let mut lhs = self.unary(sym)?;
        while let Some(Tok::Punct(c)) = self.peek() {
            let (op, prec) = match c {
                '*' | '/' | '%' => (*c, 5),
                '+' | '-' => (*c, 4),
                '«' | '»' => (*c, 3),
                '&' => (*c, 2),
                '^' => (*c, 1),
                '|' if self.bar_ends_expr => break,
                '|' => (*c, 0),
                _ => break,
            };
            if prec < min_prec {
                break;
            }
            let col = self.col();
            self.bump();
            let rhs = self.binary(prec + 1, sym)?;
            if self.strict_shifts && matches!(op, '«' | '»') && !(0..64).contains(&rhs) {
                return Err(ParseError::new(
                    col,
                    format!("shift by {rhs}: a shift count is 0 to 63 (values are 64-bit)"),
                ));
            }
            lhs = match op {
                '*' => lhs.wrapping_mul(rhs),
                '/' | '%' => {
                    if rhs == 0 {
                        return Err(ParseError::new(col, "division by zero"));
                    }
                    if op == '/' {
                        lhs.wrapping_div(rhs)
                    } else {
                        lhs.wrapping_rem(rhs)
                    }
                }
                '+' => lhs.wrapping_add(rhs),
                '-' => lhs.wrapping_sub(rhs),
                '«' => lhs.wrapping_shl(rhs as u32),
                '»' => lhs.wrapping_shr(rhs as u32),
                '&' => lhs & rhs,
                '^' => lhs ^ rhs,
                _ => lhs | rhs,
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self, sym: &dyn Fn(&str) -> Option<i64>) -> PResult<i64> {
        let col = self.col();
        if self.depth >= MAX_EXPR_DEPTH {
            return Err(ParseError::new(col, "expression nested too deeply"));
        }
        self.depth += 1;
        let r = self.unary_inner(sym, col);
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self, sym: &dyn Fn(&str) -> Option<i64>, col: usize) -> PResult<i64> {
        match self.peek().cloned() {
            Some(Tok::Punct('-')) => {
                self.bump();
                Ok(self.unary(sym)?.wrapping_neg())
            }
            Some(Tok::Punct('+')) => {
                self.bump();
                self.unary(sym)
            }
            Some(Tok::Punct('~')) => {
                self.bump();
                Ok(!self.unary(sym)?)
            }
            Some(Tok::Punct('!')) => {
                self.bump();
                Ok((self.unary(sym)? == 0) as i64)
            }
            Some(Tok::Punct('(')) => {
                self.bump();
                let v = self.binary(0, sym)?;
                self.expect_punct(')', "expected ')' in expression")?;
                Ok(v)
            }
            Some(Tok::Int(v)) => {
                self.bump();
                Ok(v)
            }
            Some(Tok::Ident(s)) => match sym(s) {
                Some(v) => {
                    self.bump();
                    Ok(v)
                }
                None => Err(ParseError::new(col, "expected absolute expression")),
            },
            _ => Err(ParseError::new(col, "expected absolute expression")),
        }
    }
}

/// No symbols.
pub fn no_symbols(_: &str) -> Option<i64> {
    None
}

/// The comma-separated fields of `rest` with their columns (`base`: the column of `rest`'s
/// first byte; an empty field's column is where it ends).
pub(crate) fn comma_fields(rest: &str, base: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in rest.char_indices().chain([(rest.len(), ',')]) {
        if c == ',' {
            let part = &rest[start..i];
            let lead = part.len() - part.trim_start().len();
            let at = if part.trim().is_empty() {
                base + i
            } else {
                base + start + lead
            };
            out.push((at, part.trim()));
            start = i + 1;
        }
    }
    out
}
