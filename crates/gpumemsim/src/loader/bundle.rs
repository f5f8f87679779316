//! Clang offload bundles: what `clang -x hip --cuda-device-only -c` writes by default. The
//! uncompressed format (clang's `ClangOffloadBundler.cpp` and its documentation): the magic
//! `__CLANG_OFFLOAD_BUNDLE__`, a u64 entry count, then per entry a u64 offset, a u64 size, a
//! u64 id length and the id (`hipv4-amdgcn-amd-amdhsa--gfx1100`, `host-x86_64-...`), all
//! little-endian; each entry's bytes are a code object (or empty for the host).

use super::LoadError;

/// The magic of an uncompressed bundle.
pub const BUNDLE_MAGIC: &[u8] = b"__CLANG_OFFLOAD_BUNDLE__";
/// The magic of a compressed bundle (`--offload-compress`).
pub const COMPRESSED_BUNDLE_MAGIC: &[u8] = b"CCOB";

/// One entry of a bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleEntry<'a> {
    /// Its target id.
    pub id: String,
    /// Its bytes.
    pub bytes: &'a [u8],
}

impl BundleEntry<'_> {
    /// The processor of an AMDGPU entry (`gfx1100` of `hipv4-amdgcn-amd-amdhsa--gfx1100:xnack-`),
    /// `None` for other targets.
    pub fn processor(&self) -> Option<&str> {
        let (triple, target) = self.id.rsplit_once("--")?;
        triple
            .contains("amdgcn")
            .then(|| target.split(':').next().unwrap_or(target))
    }
}

fn u64_at(d: &[u8], at: usize) -> Result<u64, LoadError> {
    d.get(at..at.saturating_add(8))
        .map(|b| u64::from_le_bytes(b.try_into().expect("eight bytes")))
        .ok_or_else(|| LoadError(format!("truncated offload bundle: 8 bytes at {at:#x}")))
}

fn slice(d: &[u8], start: u64, len: u64) -> Result<&[u8], LoadError> {
    let range = usize::try_from(start).ok().and_then(|s| {
        let e = s.checked_add(usize::try_from(len).ok()?)?;
        Some(s..e)
    });
    range
        .and_then(|r| d.get(r))
        .ok_or_else(|| LoadError("offload bundle entry lies outside the file".into()))
}

/// The entries of bundle `data` (which starts with the bundle magic, `__CLANG_OFFLOAD_BUNDLE__`).
pub fn entries(data: &[u8]) -> Result<Vec<BundleEntry<'_>>, LoadError> {
    let mut at = BUNDLE_MAGIC.len();
    let n = u64_at(data, at)?;
    at += 8;
    let mut out = Vec::new();
    for _ in 0..n {
        let (offset, size, id_len) = (
            u64_at(data, at)?,
            u64_at(data, at + 8)?,
            u64_at(data, at + 16)?,
        );
        at += 24;
        let id = slice(data, at as u64, id_len)?;
        at += id.len();
        out.push(BundleEntry {
            id: String::from_utf8_lossy(id).into_owned(),
            bytes: slice(data, offset, size)?,
        });
    }
    Ok(out)
}

/// The code object of bundle `data` for a chip gpumemsim runs, the first of
/// [`crate::target::TARGETS`] present (gfx1100, then gfx942); an error listing the targets
/// present when there is none.
pub fn supported_entry(data: &[u8]) -> Result<&[u8], LoadError> {
    let all = entries(data)?;
    for t in crate::target::TARGETS {
        if let Some(e) = all.iter().find(|e| e.processor() == Some(t.name)) {
            return Ok(e.bytes);
        }
    }
    let ids: Vec<&str> = all.iter().map(|e| e.id.as_str()).collect();
    Err(LoadError(format!(
        "the offload bundle has no code object for {} (it has: {}); build with \
         --offload-arch=gfx1100 or --offload-arch=gfx942",
        crate::target::Target::names(),
        ids.join(", ")
    )))
}
