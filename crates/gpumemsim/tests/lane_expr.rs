//! `lane_expr`: precedence, numbers, errors with columns, and a differential property test.

use gpumemsim::lane_expr::{ExprError, LaneExpr, MAX_DEPTH};
use proptest::prelude::*;

fn eval_with(text: &str, t: i64) -> Result<i64, ExprError> {
    LaneExpr::parse(text)?.eval(&|name| match name {
        "t" | "lane" => Some(t),
        "n" => Some(32),
        _ => None,
    })
}

fn ev(text: &str) -> i64 {
    eval_with(text, 5).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn err(text: &str) -> ExprError {
    match eval_with(text, 5) {
        Err(e) => e,
        Ok(v) => panic!("{text}: expected an error, got {v}"),
    }
}

#[test]
fn numbers_and_variables() {
    assert_eq!(ev("42"), 42);
    assert_eq!(ev("0x10"), 16);
    assert_eq!(ev("0XfF"), 255);
    assert_eq!(ev("t"), 5);
    assert_eq!(ev("lane * n"), 160);
    assert_eq!(ev("0xffffffffffffffff"), -1);
    assert_eq!(ev("18446744073709551615"), -1);
    assert_eq!(ev("9223372036854775808"), i64::MIN);
    assert_eq!(ev("  t\t+ 1 "), 6);
}

#[test]
fn c_precedence_and_associativity() {
    assert_eq!(ev("1 + 2 * 3"), 7);
    assert_eq!(ev("(1 + 2) * 3"), 9);
    assert_eq!(ev("1 << 2 + 1"), 8); // + binds tighter than <<
    assert_eq!(ev("6 & 3 ^ 1"), 3); // & before ^
    assert_eq!(ev("1 | 2 ^ 3"), 1 | (2 ^ 3));
    assert_eq!(ev("5 ^ 1 & 3 | 8"), (5 ^ (1 & 3)) | 8);
    assert_eq!(ev("100 - 10 - 1"), 89);
    assert_eq!(ev("100 / 10 / 5"), 2);
    assert_eq!(ev("2 * 7 % 4"), 2);
    assert_eq!(ev("256 >> 2 >> 1"), 32);
    assert_eq!(ev("t * 128 + 4"), 644);
    assert_eq!(ev("(t ^ 1) * 4"), 16);
    assert_eq!(ev("t*128 ^ (t & 31) << 2"), (5 * 128) ^ (5 << 2));
}

#[test]
fn unary_operators() {
    assert_eq!(ev("-t"), -5);
    assert_eq!(ev("~0"), -1);
    assert_eq!(ev("- -3"), 3);
    assert_eq!(ev("-2 * 3"), -6);
    assert_eq!(ev("~t & 0xff"), 250);
    assert_eq!(ev("+4"), 4);
}

#[test]
fn wrapping_and_c_division() {
    assert_eq!(ev("0x7fffffffffffffff + 1"), i64::MIN);
    assert_eq!(ev("-0x8000000000000000 / -1"), i64::MIN);
    assert_eq!(ev("-7 / 2"), -3);
    assert_eq!(ev("-7 % 2"), -1);
    assert_eq!(ev("-8 >> 1"), -4);
    assert_eq!(ev("1 << 63"), i64::MIN);
    assert_eq!(ev("0x100000000 * 0x100000000"), 0);
}

#[test]
fn errors_point_at_columns() {
    let e = err("t * * 2");
    assert_eq!(e.col, 5);
    assert!(e.msg.contains("expected a number"), "{}", e.msg);
    let e = err("t / (t - 5)");
    assert_eq!((e.col, e.msg.as_str()), (3, "division by zero"));
    assert_eq!(err("7 % 0").col, 3);
    let e = err("t + row");
    assert_eq!(e.col, 5);
    assert!(e.msg.contains("`row`"), "{}", e.msg);
    let e = err("(t + 1");
    assert_eq!(e.col, 7);
    assert!(e.msg.contains("column 1"), "{}", e.msg);
    assert_eq!(err("t $ 1").col, 3);
    assert_eq!(err("t < 1").col, 3);
    assert_eq!(err("12ab").col, 1);
    assert_eq!(err("0x").col, 1);
    assert!(err("99999999999999999999").msg.contains("64 bits"));
    assert_eq!(err("").col, 1);
    assert_eq!(err("1 2").col, 3);
    assert_eq!(err("t)").col, 2);
    let e = err("1 << 64");
    assert_eq!(e.col, 3);
    assert!(e.msg.contains("shift"), "{}", e.msg);
    assert_eq!(err("1 >> -1").col, 3);
    // Columns count characters, not bytes.
    assert_eq!(err("é").col, 1);
    assert_eq!(err("(1) + é").col, 7);
    let rendered = err("t * * 2").render("t * * 2");
    assert_eq!(rendered.lines().nth(1).unwrap().find('^'), Some(4));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    assert!(err(&deep).msg.contains("deeper"));
    let chain = vec!["1"; 100_000].join("+");
    assert!(err(&chain).msg.contains("deeper"));
    let negs = format!("{}1", "-".repeat(100_000));
    assert!(err(&negs).msg.contains("deeper"));
    let ok = format!(
        "{}1{}",
        "(".repeat(MAX_DEPTH as usize / 2),
        ")".repeat(MAX_DEPTH as usize / 2)
    );
    assert_eq!(ev(&ok), 1);
}

#[test]
fn variables_and_constants() {
    let e = LaneExpr::parse("t * 4 + base + t").unwrap();
    assert_eq!(e.variables(), ["t", "base"]);
    assert_eq!(e.constant(), None);
    assert_eq!(LaneExpr::parse("0x40 | 3").unwrap().constant(), Some(67));
}

/// A random expression as fully parenthesized text and its value under C's rules, computed
/// directly (no parser involved).
#[derive(Clone, Debug)]
enum Tree {
    Num(i64),
    T,
    Neg(Box<Tree>),
    Not(Box<Tree>),
    Bin(u8, Box<Tree>, Box<Tree>),
}

const OPS: [&str; 10] = ["*", "/", "%", "+", "-", "<<", ">>", "&", "^", "|"];

impl Tree {
    fn text(&self) -> String {
        match self {
            Tree::Num(v) if *v < 0 => format!("({v})"),
            Tree::Num(v) => format!("{v}"),
            Tree::T => "t".into(),
            Tree::Neg(a) => format!("-({})", a.text()),
            Tree::Not(a) => format!("~({})", a.text()),
            Tree::Bin(op, a, b) => format!("({} {} {})", a.text(), OPS[*op as usize], b.text()),
        }
    }

    fn value(&self, t: i64) -> Option<i64> {
        Some(match self {
            Tree::Num(v) => *v,
            Tree::T => t,
            Tree::Neg(a) => a.value(t)?.wrapping_neg(),
            Tree::Not(a) => !a.value(t)?,
            Tree::Bin(op, a, b) => {
                let (x, y) = (a.value(t)?, b.value(t)?);
                match op {
                    0 => x.wrapping_mul(y),
                    1 => x
                        .checked_div(y)
                        .or_else(|| (y == -1).then(|| x.wrapping_neg()))?,
                    2 => x.checked_rem(y).or_else(|| (y == -1).then_some(0))?,
                    3 => x.wrapping_add(y),
                    4 => x.wrapping_sub(y),
                    5 => x.checked_shl(u32::try_from(y).ok().filter(|&s| s < 64)?)?,
                    6 => x.checked_shr(u32::try_from(y).ok().filter(|&s| s < 64)?)?,
                    7 => x & y,
                    8 => x ^ y,
                    _ => x | y,
                }
            }
        })
    }
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = prop_oneof![
        (-1000i64..1000).prop_map(Tree::Num),
        Just(Tree::T),
        (0i64..70).prop_map(Tree::Num)
    ];
    leaf.prop_recursive(6, 64, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| Tree::Neg(Box::new(a))),
            inner.clone().prop_map(|a| Tree::Not(Box::new(a))),
            (0u8..10, inner.clone(), inner).prop_map(|(op, a, b)| Tree::Bin(
                op,
                Box::new(a),
                Box::new(b)
            )),
        ]
    })
}

