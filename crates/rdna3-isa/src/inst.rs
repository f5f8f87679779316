//! An instruction as its encoded word, with named access to its fields, and its encoding.
//! The decoder ([`Instruction::decode`]) and its acceptance rules live in the crate's `decode`
//! module.

use std::sync::OnceLock;

use crate::def::{lookup_opcode, Flags, InstrDef, Kind, Opcode};
use crate::dpp::{dpp8_selects, Dpp, DppControl, DppKind, SRC_DPP8, SRC_DPP8_FI};
use crate::fields::{Field, FIELD_COUNT};
use crate::format::{BitRange, Format, Layout, ALL_FORMATS, DPP16_DWORD, DPP8_DWORD, FORMAT_COUNT};
use crate::table::INSTRUCTIONS;

/// SGPR code for "no register" (`null` / `off`) in 7-bit scalar fields.
pub const SGPR_NULL: u32 = 0x7c;
/// Scalar source code: a 32-bit literal follows the instruction.
pub const SRC_LITERAL: u32 = 255;
/// Source code 254, `src_lds_direct`.
pub const SRC_LDS_DIRECT: u32 = 254;

/// One instruction: which table entry, its instruction word, its DPP dword and its literal.
///
/// Fields are read from and written to the word through the format's layout, so every bit
/// of a decoded word is kept and `encode(decode(bytes)) == bytes` for every word that decodes.
/// Fields a format does not have read as 0 and cannot be set.
///
/// A DPP form (an instruction with [`Flags::DPP`] whose `src0` field is 250, 233 or 234, see
/// [`crate::dpp`]) also carries the DPP dword; its fields ([`Field::DppSrc0`],
/// [`Field::DppCtrl`], ...) are read and written with the same [`Instruction::get`] and
/// [`Instruction::set`], and read as 0 on any other instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// Which instruction.
    pub opcode: Opcode,
    pub(crate) word: u64,
    /// The DPP dword (0 unless [`Instruction::dpp_kind`] is `Some`).
    pub(crate) dpp: u32,
    /// The literal dword, when an operand uses one.
    pub literal: Option<u32>,
}

/// Why bytes did not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Fewer bytes than the instruction needs.
    Truncated,
    /// No instruction of the table has this encoding.
    Invalid,
}

/// Where a field sits: bits `lo .. lo + width` are the value's low bits; a split field has
/// a second piece, bits `lo2 .. lo2 + width2`, for value bits `at2 ..` (width 0: absent).
#[derive(Clone, Copy, Default)]
pub(crate) struct Pos {
    lo: u8,
    width: u8,
    lo2: u8,
    width2: u8,
    at2: u8,
}

impl Pos {
    #[inline]
    pub(crate) fn read(self, w: u64) -> u32 {
        if self.width == 0 {
            return 0;
        }
        let mut v = (w >> self.lo) & ((1u64 << self.width) - 1);
        if self.width2 != 0 {
            v |= ((w >> self.lo2) & ((1u64 << self.width2) - 1)) << self.at2;
        }
        v as u32
    }

    #[inline]
    pub(crate) fn write(self, w: u64, v: u32) -> u64 {
        let m1 = (1u64 << self.width) - 1;
        let mut w = (w & !(m1 << self.lo)) | ((v as u64 & m1) << self.lo);
        if self.width2 != 0 {
            let m2 = (1u64 << self.width2) - 1;
            w = (w & !(m2 << self.lo2)) | (((v as u64 >> self.at2) & m2) << self.lo2);
        }
        w
    }
}

/// Rows of [`positions`] after the formats: the DPP16 and DPP8 dwords.
const DPP16_ROW: usize = FORMAT_COUNT;
const DPP8_ROW: usize = FORMAT_COUNT + 1;

/// Rows of [`positions`] after the DPP dwords: the GFX9 layouts, by format.
const GFX9_ROWS: usize = FORMAT_COUNT + 2;

type PosTable = [[Pos; FIELD_COUNT]; GFX9_ROWS + FORMAT_COUNT];

/// The layout of table entry `d`'s format in its table's ISA.
#[inline]
pub(crate) fn layout_of(d: &InstrDef) -> &'static Layout {
    match d.isa {
        crate::schema::Isa::Gfx11 => d.format.layout(),
        crate::schema::Isa::Gfx940 => crate::gfx9::format::layout_of(d.format),
    }
}

/// The row of [`positions`] for table entry `d`: its format's layout in its table's ISA.
#[inline]
pub(crate) fn row(d: &InstrDef) -> usize {
    match d.isa {
        crate::schema::Isa::Gfx11 => d.format.index(),
        crate::schema::Isa::Gfx940 => GFX9_ROWS + d.format.index(),
    }
}

