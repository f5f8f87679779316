//! An instruction as its encoded word, with named access to its fields, and its encoding and
//! decoding.

use std::sync::OnceLock;

use crate::def::{lookup_opcode, Flags, InstrDef, Kind, Opcode, SrcMods, Wave};
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
    word: u64,
    /// The DPP dword (0 unless [`Instruction::dpp_kind`] is `Some`).
    dpp: u32,
    /// The literal dword, when an operand uses one.
    pub literal: Option<u32>,
}

/// Why bytes did not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Fewer bytes than the instruction needs.
    Truncated,
    /// No instruction of the table has this encoding.
    Invalid,
}

/// Where a field sits: bits `lo .. lo + width` are the value's low bits; a split field has
/// a second piece, bits `lo2 .. lo2 + width2`, for value bits `at2 ..` (width 0: absent).
#[derive(Clone, Copy, Default)]
struct Pos {
    lo: u8,
    width: u8,
    lo2: u8,
    width2: u8,
    at2: u8,
}

impl Pos {
    #[inline]
    fn read(self, w: u64) -> u32 {
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
    fn write(self, w: u64, v: u32) -> u64 {
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

type PosTable = [[Pos; FIELD_COUNT]; FORMAT_COUNT + 2];

/// Where each field sits in each format, and in the two DPP dwords.
fn positions() -> &'static PosTable {
    static POS: OnceLock<PosTable> = OnceLock::new();
    POS.get_or_init(|| {
        let mut pos = [[Pos::default(); FIELD_COUNT]; FORMAT_COUNT + 2];
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
        fill(&mut pos[DPP16_ROW], &DPP16_DWORD);
        fill(&mut pos[DPP8_ROW], &DPP8_DWORD);
        pos
    })
}

/// What the decoder checks beyond the opcode, precomputed per table entry: bits that must be
/// zero, bits that must be one, and where a scalar source may ask for a literal.
#[derive(Clone, Copy, Default)]
struct Accept {
    must_zero: u64,
    must_one: u64,
    /// Low bit and width of up to three scalar/vector source fields whose value 255 means a
    /// literal follows (width 0: none).
    literal_src: [(u8, u8); 3],
    always_literal: bool,
    /// VOP1/VOP2/VOPC/VOP3 with an operand of several registers ([`vector_regs_ok`]).
    wide_regs: bool,
}

fn field_mask(format: Format, f: Field) -> u64 {
    let p = positions()[format.index()][f as usize];
    p.write(0, u32::MAX)
}

/// The decoder's acceptance rules beyond the opcode, as llvm-mc-19 applies them (each was
/// observed by disassembling words with the field set):
/// - DS words must have zero in every register field the instruction does not use; the
///   GWS/ordered-count/GS-register opcodes need the `gds` bit, and `ds_nop`, the BVH stack and
///   the permutes must not have it; `ds_nop` needs a zero offset.
/// - FLAT-segment words need `saddr` = off (0x7c).
/// - `s_atc_probe*` must not set `glc` or `dlc`.
/// - SOPP instructions without an operand need `simm16` = 0.
/// - VOP3: a source field the instruction does not use must be 0; the `abs` and `neg` bits
///   of a source without [`Flags::VOP3_NEG_ABS0`] (..2) must be 0 (abs is VOP3SD's sdst),
///   `omod` without [`Flags::VOP3_OMOD`] and `clamp` without [`Flags::VOP3_CLAMP`]. An SGPR
///   destination in vdst takes codes 0-127, and a scalar-only source no VGPR. (`op_sel`
///   bits of these instructions are ignored: kept in the word, not printed.)
fn accept_rules(d: &InstrDef) -> Accept {
    let f = d.format;
    let mut a = Accept {
        literal_src: [(0, 0); 3],
        ..Accept::default()
    };
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
                let p = positions()[f.index()][o.field as usize];
                a.literal_src[n] = (p.lo, p.width);
                n += 1;
            }
            Kind::Lit32 | Kind::LitK => a.always_literal = true,
            _ => {}
        }
        if matches!(o.kind, Kind::V(2..) | Kind::VSrc(2.., _))
            && matches!(f, Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3)
        {
            a.wide_regs = true;
        }
    }
    match f {
        Format::Ds => {
            for r in [Field::Addr, Field::Data0, Field::Data1, Field::Vdst] {
                if d.operand(r).is_none() {
                    a.must_zero |= field_mask(f, r);
                }
            }
            if d.flags.has(Flags::GDS_ONLY) {
                a.must_one |= field_mask(f, Field::Gds);
            }
            if d.flags.has(Flags::NO_GDS) {
                a.must_zero |= field_mask(f, Field::Gds);
            }
            if d.name == "ds_nop" {
                a.must_zero |= field_mask(f, Field::Offset0) | field_mask(f, Field::Offset1);
            }
        }
        // LDSDIR bits 22-23 are reserved; FLAT/GLOBAL have no `sve` bit; MTBUF and the
        // buffer atomics take no `tfe` (llvm-mc-19 rejects such words).
        Format::Ldsdir => a.must_zero |= 0b11 << 22,
        Format::Global => a.must_zero |= field_mask(f, Field::Sve),
        Format::Mtbuf => a.must_zero |= field_mask(f, Field::Tfe),
        Format::Mubuf if d.name.starts_with("buffer_atomic_") || d.flags.has(Flags::LDS) => {
            a.must_zero |= field_mask(f, Field::Tfe)
        }
        // The cache invalidations without operands: `glc`, `dlc` (and for MUBUF `tfe`,
        // `offen`, `idxen`) must be clear; the other bits are ignored.
        Format::Mubuf if d.operands.is_empty() => {
            a.must_zero |= 0b11 << 13 | 0b111 << 53;
        }
        Format::Smem if d.operands.is_empty() => {
            a.must_zero |= field_mask(f, Field::Glc) | field_mask(f, Field::Dlc);
        }
        Format::Vinterp if !d.flags.has(Flags::OP_SEL) => {
            a.must_zero |= field_mask(f, Field::OpSel);
        }
        Format::Flat => {
            a.must_zero |= field_mask(f, Field::Sve);
            let m = field_mask(f, Field::Saddr);
            a.must_one |= (SGPR_NULL as u64) << 48;
            a.must_zero |= m & !((SGPR_NULL as u64) << 48);
        }
        Format::Smem if d.name.starts_with("s_atc_probe") => {
            a.must_zero |= field_mask(f, Field::Glc) | field_mask(f, Field::Dlc);
        }
        Format::Sopp if d.operands.is_empty() => {
            a.must_zero |= field_mask(f, Field::Simm16);
        }
        Format::Vop3 => {
            let sdst = d.operand(Field::Sdst).is_some();
            for (i, src) in [Field::Src0, Field::Src1, Field::Src2]
                .into_iter()
                .enumerate()
            {
                if d.operand(src).is_none() {
                    a.must_zero |= field_mask(f, src);
                }
                if d.source_mods(i) == SrcMods::None {
                    a.must_zero |= 1 << (61 + i);
                    // VOP3SD's sdst overlays abs.
                    if !sdst {
                        a.must_zero |= 1 << (8 + i);
                    }
                }
            }
            if let Some(l) = d.op_sel_layout() {
                a.must_zero |= l.rejected;
            }
            if !d.flags.has(Flags::VOP3_OMOD) {
                a.must_zero |= field_mask(f, Field::Omod);
            }
            if !d.flags.has(Flags::VOP3_CLAMP) {
                a.must_zero |= field_mask(f, Field::Clamp);
            }
            // `v_nop_e64`, `v_pipeflush_e64`: vdst must be 0 too.
            if d.flags.has(Flags::BARE_NAME) {
                a.must_zero |= field_mask(f, Field::Vdst);
            }
            // An SGPR destination in the 8-bit vdst field (compares, `v_readlane_b32`): the
            // codes 128-255 are constants, which llvm-mc-19 prints as invalid.
            if matches!(d.operand(Field::Vdst), Some(o) if matches!(o.kind, Kind::S(_))) {
                a.must_zero |= 0x80;
            }
            // (A VGPR in a scalar-only source decodes: the printer marks it.)
        }
        Format::Vop3p => {
            // tools/DPP_VOP3P_NOTES.md §5.1-5.2: a two-source instruction needs src2 = 0 and
            // no op_sel/neg_lo/neg_hi bit for it (op_sel_hi[2] is ignored); clamp only where
            // taken; WMMA with an f32/i32 result takes no op_sel.
            if d.operand(Field::Src2).is_none() {
                a.must_zero |= field_mask(f, Field::Src2) | 1 << 13 | 1 << 63 | 1 << 10;
            }
            if !d.flags.has(Flags::VOP3_CLAMP) {
                a.must_zero |= field_mask(f, Field::Clamp);
            }
            if d.flags.has(Flags::NO_OP_SEL) {
                a.must_zero |= field_mask(f, Field::OpSel);
            }
        }
        // A fake16 destination in v128-v255 cannot be encoded (llvm-mc-19 rejects the word;
        // sources there decode with a register-class comment instead).
        Format::Vop1 | Format::Vop2 | Format::Vopc
            if d.flags.has(Flags::FAKE16) && d.operand(Field::Vdst).is_some() =>
        {
            a.must_zero |= field_mask(f, Field::Vdst) & !(field_mask(f, Field::Vdst) >> 1);
            // `v_ldexp_f16`'s exponent (vsrc1) in v128-v255 is rejected too (survey_dpp.py
            // probe `vsrc1_v200`; other fake16 sources decode with a comment).
            if matches!(d.name, "v_ldexp_f16_e32" | "v_fmaak_f16" | "v_fmamk_f16") {
                a.must_zero |= 1 << 16;
            }
        }
        // `v_nop`, `v_pipeflush` (e32): vdst must be 0; src0 is ignored.
        Format::Vop1 if d.flags.has(Flags::BARE_NAME) => {
            a.must_zero |= field_mask(f, Field::Vdst);
        }
        _ => {}
    }
    a
}

