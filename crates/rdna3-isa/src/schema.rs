//! What one line of the instruction table says: the types [`crate::table`] is written in.
//! They are public as [`crate::def`]; this module knows nothing of the table itself.

use crate::fields::Field;
use crate::format::Format;

/// How a 16-bit immediate (SOPP/SOPK `simm16`) is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imm {
    /// Unsigned decimal.
    Dec,
    /// Unsigned decimal, omitted when zero (`s_endpgm`).
    DecOptional,
    /// Hexadecimal `0x..`.
    Hex,
    /// Signed branch offset in dwords (printed as a signed decimal; a label in assembly).
    Label,
    /// `hwreg(...)`.
    Hwreg,
    /// `sendmsg(...)`.
    Sendmsg,
    /// `vmcnt(..) expcnt(..) lgkmcnt(..)`.
    Waitcnt,
    /// `depctr_*(..)` fields.
    Depctr,
    /// `instid0(..) | instskip(..) | instid1(..)`.
    DelayAlu,
    /// `UC_VERSION_*`.
    Version,
    /// GFX9's `gpr_idx(SRC0,SRC1,SRC2,DST)`: which VGPR operands `s_set_gpr_idx_on` and
    /// `s_set_gpr_idx_mode` index (bits 0-3).
    GprIdx,
}

/// The instruction-set generation a table entry belongs to: gfx1100's ([`crate::table`]) or
/// gfx942's ([`crate::table_gfx940`]). The two tables share this schema; each has its own
/// layouts of the formats ([`crate::format`], [`crate::gfx9::format`]), decoder and printer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Isa {
    /// RDNA3: gfx1100 (`llvm-mc-19 -mcpu=gfx1100`).
    Gfx11,
    /// CDNA3: gfx942, whose encodings are GFX9's with gfx940's changes
    /// (`llvm-mc-19 -mcpu=gfx942`).
    Gfx940,
}

impl Isa {
    /// Every instruction set, gfx1100's first.
    pub const ALL: [Isa; 2] = [Isa::Gfx11, Isa::Gfx940];

    /// The instruction set of a chip name (`gfx1100`, `gfx942`).
    pub fn of_target(name: &str) -> Option<Isa> {
        Isa::ALL.into_iter().find(|i| i.target() == name)
    }

    /// The chip `llvm-mc-19 -mcpu=` names for it, and the `--arch` that selects it.
    pub const fn target(self) -> &'static str {
        match self {
            Isa::Gfx11 => "gfx1100",
            Isa::Gfx940 => "gfx942",
        }
    }
}

/// How a vector source's constants and literals are written (read off llvm-mc-19's printing
/// of probe values per instruction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcTy {
    /// 32-bit integer or float: float constants by name, literals as the scalar rules.
    B32,
    /// 16-bit float: the low 16 bits of a literal, as a number when they are an inline
    /// integer (sign-extended) or f16 constant, else hex.
    F16,
    /// 16-bit integer or bits: float constants as their f16 bits in hex; a literal that is a
    /// 32-bit inline value prints as it, others as their low 16 bits in hex.
    I16,
    /// 64-bit float: the 1/(2π) constant in f64 digits; a literal is the high dword of a
    /// double, printed as the constant it makes or in hex.
    F64,
    /// 64-bit integer: literals 0-64 in decimal, others in hex.
    B64,
    /// Two packed f16: a literal that is an inline integer or f16 constant prints as it.
    PackedF16,
    /// Two packed bf16 (`v_dot2_f32_bf16`, `v_dot2_bf16_bf16` A/B): inline constants by
    /// name, a literal as an inline integer or in hex (never as a float).
    PackedBf16,
    /// One bf16 (`v_dot2_bf16_bf16` C): a literal whose low 16 bits are an inline integer
    /// prints as it, others as all 32 bits in hex.
    Bf16,
    /// A VGPR only (llvm-mc-19 marks anything else invalid).
    VgprOnly,
    /// True16 register halves (`v1.l`/`v1.h`), 16-bit bits otherwise.
    B16LoHi,
}

/// An operand written in the text but not encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Implicit {
    /// `vcc_lo` (wave32 VCC), read or written implicitly by VOPC, carries and `v_cndmask`; on
    /// gfx942 (wave64) the whole `vcc`.
    VccLo,
}

