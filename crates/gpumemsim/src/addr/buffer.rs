//! Buffer addressing through a V# (buffer resource descriptor), linear and swizzled, with the
//! descriptor's range check (docs/rules/addressing.md#buffer-addressing,
//! docs/rules/addressing.md#buffer-range-checking).
//!
//! gfx11 V# fields (four dwords; positions as Mesa's and LLVM's gfx11 descriptor builders
//! write them):
//! - word 0-1: `base` \[47:0\], `stride` \[61:48\] (14 bits), `swizzle_enable` \[63:62\] — on gfx11
//!   a 2-bit field that also gives the swizzle element size: 0 off, 1 4 B, 2 8 B, 3 16 B;
//! - word 2: `num_records`;
//! - word 3: `format` \[18:12\], `index_stride` \[22:21\] (8, 16, 32, 64), `add_tid_enable`
//!   \[23\], `oob_select` \[29:28\].
//!
//! Addresses (the ISA guide's formulas): `index = (idxen ? vgpr_index : 0) + (add_tid_enable ?
//! lane : 0)`, `offset = (offen ? vgpr_offset : 0) + inst_offset`; linear: `buffer_offset =
//! offset + stride × index`; swizzled: with `index_msb = index / index_stride`, `index_lsb =
//! index % index_stride`, `offset_msb = offset / element`, `offset_lsb = offset % element`,
//! `buffer_offset = (index_msb × stride + offset_msb × element) × index_stride + index_lsb ×
//! element + offset_lsb`. The address is `base + soffset + buffer_offset`.
//!
//! Range check, per dword of the access (the RDNA ISA: "load/store-dword-x{2,3,4} range-check
//! per component"; out-of-range loads return 0, stores are dropped), by `oob_select` — our
//! reading of the RDNA ISA's table:
//! - 0 (structured): out when `index >= num_records` or the component's `offset >= stride`;
//! - 1: out when `index >= num_records`;
//! - 2: out only when `num_records == 0`;
//! - 3 (raw): out when the component's linear `buffer_offset >= num_records` (bytes).
//!
//! SOFFSET is not range-checked.

/// A decoded V#.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferDescriptor {
    /// Base address (48 bits).
    pub base: u64,
    /// Bytes per record (14 bits).
    pub stride: u32,
    /// Swizzle element size in bytes (0: not swizzled).
    pub swizzle_element: u32,
    /// Records (or bytes, for raw buffers).
    pub num_records: u32,
    /// Data format (typed buffer instructions).
    pub format: u32,
    /// Records per swizzle group: 8, 16, 32 or 64.
    pub index_stride: u32,
    /// Add the lane id to the index.
    pub add_tid: bool,
    /// Out-of-bounds checking mode (0-3).
    pub oob_select: u32,
}

impl BufferDescriptor {
    /// From the four V# dwords.
    pub fn from_words(w: [u32; 4]) -> BufferDescriptor {
        BufferDescriptor {
            base: (w[1] as u64 & 0xffff) << 32 | w[0] as u64,
            stride: (w[1] >> 16) & 0x3fff,
            swizzle_element: match w[1] >> 30 {
                0 => 0,
                1 => 4,
                2 => 8,
                _ => 16,
            },
            num_records: w[2],
            format: (w[3] >> 12) & 0x7f,
            index_stride: 8 << ((w[3] >> 21) & 3),
            add_tid: (w[3] >> 23) & 1 == 1,
            oob_select: (w[3] >> 28) & 3,
        }
    }

