//! Field-by-field description of an encoding, for `gpumemsim explain`.

use crate::dpp::DppKind;
use crate::format::{Layout, DPP16_DWORD, DPP8_DWORD};
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
    /// Fields, most significant first (the fixed format bits included as `encoding`). A
    /// field split over two places of the word (VOP3P `op_sel_hi`) is listed once per piece,
    /// each with its piece's bits.
    pub fields: Vec<FieldValue>,
    /// The DPP dword of a DPP16/DPP8 form (it follows the word).
    pub dpp_dword: Option<u32>,
    /// The DPP dword's fields, most significant first, with bit positions within that
    /// dword (`dpp_src0`, `dpp_ctrl`, `fi`, `bound_ctrl`, `dpp_neg`, `dpp_abs`, `bank_mask`,
    /// `row_mask` for DPP16, whose bit 17 is listed as `unused`; `dpp_src0`, `dpp8_sel` for
    /// DPP8, whose `fi` is src0 = 234).
    pub dpp_fields: Vec<FieldValue>,
    /// The literal dword, if any.
    pub literal: Option<u32>,
}

fn layout_fields(layout: &Layout, word: u64) -> Vec<FieldValue> {
    layout
        .fields
        .iter()
        .map(|b| FieldValue {
            name: b.field.name(),
            hi: (b.lo + b.width - 1) as u32,
            lo: b.lo as u32,
            value: (word >> b.lo) & b.mask(),
        })
        .collect()
}

/// Decodes `bytes` and lists its fields.
pub fn explain(bytes: &[u8]) -> Result<Explained, DecodeError> {
    explain_in(crate::schema::Isa::Gfx11, bytes)
}

/// Decodes `bytes` as an instruction of `isa` and lists its fields.
pub fn explain_in(isa: crate::schema::Isa, bytes: &[u8]) -> Result<Explained, DecodeError> {
    let (inst, _) = match isa {
        crate::schema::Isa::Gfx11 => Instruction::decode(bytes)?,
        crate::schema::Isa::Gfx940 => crate::gfx9::decode::decode(bytes)?,
    };
    let d = inst.def();
    let layout = crate::inst::layout_of(d);
    let word = inst.word();
    let mut fields = layout_fields(layout, word);
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
    let dpp_dword = inst.dpp_kind().map(|_| inst.dpp_dword());
    let mut dpp_fields = match inst.dpp_kind() {
        Some(DppKind::Dpp16) => {
            let dw = inst.dpp_dword() as u64;
            let mut f = layout_fields(&DPP16_DWORD, dw);
            f.push(FieldValue {
                name: "unused",
                hi: 17,
                lo: 17,
                value: dw >> 17 & 1,
            });
            f
        }
        Some(DppKind::Dpp8) => layout_fields(&DPP8_DWORD, inst.dpp_dword() as u64),
        None => Vec::new(),
    };
    dpp_fields.sort_by_key(|f| std::cmp::Reverse(f.lo));
    Ok(Explained {
        text: print(&inst),
        format: d.format.name(),
        word,
        size: layout.size as usize,
        fields,
        dpp_dword,
        dpp_fields,
        literal: inst.literal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(e: &[FieldValue], name: &str) -> Option<(u32, u32, u64)> {
        e.iter()
            .find(|f| f.name == name)
            .map(|f| (f.hi, f.lo, f.value))
    }

    #[test]
    fn a_dpp16_form_lists_the_words_and_the_dwords_fields() {
        // tools/DPP_VOP3P_NOTES.md §1.2: the e32 DPP16 base word of the survey.
        let e = explain(&[0xfa, 0x28, 0x50, 0x06, 0x0a, 0x1b, 0x00, 0x5a]).expect("decodes");
        assert_eq!(
            e.text,
            "v_add_f32_dpp v40, v10, v20 quad_perm:[3,2,1,0] row_mask:0x5 bank_mask:0xa"
        );
        assert_eq!((e.format, e.size), ("VOP2", 4));
        assert_eq!(field(&e.fields, "src0"), Some((8, 0, 250)));
        assert_eq!(e.dpp_dword, Some(0x5a00_1b0a));
        assert_eq!(field(&e.dpp_fields, "dpp_src0"), Some((7, 0, 10)));
        assert_eq!(field(&e.dpp_fields, "dpp_ctrl"), Some((16, 8, 0x1b)));
        assert_eq!(field(&e.dpp_fields, "row_mask"), Some((31, 28, 5)));
        assert_eq!(field(&e.dpp_fields, "bank_mask"), Some((27, 24, 0xa)));
        assert_eq!(field(&e.dpp_fields, "unused"), Some((17, 17, 0)));
        assert!(e.dpp_fields.windows(2).all(|w| w[0].lo > w[1].lo));
    }

    #[test]
    fn a_vop3p_word_lists_both_pieces_of_op_sel_hi() {
        // §1.5: v_pk_fma_f16 with op_sel_hi = [1,1,0] (bit 14 clear, bits 59-60 set).
        let e = explain(&[0x28, 0x00, 0x0e, 0xcc, 0x0a, 0x29, 0x7a, 0x1c]).expect("decodes");
        assert_eq!(e.text, "v_pk_fma_f16 v40, v10, v20, v30 op_sel_hi:[1,1,0]");
        let pieces: Vec<_> = e.fields.iter().filter(|f| f.name == "op_sel_hi").collect();
        assert_eq!(pieces.len(), 2);
        assert_eq!((pieces[0].hi, pieces[0].lo, pieces[0].value), (60, 59, 3));
        assert_eq!((pieces[1].hi, pieces[1].lo, pieces[1].value), (14, 14, 0));
        assert_eq!(e.dpp_dword, None);
        assert!(e.dpp_fields.is_empty());
    }
}
