//! Integer expressions over named variables, for per-lane values on the command line
//! (`--addr 't*128 + 4'`, `--set 'v1=(lane^1)*4'`).
//!
//! The language is C's integer expressions without assignment or comparison:
//! - numbers: decimal (`128`) or hexadecimal (`0x80`), up to 64 bits (values at or above 2^63
//!   wrap to negative, so `0xffffffffffffffff` is `-1`);
//! - variables: identifiers (`t`, `lane`, `row_bytes`), looked up at evaluation time;
//! - parentheses, unary `-` and `~` (and a no-op unary `+`);
//! - binary operators with C's precedence, tightest first: `* / %`, `+ -`, `<< >>`, `&`, `^`,
//!   `|`; all left-associative.
//!
//! Arithmetic is on wrapping 64-bit two's-complement integers. `/` and `%` truncate toward zero
//! as in C; dividing by zero is an error. `>>` is an arithmetic shift; a shift count outside
//! 0..=63 is an error (C leaves it undefined). Errors carry the 1-based column they point at.
//! Expressions nest at most [`MAX_DEPTH`] levels deep, so evaluation never exhausts the stack.
//!
//! ```
//! use gpumemsim::lane_expr::LaneExpr;
//! let e = LaneExpr::parse("(t ^ 1) * 4 + 0x10").unwrap();
//! let v = e.eval(&|name| (name == "t").then_some(6)).unwrap();
//! assert_eq!(v, (6 ^ 1) * 4 + 16);
//! let err = LaneExpr::parse("t * * 2").unwrap_err();
//! assert_eq!(err.col, 5);
//! ```

use std::fmt;

/// The deepest expression tree [`LaneExpr::parse`] accepts (operators and parentheses nested
/// inside each other, including long chains like `1+1+...+1`).
pub const MAX_DEPTH: u32 = 256;

/// A parse or evaluation error: where (1-based column in the expression text) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// 1-based column (in characters) of the text the error points at.
    pub col: usize,
    /// What is wrong.
    pub msg: String,
}

impl ExprError {
    fn new(col: usize, msg: impl Into<String>) -> ExprError {
        ExprError {
            col,
            msg: msg.into(),
        }
    }

    /// The message with a caret line under `text` pointing at the column, for terminals:
    /// ```text
    /// t * * 2
    ///     ^ expected a number, a variable or `(`
    /// ```
    pub fn render(&self, text: &str) -> String {
        let pad = " ".repeat(self.col.saturating_sub(1));
        format!("{text}\n{pad}^ {}", self.msg)
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.col, self.msg)
    }
}

impl std::error::Error for ExprError {}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UnaryOp {
    Neg,
    Not,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    And,
    Xor,
    Or,
}

impl BinaryOp {
    /// C precedence: a larger number binds tighter.
    fn precedence(self) -> u8 {
        match self {
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 6,
            BinaryOp::Add | BinaryOp::Sub => 5,
            BinaryOp::Shl | BinaryOp::Shr => 4,
            BinaryOp::And => 3,
            BinaryOp::Xor => 2,
            BinaryOp::Or => 1,
        }
    }
}

/// A node of the expression tree; `col` is where its operator or name starts.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Num(i64),
    Var {
        name: String,
        col: usize,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Node>,
    },
    Binary {
        op: BinaryOp,
        col: usize,
        lhs: Box<Node>,
        rhs: Box<Node>,
    },
}

/// A parsed expression, ready to evaluate many times (once per lane).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneExpr {
    root: Node,
}

impl LaneExpr {
    /// Parses `text`. Errors point at the offending column.
    pub fn parse(text: &str) -> Result<LaneExpr, ExprError> {
        let tokens = tokenize(text)?;
        let mut parser = Parser {
            tokens,
            pos: 0,
            nesting: 0,
        };
        let (root, _depth) = parser.expression(0)?;
        match parser.peek() {
            Token {
                kind: TokenKind::End,
                ..
            } => Ok(LaneExpr { root }),
            t => Err(ExprError::new(
                t.col,
                format!("unexpected {} after the expression", t.kind.describe()),
            )),
        }
    }

    /// Evaluates with `vars` giving each variable's value (`None`: unknown variable, an error
    /// that names it).
    pub fn eval(&self, vars: &dyn Fn(&str) -> Option<i64>) -> Result<i64, ExprError> {
        eval_node(&self.root, vars)
    }

    /// The value, if the expression uses no variables.
    pub fn constant(&self) -> Option<i64> {
        self.eval(&|_| None).ok()
    }

