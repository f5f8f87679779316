//! DPP (data-parallel primitives): the DPP16 and DPP8 forms of the VOP1/VOP2/VOPC/VOP3/VOP3P
//! instructions, their lane-selection controls, and how llvm-mc-19 writes them.
//!
//! DPP is not a format of its own: the instruction word is an ordinary vector-ALU word whose
//! 9-bit `src0` field holds a DPP selector ([`SRC_DPP16`], [`SRC_DPP8`], [`SRC_DPP8_FI`]),
//! and one more dword follows the word (after the 32-bit e32 word, or the 64-bit VOP3/VOP3P
//! word; a literal, if any, comes after it). The DPP dword holds the real source-0 VGPR and
//! the lane selection; its fields are [`crate::Field::DppSrc0`], [`crate::Field::DppCtrl`], [`crate::Field::Fi`],
//! [`crate::Field::BoundCtrl`], [`crate::Field::DppNeg`], [`crate::Field::DppAbs`], [`crate::Field::BankMask`],
//! [`crate::Field::RowMask`] (DPP16) and [`crate::Field::DppSrc0`], [`crate::Field::Dpp8Sel`] (DPP8), read with
//! [`crate::Instruction::get`]; [`crate::Instruction::dpp`] gathers them into a [`Dpp`].
//!
//! Every encoding and printing rule here was surveyed against `llvm-mc-19 -mcpu=gfx1100` by
//! `tools/survey_dpp.py` (notes: `tools/DPP_VOP3P_NOTES.md` §1-3).

use crate::lex::{no_symbols, Cursor, PResult, ParseError, Tok};

/// `src0` code that selects DPP16.
pub const SRC_DPP16: u32 = 250;
/// `src0` code that selects DPP8 without `fi`.
pub const SRC_DPP8: u32 = 233;
/// `src0` code that selects DPP8 with `fi:1`.
pub const SRC_DPP8_FI: u32 = 234;

/// Which DPP form an instruction uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppKind {
    /// Rows of 16 lanes, a [`DppControl`], row/bank masks, `bound_ctrl`, `fi`.
    Dpp16,
    /// Groups of 8 lanes, each lane reading the lane its 3-bit select names.
    Dpp8,
}

impl DppKind {
    /// The DPP form a `src0` code selects, if any.
    pub fn from_src0(code: u32) -> Option<DppKind> {
        match code {
            SRC_DPP16 => Some(DppKind::Dpp16),
            SRC_DPP8 | SRC_DPP8_FI => Some(DppKind::Dpp8),
            _ => None,
        }
    }
}

/// A DPP16 lane-selection control (the 9-bit `dpp_ctrl` field), as LLVM's
/// `AMDGPU::DPP::DppCtrl` names the values.
///
/// Which lane a lane reads (tools/DPP_VOP3P_NOTES.md §6.1; `r` = the lane's row base
/// `lane & !15`, `i` = `lane & 15`): `QuadPerm(s)`: `(lane & !3) + s[lane & 3]`;
/// `RowShl(n)`: `r + i + n`, out of range past 15; `RowShr(n)`: `r + i - n`, out of range
/// below 0; `RowRor(n)`: `r + ((i - n) & 15)`; `RowMirror`: `r + 15 - i`;
/// `RowHalfMirror`: `(lane & !7) + 7 - (lane & 7)`; `RowShare(n)`: `r + n`;
/// `RowXmask(n)`: `r + (i ^ n)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DppControl {
    /// `quad_perm:[a,b,c,d]` (0x000-0x0ff): lane `k` of each quad reads lane `sel[k]`.
    QuadPerm([u8; 4]),
    /// `row_shl:n` (0x101-0x10f), n = 1-15.
    RowShl(u8),
    /// `row_shr:n` (0x111-0x11f), n = 1-15.
    RowShr(u8),
    /// `row_ror:n` (0x121-0x12f), n = 1-15.
    RowRor(u8),
    /// `row_mirror` (0x140).
    RowMirror,
    /// `row_half_mirror` (0x141).
    RowHalfMirror,
    /// `row_share:n` (0x150-0x15f), n = 0-15.
    RowShare(u8),
    /// `row_xmask:n` (0x160-0x16f), n = 0-15.
    RowXmask(u8),
    /// A GFX9 control that gfx11 dropped (`wave_shl`, `wave_rol`, `wave_shr`, `wave_ror`,
    /// `row_bcast`: 0x130, 0x134, 0x138, 0x13c, 0x142, 0x143). The decoder accepts the word
    /// (llvm-mc-19 prints a comment in place of the control); what the hardware does is not
    /// documented, so an executor should refuse it.
    Unsupported(u16),
    /// Any other value (0x100, 0x110, 0x120, 0x131-0x13f apart from the above, 0x144-0x14f,
    /// 0x170-0x1ff): decoded, printed `/* Invalid dpp_ctrl value */`, undefined.
    Invalid(u16),
}