/// The kind of an operand: how its field's value maps to text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A VGPR or a range of `n` VGPRs.
    V(u8),
    /// An atomic's return VGPRs (`n` of them), present only when `glc` is set.
    VRtn(u8),
    /// A scalar destination of `n` dwords (7-bit field).
    S(u8),
    /// A scalar source of `n` dwords (8-bit field): registers, inline constants, literal.
    Ssrc(u8),
    /// A scalar source that must be a register (8-bit field; llvm-mc-19 marks constants in it
    /// `/*Invalid immediate*/`).
    SsrcReg(u8),
    /// SMEM base: `n` SGPRs, the field holds the first register / 2.
    SBase(u8),
    /// SMEM `soffset` register and/or immediate `offset`.
    SmemOffset,
    /// `s_atc_probe`'s 3-bit immediate in the sdata field.
    SmemProbe,
    /// MUBUF/MTBUF resource descriptor: 4 SGPRs, the field holds the first register / 4.
    Rsrc,
    /// MUBUF/MTBUF vector address: `off`, one VGPR, or two (idxen and offen).
    BufVaddr,
    /// MUBUF/MTBUF `soffset` (an 8-bit scalar source without literal).
    BufSoffset,
    /// FLAT vector address: 64 bits, or 32 with a scalar base; `off` for scratch without one.
    FlatVaddr,
    /// FLAT scalar base (`off`, an SGPR pair for global, an SGPR for scratch).
    FlatSaddr,
    /// A 16-bit immediate.
    Imm(Imm),
    /// A 32-bit literal dword after the instruction.
    Lit32,
    /// `s_sendmsg_rtn`'s message in its 8-bit source field.
    SendmsgRtn,
    /// LDSDIR `attrN.c` (attribute and channel fields).
    AttrName,
    /// VINTERP source `i` (a VGPR, with its negate bit).
    VinterpSrc(u8),
    /// A 9-bit vector-ALU source of `n` dwords: VGPR (256+), scalar, constant, literal.
    VSrc(u8, SrcTy),
    /// A VGPR half (`vN.l`/`vN.h`: bit 7 of the 8-bit field selects the high half).
    VLoHi(u8),
    /// A fixed operand not in the encoding.
    Implicit(Implicit),
    /// `v_fmamk`/`v_fmaak`'s 32-bit constant K (always a literal, printed in hex).
    LitK,
    /// WMMA's A or B matrix: a range of `n` VGPRs in a 9-bit source field (llvm-mc-19 prints
    /// anything else with an "invalid" comment and will not assemble it).
    WmmaAB(u8),
    /// WMMA's C matrix: a range of `n` VGPRs, or an inline constant printed as an f64 one.
    WmmaC(u8),
    /// A lane-mask source in a 9-bit VOP3 source field: one SGPR in wave32 (`vcc_lo`, `s6`,
    /// `null`, `m0`; not EXEC) — `v_cndmask_b32_e64`'s mask, the carry-in of
    /// `v_add_co_ci_u32_e64`.
    LaneMask,
}

/// The classes of operand kinds the parser and the printer each handle in one function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OperandClass {
    /// VGPRs and ranges of them, `off`, `.l`/`.h` halves, WMMA matrices, VINTERP sources.
    VectorRegister,
    /// SGPRs, scalar sources, SMEM base/offset/probe, buffer resource and offset, FLAT saddr,
    /// wave32 lane masks.
    Scalar,
    /// 16-bit immediates, literals, interpolation attributes, the implicit `vcc_lo`.
    Immediate,
    /// Vector-ALU sources ([`Kind::VSrc`]).
    VectorSource,
}

impl Kind {
    /// Which class of operand this kind is.
    pub(crate) fn class(self) -> OperandClass {
        match self {
            Kind::V(_)
            | Kind::VRtn(_)
            | Kind::BufVaddr
            | Kind::FlatVaddr
            | Kind::WmmaAB(_)
            | Kind::WmmaC(_)
            | Kind::VLoHi(_)
            | Kind::VinterpSrc(_) => OperandClass::VectorRegister,
            Kind::S(_)
            | Kind::Ssrc(_)
            | Kind::LaneMask
            | Kind::SsrcReg(_)
            | Kind::SBase(_)
            | Kind::SmemOffset
            | Kind::SmemProbe
            | Kind::Rsrc
            | Kind::BufSoffset
            | Kind::FlatSaddr => OperandClass::Scalar,
            Kind::Imm(_)
            | Kind::Lit32
            | Kind::SendmsgRtn
            | Kind::AttrName
            | Kind::Implicit(_)
            | Kind::LitK => OperandClass::Immediate,
            Kind::VSrc(..) => OperandClass::VectorSource,
        }
    }
}