    /// Names of the variables the expression uses, in order of first use.
    pub fn variables(&self) -> Vec<&str> {
        let mut out = Vec::new();
        collect_vars(&self.root, &mut out);
        out
    }
}

fn collect_vars<'a>(node: &'a Node, out: &mut Vec<&'a str>) {
    match node {
        Node::Num(_) => {}
        Node::Var { name, .. } => {
            if !out.contains(&name.as_str()) {
                out.push(name);
            }
        }
        Node::Unary { operand, .. } => collect_vars(operand, out),
        Node::Binary { lhs, rhs, .. } => {
            collect_vars(lhs, out);
            collect_vars(rhs, out);
        }
    }
}

fn eval_node(node: &Node, vars: &dyn Fn(&str) -> Option<i64>) -> Result<i64, ExprError> {
    Ok(match node {
        Node::Num(v) => *v,
        Node::Var { name, col } => {
            vars(name).ok_or_else(|| ExprError::new(*col, format!("unknown variable `{name}`")))?
        }
        Node::Unary { op, operand } => {
            let v = eval_node(operand, vars)?;
            match op {
                UnaryOp::Neg => v.wrapping_neg(),
                UnaryOp::Not => !v,
            }
        }
        Node::Binary { op, col, lhs, rhs } => {
            let a = eval_node(lhs, vars)?;
            let b = eval_node(rhs, vars)?;
            match op {
                BinaryOp::Mul => a.wrapping_mul(b),
                BinaryOp::Div | BinaryOp::Rem if b == 0 => {
                    return Err(ExprError::new(*col, "division by zero"))
                }
                BinaryOp::Div => a.wrapping_div(b),
                BinaryOp::Rem => a.wrapping_rem(b),
                BinaryOp::Add => a.wrapping_add(b),
                BinaryOp::Sub => a.wrapping_sub(b),
                BinaryOp::Shl | BinaryOp::Shr if !(0..64).contains(&b) => {
                    return Err(ExprError::new(
                        *col,
                        format!("shift count {b} is outside 0..=63"),
                    ))
                }
                BinaryOp::Shl => a << b,
                BinaryOp::Shr => a >> b,
                BinaryOp::And => a & b,
                BinaryOp::Xor => a ^ b,
                BinaryOp::Or => a | b,
            }
        }
    })
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum TokenKind {
    Num(i64),
    Ident(String),
    LParen,
    RParen,
    /// `~`
    Tilde,
    Op(BinaryOp),
    End,
}

impl TokenKind {
    fn describe(&self) -> String {
        match self {
            TokenKind::Num(v) => format!("number {v}"),
            TokenKind::Ident(n) => format!("name `{n}`"),
            TokenKind::LParen => "`(`".into(),
            TokenKind::RParen => "`)`".into(),
            TokenKind::Tilde => "`~`".into(),
            TokenKind::Op(op) => format!("`{}`", op_text(*op)),
            TokenKind::End => "end of expression".into(),
        }
    }
}

fn op_text(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::And => "&",
        BinaryOp::Xor => "^",
        BinaryOp::Or => "|",
    }
}

#[derive(Clone, Debug)]
struct Token {
    kind: TokenKind,
    /// 1-based column of the token's first character.
    col: usize,
}

fn tokenize(text: &str) -> Result<Vec<Token>, ExprError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let kind = if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            TokenKind::Num(parse_number(&word).map_err(|m| ExprError::new(col, m))?)
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            TokenKind::Ident(chars[start..i].iter().collect())
        } else {
            let two = (c, chars.get(i + 1).copied());
            let (kind, len) = match two {
                ('<', Some('<')) => (TokenKind::Op(BinaryOp::Shl), 2),
                ('>', Some('>')) => (TokenKind::Op(BinaryOp::Shr), 2),
                ('(', _) => (TokenKind::LParen, 1),
                (')', _) => (TokenKind::RParen, 1),
                ('~', _) => (TokenKind::Tilde, 1),
                ('*', _) => (TokenKind::Op(BinaryOp::Mul), 1),
                ('/', _) => (TokenKind::Op(BinaryOp::Div), 1),
                ('%', _) => (TokenKind::Op(BinaryOp::Rem), 1),
                ('+', _) => (TokenKind::Op(BinaryOp::Add), 1),
                ('-', _) => (TokenKind::Op(BinaryOp::Sub), 1),
                ('&', _) => (TokenKind::Op(BinaryOp::And), 1),
                ('^', _) => (TokenKind::Op(BinaryOp::Xor), 1),
                ('|', _) => (TokenKind::Op(BinaryOp::Or), 1),
                ('<', _) | ('>', _) => {
                    return Err(ExprError::new(
                        col,
                        format!("`{c}` is not an operator here (did you mean `{c}{c}`?)"),
                    ))
                }
                _ => return Err(ExprError::new(col, format!("unexpected character `{c}`"))),
            };
            i += len;
            kind
        };
        tokens.push(Token { kind, col });
    }
    tokens.push(Token {
        kind: TokenKind::End,
        col: chars.len() + 1,
    });
    Ok(tokens)
}