impl DppControl {
    /// The control a 9-bit `dpp_ctrl` value encodes.
    pub fn from_bits(v: u32) -> DppControl {
        let v = (v & 0x1ff) as u16;
        let n = (v & 0xf) as u8;
        match v {
            0x000..=0x0ff => DppControl::QuadPerm([
                (v & 3) as u8,
                (v >> 2 & 3) as u8,
                (v >> 4 & 3) as u8,
                (v >> 6 & 3) as u8,
            ]),
            0x101..=0x10f => DppControl::RowShl(n),
            0x111..=0x11f => DppControl::RowShr(n),
            0x121..=0x12f => DppControl::RowRor(n),
            0x140 => DppControl::RowMirror,
            0x141 => DppControl::RowHalfMirror,
            0x150..=0x15f => DppControl::RowShare(n),
            0x160..=0x16f => DppControl::RowXmask(n),
            0x130 | 0x134 | 0x138 | 0x13c | 0x142 | 0x143 => DppControl::Unsupported(v),
            _ => DppControl::Invalid(v),
        }
    }

    /// The 9-bit `dpp_ctrl` value.
    pub fn bits(self) -> u32 {
        let v = match self {
            DppControl::QuadPerm(s) => {
                (s[0] & 3) as u16
                    | ((s[1] & 3) as u16) << 2
                    | ((s[2] & 3) as u16) << 4
                    | ((s[3] & 3) as u16) << 6
            }
            DppControl::RowShl(n) => 0x100 | (n & 0xf) as u16,
            DppControl::RowShr(n) => 0x110 | (n & 0xf) as u16,
            DppControl::RowRor(n) => 0x120 | (n & 0xf) as u16,
            DppControl::RowMirror => 0x140,
            DppControl::RowHalfMirror => 0x141,
            DppControl::RowShare(n) => 0x150 | (n & 0xf) as u16,
            DppControl::RowXmask(n) => 0x160 | (n & 0xf) as u16,
            DppControl::Unsupported(v) | DppControl::Invalid(v) => v & 0x1ff,
        };
        v as u32
    }

    /// The text llvm-mc-19 prints for the control (a comment for the values gfx11 lacks).
    pub fn text(self) -> String {
        match self {
            DppControl::QuadPerm(s) => format!("quad_perm:[{},{},{},{}]", s[0], s[1], s[2], s[3]),
            DppControl::RowShl(n) => format!("row_shl:{n}"),
            DppControl::RowShr(n) => format!("row_shr:{n}"),
            DppControl::RowRor(n) => format!("row_ror:{n}"),
            DppControl::RowMirror => "row_mirror".into(),
            DppControl::RowHalfMirror => "row_half_mirror".into(),
            DppControl::RowShare(n) => format!("row_share:{n}"),
            DppControl::RowXmask(n) => format!("row_xmask:{n}"),
            DppControl::Unsupported(v) => {
                let name = match v {
                    0x130 => "wave_shl",
                    0x134 => "wave_rol",
                    0x138 => "wave_shr",
                    0x13c => "wave_ror",
                    _ => "row_bcast",
                };
                format!("/* {name} is not supported starting from GFX10 */")
            }
            DppControl::Invalid(_) => "/* Invalid dpp_ctrl value */".into(),
        }
    }
}

