//! Sparse, paged global memory with 48-bit virtual addresses.

use std::collections::HashMap;

/// Width of a virtual address (003_8127e07f2b7609f5.txt §global: the GPU shares the CPU's
/// 48-bit virtual address space).
pub const ADDRESS_BITS: u32 = 48;
/// Bytes per page of the sparse store.
pub const PAGE_BYTES: u64 = 4096;
const ADDRESS_MASK: u64 = (1 << ADDRESS_BITS) - 1;

/// Global memory: little-endian bytes at 48-bit virtual addresses, stored in 4 KiB pages that
/// exist once written. Unwritten memory reads 0, so a test can place data anywhere without
/// allocating gigabytes.
///
/// Addresses are taken modulo 2^48: the bits above 47 of a 64-bit address are ignored here
/// (callers that give them a meaning — the flat apertures — decide before they get here).
#[derive(Clone, Debug, Default)]
pub struct GlobalMemory {
    pages: HashMap<u64, Box<[u8; PAGE_BYTES as usize]>>,
}

impl GlobalMemory {
    /// Empty memory (every byte 0).
    pub fn new() -> GlobalMemory {
        GlobalMemory::default()
    }

    /// Number of pages that have been written.
    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    /// Reads a byte.
    #[inline]
    pub fn read_u8(&self, addr: u64) -> u8 {
        let a = addr & ADDRESS_MASK;
        self.pages
            .get(&(a / PAGE_BYTES))
            .map_or(0, |p| p[(a % PAGE_BYTES) as usize])
    }

    /// Writes a byte.
    #[inline]
    pub fn write_u8(&mut self, addr: u64, v: u8) {
        let a = addr & ADDRESS_MASK;
        self.pages
            .entry(a / PAGE_BYTES)
            .or_insert_with(|| Box::new([0; PAGE_BYTES as usize]))[(a % PAGE_BYTES) as usize] = v;
    }

    /// Reads `N` bytes starting at `addr` (wrapping at 2^48).
    #[inline]
    pub fn read_bytes<const N: usize>(&self, addr: u64) -> [u8; N] {
        let a = addr & ADDRESS_MASK;
        let off = (a % PAGE_BYTES) as usize;
        if off + N <= PAGE_BYTES as usize {
            return match self.pages.get(&(a / PAGE_BYTES)) {
                Some(p) => {
                    let mut out = [0; N];
                    out.copy_from_slice(&p[off..off + N]);
                    out
                }
                None => [0; N],
            };
        }
        std::array::from_fn(|i| self.read_u8(a + i as u64))
    }

    /// Writes bytes starting at `addr` (wrapping at 2^48).
    pub fn write_bytes(&mut self, addr: u64, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            self.write_u8(addr.wrapping_add(i as u64), *b);
        }
    }

    /// Reads a little-endian dword at any byte address.
    #[inline]
    pub fn read_u32(&self, addr: u64) -> u32 {
        u32::from_le_bytes(self.read_bytes::<4>(addr))
    }

    /// Writes a little-endian dword at any byte address.
    pub fn write_u32(&mut self, addr: u64, v: u32) {
        self.write_bytes(addr, &v.to_le_bytes());
    }

    /// Writes `words` as consecutive little-endian dwords from `addr`.
    pub fn write_words(&mut self, addr: u64, words: &[u32]) {
        for (i, w) in words.iter().enumerate() {
            self.write_u32(addr.wrapping_add(4 * i as u64), *w);
        }
    }

    /// Fills `out` with the consecutive dwords from `addr`, one page lookup per page.
    pub fn read_words(&self, addr: u64, out: &mut [u32]) {
        let mut i = 0;
        while i < out.len() {
            let a = addr.wrapping_add(4 * i as u64) & ADDRESS_MASK;
            let off = (a % PAGE_BYTES) as usize;
            // Whole dwords left in this page from `a`.
            let n = ((PAGE_BYTES as usize - off) / 4).min(out.len() - i);
            if n == 0 {
                out[i] = self.read_u32(a);
                i += 1;
                continue;
            }
            match self.pages.get(&(a / PAGE_BYTES)) {
                Some(p) => {
                    for (k, w) in out[i..i + n].iter_mut().enumerate() {
                        let b = off + 4 * k;
                        *w = u32::from_le_bytes([p[b], p[b + 1], p[b + 2], p[b + 3]]);
                    }
                }
                None => out[i..i + n].fill(0),
            }
            i += n;
        }
    }

    /// The dwords from byte `start` up to byte `end` (exclusive; a trailing partial dword is
    /// read whole).
    pub fn words(&self, start: u64, end: u64) -> Vec<u32> {
        (0..end.saturating_sub(start).div_ceil(4))
            .map(|i| self.read_u32(start.wrapping_add(4 * i)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unwritten_memory_reads_zero_and_allocates_nothing() {
        let m = GlobalMemory::new();
        assert_eq!(m.read_u32(0x7fff_ffff_f000), 0);
        assert_eq!(m.pages(), 0);
    }

    #[test]
    fn dwords_are_little_endian_and_may_straddle_pages() {
        let mut m = GlobalMemory::new();
        m.write_u32(0x1ffe, 0x1122_3344);
        assert_eq!(m.read_u8(0x1ffe), 0x44);
        assert_eq!(m.read_u8(0x2001), 0x11);
        assert_eq!(m.read_u32(0x1ffe), 0x1122_3344);
        assert_eq!(m.pages(), 2);
        assert_eq!(m.words(0x1ffc, 0x2004), vec![0x3344_0000, 0x0000_1122]);
        // read_words agrees with dword reads across the page boundary, aligned or not.
        for start in [0x1ff0u64, 0x1ff2, 0x1ffe] {
            let mut out = [0u32; 6];
            m.read_words(start, &mut out);
            let want: Vec<u32> = (0..6).map(|i| m.read_u32(start + 4 * i)).collect();
            assert_eq!(out.to_vec(), want, "{start:#x}");
        }
    }

    #[test]
    fn addresses_wrap_at_48_bits() {
        let mut m = GlobalMemory::new();
        m.write_u32(0xffff_0000_0000_0010, 7);
        assert_eq!(m.read_u32(0x10), 7);
        // A dword at the top of the address space wraps to address 0.
        m.write_u32((1 << 48) - 2, 0xaabb_ccdd);
        assert_eq!(m.read_u8(0), 0xbb);
        assert_eq!(m.read_u32((1 << 48) - 2), 0xaabb_ccdd);
    }
}