/// Where each field sits in each format, and in the two DPP dwords.
pub(crate) fn positions() -> &'static PosTable {
    static POS: OnceLock<PosTable> = OnceLock::new();
    POS.get_or_init(|| {
        let mut pos = [[Pos::default(); FIELD_COUNT]; GFX9_ROWS + FORMAT_COUNT];
        let fill = |row: &mut [Pos; FIELD_COUNT], l: &Layout| {
            for b in l.fields {
                let p = &mut row[b.field as usize];
                if b.at == 0 {
                    (p.lo, p.width) = (b.lo, b.width);
                } else {
                    (p.lo2, p.width2, p.at2) = (b.lo, b.width, b.at);
                }
            }
        };
        for f in ALL_FORMATS {
            fill(&mut pos[f.index()], f.layout());
        }
        for f in ALL_FORMATS {
            fill(
                &mut pos[GFX9_ROWS + f.index()],
                crate::gfx9::format::layout_of(f),
            );
        }
        fill(&mut pos[DPP16_ROW], &DPP16_DWORD);
        fill(&mut pos[DPP8_ROW], &DPP8_DWORD);
        pos
    })
}

/// Where an instruction may read the literal dword, precomputed per table entry.
#[derive(Clone, Copy, Default)]
struct LiteralSources {
    /// Low bit and width of up to three scalar/vector source fields whose value 255 means a
    /// literal follows (width 0: none).
    fields: [(u8, u8); 3],
    /// An operand is always a literal (`Lit32`, the K of `v_fmaak_*`).
    always: bool,
}

/// The [`LiteralSources`] of table entry `op`.
fn literal_sources(op: Opcode) -> &'static LiteralSources {
    static SOURCES: OnceLock<Vec<LiteralSources>> = OnceLock::new();
    &SOURCES.get_or_init(|| {
        INSTRUCTIONS
            .iter()
            .chain(crate::table_gfx940::INSTRUCTIONS_GFX940)
            .map(literal_sources_of)
            .collect()
    })[op.0 as usize]
}

/// Which of `d`'s source fields may ask for a literal, and whether one always follows.
fn literal_sources_of(d: &InstrDef) -> LiteralSources {
    let mut a = LiteralSources::default();
    let mut n = 0;
    for o in d.operands {
        match o.kind {
            Kind::Ssrc(_)
            | Kind::SsrcReg(_)
            | Kind::BufSoffset
            | Kind::VinterpSrc(_)
            | Kind::VSrc(..)
            | Kind::WmmaAB(_)
            | Kind::WmmaC(_)
                if n < 3 =>
            {
                let p = positions()[row(d)][o.field as usize];
                a.fields[n] = (p.lo, p.width);
                n += 1;
            }
            Kind::Lit32 | Kind::LitK => a.always = true,
            _ => {}
        }
    }
    a
}

impl Instruction {
    /// VOPD: the Y component's table entry (by the OPY field).
    pub fn vopd_y(&self) -> Option<Opcode> {
        if self.def().format != Format::Vopd {
            return None;
        }
        lookup_opcode(Format::Vopd, self.get(Field::OpY))
    }

    /// VOPD: the Y component's destination VGPR (`vdsty` bits \[7:1\], bit 0 the complement
    /// of the X destination's bit 0).
    pub fn vopd_vdst_y(&self) -> u32 {
        self.get(Field::VdstY) << 1 | (!self.get(Field::Vdst) & 1)
    }

    /// An instruction with every field 0 (except the opcode and FLAT segment).
    pub fn new(opcode: Opcode) -> Instruction {
        let d = opcode.def();
        let layout = layout_of(d);
        let op = match d.isa {
            crate::schema::Isa::Gfx11 => d.format.op_range(),
            crate::schema::Isa::Gfx940 => crate::gfx9::format::op_range(d.format),
        };
        Instruction {
            opcode,
            word: layout.ident | (d.opcode as u64) << op.lo,
            dpp: 0,
            literal: None,
        }
    }