/// The same operators written without parentheses where C precedence makes them redundant
/// must parse to the same value: `a op1 b op2 c` against the explicitly grouped form.
fn flat_triple() -> impl Strategy<Value = (i64, u8, i64, u8, i64)> {
    (-50i64..50, 0u8..10, -50i64..50, 0u8..10, 0i64..8)
}

fn precedence(op: u8) -> u8 {
    [6, 6, 6, 5, 5, 4, 4, 3, 2, 1][op as usize]
}

proptest! {
    #[test]
    fn parser_agrees_with_direct_evaluation(tree in tree(), t in -100i64..100) {
        let got = eval_with(&tree.text(), t);
        match tree.value(t) {
            Some(v) => prop_assert_eq!(got, Ok(v), "{}", tree.text()),
            None => prop_assert!(got.is_err(), "{}: {:?}", tree.text(), got),
        }
    }

    #[test]
    fn unparenthesized_chains_follow_c_precedence((a, op1, b, op2, c) in flat_triple()) {
        let text = format!("{a} {} {b} {} {c}", OPS[op1 as usize], OPS[op2 as usize]);
        let grouped = if precedence(op2) > precedence(op1) {
            Tree::Bin(op1, Box::new(Tree::Num(a)), Box::new(Tree::Bin(op2, Box::new(Tree::Num(b)), Box::new(Tree::Num(c)))))
        } else {
            Tree::Bin(op2, Box::new(Tree::Bin(op1, Box::new(Tree::Num(a)), Box::new(Tree::Num(b)))), Box::new(Tree::Num(c)))
        };
        match grouped.value(0) {
            Some(v) => prop_assert_eq!(eval_with(&text, 0), Ok(v), "{}", text),
            None => prop_assert!(eval_with(&text, 0).is_err(), "{}", text),
        }
    }
}