/// A decimal or `0x` hexadecimal literal of at most 64 bits (wrapping into `i64`).
fn parse_number(word: &str) -> Result<i64, String> {
    let (digits, radix) = match word.strip_prefix("0x").or_else(|| word.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (word, 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(format!("`{word}` is not a number"));
    }
    u64::from_str_radix(digits, radix)
        .map(|v| v as i64)
        .map_err(|_| format!("`{word}` does not fit in 64 bits"))
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    /// How many `unary` calls are active (parser recursion depth).
    nesting: u32,
}

impl Parser {
    fn peek(&self) -> &Token {
        // The token list always ends with `End`, and `pos` never moves past it.
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn advance(&mut self) -> Token {
        let t = self.peek().clone();
        if t.kind != TokenKind::End {
            self.pos += 1;
        }
        t
    }

    /// Precedence climbing: parses operators binding tighter than `min_prec`. Returns the tree
    /// and its depth.
    fn expression(&mut self, min_prec: u8) -> Result<(Node, u32), ExprError> {
        let (mut lhs, mut depth) = self.unary()?;
        loop {
            let (op, col) = match self.peek() {
                Token {
                    kind: TokenKind::Op(op),
                    col,
                } if op.precedence() > min_prec => (*op, *col),
                _ => return Ok((lhs, depth)),
            };
            self.advance();
            let (rhs, rhs_depth) = self.expression(op.precedence())?;
            depth = check_depth(depth.max(rhs_depth) + 1, col)?;
            lhs = Node::Binary {
                op,
                col,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            };
        }
    }

    fn unary(&mut self) -> Result<(Node, u32), ExprError> {
        let t = self.advance();
        // Parentheses and unary operators recurse before the tree's depth is known: bound the
        // recursion itself so that a run of `((((` or `----` cannot exhaust the stack.
        self.nesting += 1;
        check_depth(self.nesting, t.col)?;
        let node = self.operand(t);
        self.nesting -= 1;
        node
    }

    fn operand(&mut self, t: Token) -> Result<(Node, u32), ExprError> {
        match t.kind {
            TokenKind::Op(BinaryOp::Sub) => {
                let (operand, depth) = self.unary()?;
                let depth = check_depth(depth + 1, t.col)?;
                Ok((
                    Node::Unary {
                        op: UnaryOp::Neg,
                        operand: Box::new(operand),
                    },
                    depth,
                ))
            }
            TokenKind::Op(BinaryOp::Add) => self.unary(),
            TokenKind::Tilde => {
                let (operand, depth) = self.unary()?;
                let depth = check_depth(depth + 1, t.col)?;
                Ok((
                    Node::Unary {
                        op: UnaryOp::Not,
                        operand: Box::new(operand),
                    },
                    depth,
                ))
            }
            TokenKind::Num(v) => Ok((Node::Num(v), 1)),
            TokenKind::Ident(name) => Ok((Node::Var { name, col: t.col }, 1)),
            TokenKind::LParen => {
                let (inner, depth) = self.expression(0)?;
                let close = self.advance();
                if close.kind == TokenKind::RParen {
                    Ok((inner, check_depth(depth + 1, t.col)?))
                } else {
                    Err(ExprError::new(
                        close.col,
                        format!(
                            "expected `)` to close the `(` at column {}, found {}",
                            t.col,
                            close.kind.describe()
                        ),
                    ))
                }
            }
            other => Err(ExprError::new(
                t.col,
                format!(
                    "expected a number, a variable or `(`, found {}",
                    other.describe()
                ),
            )),
        }
    }
}

fn check_depth(depth: u32, col: usize) -> Result<u32, ExprError> {
    if depth > MAX_DEPTH {
        Err(ExprError::new(
            col,
            format!("expression nests deeper than {MAX_DEPTH} levels"),
        ))
    } else {
        Ok(depth)
    }
}