    /// The table entry.
    #[inline]
    pub fn def(&self) -> &'static InstrDef {
        self.opcode.def()
    }

    /// Where `f` sits in this instruction's word, if the format has it (for a field split
    /// in two, its low piece; `None` for the DPP dword's fields).
    #[inline]
    pub fn range(&self, f: Field) -> Option<BitRange> {
        if f.in_dpp_dword() {
            return None;
        }
        let p = positions()[row(self.def())][f as usize];
        (p.width > 0).then_some(BitRange {
            field: f,
            lo: p.lo,
            width: p.width,
            at: 0,
        })
    }

    /// The DPP form of this instruction, if it is one: an instruction with [`Flags::DPP`]
    /// whose `src0` field holds 250 (DPP16) or 233/234 (DPP8).
    #[inline]
    pub fn dpp_kind(&self) -> Option<DppKind> {
        let d = self.def();
        if !d.flags.has(Flags::DPP) {
            return None;
        }
        let p = positions()[row(d)][Field::Src0 as usize];
        match d.isa {
            crate::schema::Isa::Gfx11 => DppKind::from_src0(p.read(self.word)),
            // GFX9 has one DPP form (src0 250), laid out as gfx11's DPP16 without `fi`.
            crate::schema::Isa::Gfx940 => (p.read(self.word) == 250).then_some(DppKind::Dpp16),
        }
    }

    /// Whether this is a gfx942 SDWA form ([`Flags::SDWA`] and `src0` 249): an SDWA dword
    /// follows the word (held where a DPP form holds its DPP dword, [`Instruction::dpp_dword`]).
    #[inline]
    pub fn sdwa(&self) -> bool {
        let d = self.def();
        d.isa == crate::schema::Isa::Gfx940
            && d.flags.has(Flags::SDWA)
            && positions()[row(d)][Field::Src0 as usize].read(self.word) == 249
    }

    /// The mnemonic as printed: the table entry's name, or the DPP mnemonic of a DPP form
    /// (`v_add_f32_dpp`, `v_fma_f32_e64_dpp`, ...).
    pub fn mnemonic(&self) -> &'static str {
        let d = self.def();
        match self.dpp_kind() {
            Some(_) => self.opcode.dpp_name().unwrap_or(d.name),
            None if d.flags.has(Flags::BARE_NAME) => {
                let n = d.name;
                n.strip_suffix("_e32")
                    .or(n.strip_suffix("_e64"))
                    .unwrap_or(n)
            }
            None => d.name,
        }
    }

    /// The DPP dword (0 when the instruction is not a DPP form).
    pub fn dpp_dword(&self) -> u32 {
        self.dpp
    }

    /// Everything the DPP form says, decoded (`None` when the instruction is not a DPP form).
    /// `neg`/`abs` are the e32 DPP16 source modifiers; in a VOP3/VOP3P form, whose word has
    /// its own, they are 0 (the dword's bits 20-23 are unused there).
    pub fn dpp(&self) -> Option<Dpp> {
        let kind = self.dpp_kind()?;
        let e32 = matches!(
            self.def().format,
            Format::Vop1 | Format::Vop2 | Format::Vopc
        );
        let e32_mod = |f: Field| if e32 { self.get(f) } else { 0 };
        Some(match kind {
            DppKind::Dpp16 => Dpp {
                kind,
                src0: self.get(Field::DppSrc0),
                ctrl: Some(DppControl::from_bits(self.get(Field::DppCtrl))),
                sel: [0; 8],
                row_mask: self.get(Field::RowMask),
                bank_mask: self.get(Field::BankMask),
                bound_ctrl: self.get(Field::BoundCtrl) == 1,
                fi: self.get(Field::Fi) == 1,
                neg: e32_mod(Field::DppNeg),
                abs: e32_mod(Field::DppAbs),
            },
            DppKind::Dpp8 => Dpp {
                kind,
                src0: self.get(Field::DppSrc0),
                ctrl: None,
                sel: dpp8_selects(self.get(Field::Dpp8Sel)),
                row_mask: 0xf,
                bank_mask: 0xf,
                bound_ctrl: false,
                fi: self.get(Field::Fi) == 1,
                neg: 0,
                abs: 0,
            },
        })
    }

    /// Raw value of a field (0 if the format has no such field).
    ///
    /// Split fields read as one value (VOP3P [`Field::OpSelHi`]: bits 0-1 from word bits
    /// 59-60, bit 2 from word bit 14). The DPP dword's fields read from it when the
    /// instruction is a DPP form of the matching kind, else 0; DPP8's [`Field::Fi`] is
    /// whether `src0` is 234.
    #[inline]
    pub fn get(&self, f: Field) -> u32 {
        if f.in_dpp_dword() {
            return match self.dpp_kind() {
                None => 0,
                Some(DppKind::Dpp8) if f == Field::Fi => {
                    (self.get(Field::Src0) == SRC_DPP8_FI) as u32
                }
                Some(DppKind::Dpp16) => positions()[DPP16_ROW][f as usize].read(self.dpp as u64),
                Some(DppKind::Dpp8) => positions()[DPP8_ROW][f as usize].read(self.dpp as u64),
            };
        }
        positions()[row(self.def())][f as usize].read(self.word)
    }

    /// Sets the raw value of a field, masked to its width; a field the format does not have
    /// is ignored (so are the DPP dword's fields while the instruction is not a DPP form:
    /// set [`Field::Src0`] to a DPP selector first). Setting `src0` to something else than
    /// a DPP selector clears the DPP dword; setting DPP8's [`Field::Fi`] picks `src0` 233 or
    /// 234.
    #[inline]
    pub fn set(&mut self, f: Field, v: u32) {
        if f.in_dpp_dword() {
            match self.dpp_kind() {
                None => {}
                Some(DppKind::Dpp8) if f == Field::Fi => {
                    self.set(Field::Src0, if v & 1 == 1 { SRC_DPP8_FI } else { SRC_DPP8 })
                }
                Some(DppKind::Dpp16) => {
                    let p = positions()[DPP16_ROW][f as usize];
                    if p.width > 0 {
                        self.dpp = p.write(self.dpp as u64, v) as u32;
                    }
                }
                Some(DppKind::Dpp8) => {
                    let p = positions()[DPP8_ROW][f as usize];
                    if p.width > 0 {
                        self.dpp = p.write(self.dpp as u64, v) as u32;
                    }
                }
            }
            return;
        }
        let p = positions()[row(self.def())][f as usize];
        if p.width > 0 {
            self.word = p.write(self.word, v);
            if f == Field::Src0 && self.dpp_kind().is_none() {
                self.dpp = 0;
            }
        }
    }

    /// Whether an operand uses the literal dword.
    pub fn needs_literal(&self) -> bool {
        let a = literal_sources(self.opcode);
        if let Some(y) = self.vopd_y() {
            if y.def().operands.iter().any(|o| o.kind == Kind::LitK)
                || self.get(Field::Src0Y) == SRC_LITERAL
            {
                return true;
            }
        }
        a.always
            || a.fields.iter().any(|&(lo, width)| {
                width != 0 && (self.word >> lo) & ((1 << width) - 1) == SRC_LITERAL as u64
            })
    }

    /// Size in bytes: the word, the DPP dword and the literal.
    pub fn size(&self) -> usize {
        layout_of(self.def()).size as usize
            + if self.dpp_kind().is_some() || self.sdwa() {
                4
            } else {
                0
            }
            + if self.literal.is_some() { 4 } else { 0 }
    }

    /// The instruction word (up to 64 bits), without the DPP dword and the literal.
    #[inline]
    pub fn word(&self) -> u64 {
        self.word
    }

    /// Appends the little-endian encoding to `out`: the word, then the DPP dword of a DPP
    /// form, then the literal.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        let size = layout_of(self.def()).size as usize;
        out.extend_from_slice(&self.word.to_le_bytes()[..size]);
        if self.dpp_kind().is_some() || self.sdwa() {
            out.extend_from_slice(&self.dpp.to_le_bytes());
        }
        if let Some(l) = self.literal {
            out.extend_from_slice(&l.to_le_bytes());
        }
    }

    /// The little-endian encoding.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(16);
        self.encode_into(&mut v);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dpp::DppControl;

    fn decode(bytes: &[u8]) -> Instruction {
        let (inst, size) = Instruction::decode(bytes).expect("decodes");
        assert_eq!(size, bytes.len());
        inst
    }

    #[test]
    fn an_e32_dpp16_word_exposes_its_control_masks_and_modifiers() {
        // tools/DPP_VOP3P_NOTES.md §1.2: v_add_f32_dpp v40, -|v10|, v20 quad_perm:[3,2,1,0]
        // row_mask:0x5 bank_mask:0xa bound_ctrl:1 fi:1 (dword bits 18-21 set).
        let inst = decode(&[0xfa, 0x28, 0x50, 0x06, 0x0a, 0x1b, 0x3c, 0x5a]);
        assert_eq!(inst.mnemonic(), "v_add_f32_dpp");
        assert_eq!(inst.get(Field::Src0), 250);
        assert_eq!(inst.get(Field::Vsrc1), 20);
        assert_eq!(inst.get(Field::DppSrc0), 10);
        assert_eq!(inst.get(Field::DppCtrl), 0x1b);
        assert_eq!(
            (inst.get(Field::RowMask), inst.get(Field::BankMask)),
            (5, 0xa)
        );
        assert_eq!((inst.get(Field::BoundCtrl), inst.get(Field::Fi)), (1, 1));
        assert_eq!((inst.get(Field::DppNeg), inst.get(Field::DppAbs)), (1, 1));
        let d = inst.dpp().expect("a DPP form");
        assert_eq!(d.kind, DppKind::Dpp16);
        assert_eq!(d.ctrl, Some(DppControl::QuadPerm([3, 2, 1, 0])));
        assert_eq!((d.src0, d.row_mask, d.bank_mask), (10, 5, 0xa));
        assert!(d.bound_ctrl && d.fi);
        assert_eq!((d.neg, d.abs), (1, 1));
    }

    #[test]
    fn a_dpp8_word_takes_fi_from_src0() {
        // §1.3: v_add_f32_dpp v40, v10, v20 dpp8:[3,1,4,1,5,2,6,5] fi:1 (src0 = 234).
        let mut inst = decode(&[0xea, 0x28, 0x50, 0x06, 0x0a, 0x0b, 0x53, 0xb9]);
        let d = inst.dpp().expect("a DPP form");
        assert_eq!((d.kind, d.src0, d.fi), (DppKind::Dpp8, 10, true));
        assert_eq!(d.sel, [3, 1, 4, 1, 5, 2, 6, 5]);
        assert_eq!(d.ctrl, None);
        assert_eq!(inst.get(Field::Dpp8Sel), 0xb9530b);
        assert_eq!(inst.get(Field::DppCtrl), 0, "DPP8 has no control field");
        inst.set(Field::Fi, 0);
        assert_eq!(inst.get(Field::Src0), 233);
        assert_eq!(inst.encode()[0], 0xe9);
        assert_eq!(inst.dpp().map(|d| d.sel), Some([3, 1, 4, 1, 5, 2, 6, 5]));
    }

    #[test]
    fn a_vop3_dpp_word_keeps_the_unused_dword_bits_but_reports_no_e32_modifiers() {
        // §1.4: dword bits 20-23 set in v_fma_f32_e64_dpp are ignored (and kept).
        let bytes = [
            0x28, 0x00, 0x13, 0xd6, 0xfa, 0x28, 0x7a, 0x04, 0x0a, 0x1b, 0xf0, 0x5a,
        ];
        let inst = decode(&bytes);
        assert_eq!(inst.mnemonic(), "v_fma_f32_e64_dpp");
        assert_eq!(inst.encode(), bytes);
        assert_eq!(inst.get(Field::DppNeg), 3, "the raw bits are kept");
        let d = inst.dpp().expect("a DPP form");
        assert_eq!((d.neg, d.abs), (0, 0));
        assert_eq!(inst.get(Field::Src1), 256 + 20);
    }

    #[test]
    fn vop3p_op_sel_hi_reads_and_writes_both_pieces() {
        // §1.5: v_pk_fma_f16 op_sel_hi:[0,1,1] clears bit 59 only.
        let mut inst = decode(&[0x28, 0x40, 0x0e, 0xcc, 0x0a, 0x29, 0x7a, 0x14]);
        assert_eq!(inst.get(Field::OpSelHi), 0b110);
        inst.set(Field::OpSelHi, 0b011);
        assert_eq!(inst.word() >> 59 & 3, 3);
        assert_eq!(inst.word() >> 14 & 1, 0);
        assert_eq!(inst.get(Field::OpSelHi), 0b011);
        inst.set(Field::NegLo, 0b100);
        inst.set(Field::NegHi, 0b001);
        assert_eq!((inst.word() >> 61, inst.word() >> 8 & 7), (0b100, 0b001));
    }

    #[test]
    fn dpp_fields_read_zero_and_ignore_writes_outside_dpp_forms() {
        let mut inst = decode(&[0x01, 0x05, 0x00, 0x06]); // v_add_f32_e32 v0, v1, v2
        inst.set(Field::DppCtrl, 0x101);
        assert_eq!(inst.get(Field::DppCtrl), 0);
        assert_eq!(inst.dpp(), None);
        assert_eq!(inst.encode(), [0x01, 0x05, 0x00, 0x06]);
        // Selecting DPP16 makes the dword appear; leaving it drops the dword again.
        inst.set(Field::Src0, 250);
        inst.set(Field::DppCtrl, 0x101);
        assert_eq!(inst.size(), 8);
        inst.set(Field::Src0, 257);
        assert_eq!((inst.size(), inst.dpp_dword()), (4, 0));
    }
}
