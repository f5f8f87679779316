//! The GFX9 layouts of the formats gfx942 (CDNA3) encodes, as far as its table reaches
//! ([`crate::table_gfx940`]). Bit positions were read off `llvm-mc-19 -mcpu=gfx942
//! -show-encoding` and the probes of `tools/gen_table_gfx942.py`; they match AMD's CDNA3 ISA
//! reference. The scalar ALU formats and the 32-bit vector ALU formats are laid out as in
//! gfx11; the memory formats differ (SMEM's `imm`/`soe` bits, DS's 8-bit opcode at bit 17,
//! FLAT's segment at bits 14-15, gfx940's `sc0`/`sc1`/`nt` scope bits and the `acc` bit that
//! makes the data registers AGPRs).

use crate::fields::Field::*;
use crate::format::{br, piece, BitRange, Format, Layout};

/// The fields FLAT, SCRATCH and GLOBAL share (the segment is the `Seg` field; bit 13 is
/// SCRATCH's `sve`, the vector address enable, on gfx940).
#[rustfmt::skip]
const FLAT_FIELDS: &[BitRange] = &[
    br(Offset, 0, 13), br(Sve, 13, 1), br(Seg, 14, 2), br(Sc0, 16, 1), br(Nt, 17, 1), br(Op, 18, 7),
    br(Sc1, 25, 1), br(Addr, 32, 8), br(Data0, 40, 8), br(Saddr, 48, 7), br(Acc, 55, 1),
    br(Vdst, 56, 8),
];

const fn layout(size: u8, ident_mask: u64, ident: u64, fields: &'static [BitRange]) -> Layout {
    Layout {
        size,
        ident_mask,
        ident,
        fields,
    }
}

/// A format gfx942's table does not have yet.
const NONE: Layout = layout(0, 0, 1, &[]);

/// The GFX9 layout of `f` (size 0: not in the gfx942 table yet).
pub fn layout_of(f: Format) -> &'static Layout {
    static SMEM: Layout = layout(
        8,
        0xfc00_0000,
        0xc000_0000,
        &[
            br(Sbase, 0, 6),
            br(Sdata, 6, 7),
            br(Soe, 14, 1),
            br(Nv, 15, 1),
            br(Glc, 16, 1),
            br(SmemImm, 17, 1),
            br(Op, 18, 8),
            br(Offset, 32, 21),
            br(Soffset, 57, 7),
        ],
    );
    static DS: Layout = layout(
        8,
        0xfc00_0000,
        0xd800_0000,
        &[
            br(Offset0, 0, 8),
            br(Offset1, 8, 8),
            br(Gds, 16, 1),
            br(Op, 17, 8),
            br(Acc, 25, 1),
            br(Addr, 32, 8),
            br(Data0, 40, 8),
            br(Data1, 48, 8),
            br(Vdst, 56, 8),
        ],
    );
    static FLAT: Layout = layout(8, 0xfc00_c000, 0xdc00_0000, FLAT_FIELDS);
    static SCRATCH: Layout = layout(8, 0xfc00_c000, 0xdc00_4000, FLAT_FIELDS);
    static GLOBAL: Layout = layout(8, 0xfc00_c000, 0xdc00_8000, FLAT_FIELDS);
    static MUBUF: Layout = layout(
        8,
        0xfc00_0000,
        0xe000_0000,
        &[
            br(Offset, 0, 12),
            br(Offen, 12, 1),
            br(Idxen, 13, 1),
            br(Sc0, 14, 1),
            br(Sc1, 15, 1),
            br(Lds, 16, 1),
            br(Nt, 17, 1),
            br(Op, 18, 7),
            br(Vaddr, 32, 8),
            br(Vdata, 40, 8),
            br(Srsrc, 48, 5),
            br(Acc, 55, 1),
            br(Soffset, 56, 8),
        ],
    );
    // VOP3 and VOP3b (the carry-outs and v_div_scale keep an SGPR-pair destination at bits
    // 8-14 where VOP3 has abs and op_sel; the table entry says which).
    static VOP3: Layout = layout(
        8,
        0xfc00_0000,
        0xd000_0000,
        &[
            br(Vdst, 0, 8),
            br(Abs, 8, 3),
            br(Sdst, 8, 7),
            br(OpSel, 11, 4),
            br(Clamp, 15, 1),
            br(Op, 16, 10),
            br(Src0, 32, 9),
            br(Src1, 41, 9),
            br(Src2, 50, 9),
            br(Omod, 59, 2),
            br(Neg, 61, 3),
        ],
    );
    // VOP3P (bits 31-23 0b110100111, inside VOP3's opcode space): the same bits as gfx11's.
    static VOP3P: Layout = layout(
        8,
        0xff80_0000,
        0xd380_0000,
        &[
            br(Vdst, 0, 8),
            br(NegHi, 8, 3),
            br(OpSel, 11, 3),
            piece(OpSelHi, 14, 1, 2),
            br(Clamp, 15, 1),
            br(Op, 16, 7),
            br(Src0, 32, 9),
            br(Src1, 41, 9),
            br(Src2, 50, 9),
            br(OpSelHi, 59, 2),
            br(NegLo, 61, 3),
        ],
    );
    static MTBUF: Layout = layout(
        8,
        0xfc00_0000,
        0xe800_0000,
        &[
            br(Offset, 0, 12),
            br(Offen, 12, 1),
            br(Idxen, 13, 1),
            br(Sc0, 14, 1),
            br(Op, 15, 4),
            br(Fmt, 19, 7),
            br(Vaddr, 32, 8),
            br(Vdata, 40, 8),
            br(Srsrc, 48, 5),
            br(Sc1, 53, 1),
            br(Nt, 54, 1),
            br(Acc, 55, 1),
            br(Soffset, 56, 8),
        ],
    );
    match f {
        // The scalar ALU formats and the 32-bit vector ALU formats are gfx11's, bit for bit.
        Format::Sop2
        | Format::Sopk
        | Format::Sop1
        | Format::Sopc
        | Format::Sopp
        | Format::Vop1
        | Format::Vop2
        | Format::Vopc => f.layout(),
        Format::Mtbuf => &MTBUF,
        Format::Vop3p => &VOP3P,
        Format::Vop3 => &VOP3,
        Format::Smem => &SMEM,
        Format::Ds => &DS,
        Format::Flat => &FLAT,
        Format::Scratch => &SCRATCH,
        Format::Global => &GLOBAL,
        Format::Mubuf => &MUBUF,
        _ => &NONE,
    }
}

/// The formats of the gfx942 table, in the order the decoder tries them (the scalar formats
/// from the most specific identifying bits down).
pub const GFX940_FORMATS: [Format; 17] = [
    Format::Sopp,
    Format::Sopc,
    Format::Sop1,
    Format::Sopk,
    Format::Sop2,
    Format::Smem,
    Format::Ds,
    Format::Flat,
    Format::Scratch,
    Format::Global,
    Format::Mubuf,
    Format::Mtbuf,
    Format::Vopc,
    Format::Vop1,
    Format::Vop2,
    Format::Vop3p,
    Format::Vop3,
];

/// The opcode field of `f` in its GFX9 layout (width 0: not in the table yet).
pub fn op_range(f: Format) -> BitRange {
    layout_of(f)
        .fields
        .iter()
        .find(|b| b.field == Op)
        .copied()
        .unwrap_or(br(Op, 0, 0))
}

/// The format a GFX9 word's identifying bits name, if the table has it.
pub fn identify(word: u64) -> Option<Format> {
    GFX940_FORMATS.into_iter().find(|&f| {
        let l = layout_of(f);
        word & l.ident_mask == l.ident
    })
}
