//! Encoding formats and their bit layouts (gfx11). Bit positions were checked against
//! `llvm-mc-19 -mcpu=gfx1100 -show-encoding`; they match AMD's RDNA3 ISA reference.

use crate::fields::Field::{self, *};

/// One field placed at bits `lo .. lo + width` of the (up to 64-bit) instruction word.
///
/// A field may be split over two places of a word (VOP3P `op_sel_hi`, the e32 DPP `neg`/`abs`
/// pairs): each piece is a `BitRange`, and `at` says which bit of the field's value the
/// piece's lowest bit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitRange {
    /// Which field.
    pub field: Field,
    /// Lowest bit.
    pub lo: u8,
    /// Number of bits.
    pub width: u8,
    /// The bit of the field's value this piece starts at (0 unless the field is split).
    pub at: u8,
}

pub(crate) const fn br(field: Field, lo: u8, width: u8) -> BitRange {
    BitRange {
        field,
        lo,
        width,
        at: 0,
    }
}

/// A piece of a split field: bits `lo .. lo + width` are bits `at ..` of the field's value.
pub(crate) const fn piece(field: Field, lo: u8, width: u8, at: u8) -> BitRange {
    BitRange {
        field,
        lo,
        width,
        at,
    }
}

impl BitRange {
    /// Mask of `width` low bits.
    #[inline]
    pub const fn mask(&self) -> u64 {
        (1u64 << self.width) - 1
    }
}

/// A format's layout: size, the fixed identifying bits, and the fields.
#[derive(Debug)]
pub struct Layout {
    /// Size of the instruction word in bytes (4 or 8), without any literal.
    pub size: u8,
    /// Bits that identify the format (and for FLAT, the segment).
    pub ident_mask: u64,
    /// Value of those bits.
    pub ident: u64,
    /// Every field, low bits first.
    pub fields: &'static [BitRange],
}

/// An encoding format of the gfx11 instruction set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// Scalar ALU, two sources.
    Sop2,
    /// Scalar ALU with a 16-bit immediate.
    Sopk,
    /// Scalar ALU, one source.
    Sop1,
    /// Scalar compare.
    Sopc,
    /// Scalar program control.
    Sopp,
    /// Scalar memory.
    Smem,
    /// Data share (LDS/GDS/GWS).
    Ds,
    /// FLAT segment of the FLAT encoding.
    Flat,
    /// GLOBAL segment of the FLAT encoding.
    Global,
    /// SCRATCH segment of the FLAT encoding.
    Scratch,
    /// Untyped buffer.
    Mubuf,
    /// Typed buffer.
    Mtbuf,
    /// LDS parameter/direct load.
    Ldsdir,
    /// Parameter interpolation.
    Vinterp,
    /// Vector ALU, one source (32-bit encoding).
    Vop1,
    /// Vector ALU, two sources (32-bit encoding).
    Vop2,
    /// Vector compare (32-bit encoding).
    Vopc,
    /// Vector ALU, up to three sources with modifiers (64-bit encoding).
    Vop3,
    /// Dual issue: two vector-ALU operations, X and Y, in one 64-bit word (`v_dual_*`).
    /// The table lists each component operation once, by its Y opcode (the X opcodes 0-13
    /// are the same numbers); [`Field::Op`] holds OPX and [`Field::OpY`] OPY.
    Vopd,
    /// Packed math, dot products, `v_fma_mix*` and WMMA (64-bit encoding, byte 3 = 0xcc):
    /// per-source `op_sel`, `op_sel_hi`, `neg_lo`, `neg_hi`.
    Vop3p,
}

/// Number of formats.
pub const FORMAT_COUNT: usize = 20;

/// All formats, in decode-priority order.
pub const ALL_FORMATS: [Format; FORMAT_COUNT] = [
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
    Format::Ldsdir,
    Format::Vinterp,
    Format::Vopc,
    Format::Vop1,
    Format::Vop2,
    Format::Vop3,
    Format::Vopd,
    Format::Vop3p,
];

/// What the format table says of one format: its name as AMD's documents write it, and its
/// layout. [`FORMATS`] holds one per format, in the order of the [`Format`] variants.
struct FormatInfo {
    format: Format,
    name: &'static str,
    layout: Layout,
}

/// One row of [`FORMATS`]: a format, its name, its size in bytes, its identifying bits
/// (mask, value) and its fields.
const fn row(
    format: Format,
    name: &'static str,
    size: u8,
    ident_mask: u64,
    ident: u64,
    fields: &'static [BitRange],
) -> FormatInfo {
    FormatInfo {
        format,
        name,
        layout: Layout {
            size,
            ident_mask,
            ident,
            fields,
        },
    }
}