/// A VOP3P register operand of `n` registers that llvm-mc-19 decodes: a VGPR range that ends
/// by v255; a scalar register range that fits once aligned (SGPRs below 106, TTMPs below
/// 124; 2 or 4 registers apart), `vcc`, `exec`, `null`; a constant, `src_*` or the literal.
/// (WMMA's matrices; checked on the disassembler tool's probes, survey_dpp.py.)
fn vop3p_reg_ok(code: u32, n: u32) -> bool {
    let align = n.min(4);
    match code {
        256.. => code - 256 + n <= 256,
        0..=105 => (code & !(align - 1)) + n <= 106,
        108..=123 => ((code - 108) & !(align - 1)) + n <= 16,
        106 | 124 | 126 => true,
        107 | 125 | 127 => false,
        _ => true,
    }
}

/// VOP1/VOP2/VOPC/VOP3 operands of several registers (the 64-bit ones, `v_mqsad_u32_u8`'s
/// quads): a VGPR range must end by v255, and a 64-bit scalar source must not be `vcc_hi`,
/// `m0` or `exec_hi` (107, 125, 127; other odd SGPRs name the aligned pair). llvm-mc-19
/// rejects such words: `v_add_f64 v[5:6], v[255:256], v[2:3]`, `v_div_scale_f64` with
/// src0 = 107.
fn vector_regs_ok(d: &InstrDef, word: u64) -> bool {
    d.operands.iter().all(|o| {
        let p = positions()[d.format.index()][o.field as usize];
        let v = p.read(word);
        match o.kind {
            Kind::V(n) if n > 1 => v + n as u32 <= 256,
            Kind::VSrc(n, _) if n > 1 => match v {
                256.. => v - 256 + n as u32 <= 256,
                107 | 125 | 127 => false,
                _ => true,
            },
            _ => true,
        }
    })
}

