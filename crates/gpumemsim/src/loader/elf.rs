//! The ELF side of a code object, read with the `object` crate: the `e_flags` machine, the
//! symbols with their bytes, the undefined symbols a kernel's code refers to (through its
//! relocations), and the AMDGPU notes. Malformed input is an error, never a panic.

use object::read::elf::{ElfFile64, FileHeader, SectionHeader};
use object::{LittleEndian, Object, ObjectSection, ObjectSymbol, RelocationTarget, SectionIndex};

/// A loading error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError(pub String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

impl From<object::Error> for LoadError {
    fn from(e: object::Error) -> LoadError {
        LoadError(format!("malformed ELF file: {e}"))
    }
}

/// ELF machine number of AMDGPU.
pub const EM_AMDGPU: u16 = 224;

/// `NT_AMDGPU_METADATA`: the note (owner `AMDGPU`) holding the code object's msgpack metadata
/// (AMDGPUUsage, "Code Object V3 to V5 Metadata").
pub const NT_AMDGPU_METADATA: u32 = 32;

/// One defined symbol.
#[derive(Clone, Debug)]
pub struct Symbol {
    /// Name.
    pub name: String,
    /// Value (section offset in relocatable objects, address otherwise).
    pub value: u64,
    /// Size in bytes.
    pub size: u64,
    /// Index of its section.
    pub section: usize,
}

/// A parsed ELF64 little-endian AMDGPU file.
pub struct Elf<'a> {
    file: ElfFile64<'a, LittleEndian>,
    /// Defined symbols of `.symtab`.
    pub symbols: Vec<Symbol>,
    /// `e_flags` (holds the GPU, `EF_AMDGPU_MACH`).
    pub flags: u32,
}

impl<'a> Elf<'a> {
    /// Parses `data`.
    pub fn parse(data: &'a [u8]) -> Result<Elf<'a>, LoadError> {
        if data.get(..4) != Some(b"\x7fELF") {
            return Err(LoadError("not an ELF file".into()));
        }
        if data.get(4) != Some(&2) || data.get(5) != Some(&1) {
            return Err(LoadError("not a 64-bit little-endian ELF file".into()));
        }
        let file = ElfFile64::<LittleEndian>::parse(data)?;
        let header = file.elf_header();
        if header.e_machine(LittleEndian) != EM_AMDGPU {
            return Err(LoadError(
                "not an AMDGPU code object (ELF machine is not EM_AMDGPU)".into(),
            ));
        }
        let flags = header.e_flags(LittleEndian);
        let symbols = file
            .symbols()
            .filter_map(|s| {
                let section = s.section_index()?.0;
                Some(Symbol {
                    name: s.name().ok()?.to_string(),
                    value: s.address(),
                    size: s.size(),
                    section,
                })
            })
            .collect();
        Ok(Elf {
            file,
            symbols,
            flags,
        })
    }

    /// `len` bytes of symbol `sym` starting `skip` bytes in.
    pub fn symbol_bytes(&self, sym: &Symbol, skip: u64, len: u64) -> Result<&'a [u8], LoadError> {
        let sec = self
            .file
            .section_by_index(SectionIndex(sym.section))
            .map_err(|_| LoadError(format!("symbol `{}` has no section", sym.name)))?;
        // In a relocatable object the value is an offset in the section (whose address is 0);
        // in a linked one an address: either way `data_range` takes it.
        let start = sym.value.checked_add(skip);
        start
            .and_then(|a| sec.data_range(a, len).ok().flatten())
            .ok_or_else(|| LoadError(format!("symbol `{}` lies outside its section", sym.name)))
    }

    /// The undefined symbols that relocations inside `sym`'s bytes refer to (a call to a
    /// function the file does not define), each named once, in the order first met.
    pub fn undefined_references(&self, sym: &Symbol) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let Ok(sec) = self.file.section_by_index(SectionIndex(sym.section)) else {
            return out;
        };
        // Relocation offsets are section offsets in a relocatable object.
        let (lo, hi) = (
            sym.value.wrapping_sub(sec.address()),
            sym.value
                .wrapping_sub(sec.address())
                .saturating_add(sym.size),
        );
        for (at, r) in sec.relocations() {
            let RelocationTarget::Symbol(i) = r.target() else {
                continue;
            };
            if at < lo || at >= hi {
                continue;
            }
            let Ok(s) = self.file.symbol_by_index(i) else {
                continue;
            };
            if s.is_undefined() {
                if let Ok(name) = s.name() {
                    if !name.is_empty() && !out.iter().any(|n| n == name) {
                        out.push(name.to_string());
                    }
                }
            }
        }
        out
    }

    /// The object's memory image, relocated for `base` ([`super::image`]).
    pub fn image(&self, base: u64) -> Result<super::image::Image, LoadError> {
        super::image::build(&self.file, base)
    }

    /// The inline chains of the code in each `(start, len)` range (read from the DWARF line table).
    pub fn source_maps(&self, ranges: &[(u64, u64)]) -> Vec<super::dwarf::SourceMap> {
        super::dwarf::source_maps(&self.file, ranges)
    }

    /// The LDS variables the object's DWARF declares, by the function declaring them
    /// (empty without `-g`).
    pub(super) fn lds_variables(&self) -> Vec<(String, super::lds_vars::Declared)> {
        super::dwarf::dwarf(&self.file).map_or_else(Vec::new, |d| super::lds_vars::declared(&d))
    }

    /// The descriptions of every note of owner `AMDGPU` and type `kind`, in file order.
    pub fn amdgpu_notes(&self, kind: u32) -> Result<Vec<&'a [u8]>, LoadError> {
        let e = LittleEndian;
        let data = self.file.data();
        let mut out = Vec::new();
        for sh in self.file.elf_section_table().iter() {
            let Some(mut notes) = sh.notes(e, data)? else {
                continue;
            };
            while let Some(n) = notes.next()? {
                if n.name() == b"AMDGPU" && n.n_type(e) == kind {
                    out.push(n.desc());
                }
            }
        }
        Ok(out)
    }
}
