//! Runs of consecutive ids (lanes, waves), the one piece of logic behind every place a
//! report writes a set of ids in short form ([`crate::banks::lane_ranges`],
//! [`crate::report::id_ranges`]); and the test for a block of lanes at stepped addresses
//! ([`stepped_block`]) that the memory paths take their usual access by.

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

/// Whether `lanes` is one block of lanes (at least one) whose addresses in `addrs` step by
/// `step` from the lowest lane's, none past the top of the 64-bit space: each lane's address
/// the one before it plus `step`, as a wave's usual memory access has them. One pass that
/// vectorises, where a walk over the lanes takes a dozen host instructions a lane (the
/// GLOBAL run path, `vmem::runs`, and the LDS check's two-row stores, `lds_check::scan`).
pub(crate) fn stepped_block<A: Copy + Into<u64>>(lanes: u64, addrs: &[A; 64], step: u64) -> bool {
    if lanes == 0 {
        return false;
    }
    let first = lanes.trailing_zeros() as usize;
    let n = lanes.count_ones() as usize;
    if lanes >> first != u64::MAX >> (64 - n) {
        return false;
    }
    let base: u64 = addrs[first].into();
    // The last lane's address in range (so no `step * k` below overflows either).
    let last = step
        .checked_mul(n as u64 - 1)
        .and_then(|d| base.checked_add(d));
    if last.is_none() {
        return false;
    }
    let off = (addrs[first..first + n].iter().zip(0u64..))
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