/// The wave size the text is written for: llvm-mc-19 with `-mattr=+wavefrontsize64` writes
/// lane masks as SGPR pairs (`vcc`, `exec`, `s[2:3]`) where wave32 writes one SGPR
/// (`vcc_lo`, `s2`); nothing else changes, and VOPD does not exist in wave64.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wave {
    /// Wave32 (the default, as llvm-mc-19 -mcpu=gfx1100).
    #[default]
    W32,
    /// Wave64 (`-mattr=+wavefrontsize64`).
    W64,
}

/// One operand: the field its value lives in and how that value is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    /// The encoding field.
    pub field: Field,
    /// How it is written.
    pub kind: Kind,
}

impl Operand {
    /// An operand in `field` of `kind`.
    pub const fn new(field: Field, kind: Kind) -> Operand {
        Operand { field, kind }
    }
}

/// Flags of a table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Flags(pub u32);

impl Flags {
    /// No flags.
    pub const NONE: Flags = Flags(0);
    /// DS: the instruction always has the `gds` bit (GWS, ordered count, GS registers).
    pub const GDS_ONLY: Flags = Flags(1);
    /// DS: two 8-bit offsets `offset0:`/`offset1:` instead of one 16-bit offset.
    pub const OFFSET_PAIR: Flags = Flags(2);
    /// DS: the offset is a swizzle pattern (`ds_swizzle_b32`).
    pub const SWIZZLE: Flags = Flags(4);
    /// An atomic: FLAT/GLOBAL return the pre-op value when `glc` is set.
    pub const ATOMIC: Flags = Flags(8);
    /// MUBUF: loads into LDS (`buffer_load_lds_*`).
    pub const LDS: Flags = Flags(16);
    /// VINTERP: takes `op_sel`. gfx942 VOP3: prints `op_sel:[...]` (one entry per source,
    /// then the destination's).
    pub const OP_SEL: Flags = Flags(32);
    /// DS: the instruction cannot address GDS (llvm-mc-19 rejects `gds` on it).
    pub const NO_GDS: Flags = Flags(64);
    /// VOP e32 16-bit "fake16" forms: only v0-v127 are encodable in their VGPR fields.
    pub const FAKE16: Flags = Flags(128);
    /// VOP3/VOP3SD: takes `clamp`.
    pub const VOP3_CLAMP: Flags = Flags(512);
    /// VOP3: source 0 takes the float source modifiers `abs` and `neg` (`|x|`, `-x`). On a
    /// VOP3SD entry (one with an `Sdst` operand, which sits where the abs bits would be:
    /// `v_div_scale_f32/f64`) only `neg` ([`SrcMods::Neg`]).
    pub const VOP3_NEG_ABS0: Flags = Flags(1024);
    /// VOP3: source 1 takes `abs` and `neg`.
    pub const VOP3_NEG_ABS1: Flags = Flags(2048);
    /// VOP3: source 2 takes `abs` and `neg`.
    pub const VOP3_NEG_ABS2: Flags = Flags(4096);
    /// VOP3: takes the output modifier (`mul:2`, `mul:4`, `div:2`).
    pub const VOP3_OMOD: Flags = Flags(8192);
    /// Has DPP16 and DPP8 forms (`tools/DPP_VOP3P_NOTES.md` §2). On an e32 (VOP1/VOP2/VOPC)
    /// entry, `VOP3_NEG_ABS0`/`VOP3_NEG_ABS1` then say which sources take `abs`/`neg` in the
    /// DPP16 form (the DPP dword's bits), as they do for the entry's VOP3 form (on gfx942, in
    /// the DPP and the SDWA forms).
    pub const DPP: Flags = Flags(256);
    /// A source without `VOP3_NEG_ABSi` takes `sext(x)`: its neg bit prints as `sext`, its
    /// abs bit is ignored (`v_ldexp_f32`'s exponent, `v_cvt_pk_u8_f32`, and the DPP forms
    /// `v_ldexp_f16_dpp`, `v_mov_b16_dpp`).
    ///
    /// On a gfx942 VOP1/VOP2/VOPC entry: source 1 takes `sext` in the DPP and SDWA forms
    /// (`v_ldexp_f16`'s exponent, `v_cmp_class_*`'s mask); on a gfx942 VOP3 entry, as above.
    pub const SEXT: Flags = Flags(1 << 14);
    /// The neg/abs bits of the sources without modifiers decode and are ignored (the 16-bit
    /// integer op_sel instructions and the permlanes; elsewhere they make the word invalid).
    /// In the DPP forms (`v_add_nc_u16_e64_dpp`, ...) llvm-mc-19 prints the neg bit as
    /// `sext(x)` instead.
    /// On gfx942 entries: the neg/abs bits of the sources without `VOP3_NEG_ABSi` decode and
    /// are ignored (VOP3, and the DPP dword of VOP1/VOP2).
    pub const MODS_IGNORED: Flags = Flags(1 << 16);
    /// VOP3 `op_sel`: printed with four entries although the instruction has two sources
    /// (`v_fmac_f16_e64`); the third entry is ignored.
    pub const OP_SEL4: Flags = Flags(1 << 17);
    /// VOP3 `op_sel`: only the src2 and dst entries are used, bits 11/12 are ignored
    /// (`v_dot2_f16_f16`, `v_dot2_bf16_bf16`).
    pub const OP_SEL_SRC2_DST: Flags = Flags(1 << 18);
    /// VOP3 `op_sel`: two entries (bits 11 and 12: `fi` and `bound_ctrl` of the permlanes);
    /// bits 13/14 are ignored.
    pub const OP_SEL2: Flags = Flags(1 << 19);
    /// VOP3P `v_fma_mix*`: `op_sel_hi` defaults to 0, and `neg_lo`/`neg_hi` are written on
    /// the operands as `-x`/`|x|`.
    pub const MIX: Flags = Flags(1 << 20);
    /// VOP3P WMMA with an f32/i32 result: `op_sel` bits make the word invalid, `op_sel_hi`
    /// bits are ignored (written as 1s, not writable in assembly).
    pub const NO_OP_SEL: Flags = Flags(1 << 21);
    /// VOP1/VOP3 without operands (`v_nop`, `v_pipeflush`): llvm-mc-19 prints both the e32
    /// and the e64 form without the `_e32`/`_e64` suffix of the table's name. The e32 word
    /// ignores its src0 field (no literal or DPP dword follows) and needs vdst = 0; the e64
    /// word needs every field but `op_sel` 0.
    pub const BARE_NAME: Flags = Flags(1 << 22);
    /// The hardware runs it and AMD's RDNA3 ISA guide defines it (its pseudocode lists the
    /// opcode), newer LLVM emits it (Triton's output), but llvm-mc-19 rejects the word and
    /// the mnemonic. The assembler and `Instruction::decode` refuse it, so that our text
    /// agrees with llvm-mc-19; `Instruction::decode_hw`, which the executor uses, accepts it.
    /// `lookup::known_to_llvm()` leaves these entries out.
    pub const HW_ONLY: Flags = Flags(1 << 23);
    /// gfx942: the destination register is an AGPR (`v_accvgpr_write_b32`, `v_accvgpr_mov_b32`).
    pub const ACC_DST: Flags = Flags(1 << 24);
    /// gfx942: source 0 names an AGPR (`v_accvgpr_read_b32`, `v_accvgpr_mov_b32`).
    pub const ACC_SRC0: Flags = Flags(1 << 25);
    /// gfx942 VOP3: the `op_sel` bits decode and are ignored (not printed).
    pub const OP_SEL_IGNORED: Flags = Flags(1 << 26);
    /// gfx942 VOP3P: a matrix instruction (MFMA, SMFMAC): `cbsz`, `abid` and `blgp` where
    /// other VOP3P has neg_hi, op_sel and neg_lo; `acc_cd` (bit 15) makes the destination and
    /// C AGPRs, bits 59/60 make A and B AGPRs.
    pub const MFMA: Flags = Flags(1 << 27);
    /// gfx942 VOP1/VOP2/VOPC: has an SDWA form (src0 249, an SDWA dword after the word);
    /// `VOP3_NEG_ABS0/1` say which sources take its neg/abs bits, as for the DPP form.
    pub const SDWA: Flags = Flags(1 << 28);
    /// gfx942 SDWA form: takes `clamp`.
    pub const SDWA_CLAMP: Flags = Flags(1 << 29);
    /// gfx942 SDWA form: takes the output modifier.
    pub const SDWA_OMOD: Flags = Flags(1 << 30);
    /// gfx942 SDWA form: its sources take `sext(x)`.
    pub const SDWA_SEXT: Flags = Flags(1 << 31);