    /// From the four dwords of a GFX9 V# (gfx942; AMD's Vega and CDNA3 ISA guides, "Buffer
    /// Resource", and LLVM's gfx9 descriptor builders):
    /// - word 0-1: `base` \[47:0\], `stride` \[61:48\], `cache_swizzle` \[62\],
    ///   `swizzle_enable` \[63\] (one bit);
    /// - word 2: `num_records`;
    /// - word 3: `num_format` \[14:12\], `data_format` \[18:15\], `element_size` \[20:19\]
    ///   (2, 4, 8 or 16 bytes: the swizzle element), `index_stride` \[22:21\], `add_tid_enable`
    ///   \[23\]; no `oob_select`.
    ///
    /// GFX9 range-checks by the stride: a raw buffer (stride 0) is out of range where the
    /// byte offset reaches `num_records` (what LLVM's buffer fat pointers and Triton's masked
    /// buffer loads rely on: an offset of 0x80000000 reads 0), a structured one where the index
    /// reaches `num_records`, and a swizzled one also where the offset reaches the stride —
    /// gfx1100's `oob_select` 3, 1 and 0 (our reading of the guides' range-check rules).
    /// The typed formats are the V#'s data and number formats as gfx1100's unified format
    /// (`rdna3_isa::special::unified_buf_format`; none there gives 0, INVALID, and a typed
    /// access reports `unsupported_format`).
    pub fn from_words_gfx9(w: [u32; 4]) -> BufferDescriptor {
        let stride = (w[1] >> 16) & 0x3fff;
        let swizzled = w[1] >> 31 == 1;
        BufferDescriptor {
            base: (w[1] as u64 & 0xffff) << 32 | w[0] as u64,
            stride,
            swizzle_element: if swizzled { 2 << ((w[3] >> 19) & 3) } else { 0 },
            num_records: w[2],
            // NUM_FORMAT (bits 14:12) and DATA_FORMAT (bits 18:15) of word 3, as gfx1100's
            // unified format (the typed accesses convert through it).
            format: rdna3_isa::special::unified_buf_format(
                (w[3] >> 15 & 0xf) | (w[3] >> 12 & 7) << 4,
            )
            .unwrap_or(0),
            index_stride: 8 << ((w[3] >> 21) & 3),
            add_tid: (w[3] >> 23) & 1 == 1,
            oob_select: match (stride, swizzled) {
                (0, _) => 3,
                (_, false) => 1,
                (_, true) => 0,
            },
        }
    }

    /// The record index of `lane` for an instruction's VGPR index (0 without `idxen`).
    #[inline]
    pub fn index(&self, vgpr_index: u32, lane: u32) -> u32 {
        vgpr_index.wrapping_add(if self.add_tid { lane } else { 0 })
    }

    /// `buffer_offset` of `offset` in record `index`.
    #[inline]
    pub fn buffer_offset(&self, index: u32, offset: u32) -> u64 {
        let (index, offset, stride) = (index as u64, offset as u64, self.stride as u64);
        match self.swizzle_element as u64 {
            0 => offset + stride * index,
            e => {
                let is = self.index_stride as u64;
                (index / is * stride + offset / e * e) * is + index % is * e + offset % e
            }
        }
    }

    /// The byte address of `offset` in record `index`, plus `soffset`.
    #[inline]
    pub fn address(&self, index: u32, offset: u32, soffset: u32) -> u64 {
        self.base
            .wrapping_add(soffset as u64)
            .wrapping_add(self.buffer_offset(index, offset))
    }

    /// Whether the component at `offset` of record `index` is in range.
    #[inline]
    pub fn in_range(&self, index: u32, offset: u32) -> bool {
        match self.oob_select {
            0 => index < self.num_records && offset < self.stride,
            1 => index < self.num_records,
            2 => self.num_records != 0,
            _ => (offset as u64 + self.stride as u64 * index as u64) < self.num_records as u64,
        }
    }

