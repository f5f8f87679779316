//! Runs of consecutive ids (lanes, waves), the one piece of logic behind every place a
//! report writes a set of ids in short form ([`crate::banks::lane_ranges`],
//! [`crate::report::id_ranges`]); and the tests for one block of lanes ([`lane_block`])
//! and for one at stepped addresses ([`stepped_block`]), by which the memory paths and the
//! bank model take a wave's usual access.

/// The runs of consecutive values in ascending `ids`, as (first, last) pairs.
///
/// ```
/// assert_eq!(gpumemsim::ranges::runs([0, 1, 2, 5, 7, 8]), [(0, 2), (5, 5), (7, 8)]);
/// ```
pub fn runs(ids: impl IntoIterator<Item = u32>) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for id in ids {
        match out.last_mut() {
            Some((_, last)) if last.checked_add(1) == Some(id) => *last = id,
            _ => out.push((id, id)),
        }
    }
    out
}

/// The lanes of `lanes` as one range, when they are one block of consecutive lanes (at
/// least one): a wave's usual EXEC, which the memory paths and the bank model take in one
/// pass over the block's slice.
#[inline(always)]
pub(crate) fn lane_block(lanes: u64) -> Option<std::ops::Range<usize>> {
    let low = lanes.trailing_zeros() as usize;
    let run = lanes >> (low & 63);
    // `run` is all ones from bit 0 when adding one carries through every one of them.
    (lanes != 0 && run & run.wrapping_add(1) == 0)
        .then(|| low..low + (!run).trailing_zeros() as usize)
}

/// Whether `lanes` is one block of lanes ([`lane_block`]) whose addresses in `addrs` step
/// by `step` from the lowest lane's, none past the top of the 64-bit space: each lane's
/// address the one before it plus `step`, as a wave's usual memory access has them. One
/// pass that vectorises, where a walk over the lanes takes a dozen host instructions a lane
/// (the GLOBAL run path, `vmem::runs`, and the LDS check's two-row stores,
/// `lds_check::scan`).
pub(crate) fn stepped_block<A: Copy + Into<u64>>(lanes: u64, addrs: &[A; 64], step: u64) -> bool {
    let Some(block) = lane_block(lanes) else {
        return false;
    };
    let base: u64 = addrs[block.start].into();
    // The last lane's address in range (so no `step * k` below overflows either).
    let last = step
        .checked_mul(block.len() as u64 - 1)
        .and_then(|d| base.checked_add(d));
    if last.is_none() {
        return false;
    }
    let off = (addrs[block].iter().zip(0u64..))
        .fold(0, |d, (&a, k)| d | (a.into() ^ base.wrapping_add(step * k)));
    off == 0
}

/// `runs` written as `first-last` (or `first` alone), joined by `sep`.
pub fn runs_text(ids: impl IntoIterator<Item = u32>, sep: &str) -> String {
    runs(ids)
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    use super::lane_block;
    use crate::xorshift::XorShift;

    /// `lane_block` is the one block [`super::runs`] finds in a mask's lanes, when it finds
    /// one: empty, full, single lanes, blocks at every position and length, and random
    /// masks (mostly more than one block).
    #[test]
    fn a_lane_block_is_a_mask_of_one_run() {
        let mut rng = XorShift::new(0x1a2e_b10c);
        let mut masks = vec![0, u64::MAX, 1, 1 << 63];
        for lo in 0..64 {
            for len in 1..=64 - lo {
                masks.push((u64::MAX >> (64 - len)) << lo);
            }
        }
        masks.extend((0..2000).map(|_| rng.next_u64() & rng.next_u64()));
        let mut blocks = 0;
        for m in masks {
            let runs = super::runs((0..64).filter(|&l| m >> l & 1 == 1));
            let want = match runs.as_slice() {
                [(a, b)] => Some(*a as usize..*b as usize + 1),
                _ => None,
            };
            assert_eq!(lane_block(m), want, "{m:#x}");
            blocks += usize::from(want.is_some());
        }
        assert!(blocks > 2000, "{blocks}");
    }
}
