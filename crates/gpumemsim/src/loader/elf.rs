//! The little of ELF64 a code object needs: section headers, the symbol table and section
//! bytes. Every offset is bounds-checked: malformed input is an error, never a panic.

/// A loading error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError(pub String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

fn err<T>(msg: impl Into<String>) -> Result<T, LoadError> {
    Err(LoadError(msg.into()))
}

/// ELF machine number of AMDGPU.
pub const EM_AMDGPU: u16 = 224;

/// One section.
#[derive(Clone, Debug)]
pub struct Section {
    /// Name.
    pub name: String,
    /// Virtual address (0 in relocatable objects).
    pub addr: u64,
    /// File offset.
    pub offset: u64,
    /// Size in bytes.
    pub size: u64,
    /// `SHT_*` type.
    pub kind: u32,
}

/// One symbol.
#[derive(Clone, Debug)]
pub struct Symbol {
    /// Name.
    pub name: String,
    /// Value (section offset in relocatable objects, address otherwise).
    pub value: u64,
    /// Size in bytes.
    pub size: u64,
    /// Index of its section.
    pub section: u16,
}

/// A parsed ELF64 little-endian AMDGPU file.
pub struct Elf<'a> {
    data: &'a [u8],
    /// Sections in header order.
    pub sections: Vec<Section>,
    /// Symbols of `.symtab`.
    pub symbols: Vec<Symbol>,
    /// `e_flags` (holds the GPU, `EF_AMDGPU_MACH`).
    pub flags: u32,
}

fn rd<const N: usize>(d: &[u8], at: u64) -> Result<[u8; N], LoadError> {
    let at = usize::try_from(at).map_err(|_| LoadError("offset out of range".into()))?;
    d.get(at..at.saturating_add(N))
        .and_then(|s| s.try_into().ok())
        .ok_or_else(|| LoadError(format!("truncated file: {N} bytes at offset {at:#x}")))
}
fn u16_at(d: &[u8], at: u64) -> Result<u16, LoadError> {
    Ok(u16::from_le_bytes(rd(d, at)?))
}
fn u32_at(d: &[u8], at: u64) -> Result<u32, LoadError> {
    Ok(u32::from_le_bytes(rd(d, at)?))
}
fn u64_at(d: &[u8], at: u64) -> Result<u64, LoadError> {
    Ok(u64::from_le_bytes(rd(d, at)?))
}

fn cstr(d: &[u8], at: u64) -> Result<String, LoadError> {
    let start = usize::try_from(at).map_err(|_| LoadError("string offset out of range".into()))?;
    let rest = d
        .get(start..)
        .ok_or_else(|| LoadError(format!("string at {at:#x} is past the end of the file")))?;
    let end = rest
        .iter()
        .position(|&b| b == 0)
        .ok_or_else(|| LoadError("unterminated string".into()))?;
    Ok(String::from_utf8_lossy(&rest[..end]).into_owned())
}

impl<'a> Elf<'a> {
    /// Parses `data`.
    pub fn parse(data: &'a [u8]) -> Result<Elf<'a>, LoadError> {
        if data.get(..4) != Some(b"\x7fELF") {
            return err("not an ELF file");
        }
        if data.get(4) != Some(&2) || data.get(5) != Some(&1) {
            return err("not a 64-bit little-endian ELF file");
        }
        if u16_at(data, 18)? != EM_AMDGPU {
            return err("not an AMDGPU code object (ELF machine is not EM_AMDGPU)");
        }
        let flags = u32_at(data, 48)?;
        let shoff = u64_at(data, 40)?;
        let shentsize = u16_at(data, 58)? as u64;
        let shnum = u16_at(data, 60)? as u64;
        let shstrndx = u16_at(data, 62)? as u64;
        if shentsize < 64 {
            return err("bad section header size");
        }
        let mut raw = Vec::new();
        for i in 0..shnum {
            let h = shoff
                .checked_add(i * shentsize)
                .ok_or_else(|| LoadError("bad section header offset".into()))?;
            raw.push((
                u32_at(data, h)?,
                u32_at(data, h + 4)?,
                u64_at(data, h + 16)?,
                u64_at(data, h + 24)?,
                u64_at(data, h + 32)?,
                u32_at(data, h + 40)?,
            ));
        }
        let strtab_off = raw
            .get(shstrndx as usize)
            .map(|r| r.3)
            .ok_or_else(|| LoadError("bad section-name table index".into()))?;
        let mut sections = Vec::new();
        for &(name, kind, addr, offset, size, _) in &raw {
            sections.push(Section {
                name: cstr(data, strtab_off.wrapping_add(name as u64))?,
                addr,
                offset,
                size,
                kind,
            });
        }
        let mut symbols = Vec::new();
        // SHT_SYMTAB = 2; its sh_link names the string table.
        if let Some(&(_, _, _, off, size, link)) = raw.iter().find(|r| r.1 == 2) {
            let str_off = raw
                .get(link as usize)
                .map(|r| r.3)
                .ok_or_else(|| LoadError("bad symbol string table index".into()))?;
            for k in 0..size / 24 {
                let s = off.wrapping_add(24 * k);
                symbols.push(Symbol {
                    name: cstr(data, str_off.wrapping_add(u32_at(data, s)? as u64))?,
                    section: u16_at(data, s + 6)?,
                    value: u64_at(data, s + 8)?,
                    size: u64_at(data, s + 16)?,
                });
            }
        }
        Ok(Elf {
            data,
            sections,
            symbols,
            flags,
        })
    }

    /// `len` bytes of symbol `sym` starting `skip` bytes in.
    pub fn symbol_bytes(&self, sym: &Symbol, skip: u64, len: u64) -> Result<&'a [u8], LoadError> {
        let sec = self
            .sections
            .get(sym.section as usize)
            .ok_or_else(|| LoadError(format!("symbol `{}` has no section", sym.name)))?;
        // In a relocatable object the value is an offset in the section; in a linked one an
        // address.
        let in_sec = sym.value.wrapping_sub(sec.addr).wrapping_add(skip);
        if in_sec.saturating_add(len) > sec.size {
            return err(format!("symbol `{}` lies outside its section", sym.name));
        }
        let past_end = || LoadError(format!("symbol `{}` is past the end of the file", sym.name));
        let start = sec.offset.checked_add(in_sec).ok_or_else(past_end)?;
        let end = start.checked_add(len).ok_or_else(past_end)?;
        let (start, end) = (
            usize::try_from(start).map_err(|_| past_end())?,
            usize::try_from(end).map_err(|_| past_end())?,
        );
        self.data.get(start..end).ok_or_else(past_end)
    }
}