/// Everything the DPP dword (and the DPP selector in `src0`) says, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dpp {
    /// DPP16 or DPP8.
    pub kind: DppKind,
    /// The VGPR number of source 0 (0-255; for `v_mov_b16` bit 7 picks the high half).
    pub src0: u32,
    /// DPP16: the lane-selection control (DPP8: `None`).
    pub ctrl: Option<DppControl>,
    /// DPP8: lane `k` of each group of 8 reads lane `sel[k]` of its group (DPP16: zeros).
    pub sel: [u8; 8],
    /// DPP16 row mask (bit `r` enables row `r`); DPP8: 0xf.
    pub row_mask: u32,
    /// DPP16 bank mask (bit `b` enables lanes with `(lane >> 2) & 3 == b`); DPP8: 0xf.
    pub bank_mask: u32,
    /// DPP16 `bound_ctrl:1`: an out-of-range source lane reads 0 (else the lane keeps its
    /// destination). DPP8: false.
    pub bound_ctrl: bool,
    /// `fi:1`: a source lane whose EXEC bit is 0 is read normally (else it reads 0).
    pub fi: bool,
    /// e32 DPP16: negate source 0 (bit 0) / source 1 (bit 1) — `Field::DppNeg`. In
    /// VOP3/VOP3P DPP forms this is 0 and the word's `neg` bits apply.
    pub neg: u32,
    /// e32 DPP16: absolute value of source 0 (bit 0) / source 1 (bit 1) — `Field::DppAbs`.
    pub abs: u32,
}

/// The eight 3-bit selects of a DPP8 `Dpp8Sel` value.
pub fn dpp8_selects(v: u32) -> [u8; 8] {
    let mut s = [0u8; 8];
    for (i, x) in s.iter_mut().enumerate() {
        *x = (v >> (3 * i) & 7) as u8;
    }
    s
}

/// The DPP text that ends a DPP16 instruction: the control, both masks (always printed, one
/// lower-case hex digit), then `bound_ctrl:1` and `fi:1` when set.
pub fn dpp16_text(ctrl: u32, row_mask: u32, bank_mask: u32, bound_ctrl: bool, fi: bool) -> String {
    let mut s = format!(
        "{} row_mask:0x{:x} bank_mask:0x{:x}",
        DppControl::from_bits(ctrl).text(),
        row_mask & 0xf,
        bank_mask & 0xf
    );
    if bound_ctrl {
        s.push_str(" bound_ctrl:1");
    }
    if fi {
        s.push_str(" fi:1");
    }
    s
}

/// The DPP text that ends a DPP8 instruction: `dpp8:[s0,...,s7]`, then `fi:1` when set.
pub fn dpp8_text(sel: u32, fi: bool) -> String {
    let s = dpp8_selects(sel);
    let mut t = format!(
        "dpp8:[{},{},{},{},{},{},{},{}]",
        s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
    );
    if fi {
        t.push_str(" fi:1");
    }
    t
}

/// Identifiers that can only start (or belong to) the DPP part of a statement. A statement
/// that contains one is parsed as a DPP form.
pub const DPP_WORDS: [&str; 20] = [
    "quad_perm",
    "row_shl",
    "row_shr",
    "row_ror",
    "row_mirror",
    "row_half_mirror",
    "row_share",
    "row_xmask",
    "row_newbcast",
    "row_bcast",
    "wave_shl",
    "wave_shr",
    "wave_rol",
    "wave_ror",
    "dpp8",
    "dpp_ctrl",
    "row_mask",
    "bank_mask",
    "bound_ctrl",
    "fi",
];