/// The fields FLAT, SCRATCH and GLOBAL share (the segment is the `Seg` field).
#[rustfmt::skip]
const FLAT_FIELDS: &[BitRange] = &[
    br(Offset, 0, 13), br(Dlc, 13, 1), br(Glc, 14, 1), br(Slc, 15, 1), br(Seg, 16, 2), br(Op, 18, 7),
    br(Addr, 32, 8), br(Data0, 40, 8), br(Saddr, 48, 7), br(Sve, 55, 1), br(Vdst, 56, 8),
];

/// The high dword MUBUF and MTBUF share.
#[rustfmt::skip]
const BUF_HIGH: [BitRange; 7] = [
    br(Vaddr, 32, 8), br(Vdata, 40, 8), br(Srsrc, 48, 5), br(Tfe, 53, 1), br(Offen, 54, 1),
    br(Idxen, 55, 1), br(Soffset, 56, 8),
];

/// `low` followed by `high` (`N` must be `L + H`; checked when the constant is built).
const fn join<const L: usize, const H: usize, const N: usize>(
    low: [BitRange; L],
    high: [BitRange; H],
) -> [BitRange; N] {
    assert!(L + H == N);
    let mut out = [br(Op, 0, 0); N];
    let mut i = 0;
    while i < N {
        out[i] = if i < L { low[i] } else { high[i - L] };
        i += 1;
    }
    out
}

#[rustfmt::skip]
const MUBUF_FIELDS: [BitRange; 13] = join(
    [br(Offset, 0, 12), br(Slc, 12, 1), br(Dlc, 13, 1), br(Glc, 14, 1), br(Lds, 16, 1), br(Op, 18, 8)],
    BUF_HIGH,
);
#[rustfmt::skip]
const MTBUF_FIELDS: [BitRange; 13] = join(
    [br(Offset, 0, 12), br(Slc, 12, 1), br(Dlc, 13, 1), br(Glc, 14, 1), br(Op, 15, 4), br(Fmt, 19, 7)],
    BUF_HIGH,
);

