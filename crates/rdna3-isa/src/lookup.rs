//! Lookups over the instruction table: an entry by format and opcode, by mnemonic (canonical,
//! `_e32`-less or alias) and by DPP mnemonic. Public as [`crate::def`].

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::format::{Format, ALL_FORMATS};
use crate::schema::{Flags, InstrDef, Isa};
use crate::table::INSTRUCTIONS;
use crate::table_gfx940::INSTRUCTIONS_GFX940;

/// A reference to a table entry by its index: the gfx1100 table's entries first, then the
/// gfx942 table's ([`Opcode::gfx940`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opcode(pub u16);

impl Opcode {
    /// The table entry.
    #[inline]
    pub fn def(self) -> &'static InstrDef {
        let i = self.0 as usize;
        match INSTRUCTIONS.get(i) {
            Some(d) => d,
            None => &INSTRUCTIONS_GFX940[i - INSTRUCTIONS.len()],
        }
    }

    /// Entry `i` of the gfx942 table.
    pub fn gfx940(i: usize) -> Opcode {
        Opcode((INSTRUCTIONS.len() + i) as u16)
    }

    /// The mnemonic of the instruction's DPP16/DPP8 forms (`v_add_f32_dpp`,
    /// `v_fma_f32_e64_dpp`, ...), if it has them.
    pub fn dpp_name(self) -> Option<&'static str> {
        index().dpp_names.get(self.0 as usize)?.as_deref()
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
    /// The same for the gfx942 table (its [`Opcode`]s).
    by_op_gfx940: Vec<Vec<u16>>,
    by_name: HashMap<&'static str, Opcode, FnvBuild>,
    /// Per table entry, the mnemonic of its DPP forms (entries with [`Flags::DPP`]).
    dpp_names: Vec<Option<String>>,
    /// DPP mnemonics (`v_add_f32_dpp`, `v_cmp_eq_f32`, `v_fma_f32_e64_dpp`, ...) by name.
    by_dpp_name: HashMap<String, Opcode, FnvBuild>,
}

/// The mnemonic llvm-mc-19 prints for the DPP forms of `d` (`tools/DPP_VOP3P_NOTES.md` §2):
/// VOP1/VOP2: the e32 name without `_e32`, plus `_dpp`; VOPC: the e32 name without `_e32`;
/// VOP3: the `_e64` name plus `_dpp` (VOP3-only names get `_e64_dpp`); VOP3P: `_e64_dpp`.
fn dpp_name_of(d: &InstrDef) -> Option<String> {
    if !d.flags.has(Flags::DPP) {
        return None;
    }
    let stem = d.name.strip_suffix("_e32").unwrap_or(d.name);
    Some(match d.format {
        Format::Vop1 | Format::Vop2 => format!("{stem}_dpp"),
        Format::Vopc => stem.to_string(),
        Format::Vop3 if d.name.ends_with("_e64") => format!("{}_dpp", d.name),
        _ => format!("{}_e64_dpp", d.name),
    })
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
            // The assembler does not know the hardware-only entries (llvm-mc-19 refuses them).
            if !d.flags.has(Flags::HW_ONLY) {
                by_name.insert(d.name, Opcode(i as u16));
            }
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
        let mut by_op_gfx940: Vec<Vec<u16>> = vec![Vec::new(); ALL_FORMATS.len()];
        for f in ALL_FORMATS {
            by_op_gfx940[f.index()] = vec![NONE; 1 << crate::gfx9::format::op_range(f).width];
        }
        for (i, d) in INSTRUCTIONS_GFX940.iter().enumerate() {
            by_op_gfx940[d.format.index()][d.opcode as usize] = Opcode::gfx940(i).0;
        }
        let dpp_names: Vec<Option<String>> = INSTRUCTIONS.iter().map(dpp_name_of).collect();
        let mut by_dpp_name = HashMap::with_hasher(FnvBuild::default());
        for (i, n) in dpp_names.iter().enumerate() {
            if let Some(n) = n {
                by_dpp_name.insert(n.clone(), Opcode(i as u16));
            }
        }
        Index {
            by_op,
            by_op_gfx940,
            by_name,
            dpp_names,
            by_dpp_name,
        }
    })
}

/// The instruction whose DPP forms a DPP mnemonic names (`v_add_f32_dpp`, `v_cmp_eq_f32`,
/// `v_add_f32_e64_dpp`, `v_fma_mix_f32_e64_dpp`; lower case).
pub fn lookup_dpp_name(name: &str) -> Option<Opcode> {
    index().by_dpp_name.get(name).copied()
}

/// The instruction with `opcode` in `format`.
#[inline]
pub fn lookup_opcode(format: Format, opcode: u32) -> Option<Opcode> {
    let i = *index().by_op[format.index()].get(opcode as usize)?;
    (i != NONE).then_some(Opcode(i))
}

/// The instruction with `opcode` in `format` of the table of `isa`.
#[inline]
pub fn lookup_opcode_in(isa: Isa, format: Format, opcode: u32) -> Option<Opcode> {
    let table = match isa {
        Isa::Gfx11 => &index().by_op,
        Isa::Gfx940 => &index().by_op_gfx940,
    };
    let i = *table[format.index()].get(opcode as usize)?;
    (i != NONE).then_some(Opcode(i))
}

/// Every entry of the table of `isa` with its [`Opcode`], in table order.
pub fn all_in(isa: Isa) -> Box<dyn Iterator<Item = (Opcode, &'static InstrDef)>> {
    match isa {
        Isa::Gfx11 => Box::new(all()),
        Isa::Gfx940 => Box::new(
            INSTRUCTIONS_GFX940
                .iter()
                .enumerate()
                .map(|(i, d)| (Opcode::gfx940(i), d)),
        ),
    }
}

/// Every entry of every table with its [`Opcode`], in opcode-index order: gfx1100's, then
/// gfx942's. Tables indexed by `Opcode.0` that must answer for any decoded instruction are
/// built from it.
pub fn every() -> impl Iterator<Item = (Opcode, &'static InstrDef)> {
    all().chain(
        INSTRUCTIONS_GFX940
            .iter()
            .enumerate()
            .map(|(i, d)| (Opcode::gfx940(i), d)),
    )
}

/// The instruction a mnemonic (canonical or alias, lower case) names.
pub fn lookup_name(name: &str) -> Option<Opcode> {
    index().by_name.get(name).copied()
}

/// Every table entry with its [`Opcode`], in opcode-index order (tables indexed by
/// `Opcode.0` are built from it). The [`Flags::HW_ONLY`] entries are among them; the ones
/// llvm-mc-19 knows are [`known_to_llvm`].
pub fn all() -> impl Iterator<Item = (Opcode, &'static InstrDef)> {
    INSTRUCTIONS
        .iter()
        .enumerate()
        .map(|(i, d)| (Opcode(i as u16), d))
}

/// The entries llvm-mc-19 assembles and disassembles: all but [`Flags::HW_ONLY`].
pub fn known_to_llvm() -> impl Iterator<Item = (Opcode, &'static InstrDef)> {
    all().filter(|(_, d)| !d.flags.has(Flags::HW_ONLY))
}
