//! `gpumemsim check`: a run's events grouped into findings, the way compute-sanitizer groups
//! its hazards — one finding per (kind, instructions), with how often it happened and which
//! waves and lanes were involved. Events of the [`NOTE_KINDS`] are grouped the same way into
//! notes: shown, but not something the kernel did wrong.

use std::collections::{BTreeSet, HashMap};

use crate::event::Event;

/// One group of events of the same kind at the same instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The events' kind (`lds_race`, `missing_wait`, `out_of_bounds`, ...).
    pub kind: &'static str,
    /// How many events the group holds.
    pub count: u64,
    /// The instructions (indices into the program): the event's own first, then the others
    /// its detail names (the earlier access of a race, the load a read came too early for).
    pub pcs: Vec<usize>,
    /// Every wave involved in any of the events, ascending.
    pub waves: Vec<u32>,
    /// Every lane named by any of the events, ascending.
    pub lanes: Vec<u32>,
    /// The memory address of the first event, where it names one.
    pub address: Option<u64>,
    /// The first event's description.
    pub message: String,
}

/// Event kinds that are the hardware's defined answer, used on purpose by compilers, rather
/// than a mistake: reported as notes, not findings, and not failing `check`.
///
/// `buffer_out_of_range`: a buffer access outside its V#'s range loads 0 and drops stores
/// (docs/rules/addressing.md). Compilers mask with it: Triton's buffer operations give
/// masked-off lanes offset 0x80000000 against a V# of 0x7ffffffe records, and
/// composable_kernel pads tiles the same way. An access outside every allocation within a
/// V#'s range is still `out_of_bounds`.
///
/// `lds_address_wrap`: a DS address (VGPR + offset) that passed 2^32 wraps (the 32-bit
/// adder's answer, docs/rules/ds.md#address-wrap); LLVM folds constants into DS offsets
/// relying on it (`t[63 - l]` at -O2: `v_sub_nc_u32 v4, 0, v0` + `ds_load_b32 v3, v4
/// offset:252`). A wrapped address outside the allocation is still `lds_out_of_range`.
///
/// `lds_race_same_value`, `global_race_same_value`: a write-write race of plain writes that
/// left the bytes as they were (the earlier write wrote the same value): formally a race,
/// but the bytes end the same in either order (SHOC's `s_seed = 0` by every work-item). A
/// race that changes a byte, or involves a read or an atomic, is still a finding.
pub const NOTE_KINDS: [&str; 4] = [
    "buffer_out_of_range",
    "lds_address_wrap",
    "lds_race_same_value",
    "global_race_same_value",
];

/// Whether events of `kind` are notes ([`NOTE_KINDS`]).
pub fn is_note(kind: &str) -> bool {
    NOTE_KINDS.contains(&kind)
}

/// The events that are findings (not notes) grouped by (kind, instructions), in the order each
/// group first happened.
pub fn findings(events: &[Event]) -> Vec<Finding> {
    group(events.iter().filter(|e| !is_note(e.kind)))
}

/// The events that are notes ([`NOTE_KINDS`]), grouped as [`findings`] groups.
pub fn notes(events: &[Event]) -> Vec<Finding> {
    group(events.iter().filter(|e| is_note(e.kind)))
}

/// `events` grouped by (kind, instructions), in the order each group first happened.
fn group<'a>(events: impl Iterator<Item = &'a Event>) -> Vec<Finding> {
    let mut index: HashMap<(&'static str, Vec<usize>), usize> = HashMap::new();
    let mut groups: Vec<(Finding, BTreeSet<u32>, BTreeSet<u32>)> = Vec::new();
    for e in events {
        let mut pcs = vec![e.pc];
        if let Some(d) = &e.detail {
            pcs.extend_from_slice(&d.pcs);
        }
        let i = *index.entry((e.kind, pcs.clone())).or_insert_with(|| {
            groups.push((
                Finding {
                    kind: e.kind,
                    count: 0,
                    pcs,
                    waves: Vec::new(),
                    lanes: Vec::new(),
                    address: e.detail.as_ref().and_then(|d| d.address),
                    message: e.message.clone(),
                },
                BTreeSet::new(),
                BTreeSet::new(),
            ));
            groups.len() - 1
        });
        let (f, waves, lanes) = &mut groups[i];
        f.count += 1;
        waves.insert(e.wave);
        if let Some(d) = &e.detail {
            waves.extend(d.waves.iter().copied());
            lanes.extend(d.lanes.iter().copied());
        }
    }
    groups
        .into_iter()
        .map(|(mut f, waves, lanes)| {
            f.waves = waves.into_iter().collect();
            f.lanes = lanes.into_iter().collect();
            f
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::EventDetail;

    fn race(wave: u32, pc: usize, other: usize, lane: u32) -> Event {
        Event::new("lds_race", wave, pc, format!("race at pc {pc}")).with_detail(EventDetail {
            pcs: vec![other],
            waves: vec![wave + 1],
            lanes: vec![lane],
            address: Some(64),
        })
    }

    #[test]
    fn groups_by_kind_and_instructions_in_first_seen_order() {
        let events = vec![
            race(2, 5, 3, 7),
            Event::new("memviol", 0, 9, "misaligned".into()),
            race(0, 5, 3, 1),
            race(0, 5, 4, 1),
        ];
        let f = findings(&events);
        assert_eq!(f.len(), 3);
        assert_eq!(
            (f[0].kind, f[0].count, &f[0].pcs[..]),
            ("lds_race", 2, &[5, 3][..])
        );
        assert_eq!(f[0].waves, vec![0, 1, 2, 3]);
        assert_eq!(f[0].lanes, vec![1, 7]);
        assert_eq!(f[0].address, Some(64));
        assert_eq!(f[0].message, "race at pc 5");
        assert_eq!(
            (f[1].kind, f[1].count, &f[1].pcs[..]),
            ("memviol", 1, &[9][..])
        );
        assert!(f[1].lanes.is_empty() && f[1].address.is_none());
        assert_eq!(&f[2].pcs[..], &[5, 4]);
    }

    #[test]
    fn no_events_no_findings() {
        assert!(findings(&[]).is_empty());
    }

    #[test]
    fn notes_are_grouped_apart_from_findings() {
        let events = vec![
            Event::new("buffer_out_of_range", 1, 4, "masked".into()),
            race(0, 5, 3, 1),
            Event::new("buffer_out_of_range", 2, 4, "masked".into()),
        ];
        let f = findings(&events);
        assert_eq!((f.len(), f[0].kind), (1, "lds_race"));
        let n = notes(&events);
        assert_eq!(
            (n.len(), n[0].kind, n[0].count),
            (1, "buffer_out_of_range", 2)
        );
        assert_eq!(n[0].waves, vec![1, 2]);
    }
}
