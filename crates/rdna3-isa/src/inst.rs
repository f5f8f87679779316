//! An instruction as its encoded word, with named access to its fields, and its encoding and
//! decoding.

use std::sync::OnceLock;

use crate::def::{lookup_opcode, Flags, InstrDef, Kind, Opcode};
use crate::fields::{Field, FIELD_COUNT};
use crate::format::{BitRange, Format, ALL_FORMATS, FORMAT_COUNT};
use crate::table::INSTRUCTIONS;

/// SGPR code for "no register" (`null` / `off`) in 7-bit scalar fields.
pub const SGPR_NULL: u32 = 0x7c;
/// Scalar source code: a 32-bit literal follows the instruction.
pub const SRC_LITERAL: u32 = 255;

/// One instruction: which table entry, its instruction word, and its literal.
///
/// Fields are read from and written to the word through the format's layout, so every bit
/// of a decoded word is kept and `encode(decode(bytes)) == bytes` for every word that decodes.
/// Fields a format does not have read as 0 and cannot be set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// Which instruction.
    pub opcode: Opcode,
    word: u64,
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

/// Where each field sits in each format (width 0: the format has no such field).
fn positions() -> &'static [[(u8, u8); FIELD_COUNT]; FORMAT_COUNT] {
    static POS: OnceLock<[[(u8, u8); FIELD_COUNT]; FORMAT_COUNT]> = OnceLock::new();
    POS.get_or_init(|| {
        let mut pos = [[(0u8, 0u8); FIELD_COUNT]; FORMAT_COUNT];
        for f in ALL_FORMATS {
            for b in f.layout().fields {
                pos[f.index()][b.field as usize] = (b.lo, b.width);
            }
        }
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
}

fn field_mask(format: Format, f: Field) -> u64 {
    let (lo, width) = positions()[format.index()][f as usize];
    if width == 0 {
        0
    } else {
        ((1u64 << width) - 1) << lo
    }
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
            Kind::Ssrc(_) | Kind::SsrcReg(_) | Kind::VSrc(..) if n < 3 => {
                a.literal_src[n] = positions()[f.index()][o.field as usize];
                n += 1;
            }
            Kind::Lit32 | Kind::LitK => a.always_literal = true,
            _ => {}
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
        Format::Flat => {
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
                if d.operand(src).is_none() || !d.flags.neg_abs(i) {
                    a.must_zero |= 1 << (61 + i);
                    // VOP3SD's sdst overlays abs.
                    if !sdst {
                        a.must_zero |= 1 << (8 + i);
                    }
                }
            }
            if !d.flags.has(Flags::VOP3_OMOD) {
                a.must_zero |= field_mask(f, Field::Omod);
            }
            if !d.flags.has(Flags::VOP3_CLAMP) {
                a.must_zero |= field_mask(f, Field::Clamp);
            }
            // An SGPR destination in the 8-bit vdst field (compares, `v_readlane_b32`): the
            // codes 128-255 are constants, which llvm-mc-19 prints as invalid.
            if matches!(d.operand(Field::Vdst), Some(o) if matches!(o.kind, Kind::S(_))) {
                a.must_zero |= 0x80;
            }
            // A scalar-only source in a 9-bit field: a VGPR there is not accepted.
            for (src, lo) in [(Field::Src0, 40), (Field::Src1, 49), (Field::Src2, 58)] {
                if matches!(d.operand(src), Some(o) if matches!(o.kind, Kind::Ssrc(_))) {
                    a.must_zero |= 1 << lo;
                }
            }
        }
        // A fake16 destination in v128-v255 cannot be encoded (llvm-mc-19 rejects the word;
        // sources there decode with a register-class comment instead).
        Format::Vop1 | Format::Vop2 | Format::Vopc
            if d.flags.has(Flags::FAKE16) && d.operand(Field::Vdst).is_some() =>
        {
            a.must_zero |= field_mask(f, Field::Vdst) & !(field_mask(f, Field::Vdst) >> 1);
        }
        _ => {}
    }
    a
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
            literal: None,
        }
    }

    /// The table entry.
    #[inline]
    pub fn def(&self) -> &'static InstrDef {
        self.opcode.def()
    }

    /// Where `f` sits in this instruction's format, if it has it.
    #[inline]
    pub fn range(&self, f: Field) -> Option<BitRange> {
        let (lo, width) = positions()[self.def().format.index()][f as usize];
        (width > 0).then_some(BitRange {
            field: f,
            lo,
            width,
        })
    }

    /// Raw value of a field (0 if the format has no such field).
    #[inline]
    pub fn get(&self, f: Field) -> u32 {
        match self.range(f) {
            Some(b) => ((self.word >> b.lo) & b.mask()) as u32,
            None => 0,
        }
    }

    /// Sets the raw value of a field, masked to its width; a field the format does not have
    /// is ignored.
    #[inline]
    pub fn set(&mut self, f: Field, v: u32) {
        if let Some(b) = self.range(f) {
            self.word = (self.word & !(b.mask() << b.lo)) | ((v as u64 & b.mask()) << b.lo);
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

    /// Size in bytes, literal included.
    pub fn size(&self) -> usize {
        self.def().format.layout().size as usize + if self.literal.is_some() { 4 } else { 0 }
    }

    /// The instruction word (up to 64 bits), without the literal.
    #[inline]
    pub fn word(&self) -> u64 {
        self.word
    }

    /// Appends the little-endian encoding to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        let size = self.def().format.layout().size as usize;
        out.extend_from_slice(&self.word.to_le_bytes()[..size]);
        if let Some(l) = self.literal {
            out.extend_from_slice(&l.to_le_bytes());
        }
    }

    /// The little-endian encoding.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(12);
        self.encode_into(&mut v);
        v
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
        if matches!(format, Format::Vop1 | Format::Vop2 | Format::Vopc) {
            let src0 = (word & 0x1ff) as u32;
            // DPP8 (233, 234) and DPP16 (250) sources are not supported yet: not decoded.
            if matches!(src0, 233 | 234 | 250) {
                return Err(DecodeError::Invalid);
            }
        }
        if format == Format::Vopd {
            return decode_vopd(bytes, opcode, word);
        }
        if format == Format::Vop3 {
            // Source codes 209-234, 249, 250 and 254 name nothing a VOP3 source can be
            // (llvm-mc-19 marks the first ones invalid; 254, `src_lds_direct`, it decodes but
            // will not assemble, so it is not accepted here either).
            for lo in [32, 41, 50] {
                if matches!((word >> lo) & 0x1ff, 209..=234 | 249 | 250 | 254) {
                    return Err(DecodeError::Invalid);
                }
            }
        }
        let mut inst = Instruction {
            opcode,
            word,
            literal: None,
        };
        if inst.needs_literal() {
            let lit = bytes.get(size..size + 4).ok_or(DecodeError::Truncated)?;
            inst.literal = Some(u32::from_le_bytes([lit[0], lit[1], lit[2], lit[3]]));
            return Ok((inst, size + 4));
        }
        Ok((inst, size))
    }
}