/// VOP3P operands with more than one register (WMMA): the destination and the matrix
/// sources must name registers that exist (see [`vop3p_reg_ok`]).
fn vop3p_regs_ok(d: &InstrDef, word: u64) -> bool {
    d.operands.iter().all(|o| {
        let p = positions()[Format::Vop3p.index()][o.field as usize];
        let v = p.read(word);
        match o.kind {
            Kind::V(n) if n > 1 => v + n as u32 <= 256,
            Kind::WmmaAB(n) | Kind::WmmaC(n) => vop3p_reg_ok(v, n as u32),
            _ => true,
        }
    })
}

fn accept(op: Opcode) -> &'static Accept {
    static ACCEPT: OnceLock<Vec<Accept>> = OnceLock::new();
    &ACCEPT.get_or_init(|| INSTRUCTIONS.iter().map(accept_rules).collect())[op.0 as usize]
}

/// VOPD: the X operation is `x` (OPX 0-13); the Y one, [`Instruction::vopd_y`], must
/// exist; a literal follows when either takes K or reads one as src0; a component without
/// `vsrc1` (`v_dual_mov_b32`) needs that field 0 (llvm-mc-19 rejects the word otherwise).
fn decode_vopd(bytes: &[u8], x: Opcode, word: u64) -> Result<(Instruction, usize), DecodeError> {
    let mut inst = Instruction {
        opcode: x,
        word,
        dpp: 0,
        literal: None,
    };
    if x.def().opcode > 13 {
        return Err(DecodeError::Invalid);
    }
    let y = inst.vopd_y().ok_or(DecodeError::Invalid)?;
    let mut lit = false;
    for (d, src0, vsrc1) in [
        (x.def(), Field::Src0, Field::Vsrc1),
        (y.def(), Field::Src0Y, Field::Vsrc1Y),
    ] {
        lit |= d.operands.iter().any(|o| o.kind == Kind::LitK) || inst.get(src0) == SRC_LITERAL;
        if d.operand(Field::Vsrc1).is_none() && inst.get(vsrc1) != 0 {
            return Err(DecodeError::Invalid);
        }
        // (`src_lds_direct`, 254, decodes and assembles in VOPD, unlike in VOP3.)
        if matches!(inst.get(src0), 209..=234 | 249 | 250) {
            return Err(DecodeError::Invalid);
        }
    }
    if lit {
        let l = bytes.get(8..12).ok_or(DecodeError::Truncated)?;
        inst.literal = Some(u32::from_le_bytes([l[0], l[1], l[2], l[3]]));
        return Ok((inst, 12));
    }
    Ok((inst, 8))
}

