//! Runs of consecutive ids (lanes, waves), the one piece of logic behind every place a
//! report writes a set of ids in short form ([`crate::banks::lane_ranges`],
//! [`crate::report::id_ranges`]).

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
