//! The swizzled private (scratch) layout (003_8127e07f2b7609f5.txt §generic, the flat
//! private address formula; element size 4 as on AMDGPU):
//!
//! ```text
//! global = private_segment_buffer.base + wave_id × wave_size × scratch_size   (= flat_scratch)
//!        + (X / 4) × 4 × wave_size + lane × 4 + X % 4
//! ```
//!
//! for private offset `X` of lane `lane`. (The spec's formula writes `wave.id` in the lane
//! term; the text around it and its experiment — lane 0's 8-byte variable at offset 8 has its
//! dwords at flat_scratch + 8×64 and + 12×64 — show it is the lane.) So dword element `e`
//! of a lane sits at `(e × wave_size + lane) × 4` in the wave's region.

/// Where a wave's scratch lives and how big each lane's is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScratchLayout {
    /// `private_segment_buffer.base`: the global address of wave 0's region.
    pub base: u64,
    /// 32 or 64.
    pub wave_size: u32,
    /// Bytes of private memory per lane (the kernel's `scratch_size`).
    pub scratch_size: u32,
}

/// Element size of the swizzle (bytes).
pub const ELEMENT_BYTES: u64 = 4;

impl ScratchLayout {
    /// Wave `wave_id`'s `flat_scratch`: the start of its region.
    #[inline]
    pub fn flat_scratch(&self, wave_id: u32) -> u64 {
        self.base
            .wrapping_add(wave_id as u64 * self.wave_size as u64 * self.scratch_size as u64)
    }

    /// The global address of private offset `offset` of `lane` in wave `wave_id`.
    #[inline]
    pub fn lane_address(&self, wave_id: u32, lane: u32, offset: u32) -> u64 {
        let x = offset as u64;
        self.flat_scratch(wave_id)
            .wrapping_add((x / ELEMENT_BYTES) * ELEMENT_BYTES * self.wave_size as u64)
            .wrapping_add(lane as u64 * ELEMENT_BYTES)
            .wrapping_add(x % ELEMENT_BYTES)
    }

    /// Whether private offset `offset` (an access of `bytes`) lies inside a lane's
    /// `scratch_size` bytes.
    #[inline]
    pub fn in_range(&self, offset: u32, bytes: u32) -> bool {
        offset as u64 + bytes as u64 <= self.scratch_size as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_experiment_holds_for_wave64() {
        let s = ScratchLayout {
            base: 0x1000_0000,
            wave_size: 64,
            scratch_size: 4016,
        };
        assert_eq!(s.flat_scratch(1) - s.flat_scratch(0), 0x3ec00);
        assert_eq!(s.flat_scratch(9) - s.flat_scratch(8), 257_024);
        let fs = s.flat_scratch(0);
        assert_eq!(s.lane_address(0, 0, 8), fs + 8 * 64);
        assert_eq!(s.lane_address(0, 0, 12), fs + 12 * 64);
        assert_eq!(s.lane_address(0, 5, 8), fs + 8 * 64 + 20);
        assert_eq!(s.lane_address(0, 63, 3), fs + 63 * 4 + 3);
    }

    #[test]
    fn wave32_uses_its_own_size_in_both_terms() {
        let s = ScratchLayout {
            base: 0,
            wave_size: 32,
            scratch_size: 4016,
        };
        assert_eq!(s.flat_scratch(1), 4016 * 32);
        assert_eq!(s.lane_address(1, 0, 8), 4016 * 32 + 8 * 32);
        assert_eq!(s.lane_address(1, 31, 12), 4016 * 32 + 12 * 32 + 31 * 4);
        assert!(s.in_range(4012, 4));
        assert!(!s.in_range(4013, 4));
    }
}