/// Every format: name, size, identifying bits and fields, in the order of the [`Format`]
/// variants (a compile-time check below holds the order).
#[rustfmt::skip]
static FORMATS: [FormatInfo; FORMAT_COUNT] = [
    row(Format::Sop2, "SOP2", 4, 0xc000_0000, 0x8000_0000,
        &[br(Ssrc0, 0, 8), br(Ssrc1, 8, 8), br(Sdst, 16, 7), br(Op, 23, 7)]),
    row(Format::Sopk, "SOPK", 4, 0xf000_0000, 0xb000_0000,
        &[br(Simm16, 0, 16), br(Sdst, 16, 7), br(Op, 23, 5)]),
    row(Format::Sop1, "SOP1", 4, 0xff80_0000, 0xbe80_0000,
        &[br(Ssrc0, 0, 8), br(Op, 8, 8), br(Sdst, 16, 7)]),
    row(Format::Sopc, "SOPC", 4, 0xff80_0000, 0xbf00_0000,
        &[br(Ssrc0, 0, 8), br(Ssrc1, 8, 8), br(Op, 16, 7)]),
    row(Format::Sopp, "SOPP", 4, 0xff80_0000, 0xbf80_0000,
        &[br(Simm16, 0, 16), br(Op, 16, 7)]),
    row(Format::Smem, "SMEM", 8, 0xfc00_0000, 0xf400_0000,
        &[br(Sbase, 0, 6), br(Sdata, 6, 7), br(Dlc, 13, 1), br(Glc, 14, 1), br(Op, 18, 8),
          br(Offset, 32, 21), br(Soffset, 57, 7)]),
    row(Format::Ds, "DS", 8, 0xfc00_0000, 0xd800_0000,
        &[br(Offset0, 0, 8), br(Offset1, 8, 8), br(Gds, 17, 1), br(Op, 18, 8), br(Addr, 32, 8),
          br(Data0, 40, 8), br(Data1, 48, 8), br(Vdst, 56, 8)]),
    row(Format::Flat, "FLAT", 8, 0xfc03_0000, 0xdc00_0000, FLAT_FIELDS),
    row(Format::Global, "GLOBAL", 8, 0xfc03_0000, 0xdc02_0000, FLAT_FIELDS),
    row(Format::Scratch, "SCRATCH", 8, 0xfc03_0000, 0xdc01_0000, FLAT_FIELDS),
    row(Format::Mubuf, "MUBUF", 8, 0xfc00_0000, 0xe000_0000, &MUBUF_FIELDS),
    row(Format::Mtbuf, "MTBUF", 8, 0xfc00_0000, 0xe800_0000, &MTBUF_FIELDS),
    row(Format::Ldsdir, "LDSDIR", 4, 0xff00_0000, 0xce00_0000,
        &[br(Vdst, 0, 8), br(AttrChan, 8, 2), br(Attr, 10, 6), br(WaitVdst, 16, 4), br(Op, 20, 2)]),
    row(Format::Vinterp, "VINTERP", 8, 0xff00_0000, 0xcd00_0000,
        &[br(Vdst, 0, 8), br(WaitExp, 8, 3), br(OpSel, 11, 4), br(Clamp, 15, 1), br(Op, 16, 7),
          br(Src0, 32, 9), br(Src1, 41, 9), br(Src2, 50, 9), br(Neg, 61, 3)]),
    row(Format::Vop1, "VOP1", 4, 0xfe00_0000, 0x7e00_0000,
        &[br(Src0, 0, 9), br(Op, 9, 8), br(Vdst, 17, 8)]),
    row(Format::Vop2, "VOP2", 4, 0x8000_0000, 0,
        &[br(Src0, 0, 9), br(Vsrc1, 9, 8), br(Vdst, 17, 8), br(Op, 25, 6)]),
    row(Format::Vopc, "VOPC", 4, 0xfe00_0000, 0x7c00_0000,
        &[br(Src0, 0, 9), br(Vsrc1, 9, 8), br(Op, 17, 8)]),
    // VOP3SD (the carry-out and scale forms) keeps an SGPR destination at bits 8-14 where VOP3
    // has abs and op_sel; the table entry says which one an instruction uses.
    row(Format::Vop3, "VOP3", 8, 0xfc00_0000, 0xd400_0000,
        &[br(Vdst, 0, 8), br(Abs, 8, 3), br(Sdst, 8, 7), br(OpSel, 11, 4), br(Clamp, 15, 1),
          br(Op, 16, 10), br(Src0, 32, 9), br(Src1, 41, 9), br(Src2, 50, 9), br(Omod, 59, 2),
          br(Neg, 61, 3)]),
    row(Format::Vopd, "VOPD", 8, 0xfc00_0000, 0xc800_0000,
        &[br(Src0, 0, 9), br(Vsrc1, 9, 8), br(OpY, 17, 5), br(Op, 22, 4), br(Src0Y, 32, 9),
          br(Vsrc1Y, 41, 8), br(VdstY, 49, 7), br(Vdst, 56, 8)]),
    // VOP3P (`tools/DPP_VOP3P_NOTES.md` §1.5, every bit checked against llvm-mc-19).
    row(Format::Vop3p, "VOP3P", 8, 0xff80_0000, 0xcc00_0000,
        &[br(Vdst, 0, 8), br(NegHi, 8, 3), br(OpSel, 11, 3), piece(OpSelHi, 14, 1, 2),
          br(Clamp, 15, 1), br(Op, 16, 7), br(Src0, 32, 9), br(Src1, 41, 9), br(Src2, 50, 9),
          br(OpSelHi, 59, 2), br(NegLo, 61, 3)]),
];

/// Each format's opcode field, found in its layout when the crate is compiled (the decoder
/// reads it for every instruction).
static OP_RANGES: [BitRange; FORMAT_COUNT] = {
    let mut out = [br(Op, 0, 0); FORMAT_COUNT];
    let mut i = 0;
    while i < FORMAT_COUNT {
        // The table is in the order of the variants: `Format::index` relies on it.
        assert!(FORMATS[i].format as usize == i);
        let fields = FORMATS[i].layout.fields;
        let mut j = 0;
        while j < fields.len() {
            if matches!(fields[j].field, Op) {
                out[i] = fields[j];
            }
            j += 1;
        }
        assert!(out[i].width > 0, "every format has an opcode field");
        i += 1;
    }
    out
};

/// The DPP16 dword that follows an instruction word whose src0 is 250 (bit positions within
/// the dword; bit 17 is unused, and in VOP3/VOP3P forms so are bits 20-23).
pub static DPP16_DWORD: Layout = Layout {
    size: 4,
    ident_mask: 0,
    ident: 0,
    fields: &[
        br(DppSrc0, 0, 8),
        br(DppCtrl, 8, 9),
        br(Fi, 18, 1),
        br(BoundCtrl, 19, 1),
        br(DppNeg, 20, 1),
        br(DppAbs, 21, 1),
        piece(DppNeg, 22, 1, 1),
        piece(DppAbs, 23, 1, 1),
        br(BankMask, 24, 4),
        br(RowMask, 28, 4),
    ],
};

