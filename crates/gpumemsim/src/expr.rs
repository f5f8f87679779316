//! Integer expressions over named variables, as the CLI takes them (`--set v1=lane*4`,
//! `--addr 8*t`): the assembler's expression language (`rdna3_isa::lex`: decimal and 0x-hex
//! numbers, parentheses, unary `- ~ !`, binary `* / % + - << >> & ^ |` with C precedence,
//! wrapping 64-bit arithmetic) with variables bound per evaluation. Unlike assembly (where
//! llvm-mc-19 takes a shift count mod 64), a shift count outside 0-63 is an error.

use rdna3_isa::lex::{tokenize, Cursor, ParseError, Token};

/// A parsed expression, ready to evaluate many times.
#[derive(Clone, Debug)]
pub struct Expr {
    text: String,
    vars: Vec<String>,
}

/// An error in an expression, at a 1-based column.
pub type ExprError = ParseError;

impl Expr {
    /// Parses `text`, checking its syntax and that it names only variables in `allowed`.
    pub fn parse(text: &str, allowed: &[&str]) -> Result<Expr, ExprError> {
        let toks = tokenize(text)?;
        let mut vars = Vec::new();
        for t in &toks {
            if let rdna3_isa::lex::Tok::Ident(name) = t.tok {
                if !allowed.contains(&name) {
                    return Err(ParseError::new(
                        t.col,
                        format!(
                            "unknown variable `{name}` (this expression may use: {})",
                            if allowed.is_empty() {
                                "none".to_string()
                            } else {
                                allowed.join(", ")
                            }
                        ),
                    ));
                }
                vars.push(name.to_string());
            }
        }
        let e = Expr {
            text: text.to_string(),
            vars,
        };
        // Syntax check with every variable 0.
        e.eval(&|_| Some(0))?;
        Ok(e)
    }

    /// Evaluates with variable values from `var`.
    pub fn eval(&self, var: &dyn Fn(&str) -> Option<i64>) -> Result<i64, ExprError> {
        let toks: Vec<Token> = tokenize(&self.text)?;
        let end = self.text.len() + 1;
        let mut c = Cursor::new(toks, end);
        c.strict_shifts();
        let v = c.expr(var)?;
        if !c.at_end() {
            return Err(ParseError::new(
                c.col(),
                "unexpected text after the expression",
            ));
        }
        Ok(v)
    }

    /// Whether the expression uses variable `name`.
    pub fn uses(&self, name: &str) -> bool {
        self.vars.iter().any(|v| v == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluates_with_bound_variables_and_precedence() {
        let e = Expr::parse("(lane ^ 1) * 4 + wave << 1", &["lane", "wave"]).expect("parses");
        let v = e
            .eval(&|n| match n {
                "lane" => Some(6),
                "wave" => Some(2),
                _ => None,
            })
            .expect("evaluates");
        assert_eq!(v, ((6 ^ 1) * 4 + 2) << 1);
        assert!(e.uses("lane") && e.uses("wave"));
        let e = Expr::parse("0x10 | ~0 & 3", &[]).expect("the test input is valid");
        assert_eq!(
            e.eval(&|_| None).expect("the test input is valid"),
            0x13,
            "& binds tighter than |"
        );
    }

    #[test]
    fn errors_name_the_column() {
        let e = Expr::parse("lane * foo", &["lane"]).unwrap_err();
        assert_eq!(e.col, 8);
        assert!(e.msg.contains("foo"));
        let e = Expr::parse("lane *", &["lane"]).unwrap_err();
        assert_eq!(e.col, 7);
        let e = Expr::parse("lane 3", &["lane"]).unwrap_err();
        assert_eq!(e.col, 6);
        let e = Expr::parse("1/0", &[]).unwrap_err();
        assert!(e.msg.contains("division by zero"));
    }

    /// `lane<<70` would be `lane<<6` taken mod 64 (as llvm-mc-19 takes it in assembly): here
    /// a count outside 0-63 is an error, found when the expression is parsed if it is
    /// constant, else when a value makes it so.
    #[test]
    fn a_shift_count_outside_0_to_63_is_an_error() {
        let e = Expr::parse("lane << 70", &["lane"]).unwrap_err();
        assert_eq!(e.col, 6);
        assert!(e.msg.contains("shift by 70"), "{}", e.msg);
        assert!(Expr::parse("8 >> -1", &[]).is_err());
        let e = Expr::parse("1 << lane", &["lane"]).expect("parses");
        assert_eq!(e.eval(&|_| Some(63)), Ok(i64::MIN));
        assert!(e.eval(&|_| Some(64)).is_err());
        // Assembly keeps llvm-mc-19's answer.
        let p = rdna3_isa::asm::assemble("s_mov_b32 s0, 1<<70\n");
        assert!(p.errors.is_empty(), "{:?}", p.errors);
        assert_eq!(
            rdna3_isa::print::print(&p.lines[0].inst),
            "s_mov_b32 s0, 64"
        );
    }
}
