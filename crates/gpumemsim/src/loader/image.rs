//! The code object as the loader places it in memory: every allocated byte (code, read-only
//! data, data, zero-filled bss) in one image, with the relocations applied, so that the
//! PC-relative reads clang emits for program-scope tables (`s_getpc_b64` + `s_add_u32
//! sym@rel32@lo` + `s_addc_u32 sym@rel32@hi`) and the calls it emits (`s_swappc_b64`) find
//! what the object holds (docs/rules/addressing.md#code-object-image).
//!
//! A linked code object (`.hsaco`, ELF type `ET_DYN`) is laid out by its `PT_LOAD` segments
//! at their virtual addresses; its dynamic relocations (`R_AMDGPU_RELATIVE64`, `ABS64`) are
//! applied for the image's base. A relocatable object (`.o`, `ET_REL`, what OpenCL builds
//! give) is laid out section by section as a linker would (every allocated section in header
//! order, each at its alignment, `.text` first when it comes first), and the relocations of
//! its allocated sections are applied; GOT-relative references get a slot each in a small
//! global offset table after the last section. Relocation formulas are AMDGPUUsage's
//! ("Relocation Records"): S the symbol's address, A the addend, P the place, G the symbol's
//! GOT slot offset and GOT the table's address.

use std::collections::BTreeMap;

use object::elf;
use object::read::elf::ElfFile64;
use object::{
    LittleEndian, Object, ObjectKind, ObjectSection, ObjectSegment, ObjectSymbol,
    ObjectSymbolTable, RelocationFlags, RelocationTarget, SectionFlags, SectionIndex, SymbolKind,
};

use super::LoadError;

/// `R_AMDGPU_*` relocation types (AMDGPUUsage, "Relocation Records").
mod r {
    pub const NONE: u32 = 0;
    pub const ABS32_LO: u32 = 1;
    pub const ABS32_HI: u32 = 2;
    pub const ABS64: u32 = 3;
    pub const REL32: u32 = 4;
    pub const REL64: u32 = 5;
    pub const ABS32: u32 = 6;
    pub const GOTPCREL: u32 = 7;
    pub const GOTPCREL32_LO: u32 = 8;
    pub const GOTPCREL32_HI: u32 = 9;
    pub const REL32_LO: u32 = 10;
    pub const REL32_HI: u32 = 11;
    pub const RELATIVE64: u32 = 13;
    pub const REL16: u32 = 14;
}

/// A named thing of the image: a function or a program-scope variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageSymbol {
    /// The symbol's name (mangled for C++).
    pub name: String,
    /// Its byte offset in the image.
    pub offset: u64,
    /// Its size in bytes.
    pub size: u64,
    /// Whether it lives in a writable section (`.data`, `.bss`) rather than `.rodata`.
    pub writable: bool,
}

/// The loaded image of a code object: the bytes from image offset 0, with relocations
/// applied for [`Image::base`], and its functions and variables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    /// The address the image was relocated for (where a launch places it).
    pub base: u64,
    /// Every allocated byte, from offset 0 (bss included, as zeros).
    pub bytes: Vec<u8>,
    /// Functions with code (kernels and the functions they call), by offset.
    pub functions: Vec<ImageSymbol>,
    /// Program-scope variables (`__constant` tables, `__device__` globals), by offset.
    pub variables: Vec<ImageSymbol>,
}

impl Image {
    /// The function whose code starts at `offset`.
    pub fn function_at(&self, offset: u64) -> Option<&ImageSymbol> {
        self.functions.iter().find(|f| f.offset == offset)
    }

    /// The variable called `name`.
    pub fn variable(&self, name: &str) -> Option<&ImageSymbol> {
        self.variables.iter().find(|v| v.name == name)
    }

    /// The variable called `name`, or an error that lists the variables there are.
    pub fn find_variable(&self, name: &str) -> Result<&ImageSymbol, String> {
        self.variable(name).ok_or_else(|| {
            let names: Vec<&str> = self.variables.iter().map(|v| v.name.as_str()).collect();
            if names.is_empty() {
                format!("no variable `{name}`: the code object has no program-scope variables")
            } else {
                format!(
                    "no variable `{name}` in the code object (it has: {})",
                    names.join(", ")
                )
            }
        })
    }
}

/// Where each allocated section starts in the image, by section index, and the image's
/// length; for a linked object its virtual addresses, for a relocatable one a fresh layout.
/// A section whose alignment cannot be met (a malformed file) ends the layout at
/// `u64::MAX`, which [`build`] refuses as too large.
fn section_offsets(file: &ElfFile64<LittleEndian>) -> (BTreeMap<usize, u64>, u64) {
    let mut at = BTreeMap::new();
    let mut end = 0u64;
    let linked = file.kind() != ObjectKind::Relocatable;
    for s in file.sections() {
        let SectionFlags::Elf { sh_flags } = s.flags() else {
            continue;
        };
        if sh_flags & u64::from(elf::SHF_ALLOC) == 0 {
            continue;
        }
        let start = if linked {
            s.address()
        } else {
            match end.checked_next_multiple_of(s.align().max(4)) {
                Some(a) => a,
                None => return (at, u64::MAX),
            }
        };
        at.insert(s.index().0, start);
        end = end.max(start.saturating_add(s.size()));
    }
    (at, end)
}

