//! How one table entry executes, worked out once per entry: its [`Op`], its operand shape,
//! and where and how its sources are read.
//!
//! # 16-bit operands
//! A 16-bit operand is one half of a 32-bit register:
//! - in the e32 encodings (VOP1, VOP2, VOPC) bit 7 of the VGPR number selects the high half
//!   of `v(N & 127)` — the gfx11 "true16" register naming `vN.l`/`vN.h` that `v_mov_b16`
//!   prints, and the reason llvm-mc-19 accepts only v0-v127 there for the other 16-bit
//!   instructions (`VS_32_Lo128`, the table's `FAKE16`);
//! - in VOP3, `op_sel` bit i (instruction bits \[14:11\]) selects the high half of source i, and
//!   bit 3 the half of the destination written. llvm-mc-19 prints `op_sel` only for the
//!   instructions not yet in the table (`v_add_nc_u16`, `v_fma_f16`, ...) and encodes it as 0
//!   elsewhere, so today's assembled programs always have `op_sel` = 0; the executor reads the
//!   field from the instruction word for every VOP3 16-bit operand (not VOP3SD, whose `sdst`
//!   overlaps it), so decoded words and future table entries select halves as the hardware
//!   does.
//!
//! An inline float constant in a 16-bit source (F16, I16, B16 types) is the f16 value.

use std::sync::OnceLock;

use rdna3_isa::{Field, Flags, Format, InstrDef, Instruction, Kind, Opcode, SrcTy};

use super::names::op_of;
use super::op::Op;
use super::shape::Shape;

/// How one table entry executes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Class {
    pub op: Op,
    pub shape: Shape,
    /// Source fields in operand order (e32: src0, vsrc1; VOP3: src0-src2).
    pub fields: [Option<Field>; 3],
    /// Dwords of each source.
    pub dwords: [u8; 3],
    /// Sign bit of each source for `abs`/`neg` (VOP3 float sources, and the e32 DPP16
    /// sources that take the DPP dword's modifiers), 0: none.
    pub sign: [u64; 3],
    /// Sources whose inline float constants are f16 values.
    pub f16_const: [bool; 3],
    /// Sources whose inline float constants are bf16 values: the top half of the f32
    /// constant, in the low 16 bits (our choice, as the f16 constants sit there; exact for
    /// every inline constant but 1/(2π), whose f32 bits are truncated).
    pub bf16_const: [bool; 3],
    /// Result VGPRs: 1, 2 or 4 (0 for compares and scalar results).
    pub dst_dwords: u8,
    /// VOP3 encoding.
    pub vop3: bool,
    /// VOP3SD: an SGPR destination in bits \[14:8\] (no `abs`, no `op_sel`).
    pub sdst: bool,
    /// `v_cmpx_*`: the compare writes EXEC.
    pub cmpx: bool,
    /// The entry has DPP forms (`src0` 250, 233 or 234 makes the instruction one).
    pub dpp: bool,
    /// Every operand is 32 or 64 bits (no register halves, no f16/bf16 inline constants, no
    /// wider results) and the operation works lane by lane: the fast path ([`super::fast`])
    /// executes it when the instruction has no DPP, output modifier or `clamp`.
    pub plain: bool,
    /// A source or the result is 64 bits (a register pair).
    pub wide: bool,
    /// Where the fields the executor reads sit in the instruction word.
    pub bits: WordBits,
}

/// Where a field sits in a table entry's instruction word: bits `lo .. lo + width` (width
/// 0: the format has no such field, which reads 0, as [`Instruction::get`] reads it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Bits {
    lo: u8,
    width: u8,
}

impl Bits {
    /// Where field `f` sits in the word of table entry `op`.
    fn of(op: Opcode, f: Field) -> Bits {
        Instruction::new(op)
            .range(f)
            .map_or(Bits::default(), |r| Bits {
                lo: r.lo,
                width: r.width,
            })
    }

    /// The field's value in instruction word `word`.
    #[inline(always)]
    pub fn read(self, word: u64) -> u32 {
        (word >> self.lo & ((1u64 << self.width) - 1)) as u32
    }
}

/// The positions of the fields a VOP1/VOP2/VOPC/VOP3 instruction's execution reads, worked
/// out once per table entry so that executing one reads them with a shift and a mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct WordBits {
    /// The source fields ([`Class::fields`]; absent ones read 0).
    pub src: [Bits; 3],
    pub vdst: Bits,
    pub sdst: Bits,
    pub op_sel: Bits,
    pub abs: Bits,
    pub neg: Bits,
    pub clamp: Bits,
    pub omod: Bits,
}