/// The DPP8 dword that follows an instruction word whose src0 is 233 or 234 (`fi:1`).
pub static DPP8_DWORD: Layout = Layout {
    size: 4,
    ident_mask: 0,
    ident: 0,
    fields: &[br(DppSrc0, 0, 8), br(Dpp8Sel, 8, 24)],
};

impl Format {
    /// Whether instructions of this format run on the vector ALU: VOP1, VOP2, VOP3, VOPC,
    /// VOP3P, VOPD and VINTERP.
    pub fn is_valu(self) -> bool {
        matches!(
            self,
            Format::Vop1
                | Format::Vop2
                | Format::Vop3
                | Format::Vopc
                | Format::Vop3p
                | Format::Vopd
                | Format::Vinterp
        )
    }

    /// The bit layout of this format.
    pub fn layout(self) -> &'static Layout {
        &FORMATS[self.index()].layout
    }

    /// The format that the layouts' identifying bits select for `first` (the slow,
    /// table-driven form of [`Format::identify`]).
    pub fn identify_by_layout(first: u32) -> Option<Format> {
        ALL_FORMATS.iter().copied().find(|f| {
            let l = f.layout();
            (first as u64 & l.ident_mask & 0xffff_ffff) == l.ident
        })
    }

    /// Upper-case name as AMD's documents write it.
    pub fn name(self) -> &'static str {
        FORMATS[self.index()].name
    }

    /// Dense index `0..FORMAT_COUNT`.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Which format a first dword belongs to, if any.
    ///
    /// SOPP, SOPC and SOP1 live inside the SOPK prefix, which lives inside SOP2's; the
    /// narrower ones are tested first. (A test checks this agrees with the layouts' bits.)
    #[inline]
    pub fn identify(first: u32) -> Option<Format> {
        if first >> 31 == 0 {
            // VOPC and VOP1 live inside VOP2's prefix.
            return Some(match first >> 25 {
                0x3e => Format::Vopc,
                0x3f => Format::Vop1,
                _ => Format::Vop2,
            });
        }
        Some(match first >> 26 {
            0b11_0110 => Format::Ds,
            0b11_0101 => Format::Vop3,
            0b11_0010 => Format::Vopd,
            0b11_0111 => match (first >> 16) & 3 {
                0 => Format::Flat,
                1 => Format::Scratch,
                2 => Format::Global,
                _ => return None,
            },
            0b11_1101 => Format::Smem,
            0b11_1000 => Format::Mubuf,
            0b11_1010 => Format::Mtbuf,
            0b11_0011 => match first >> 23 {
                0x19a | 0x19b => Format::Vinterp,
                0x19c | 0x19d => Format::Ldsdir,
                0x198 => Format::Vop3p,
                _ => return None,
            },
            _ if first >> 30 == 0b10 => match first >> 23 {
                0x17f => Format::Sopp,
                0x17e => Format::Sopc,
                0x17d => Format::Sop1,
                _ if first >> 28 == 0xb => Format::Sopk,
                _ => Format::Sop2,
            },
            _ => return None,
        })
    }

    /// The field an instruction's opcode is found in.
    #[inline]
    pub fn op_range(self) -> BitRange {
        OP_RANGES[self.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_identify_agrees_with_the_layouts() {
        for hi in 0..=0xffffu32 {
            for lo in [0u32, 0x7f, 0x8000, 0xffff] {
                let first = hi << 16 | lo;
                assert_eq!(
                    Format::identify(first),
                    Format::identify_by_layout(first),
                    "{first:#x}"
                );
            }
        }
    }

    #[test]
    fn split_fields_cover_their_value_once() {
        for l in ALL_FORMATS
            .iter()
            .map(|f| f.layout())
            .chain([&DPP16_DWORD, &DPP8_DWORD])
        {
            let mut seen: Vec<(Field, u32)> = Vec::new();
            for b in l.fields {
                let bits = ((1u32 << b.width) - 1) << b.at;
                if let Some(s) = seen.iter_mut().find(|(f, _)| *f == b.field) {
                    assert_eq!(s.1 & bits, 0, "{:?} overlaps itself", b.field);
                    s.1 |= bits;
                } else {
                    seen.push((b.field, bits));
                }
            }
            for (f, bits) in seen {
                assert!((bits + 1).is_power_of_two(), "{f:?}: pieces leave a gap");
            }
        }
    }

    #[test]
    fn op_range_is_the_layouts_op_field() {
        for f in ALL_FORMATS {
            let from_layout = f
                .layout()
                .fields
                .iter()
                .find(|b| b.field == Field::Op)
                .copied();
            assert_eq!(Some(f.op_range()), from_layout, "{}", f.name());
        }
    }
}