/// The DPP part of a statement, parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DppText {
    /// A DPP16 control with its masks, `bound_ctrl` and `fi`.
    Dpp16 {
        /// 9-bit control.
        ctrl: u32,
        /// Row mask (4 bits).
        row_mask: u32,
        /// Bank mask (4 bits).
        bank_mask: u32,
        /// `bound_ctrl:1`.
        bound_ctrl: bool,
        /// `fi:1`.
        fi: bool,
    },
    /// DPP8 selects (24 bits) and `fi`.
    Dpp8 {
        /// The `Dpp8Sel` value.
        sel: u32,
        /// `fi:1`.
        fi: bool,
    },
}

const NOT_VALID: &str = "not a valid operand.";
const INVALID_OPERAND: &str = "invalid operand for instruction";

/// `[a,b,...]` of `n` values below `limit`, as llvm-mc-19 reads `quad_perm:` and `dpp8:`.
fn lane_list(c: &mut Cursor, n: usize, limit: i64, what: &str) -> PResult<Vec<i64>> {
    c.expect_punct('[', "expected an opening square bracket")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        if i > 0 {
            c.expect_punct(',', "expected a comma")?;
        }
        let col = c.col();
        let v = c.expr(&no_symbols)?;
        if !(0..limit).contains(&v) {
            return Err(ParseError::new(col, what));
        }
        out.push(v);
    }
    c.expect_punct(']', "expected a closing square bracket")?;
    Ok(out)
}

/// `name:` (the colon is required; spaces around it are fine).
fn colon(c: &mut Cursor) -> PResult<()> {
    let col = c.col();
    if !c.eat_punct(':') {
        return Err(ParseError::new(col, INVALID_OPERAND));
    }
    Ok(())
}

/// Parses the DPP part at the end of a statement (the cursor is at its first word), as
/// llvm-mc-19 reads it (tools/DPP_VOP3P_NOTES.md §3.3): a DPP16 control, then optionally
/// `row_mask:`, `bank_mask:`, `bound_ctrl:`, `fi:` in that order (masks default to 0xf and
/// are truncated to 4 bits; `fi` is truncated to 1 bit; `bound_ctrl` must be 0 or 1); or
/// `dpp8:[...]` then optionally `fi:`. Nothing may follow.
pub fn parse_dpp(c: &mut Cursor) -> PResult<DppText> {
    let col = c.col();
    let Some(word) = c.peek_ident().map(str::to_string) else {
        return Err(ParseError::new(col, NOT_VALID));
    };
    if word == "dpp8" {
        c.bump();
        colon(c)?;
        let s = lane_list(c, 8, 8, "expected a 3-bit value")?;
        let sel = s
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &v)| acc | (v as u32) << (3 * i));
        let mut fi = false;
        if c.eat_ident("fi") {
            colon(c)?;
            fi = c.expr(&no_symbols)? & 1 == 1;
        }
        if !c.at_end() {
            return Err(ParseError::new(c.col(), INVALID_OPERAND));
        }
        return Ok(DppText::Dpp8 { sel, fi });
    }
    let ctrl = match word.as_str() {
        "quad_perm" => {
            c.bump();
            colon(c)?;
            let s = lane_list(c, 4, 4, "expected a 2-bit value")?;
            s.iter()
                .enumerate()
                .fold(0u32, |acc, (i, &v)| acc | (v as u32) << (2 * i))
        }
        "row_mirror" => {
            c.bump();
            if c.is_punct(':') {
                return Err(ParseError::new(c.col(), "unknown token in expression"));
            }
            0x140
        }
        "row_half_mirror" => {
            c.bump();
            if c.is_punct(':') {
                return Err(ParseError::new(c.col(), "unknown token in expression"));
            }
            0x141
        }
        "row_shl" | "row_shr" | "row_ror" | "row_share" | "row_xmask" => {
            c.bump();
            colon(c)?;
            let vcol = c.col();
            let v = c.expr(&no_symbols)?;
            let (base, lo) = match word.as_str() {
                "row_shl" => (0x100, 1),
                "row_shr" => (0x110, 1),
                "row_ror" => (0x120, 1),
                "row_share" => (0x150, 0),
                _ => (0x160, 0),
            };
            if !(lo..=15).contains(&v) {
                return Err(ParseError::new(vcol, format!("invalid {word} value")));
            }
            base | v as u32
        }
        _ => return Err(ParseError::new(col, NOT_VALID)),
    };
    let (mut row_mask, mut bank_mask, mut bound_ctrl, mut fi) = (0xf, 0xf, false, false);
    let mut stage = 0;
    while !c.at_end() {
        let mcol = c.col();
        let Some(name) = c.peek_ident().map(str::to_string) else {
            return Err(ParseError::new(mcol, INVALID_OPERAND));
        };
        let rank = match name.as_str() {
            "row_mask" => 1,
            "bank_mask" => 2,
            "bound_ctrl" => 3,
            "fi" => 4,
            _ if DPP_WORDS.contains(&name.as_str()) => {
                return Err(ParseError::new(mcol, NOT_VALID))
            }
            _ => return Err(ParseError::new(mcol, INVALID_OPERAND)),
        };
        if rank <= stage {
            // llvm-mc-19: masks out of order are "not a valid operand."; bound_ctrl/fi
            // out of order or repeated, "invalid operand for instruction".
            let msg = if rank <= 2 {
                NOT_VALID
            } else {
                INVALID_OPERAND
            };
            return Err(ParseError::new(mcol, msg));
        }
        stage = rank;
        c.bump();
        colon(c)?;
        let vcol = c.col();
        let v = c.expr(&no_symbols)?;
        match rank {
            1 => row_mask = v as u32 & 0xf,
            2 => bank_mask = v as u32 & 0xf,
            3 => {
                if !(0..=1).contains(&v) {
                    return Err(ParseError::new(vcol, "invalid bound_ctrl value."));
                }
                bound_ctrl = v == 1;
            }
            _ => fi = v & 1 == 1,
        }
    }
    Ok(DppText::Dpp16 {
        ctrl,
        row_mask,
        bank_mask,
        bound_ctrl,
        fi,
    })
}