/// The decoder's checks of a DPP dword (tools/DPP_VOP3P_NOTES.md §4.1): in an e32 DPP16
/// form, a neg/abs bit of a source that takes no such modifier makes the word invalid (bits
/// that [`SrcMods`] says are ignored are kept). Bit 17, and bits 20-23 of a VOP3/VOP3P
/// form's dword, are ignored.
fn dpp_dword_ok(d: &InstrDef, kind: DppKind, dword: u32) -> bool {
    if kind != DppKind::Dpp16 || matches!(d.format, Format::Vop3 | Format::Vop3p) {
        return true;
    }
    (0..2).all(|i| {
        let neg = dword >> (20 + 2 * i) & 1 == 1;
        let abs = dword >> (21 + 2 * i) & 1 == 1;
        d.dpp_source_mods(i) != SrcMods::None || !neg && !abs
    })
}

impl Instruction {
    /// VOPD: the Y component's table entry (by the OPY field).
    pub fn vopd_y(&self) -> Option<Opcode> {
        if self.def().format != Format::Vopd {
            return None;
        }
        lookup_opcode(Format::Vopd, self.get(Field::OpY))
    }

    /// VOPD: the Y component's destination VGPR (`vdsty` bits [7:1], bit 0 the complement
    /// of the X destination's bit 0).
    pub fn vopd_vdst_y(&self) -> u32 {
        self.get(Field::VdstY) << 1 | (!self.get(Field::Vdst) & 1)
    }

    /// An instruction with every field 0 (except the opcode and FLAT segment).
    pub fn new(opcode: Opcode) -> Instruction {
        let d = opcode.def();
        let layout = d.format.layout();
        let op = d.format.op_range();
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
        let p = positions()[self.def().format.index()][f as usize];
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
        let p = positions()[d.format.index()][Field::Src0 as usize];
        DppKind::from_src0(p.read(self.word))
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
        positions()[self.def().format.index()][f as usize].read(self.word)
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
        let p = positions()[self.def().format.index()][f as usize];
        if p.width > 0 {
            self.word = p.write(self.word, v);
            if f == Field::Src0 && self.dpp_kind().is_none() {
                self.dpp = 0;
            }
        }
    }

    /// Whether an operand uses the literal dword.
    pub fn needs_literal(&self) -> bool {
        let a = accept(self.opcode);
        if let Some(y) = self.vopd_y() {
            if y.def().operands.iter().any(|o| o.kind == Kind::LitK)
                || self.get(Field::Src0Y) == SRC_LITERAL
            {
                return true;
            }
        }
        a.always_literal
            || a.literal_src.iter().any(|&(lo, width)| {
                width != 0 && (self.word >> lo) & ((1 << width) - 1) == SRC_LITERAL as u64
            })
    }