/// The largest image the loader builds (a code object's allocated bytes), 256 MiB.
pub const MAX_IMAGE_BYTES: u64 = 256 << 20;

/// Builds the image of `file` for `base`.
pub fn build(file: &ElfFile64<LittleEndian>, base: u64) -> Result<Image, LoadError> {
    let (offsets, mut len) = section_offsets(file);
    let linked = file.kind() != ObjectKind::Relocatable;
    if linked {
        for seg in file.segments() {
            len = len.max(seg.address().saturating_add(seg.size()));
        }
    }
    if len > MAX_IMAGE_BYTES {
        return Err(too_large(len));
    }
    // The global offset table after everything else, for the GOT-relative references of a
    // relocatable object: one 8-byte slot per symbol they name, as a linker makes it.
    let got = len.next_multiple_of(8);
    let mut got_slots: Vec<RelocationTarget> = Vec::new();
    if !linked {
        for (_, rel) in allocated_relocations(file) {
            let got_relative = matches!(
                elf_type(&rel),
                r::GOTPCREL | r::GOTPCREL32_LO | r::GOTPCREL32_HI
            );
            if got_relative && !got_slots.contains(&rel.target()) {
                got_slots.push(rel.target());
            }
        }
        len = got + 8 * got_slots.len() as u64;
    }
    if len > MAX_IMAGE_BYTES {
        return Err(too_large(len));
    }
    let mut bytes = vec![0u8; len as usize];
    if linked {
        for seg in file.segments() {
            write(&mut bytes, seg.address(), seg.data()?)?;
        }
    } else {
        for s in file.sections() {
            if let (Some(&at), Ok(data)) = (offsets.get(&s.index().0), s.data()) {
                // NOBITS sections (bss) read as empty: their bytes stay zero.
                write(&mut bytes, at, data)?;
            }
        }
    }
    let symbol_offset = |i: object::SymbolIndex| -> Option<u64> {
        let s = file.symbol_by_index(i).ok()?;
        if s.is_undefined() {
            return None;
        }
        let sec = s.section_index()?;
        Some(if linked {
            s.address()
        } else {
            offsets.get(&sec.0)?.wrapping_add(s.address())
        })
    };
    let mut image = Image {
        base,
        bytes: Vec::new(),
        functions: Vec::new(),
        variables: Vec::new(),
    };
    if linked {
        if let Some(rels) = file.dynamic_relocations() {
            for (place, rel) in rels {
                // Dynamic relocations name symbols of the dynamic symbol table.
                let s = match rel.target() {
                    RelocationTarget::Symbol(i) => file
                        .dynamic_symbol_table()
                        .and_then(|t| t.symbol_by_index(i).ok())
                        .filter(|s| !s.is_undefined())
                        .map(|s| base.wrapping_add(s.address())),
                    _ => None,
                };
                let value = match elf_type(&rel) {
                    r::RELATIVE64 => base.wrapping_add(rel.addend() as u64),
                    // An undefined symbol stays 0, as in a relocatable object (below).
                    r::ABS64 => s.unwrap_or(0).wrapping_add(rel.addend() as u64),
                    r::NONE => continue,
                    other => {
                        return Err(LoadError(format!(
                        "dynamic relocation type {other} at {place:#x} is not one the loader knows"
                    )))
                    }
                };
                write(&mut bytes, place, &value.to_le_bytes())?;
            }
        }
    } else {
        for (place, rel) in allocated_relocations(file) {
            let p = base.wrapping_add(place);
            let sym = match rel.target() {
                RelocationTarget::Symbol(i) => symbol_offset(i).map(|o| base.wrapping_add(o)),
                RelocationTarget::Section(i) => offsets.get(&i.0).map(|o| base.wrapping_add(*o)),
                _ => None,
            };
            let t = elf_type(&rel);
            let a = rel.addend() as u64;
            // An undefined symbol (a library call that was not linked) is left as 0: the
            // launch refuses such a kernel by name (`Kernel::undefined`).
            let s = sym.unwrap_or(0);
            let (value, width): (u64, usize) = match t {
                r::ABS32_LO | r::ABS32 => (s.wrapping_add(a) & 0xffff_ffff, 4),
                r::ABS32_HI => (s.wrapping_add(a) >> 32, 4),
                r::ABS64 => (s.wrapping_add(a), 8),
                r::REL32 | r::REL32_LO => (s.wrapping_add(a).wrapping_sub(p) & 0xffff_ffff, 4),
                r::REL32_HI => (s.wrapping_add(a).wrapping_sub(p) >> 32, 4),
                r::REL64 => (s.wrapping_add(a).wrapping_sub(p), 8),
                r::REL16 => {
                    let d = s.wrapping_add(a).wrapping_sub(p).wrapping_sub(4) as i64 / 4;
                    (d as u64 & 0xffff, 2)
                }
                r::RELATIVE64 => (base.wrapping_add(a), 8),
                r::GOTPCREL | r::GOTPCREL32_LO | r::GOTPCREL32_HI => {
                    let slot = got_slots.iter().position(|t| *t == rel.target()).unwrap_or(0);
                    let entry = got + 8 * slot as u64;
                    write(&mut bytes, entry, &s.to_le_bytes())?;
                    let rel = (base + entry).wrapping_add(a).wrapping_sub(p);
                    let v = if t == r::GOTPCREL32_HI {
                        rel >> 32
                    } else {
                        rel & 0xffff_ffff
                    };
                    (v, 4)
                }
                other => {
                    return Err(LoadError(format!(
                        "relocation type {other} at image offset {place:#x} is not one the loader knows"
                    )))
                }
            };
            write(&mut bytes, place, &value.to_le_bytes()[..width])?;
        }
    }
    image.bytes = bytes;
    collect_symbols(file, &offsets, linked, &mut image);
    Ok(image)
}