    /// Whether an access of `bytes` bytes (at least 1) at `offset` of record `index` is in
    /// range: its first and its last byte both (the typed instructions' all-or-nothing check).
    /// The last byte's offset is computed in 64 bits: an access that runs past offset
    /// 0xffff_ffff does not wrap to offset 0 — no 32-bit offset can hold it, so it is out
    /// of range in every `oob_select` mode (our choice; the ISA guide does not say:
    /// docs/rules/addressing.md#buffer-spans-past-the-32-bit-offset).
    #[inline]
    pub fn span_in_range(&self, index: u32, offset: u32, bytes: u32) -> bool {
        let last = offset as u64 + bytes.max(1) as u64 - 1;
        match u32::try_from(last) {
            Ok(last) => self.in_range(index, offset) && self.in_range(index, last),
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(base: u64, stride: u32, swz: u32, num: u32, w3: u32) -> BufferDescriptor {
        BufferDescriptor::from_words([
            base as u32,
            (base >> 32) as u32 & 0xffff | stride << 16 | swz << 30,
            num,
            w3,
        ])
    }

    #[test]
    fn fields_decode_from_their_bits() {
        let d = desc(
            0xabcd_1234_5678,
            0x3fff,
            3,
            9,
            3 << 21 | 1 << 23 | 3 << 28 | 22 << 12,
        );
        assert_eq!(d.base, 0xabcd_1234_5678);
        assert_eq!(d.stride, 0x3fff);
        assert_eq!(d.swizzle_element, 16);
        assert_eq!(d.index_stride, 64);
        assert!(d.add_tid);
        assert_eq!(d.oob_select, 3);
        assert_eq!(d.format, 22);
    }

    #[test]
    fn linear_and_swizzled_offsets() {
        let lin = desc(0x1000, 16, 0, 100, 3 << 28);
        assert_eq!(lin.address(3, 4, 0x100), 0x1000 + 0x100 + 3 * 16 + 4);
        // The scratch case: element 4, index stride 64, stride = scratch_size: dword e of
        // lane l at (e × 64 + l) × 4 within the wave's region.
        let scratch = desc(0, 4016, 1, u32::MAX, 3 << 21 | 1 << 23 | 3 << 28);
        for (lane, off) in [(0u32, 8u32), (5, 8), (63, 12), (64, 0)] {
            let want =
                (lane / 64) as u64 * 64 * 4016 + ((off / 4) as u64 * 64 + (lane % 64) as u64) * 4;
            assert_eq!(
                scratch.address(scratch.index(0, lane), off, 0),
                want,
                "lane {lane} off {off}"
            );
        }
    }

    #[test]
    fn gfx9_descriptors_range_check_by_their_stride() {
        // Triton's raw buffer on gfx942: stride 0, num_records 0x7ffffffe, word 3 0x27000.
        let raw = BufferDescriptor::from_words_gfx9([0x1000, 0x7c00, 0x7fff_fffe, 0x27000]);
        assert_eq!(raw.base, 0x7c00_0000_1000);
        assert_eq!((raw.stride, raw.swizzle_element), (0, 0));
        // Word 3's NUM_FORMAT FLOAT and DATA_FORMAT 32: gfx1100's 32_FLOAT.
        assert_eq!(
            rdna3_isa::special::BUF_FORMATS[raw.format as usize],
            "32_FLOAT"
        );
        assert!(raw.in_range(0, 0x7fff_fffd));
        assert!(!raw.in_range(0, 0x8000_0000));
        // Structured, 16-byte records: the index is checked, not the offset.
        let s = BufferDescriptor::from_words_gfx9([0, 16 << 16, 10, 0]);
        assert!(s.in_range(9, 100) && !s.in_range(10, 0));
        // Swizzled (bit 63), 4-byte elements, index stride 16: the offset too.
        let z = BufferDescriptor::from_words_gfx9([0, 16 << 16 | 1 << 31, 10, 1 << 19 | 1 << 21]);
        assert_eq!((z.swizzle_element, z.index_stride), (4, 16));
        assert!(z.in_range(9, 12) && !z.in_range(9, 16));
    }

    #[test]
    fn range_checks_by_oob_select() {
        let s = |oob: u32| desc(0, 16, 0, 4, oob << 28);
        assert!(s(0).in_range(3, 12) && !s(0).in_range(4, 0) && !s(0).in_range(0, 16));
        assert!(s(1).in_range(3, 100) && !s(1).in_range(4, 0));
        assert!(s(2).in_range(1000, 1000) && !desc(0, 16, 0, 0, 2 << 28).in_range(0, 0));
        let raw = desc(0, 0, 0, 10, 3 << 28);
        assert!(raw.in_range(0, 9) && !raw.in_range(0, 10));
    }

    #[test]
    fn a_span_past_offset_2_pow_32_does_not_wrap_into_range() {
        // num_records 0xffffffff: a 4-byte access at 0xfffffffc ends at byte 0xffffffff (out);
        // at 0xfffffffd its last byte is past 2^32 and must not wrap to offset 0 (in).
        let raw = desc(0x1000, 0, 0, u32::MAX, 3 << 28);
        assert!(raw.span_in_range(0, 0xffff_fff8, 4));
        assert!(!raw.span_in_range(0, 0xffff_fffc, 4));
        for off in 0xffff_fffd..=u32::MAX {
            assert!(!raw.span_in_range(0, off, 4), "offset {off:#x}");
        }
        let any = desc(0x1000, 0, 0, 1, 2 << 28);
        assert!(any.span_in_range(0, 0xffff_fffc, 4) && !any.span_in_range(0, 0xffff_fffd, 4));
    }
}