/// Whether any identifier of the statement is a DPP word ([`DPP_WORDS`]).
pub fn mentions_dpp(toks: &[crate::lex::Token<'_>]) -> bool {
    toks.iter()
        .skip(1)
        .any(|t| matches!(t.tok, Tok::Ident(s) if DPP_WORDS.contains(&s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_value_round_trips_through_its_bits() {
        for v in 0..512u32 {
            let c = DppControl::from_bits(v);
            assert_eq!(c.bits(), v, "{v:#x}");
        }
    }

    #[test]
    fn controls_print_as_llvm_mc_19_names_them() {
        // tools/DPP_VOP3P_NOTES.md §3.1 (all 512 values were compared there).
        let cases = [
            (0x0e4, "quad_perm:[0,1,2,3]"),
            (0x01b, "quad_perm:[3,2,1,0]"),
            (0x101, "row_shl:1"),
            (0x11f, "row_shr:15"),
            (0x12b, "row_ror:11"),
            (0x140, "row_mirror"),
            (0x141, "row_half_mirror"),
            (0x150, "row_share:0"),
            (0x16f, "row_xmask:15"),
            (0x100, "/* Invalid dpp_ctrl value */"),
            (0x130, "/* wave_shl is not supported starting from GFX10 */"),
            (0x13c, "/* wave_ror is not supported starting from GFX10 */"),
            (
                0x143,
                "/* row_bcast is not supported starting from GFX10 */",
            ),
            (0x170, "/* Invalid dpp_ctrl value */"),
        ];
        for (v, text) in cases {
            assert_eq!(DppControl::from_bits(v).text(), text, "{v:#x}");
        }
    }

    #[test]
    fn dpp8_selects_are_three_bits_per_lane() {
        // dpp8:[3,1,4,1,5,2,6,5] is dword bits 31:8 = 0xb9530b (the survey's base word).
        assert_eq!(dpp8_selects(0xb9530b), [3, 1, 4, 1, 5, 2, 6, 5]);
        assert_eq!(dpp8_text(0xb9530b, true), "dpp8:[3,1,4,1,5,2,6,5] fi:1");
    }
}
