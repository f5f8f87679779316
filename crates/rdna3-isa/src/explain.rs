//! Field-by-field description of an encoding, for `gpumemsim explain`.

use crate::inst::{DecodeError, Instruction};
use crate::print::print;

/// One field of an explained encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldValue {
    /// Field name.
    pub name: &'static str,
    /// Highest bit (inclusive) in the instruction word.
    pub hi: u32,
    /// Lowest bit.
    pub lo: u32,
    /// Value.
    pub value: u64,
}

/// An explained encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// Canonical text.
    pub text: String,
    /// Format name.
    pub format: &'static str,
    /// The word(s) without literal.
    pub word: u64,
    /// Size of the word in bytes.
    pub size: usize,
    /// Fields, most significant first (the fixed format bits included as `encoding`).
    pub fields: Vec<FieldValue>,
    /// The literal dword, if any.
    pub literal: Option<u32>,
}

/// Decodes `bytes` and lists its fields.
pub fn explain(bytes: &[u8]) -> Result<Explained, DecodeError> {
    let (inst, _) = Instruction::decode(bytes)?;
    let d = inst.def();
    let layout = d.format.layout();
    let word = inst.word();
    let mut fields: Vec<FieldValue> = layout
        .fields
        .iter()
        .map(|b| FieldValue {
            name: b.field.name(),
            hi: (b.lo + b.width - 1) as u32,
            lo: b.lo as u32,
            value: (word >> b.lo) & b.mask(),
        })
        .collect();
    // The fixed identifying bits, as one or more contiguous runs.
    let mut bit = 0u32;
    let mask = layout.ident_mask;
    while bit < 64 {
        if mask >> bit & 1 == 1 {
            let lo = bit;
            while bit < 64 && mask >> bit & 1 == 1 {
                bit += 1;
            }
            let w = bit - lo;
            fields.push(FieldValue {
                name: "encoding",
                hi: bit - 1,
                lo,
                value: (layout.ident >> lo) & ((1u64 << w) - 1),
            });
        } else {
            bit += 1;
        }
    }
    fields.sort_by_key(|f| std::cmp::Reverse(f.lo));
    // Drop the format-identifying run when the segment field already covers those bits.
    fields.dedup_by(|a, b| a.lo == b.lo && a.hi == b.hi);
    Ok(Explained {
        text: print(&inst),
        format: d.format.name(),
        word,
        size: layout.size as usize,
        fields,
        literal: inst.literal,
    })
}