fn elf_type(rel: &object::Relocation) -> u32 {
    match rel.flags() {
        RelocationFlags::Elf { r_type } => r_type,
        _ => 0,
    }
}

/// The relocations of a relocatable object's allocated sections, each with its place as an
/// image offset.
fn allocated_relocations<'a>(
    file: &'a ElfFile64<'a, LittleEndian>,
) -> impl Iterator<Item = (u64, object::Relocation)> + 'a {
    let (offsets, _) = section_offsets(file);
    file.sections().flat_map(move |s| {
        let at = offsets.get(&s.index().0).copied();
        s.relocations()
            .filter_map(move |(o, r)| at.map(|a| (a.wrapping_add(o), r)))
            .collect::<Vec<_>>()
    })
}

fn too_large(len: u64) -> LoadError {
    LoadError(format!(
        "the code object's allocated sections span {len} bytes; the loader places at most {MAX_IMAGE_BYTES}"
    ))
}

/// Writes `v` at image offset `at`; an error when it does not fit (a malformed file).
fn write(bytes: &mut [u8], at: u64, v: &[u8]) -> Result<(), LoadError> {
    let end = at
        .checked_add(v.len() as u64)
        .filter(|&e| e <= bytes.len() as u64);
    match end {
        Some(e) => {
            bytes[at as usize..e as usize].copy_from_slice(v);
            Ok(())
        }
        None => Err(LoadError(format!(
            "{} bytes at image offset {at:#x} lie outside the image",
            v.len()
        ))),
    }
}

/// The image's functions (symbols of type `STT_FUNC` with code) and variables (`STT_OBJECT`
/// symbols of allocated sections, kernel descriptors left out), each once, by offset.
fn collect_symbols(
    file: &ElfFile64<LittleEndian>,
    offsets: &BTreeMap<usize, u64>,
    linked: bool,
    image: &mut Image,
) {
    for s in file.symbols() {
        let (Some(sec), Ok(name)) = (s.section_index(), s.name()) else {
            continue;
        };
        let Some(&sec_at) = offsets.get(&sec.0) else {
            continue;
        };
        let offset = if linked {
            s.address()
        } else {
            sec_at.wrapping_add(s.address())
        };
        let writable = file.section_by_index(SectionIndex(sec.0)).is_ok_and(|x| {
            matches!(x.flags(), SectionFlags::Elf { sh_flags } if sh_flags & u64::from(elf::SHF_WRITE) != 0)
        });
        let sym = ImageSymbol {
            name: name.to_string(),
            offset,
            size: s.size(),
            writable,
        };
        match s.kind() {
            SymbolKind::Text if s.size() > 0 => image.functions.push(sym),
            SymbolKind::Data if !name.ends_with(".kd") && !name.is_empty() => {
                image.variables.push(sym)
            }
            _ => {}
        }
    }
    // A symbol that reaches past the image's bytes (a malformed object's size or value) names
    // nothing the launch can read or write: it is left out.
    let end = image.bytes.len() as u64;
    for list in [&mut image.functions, &mut image.variables] {
        list.retain(|s| s.offset.checked_add(s.size).is_some_and(|e| e <= end));
        list.sort_by(|a, b| (a.offset, &a.name).cmp(&(b.offset, &b.name)));
        list.dedup_by(|a, b| a.name == b.name);
    }
}