    /// Whether every flag of `other` is set.
    pub const fn has(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Both sets of flags (usable in the table's statics).
    pub const fn or(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
    }

    /// VOP3: whether source `i` (0-2) takes `abs` and `neg`.
    pub const fn neg_abs(self, i: usize) -> bool {
        self.0 >> (10 + i) & 1 == 1
    }
}

/// What a source's neg and abs bits mean (VOP3 word bits, or an e32 DPP16 dword's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcMods {
    /// None: a set bit makes the word invalid.
    None,
    /// Float negate and absolute value (`-x`, `|x|`, `-|x|`, `neg(c)`).
    NegAbs,
    /// Float negate only (`-x`, `neg(c)`): a VOP3SD source (`v_div_scale_f32/f64`), whose
    /// abs bits hold the `sdst` register. llvm-mc-19 still reads `|x|` there, encodes
    /// nothing for it and echoes it (`Hints::abs_written`).
    Neg,
    /// Sign extension of an integer (`sext(x)`); the abs bit is ignored.
    Sext,
    /// Both bits decode and are ignored (not printed, not writable).
    Ignored,
}

/// How an instruction's VOP3 `op_sel` bits (11-14) are written: `entries[k]` is the word bit
/// of printed entry `k`, or `None` for an entry that is printed as 0 and ignored when written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpSelLayout {
    /// Word bits of the printed entries (2, 3 or 4 of them).
    pub entries: [Option<u8>; 4],
    /// How many entries are printed.
    pub count: usize,
    /// Bits that make the word invalid when set.
    pub rejected: u64,
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, rhs: Flags) -> Flags {
        Flags(self.0 | rhs.0)
    }
}

