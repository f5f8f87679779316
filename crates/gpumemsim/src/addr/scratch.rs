//! The swizzled private (scratch) layout (docs/rules/addressing.md#scratch-swizzle; element
//! size 4 as on AMDGPU):
//!
//! ```text
//! global = private_segment_buffer.base + wave_id × wave_size × scratch_size   (= flat_scratch)
//!        + (X / 4) × 4 × wave_size + lane × 4 + X % 4
//! ```
//!
//! for private offset `X` of lane `lane`. (The lane term is the lane id, not the wave id: on
//! hardware, lane 0's 8-byte variable at offset 8 has its dwords at flat_scratch + 8×64 and
//! at flat_scratch + 12×64.) So dword element `e` of a lane sits at
//! `(e × wave_size + lane) × 4` in the wave's region.

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

    /// Whether some byte of `lane`'s access of `bytes` at private offset `offset` lands at or
    /// past the end of its wave's region (`flat_scratch` + wave_size × scratch_size), in the
    /// next wave's private memory.
    ///
    /// The formula places dword element `e` of every lane before element `e + 1` of any, so a
    /// wave's footprint is `ceil(scratch_size / 4) × 4 × wave_size` bytes while the waves are
    /// `wave_size × scratch_size` apart: with a `scratch_size` that is not a multiple of 4 the
    /// last, partial element of the higher lanes lies in the next wave's region, where that
    /// wave's lanes keep their first element (docs/rules/addressing.md#scratch-size-not-a-multiple-of-4). The
    /// hardware computes the formula's address whatever it overlaps, so the access goes there;
    /// the executor reports it as `scratch_overlap`. (A choice: this is reported on the access,
    /// not refused when the launch is configured — the hardware runs such a launch, and only
    /// the lanes that touch their last partial dword collide.)
    #[inline]
    pub fn spills_past_wave(&self, lane: u32, offset: u32, bytes: u32) -> bool {
        if (self.scratch_size as u64).is_multiple_of(ELEMENT_BYTES) || bytes == 0 {
            return false;
        }
        let region = self.wave_size as u64 * self.scratch_size as u64;
        let last = offset as u64 + bytes as u64 - 1;
        let within = (last / ELEMENT_BYTES) * ELEMENT_BYTES * self.wave_size as u64
            + lane as u64 * ELEMENT_BYTES
            + last % ELEMENT_BYTES;
        within >= region
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
    fn the_hardware_measurement_holds_for_wave64() {
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
    fn only_the_partial_last_dword_of_an_odd_size_spills_into_the_next_wave() {
        let s = ScratchLayout {
            base: 0,
            wave_size: 64,
            scratch_size: 6,
        };
        // Region 384 bytes; element 1 (bytes 4-5) of lane L sits at 256 + 4L: past 384 from
        // lane 32 on.
        assert!(!s.spills_past_wave(31, 4, 2));
        assert!(s.spills_past_wave(32, 4, 2));
        assert!(s.spills_past_wave(32, 5, 1));
        assert!(!s.spills_past_wave(63, 0, 4), "element 0 stays inside");
        assert_eq!(s.lane_address(0, 32, 4), s.flat_scratch(1));
        let even = ScratchLayout {
            scratch_size: 8,
            ..s
        };
        assert!(!even.spills_past_wave(63, 4, 4));
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
