//! What one line of the instruction table says, and lookups over the table.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::fields::Field;
use crate::format::{Format, ALL_FORMATS};
use crate::table::INSTRUCTIONS;

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
    /// A VGPR only (llvm-mc-19 marks anything else invalid).
    VgprOnly,
    /// True16 register halves (`v1.l`/`v1.h`), 16-bit bits otherwise.
    B16LoHi,
}

/// An operand written in the text but not encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Implicit {
    /// `vcc_lo` (wave32 VCC), read or written implicitly by VOPC, carries and `v_cndmask`.
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
    /// A lane-mask source in a 9-bit VOP3 source field: one SGPR in wave32 (`vcc_lo`, `s6`,
    /// `null`, `m0`; not EXEC) — `v_cndmask_b32_e64`'s mask, the carry-in of
    /// `v_add_co_ci_u32_e64`.
    LaneMask,
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
    /// VINTERP: takes `op_sel`.
    pub const OP_SEL: Flags = Flags(32);
    /// DS: the instruction cannot address GDS (llvm-mc-19 rejects `gds` on it).
    pub const NO_GDS: Flags = Flags(64);
    /// VOP e32 16-bit "fake16" forms: only v0-v127 are encodable in their VGPR fields.
    pub const FAKE16: Flags = Flags(128);
    /// VOP3/VOP3SD: takes `clamp`.
    pub const VOP3_CLAMP: Flags = Flags(512);
    /// VOP3: source 0 takes the float source modifiers `abs` and `neg` (`|x|`, `-x`).
    pub const VOP3_NEG_ABS0: Flags = Flags(1024);
    /// VOP3: source 1 takes `abs` and `neg`.
    pub const VOP3_NEG_ABS1: Flags = Flags(2048);
    /// VOP3: source 2 takes `abs` and `neg`.
    pub const VOP3_NEG_ABS2: Flags = Flags(4096);
    /// VOP3: takes the output modifier (`mul:2`, `mul:4`, `div:2`).
    pub const VOP3_OMOD: Flags = Flags(8192);

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
}

impl InstrDef {
    /// A table line.
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
        }
    }

    /// The operand stored in `field`, if the instruction has one.
    pub fn operand(&self, field: Field) -> Option<&Operand> {
        self.operands.iter().find(|o| o.field == field)
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

/// A reference to a table entry by its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opcode(pub u16);

impl Opcode {
    /// The table entry.
    #[inline]
    pub fn def(self) -> &'static InstrDef {
        &INSTRUCTIONS[self.0 as usize]
    }
}

/// FNV-1a: mnemonic lookup is on the assembler's hot path and needs no DoS resistance.
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h = (h ^ *b as u64).wrapping_mul(0x100_0000_01b3);
        }
        self.0 = h;
    }
}

type FnvBuild = std::hash::BuildHasherDefault<Fnv>;

struct Index {
    /// Per format, table index by opcode (`NONE`: no instruction).
    by_op: Vec<Vec<u16>>,
    by_name: HashMap<&'static str, Opcode, FnvBuild>,
}

const NONE: u16 = u16::MAX;

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut by_op: Vec<Vec<u16>> = vec![Vec::new(); ALL_FORMATS.len()];
        for f in ALL_FORMATS {
            // VOPD's entries are numbered by the 5-bit OPY (its OPX field is 4 bits).
            let width = if f == Format::Vopd {
                5
            } else {
                f.op_range().width
            };
            by_op[f.index()] = vec![NONE; 1 << width];
        }
        let mut by_name = HashMap::with_hasher(FnvBuild::default());
        for (i, d) in INSTRUCTIONS.iter().enumerate() {
            by_op[d.format.index()][d.opcode as usize] = i as u16;
            by_name.insert(d.name, Opcode(i as u16));
        }
        // `v_add_f32` names the e32 form `v_add_f32_e32` (llvm-mc-19 picks it when it fits).
        for (i, d) in INSTRUCTIONS.iter().enumerate() {
            if let Some(base) = d.name.strip_suffix("_e32") {
                by_name.entry(base).or_insert(Opcode(i as u16));
            }
        }
        for (alias, canonical) in crate::aliases::ALIASES {
            if let Some(&op) = by_name.get(canonical) {
                by_name.entry(alias).or_insert(op);
            }
        }
        Index { by_op, by_name }
    })
}

/// The instruction with `opcode` in `format`.
#[inline]
pub fn lookup_opcode(format: Format, opcode: u32) -> Option<Opcode> {
    let i = *index().by_op[format.index()].get(opcode as usize)?;
    (i != NONE).then_some(Opcode(i))
}

/// The instruction a mnemonic (canonical or alias, lower case) names.
pub fn lookup_name(name: &str) -> Option<Opcode> {
    index().by_name.get(name).copied()
}

/// Every table entry with its [`Opcode`].
pub fn all() -> impl Iterator<Item = (Opcode, &'static InstrDef)> {
    INSTRUCTIONS
        .iter()
        .enumerate()
        .map(|(i, d)| (Opcode(i as u16), d))
}