/// One instruction of the table.
#[derive(Debug)]
pub struct InstrDef {
    /// Encoding format.
    pub format: Format,
    /// Opcode within the format.
    pub opcode: u16,
    /// Canonical (llvm-mc-19) mnemonic.
    pub name: &'static str,
    /// Operands in printed order.
    pub operands: &'static [Operand],
    /// Syntax and behaviour flags.
    pub flags: Flags,
    /// The table it is a line of.
    pub isa: Isa,
}

impl InstrDef {
    /// A line of the gfx1100 table.
    pub const fn new(
        format: Format,
        opcode: u16,
        name: &'static str,
        operands: &'static [Operand],
        flags: Flags,
    ) -> InstrDef {
        InstrDef {
            format,
            opcode,
            name,
            operands,
            flags,
            isa: Isa::Gfx11,
        }
    }

    /// A line of the gfx942 table.
    pub const fn gfx940(
        format: Format,
        opcode: u16,
        name: &'static str,
        operands: &'static [Operand],
        flags: Flags,
    ) -> InstrDef {
        InstrDef {
            isa: Isa::Gfx940,
            ..InstrDef::new(format, opcode, name, operands, flags)
        }
    }

    /// How many vector-ALU sources ([`Kind::VSrc`]) the instruction has.
    pub fn vector_sources(&self) -> usize {
        self.operands
            .iter()
            .filter(|o| matches!(o.kind, Kind::VSrc(..)))
            .count()
    }

    /// Whether the operand in `field` of `kind` is a lane mask (one SGPR in wave32, a pair
    /// in wave64): VCC implicit in VOPC, `v_cndmask` and the carries, the SGPR result of a
    /// VOP3 compare, the carry-out/`sdst` of VOP3SD, and the [`Kind::LaneMask`] sources.
    /// (`v_readlane_b32`'s and `v_readfirstlane_b32`'s SGPR results are not.)
    pub fn is_lane_mask(&self, field: Field, kind: Kind) -> bool {
        match kind {
            Kind::Implicit(Implicit::VccLo) | Kind::LaneMask => true,
            Kind::S(1) if self.format == Format::Vop3 => {
                field == Field::Sdst || field == Field::Vdst && self.name.starts_with("v_cmp")
            }
            _ => false,
        }
    }

    /// The operand stored in `field`, if the instruction has one.
    pub fn operand(&self, field: Field) -> Option<&Operand> {
        self.operands.iter().find(|o| o.field == field)
    }

    /// The field of vector-ALU source `i` (0-2): `src0`, then `src1` (VOP3/VOP3P) or
    /// `vsrc1` (VOP2/VOPC), then `src2`; `None` when the instruction has no such source.
    pub fn source_field(&self, i: usize) -> Option<Field> {
        let f = match i {
            0 => Field::Src0,
            1 if self.operand(Field::Vsrc1).is_some() => Field::Vsrc1,
            1 => Field::Src1,
            2 => Field::Src2,
            _ => return None,
        };
        self.operand(f).map(|o| o.field)
    }