impl WordBits {
    /// The positions in table entry `op`, whose source fields are `fields`.
    fn of(op: Opcode, fields: &[Option<Field>; 3]) -> WordBits {
        let at = |f: Field| Bits::of(op, f);
        WordBits {
            src: fields.map(|f| f.map_or(Bits::default(), at)),
            vdst: at(Field::Vdst),
            sdst: at(Field::Sdst),
            op_sel: at(Field::OpSel),
            abs: at(Field::Abs),
            neg: at(Field::Neg),
            clamp: at(Field::Clamp),
            omod: at(Field::Omod),
        }
    }
}

/// The executor's view of a table entry, `None` when it does not execute it.
pub(super) fn classify(d: &InstrDef) -> Option<Class> {
    if !matches!(
        d.format,
        Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3
    ) {
        return None;
    }
    let base = d
        .name
        .strip_suffix("_e32")
        .or_else(|| d.name.strip_suffix("_e64"))
        .unwrap_or(d.name);
    let op = op_of(base)?;
    let shape = op.shape();
    let vop3 = d.format == Format::Vop3;
    let src_fields: &[Field] = if vop3 {
        &[Field::Src0, Field::Src1, Field::Src2]
    } else {
        &[Field::Src0, Field::Vsrc1]
    };
    let mut c = Class {
        op,
        shape,
        fields: [None; 3],
        dwords: [1; 3],
        sign: [0; 3],
        f16_const: [false; 3],
        bf16_const: [false; 3],
        dst_dwords: 0,
        vop3,
        sdst: d.operand(Field::Sdst).is_some(),
        cmpx: d.name.starts_with("v_cmpx"),
        dpp: d.flags.has(Flags::DPP),
        plain: false,
        wide: false,
        bits: WordBits::default(),
    };
    for (i, &f) in src_fields.iter().enumerate() {
        let Some(o) = d.operand(f) else { continue };
        let (n, ty) = match o.kind {
            Kind::VSrc(n, ty) => (n, ty),
            Kind::V(n) => (n, SrcTy::B32),
            Kind::Ssrc(n) => (n, SrcTy::B32),
            Kind::LaneMask => (1, SrcTy::B32),
            _ => return None,
        };
        let n = if matches!(ty, SrcTy::F64 | SrcTy::B64) {
            n.max(2)
        } else {
            n
        };
        let half = shape.src16 >> i & 1 == 1;
        c.fields[i] = Some(f);
        c.dwords[i] = n;
        c.f16_const[i] = matches!(ty, SrcTy::F16 | SrcTy::I16 | SrcTy::B16LoHi);
        c.bf16_const[i] = ty == SrcTy::Bf16;
        // e32 entries carry these flags only where their DPP16 form takes the DPP dword's
        // neg/abs bits (`Flags::DPP`); elsewhere e32 has no modifiers to apply.
        if d.flags.neg_abs(i) {
            c.sign[i] = match n {
                2 => 1 << 63,
                _ if half => 1 << 15,
                _ => 1 << 31,
            };
        }
    }
    if let Some(o) = d.operand(Field::Vdst) {
        match o.kind {
            Kind::V(n) => c.dst_dwords = n,
            Kind::VLoHi(_) => c.dst_dwords = 1,
            _ => {}
        }
    }
    c.plain = !matches!(op, Op::Whole(_))
        && shape.src16 == 0
        && !shape.dst16
        && c.dst_dwords <= 2
        && c.dwords.iter().all(|&n| n <= 2)
        && c.f16_const == [false; 3]
        && c.bf16_const == [false; 3];
    c.wide = c.dst_dwords == 2 || c.dwords.contains(&2);
    Some(c)
}

/// [`classify`] with the field positions of table entry `op`.
pub(super) fn classify_entry(op: Opcode) -> Option<Class> {
    let mut c = classify(op.def())?;
    c.bits = WordBits::of(op, &c.fields);
    Some(c)
}

/// The class of a table entry (computed for the whole table once).
pub(super) fn class(op: Opcode) -> Option<&'static Class> {
    static CACHE: OnceLock<Vec<Option<Class>>> = OnceLock::new();
    CACHE
        .get_or_init(|| {
            rdna3_isa::def::every()
                .map(|(op, _)| classify_entry(op))
                .collect()
        })
        .get(op.0 as usize)?
        .as_ref()
}

/// `of(entry)` for table entry `op`, from `cache`, which holds it for every entry of the
/// instruction table once the first lookup has filled it.
pub(super) fn per_entry<T: Send + Sync>(
    cache: &'static OnceLock<Vec<Option<T>>>,
    op: Opcode,
    of: fn(&InstrDef) -> Option<T>,
) -> Option<&'static T> {
    cache
        .get_or_init(|| rdna3_isa::def::every().map(|(_, d)| of(d)).collect())
        .get(op.0 as usize)?
        .as_ref()
}