    /// Size in bytes: the word, the DPP dword and the literal.
    pub fn size(&self) -> usize {
        self.def().format.layout().size as usize
            + if self.dpp_kind().is_some() { 4 } else { 0 }
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
        let size = self.def().format.layout().size as usize;
        out.extend_from_slice(&self.word.to_le_bytes()[..size]);
        if self.dpp_kind().is_some() {
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

    /// Decodes one instruction as llvm-mc-19 does for `wave`: in wave64 (`-mattr=
    /// +wavefrontsize64`) VOPD words are invalid, and so are lane masks that name no SGPR
    /// pair (`vcc_hi`, `m0`, `exec_hi`).
    pub fn decode_wave(bytes: &[u8], wave: Wave) -> Result<(Instruction, usize), DecodeError> {
        let (inst, size) = Instruction::decode(bytes)?;
        if wave == Wave::W64
            && (inst.def().format == Format::Vopd
                || !crate::print::operands_printable(&inst, Wave::W64))
        {
            return Err(DecodeError::Invalid);
        }
        Ok((inst, size))
    }

    /// Decodes one instruction from the start of `bytes`; returns it and its size.
    #[inline]
    pub fn decode(bytes: &[u8]) -> Result<(Instruction, usize), DecodeError> {
        let Some(first) = bytes.first_chunk::<4>() else {
            return Err(DecodeError::Truncated);
        };
        let first = u32::from_le_bytes(*first);
        let format = Format::identify(first).ok_or(DecodeError::Invalid)?;
        let size = format.layout().size as usize;
        let word = if size == 8 {
            match bytes.first_chunk::<8>() {
                Some(b) => u64::from_le_bytes(*b),
                None => return Err(DecodeError::Truncated),
            }
        } else {
            first as u64
        };
        let oprange = format.op_range();
        let op = ((word >> oprange.lo) & oprange.mask()) as u32;
        let opcode = lookup_opcode(format, op).ok_or(DecodeError::Invalid)?;
        let a = accept(opcode);
        if word & a.must_zero != 0 || word & a.must_one != a.must_one {
            return Err(DecodeError::Invalid);
        }
        if format == Format::Vopd {
            return decode_vopd(bytes, opcode, word);
        }
        let mut inst = Instruction {
            opcode,
            word,
            dpp: 0,
            literal: None,
        };
        let mut end = size;
        let vector = matches!(
            format,
            Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3 | Format::Vop3p
        );
        if vector {
            let d = opcode.def();
            let src0 = inst.get(Field::Src0);
            // (An instruction without src0, `v_nop`, ignores the field: no DPP dword.)
            let dpp = DppKind::from_src0(src0).filter(|_| d.operand(Field::Src0).is_some());
            if let Some(kind) = dpp {
                // DPP16 (250) and DPP8 (233, 234): a dword follows the word, for the
                // instructions that have DPP forms; elsewhere these codes are invalid.
                if !d.flags.has(Flags::DPP) {
                    return Err(DecodeError::Invalid);
                }
                let b = bytes.get(size..size + 4).ok_or(DecodeError::Truncated)?;
                let dword = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                if !dpp_dword_ok(d, kind, dword) {
                    return Err(DecodeError::Invalid);
                }
                inst.dpp = dword;
                end += 4;
            }
            if format == Format::Vop3p && !vop3p_regs_ok(d, word) {
                return Err(DecodeError::Invalid);
            }
            if a.wide_regs && !vector_regs_ok(d, word) {
                return Err(DecodeError::Invalid);
            }
            if matches!(format, Format::Vop3 | Format::Vop3p) {
                // Source codes 209-234, 249 and 250 name nothing a VOP3 source can be
                // (254 is `src_lds_direct`, which llvm-mc-19 decodes but will not assemble).
                // A DPP src0 was handled above.
                let skip = dpp.is_some() as usize;
                for lo in [32, 41, 50].into_iter().skip(skip) {
                    if matches!((word >> lo) & 0x1ff, 209..=234 | 249 | 250) {
                        return Err(DecodeError::Invalid);
                    }
                }
            }
        }
        if inst.needs_literal() {
            let lit = bytes.get(end..end + 4).ok_or(DecodeError::Truncated)?;
            inst.literal = Some(u32::from_le_bytes([lit[0], lit[1], lit[2], lit[3]]));
            end += 4;
        }
        if !crate::print::operands_printable(&inst, Wave::W32) {
            return Err(DecodeError::Invalid);
        }
        Ok((inst, end))
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
