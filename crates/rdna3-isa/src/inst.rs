//! An instruction as raw field values, and its encoding and decoding.

use crate::def::{lookup_opcode, Flags, InstrDef, Kind, Opcode};
use crate::fields::{Field, FIELD_COUNT};
use crate::format::Format;

/// SGPR code for "no register" (`null` / `off`) in 7-bit scalar fields.
pub const SGPR_NULL: u32 = 0x7c;
/// Scalar source code: a 32-bit literal follows the instruction.
pub const SRC_LITERAL: u32 = 255;

/// One instruction: which table entry, the raw value of every field, and its literal.
///
/// Fields a format does not have stay 0. Decoding keeps every bit of the word, so
/// `encode(decode(bytes)) == bytes` for every word that decodes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// Which instruction.
    pub opcode: Opcode,
    fields: [u32; FIELD_COUNT],
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

impl Instruction {
    /// An instruction with every field 0 (except the opcode and FLAT segment).
    pub fn new(opcode: Opcode) -> Instruction {
        let d = opcode.def();
        let mut fields = [0u32; FIELD_COUNT];
        fields[Field::Op as usize] = d.opcode as u32;
        fields[Field::Seg as usize] = match d.format {
            Format::Scratch => 1,
            Format::Global => 2,
            _ => 0,
        };
        Instruction {
            opcode,
            fields,
            literal: None,
        }
    }

    /// The table entry.
    #[inline]
    pub fn def(&self) -> &'static InstrDef {
        self.opcode.def()
    }

    /// Raw value of a field.
    #[inline]
    pub fn get(&self, f: Field) -> u32 {
        self.fields[f as usize]
    }

    /// Sets the raw value of a field (masked to its width when encoded).
    #[inline]
    pub fn set(&mut self, f: Field, v: u32) {
        self.fields[f as usize] = v;
    }

    /// Whether an operand uses the literal dword.
    pub fn needs_literal(&self) -> bool {
        self.def().operands.iter().any(|o| match o.kind {
            Kind::Ssrc(_) | Kind::SsrcReg(_) => self.get(o.field) == SRC_LITERAL,
            Kind::Lit32 => true,
            _ => false,
        })
    }

    /// Size in bytes, literal included.
    pub fn size(&self) -> usize {
        self.def().format.layout().size as usize + if self.literal.is_some() { 4 } else { 0 }
    }

    /// The instruction word (up to 64 bits), without the literal.
    pub fn word(&self) -> u64 {
        let layout = self.def().format.layout();
        let mut w = layout.ident;
        for b in layout.fields {
            w |= (self.fields[b.field as usize] as u64 & b.mask()) << b.lo;
        }
        w
    }

    /// Appends the little-endian encoding to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        let size = self.def().format.layout().size as usize;
        out.extend_from_slice(&self.word().to_le_bytes()[..size]);
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
        if bytes.len() < 4 {
            return Err(DecodeError::Truncated);
        }
        let first = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let format = Format::identify(first).ok_or(DecodeError::Invalid)?;
        let layout = format.layout();
        let size = layout.size as usize;
        let word = if size == 8 {
            if bytes.len() < 8 {
                return Err(DecodeError::Truncated);
            }
            u64::from_le_bytes(bytes[..8].try_into().map_err(|_| DecodeError::Truncated)?)
        } else {
            first as u64
        };
        let oprange = format.op_range();
        let op = ((word >> oprange.lo) & oprange.mask()) as u32;
        let opcode = lookup_opcode(format, op).ok_or(DecodeError::Invalid)?;
        let mut inst = Instruction {
            opcode,
            fields: [0; FIELD_COUNT],
            literal: None,
        };
        for b in layout.fields {
            inst.fields[b.field as usize] = ((word >> b.lo) & b.mask()) as u32;
        }
        if !inst.is_decodable() {
            return Err(DecodeError::Invalid);
        }
        let mut total = size;
        if inst.needs_literal() {
            let lit = bytes.get(size..size + 4).ok_or(DecodeError::Truncated)?;
            inst.literal = Some(u32::from_le_bytes([lit[0], lit[1], lit[2], lit[3]]));
            total += 4;
        }
        Ok((inst, total))
    }

    /// The decoder's acceptance rules beyond the opcode, as llvm-mc-19 applies them:
    /// DS words must have zero in every register field the instruction does not use, and the
    /// GWS/ordered-count/GS-register opcodes need the `gds` bit; FLAT-segment words need
    /// `saddr` = off.
    fn is_decodable(&self) -> bool {
        let d = self.def();
        match d.format {
            Format::Ds => {
                let unused_zero = [Field::Addr, Field::Data0, Field::Data1, Field::Vdst]
                    .iter()
                    .all(|&f| d.operand(f).is_some() || self.get(f) == 0);
                let gds_ok = if d.flags.has(Flags::GDS_ONLY) {
                    self.get(Field::Gds) == 1
                } else {
                    !d.flags.has(Flags::NO_GDS) || self.get(Field::Gds) == 0
                };
                // ds_nop decodes only with every field zero.
                let nop_ok = d.name != "ds_nop"
                    || (self.get(Field::Offset0) | self.get(Field::Offset1)) == 0;
                unused_zero && gds_ok && nop_ok
            }
            Format::Smem if d.name.starts_with("s_atc_probe") => {
                self.get(Field::Glc) == 0 && self.get(Field::Dlc) == 0
            }
            Format::Flat => self.get(Field::Saddr) == SGPR_NULL,
            _ => true,
        }
    }
}
