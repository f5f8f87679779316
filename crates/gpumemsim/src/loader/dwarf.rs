//! Source lines of a kernel's instructions, from the code object's DWARF (built with `-g`):
//! `gimli` reads the sections, `addr2line` resolves each address to its chain of inlined
//! frames, innermost first, each with a file, line and column where the line table has one.
//!
//! A relocatable `.o` keeps its DWARF unrelocated: the addresses in `.debug_addr` and
//! `.debug_line` and the offsets into `.debug_str`/`.debug_line` are relocations
//! (`R_AMDGPU_ABS64`, `R_AMDGPU_ABS32`, LLVM's `ELFRelocs/AMDGPU.def`), so they are applied
//! first (symbol value + addend, the sections' own addresses being 0). A linked `.hsaco` is
//! already resolved.

use std::borrow::Cow;

use object::read::elf::ElfFile64;
use object::{
    LittleEndian, Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget,
};

/// A place in a source file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceLocation {
    /// The file's path as the compiler recorded it (its directory joined).
    pub file: String,
    /// Line (1-based; 0 when the line table has none).
    pub line: u32,
    /// Column (1-based; 0 when unknown).
    pub column: u32,
}

/// One frame of an instruction's inline chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFrame {
    /// The function (demangled where it is C++), when the DWARF names it.
    pub function: Option<String>,
    /// Where in it: for an inlined frame, the line of this frame's own code; the next frame
    /// holds the call site.
    pub location: Option<SourceLocation>,
}

/// `R_AMDGPU_ABS32_LO`, `_HI`, `ABS64`, `ABS32` (LLVM's `ELFRelocs/AMDGPU.def`).
const R_AMDGPU_ABS32_LO: u32 = 1;
const R_AMDGPU_ABS32_HI: u32 = 2;
const R_AMDGPU_ABS64: u32 = 3;
const R_AMDGPU_ABS32: u32 = 6;

pub(super) type Reader = gimli::EndianRcSlice<gimli::LittleEndian>;

/// The section `name`'s bytes with its relocations applied.
fn section_bytes(file: &ElfFile64<'_, LittleEndian>, name: &str) -> Vec<u8> {
    let Some(sec) = file.section_by_name(name) else {
        return Vec::new();
    };
    let Ok(data) = sec.data() else {
        return Vec::new();
    };
    let mut out = data.to_vec();
    for (at, r) in sec.relocations() {
        let RelocationFlags::Elf { r_type } = r.flags() else {
            continue;
        };
        let target = match r.target() {
            RelocationTarget::Symbol(i) => file.symbol_by_index(i).map_or(0, |s| s.address()),
            RelocationTarget::Section(i) => file.section_by_index(i).map_or(0, |s| s.address()),
            _ => continue,
        };
        let value = target.wrapping_add(r.addend() as u64);
        let bytes: Cow<[u8]> = match r_type {
            R_AMDGPU_ABS64 => Cow::Owned(value.to_le_bytes().to_vec()),
            R_AMDGPU_ABS32 | R_AMDGPU_ABS32_LO => Cow::Owned((value as u32).to_le_bytes().to_vec()),
            R_AMDGPU_ABS32_HI => Cow::Owned(((value >> 32) as u32).to_le_bytes().to_vec()),
            _ => continue,
        };
        let Ok(at) = usize::try_from(at) else {
            continue;
        };
        if let Some(slot) = out.get_mut(at..at.saturating_add(bytes.len())) {
            slot.copy_from_slice(&bytes);
        }
    }
    out
}

/// The DWARF of `file` (its sections relocated), or `None` when it has no line table.
pub(super) fn dwarf(file: &ElfFile64<'_, LittleEndian>) -> Option<gimli::Dwarf<Reader>> {
    file.section_by_name(".debug_line")?;
    gimli::Dwarf::load(|id| -> Result<Reader, gimli::Error> {
        let bytes = section_bytes(file, id.name());
        Ok(Reader::new(bytes.into(), gimli::LittleEndian))
    })
    .ok()
}

/// The DWARF of `file` for looking up addresses, or `None` when it has no line table.
fn context(file: &ElfFile64<'_, LittleEndian>) -> Option<addr2line::Context<Reader>> {
    addr2line::Context::from_dwarf(dwarf(file)?).ok()
}

fn location(l: &addr2line::Location<'_>) -> SourceLocation {
    SourceLocation {
        file: l.file.unwrap_or("").to_string(),
        line: l.line.unwrap_or(0),
        column: l.column.unwrap_or(0),
    }
}

/// The inline chains of the instructions of the code at `start` (`len` bytes), one per
/// 4-byte word that has one, keyed by the word's byte offset from `start` (gfx11 instructions
/// are whole words, so every instruction start is one of them).
pub type SourceMap = Vec<(u32, Vec<SourceFrame>)>;

/// Reads the source map of each `(start, len)` code range of `file`; empty maps without
/// DWARF.
pub fn source_maps(file: &ElfFile64<'_, LittleEndian>, ranges: &[(u64, u64)]) -> Vec<SourceMap> {
    let Some(ctx) = context(file) else {
        return vec![Vec::new(); ranges.len()];
    };
    ranges
        .iter()
        .map(|&(start, len)| {
            let mut map = SourceMap::new();
            for off in (0..len).step_by(4) {
                let Ok(mut frames) = ctx.find_frames(start + off).skip_all_loads() else {
                    continue;
                };
                let mut chain = Vec::new();
                while let Ok(Some(f)) = frames.next() {
                    chain.push(SourceFrame {
                        function: f.function.as_ref().and_then(|n| {
                            let raw = n.raw_name().ok()?;
                            Some(super::demangle(&raw).unwrap_or_else(|| raw.into_owned()))
                        }),
                        location: f.location.as_ref().map(location),
                    });
                }
                if chain.iter().any(|f| f.location.is_some()) {
                    map.push((off as u32, chain));
                }
            }
            map
        })
        .collect()
}