    /// Number of vector-ALU sources (`src0` .. `src2`, `vsrc1`).
    pub fn source_count(&self) -> usize {
        (0..3).filter(|&i| self.source_field(i).is_some()).count()
    }

    /// What source `i`'s neg and abs bits mean in the VOP3 form.
    pub fn source_mods(&self, i: usize) -> SrcMods {
        if self.source_field(i).is_none() {
            SrcMods::None
        } else if self.flags.neg_abs(i) && self.operand(Field::Sdst).is_some() {
            SrcMods::Neg
        } else if self.flags.neg_abs(i) {
            SrcMods::NegAbs
        } else if self.flags.has(Flags::SEXT) {
            SrcMods::Sext
        } else if self.flags.has(Flags::MODS_IGNORED) {
            SrcMods::Ignored
        } else {
            SrcMods::None
        }
    }

    /// What source `i`'s neg and abs bits mean in a DPP form (VOP1/VOP2/VOPC: the DPP16
    /// dword's bits; VOP3: the word's): as [`InstrDef::source_mods`], except that the
    /// ignored bits of [`Flags::MODS_IGNORED`] print as `sext` there (llvm-mc-19).
    pub fn dpp_source_mods(&self, i: usize) -> SrcMods {
        match self.source_mods(i) {
            SrcMods::Ignored => SrcMods::Sext,
            m => m,
        }
    }

    /// VOP3: how `op_sel` is printed and parsed, for an instruction with [`Flags::OP_SEL`]
    /// (`tools/VOP3_NOTES.md` §op_sel, checked with llvm-mc-19): one entry per source then
    /// the destination (bits 11, 12[, 13], 14; a two-source instruction rejects bit 13);
    /// [`Flags::OP_SEL4`], [`Flags::OP_SEL_SRC2_DST`] and [`Flags::OP_SEL2`] are the
    /// exceptions.
    pub fn op_sel_layout(&self) -> Option<OpSelLayout> {
        if self.format != Format::Vop3 || !self.flags.has(Flags::OP_SEL) {
            return None;
        }
        let two = self.source_count() == 2;
        Some(if self.flags.has(Flags::OP_SEL2) {
            OpSelLayout {
                entries: [Some(11), Some(12), None, None],
                count: 2,
                rejected: 0,
            }
        } else if self.flags.has(Flags::OP_SEL_SRC2_DST) {
            OpSelLayout {
                entries: [None, None, Some(13), Some(14)],
                count: 4,
                rejected: 0,
            }
        } else if self.flags.has(Flags::OP_SEL4) {
            OpSelLayout {
                entries: [Some(11), Some(12), None, Some(14)],
                count: 4,
                rejected: 1 << 13,
            }
        } else if two {
            OpSelLayout {
                entries: [Some(11), Some(12), Some(14), None],
                count: 3,
                rejected: 1 << 13,
            }
        } else if self.source_count() == 1 {
            // One source (`v_mov_b16_e64`, [`Flags::HW_ONLY`]): [src0, dst], as newer LLVMs
            // print it.
            OpSelLayout {
                entries: [Some(11), Some(14), None, None],
                count: 2,
                rejected: 1 << 12 | 1 << 13,
            }
        } else {
            OpSelLayout {
                entries: [Some(11), Some(12), Some(13), Some(14)],
                count: 4,
                rejected: 0,
            }
        })
    }

    /// VOP3P: the `op_sel_hi` value the assembler writes when the text gives none (and that
    /// is not printed): 0 for `v_fma_mix*`, else all ones.
    pub fn default_op_sel_hi(&self) -> u32 {
        if self.flags.has(Flags::MIX) {
            0
        } else {
            7
        }
    }

    /// Bytes of memory one lane reads or writes, from the mnemonic's data type
    /// (`b8`/`u8`/`i8` 1, 16-bit 2, `b32` 4, `b64` 8, `b96` 12, `b128` 16, `b256` 32, `b512` 64; 2addr counts one
    /// element); 0 for instructions that are not memory accesses of a fixed width.
    pub fn data_bytes(&self) -> u32 {
        for part in self.name.rsplit('_') {
            let n = match part {
                "b8" | "u8" | "i8" | "byte" => 1,
                "b16" | "u16" | "i16" | "f16" => 2,
                "b32" | "u32" | "i32" | "f32" => 4,
                "b64" | "u64" | "i64" | "f64" => 8,
                "b96" => 12,
                "b128" => 16,
                "b256" => 32,
                "b512" => 64,
                _ => continue,
            };
            return n;
        }
        0
    }
}
