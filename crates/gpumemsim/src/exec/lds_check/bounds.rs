//! Per-variable LDS bounds (`lds_out_of_bounds`): the lanes of one access of an instruction
//! address one variable, so lanes of it that reach another variable (or the padding between
//! two) went past the end of theirs — `a[l + 1]` at the last lane reading the first element
//! of the next `__local` array — though still inside the allocation, where the hardware
//! gives what that other variable holds.
//!
//! The variables are the kernel's, where the code object's DWARF lets them be placed
//! ([`crate::loader::LdsVariable`]). An access is one lane's `k`-th touch (the `k`-th address
//! of a 2addr instruction, the `k`-th dword of a wide one); the variable most lanes of it
//! address is the one the instruction means. One lane alone tells nothing, and lanes that
//! all went into one wrong variable look right: what is found is a crossing of lanes.

use crate::lds::LdsTouch;
use crate::loader::LdsVariable;

/// What a crossing found: the lanes that left the instruction's variable, the first byte
/// one reached, and the message.
pub(super) struct Crossing {
    pub(super) lanes: u64,
    pub(super) address: u32,
    pub(super) message: String,
}

/// The variable holding byte `b` (its index), `None` in padding or past the last one.
fn holding(vars: &[LdsVariable], b: u32) -> Option<usize> {
    let i = vars.partition_point(|v| v.start <= b);
    (i > 0 && b < vars[i - 1].end).then(|| i - 1)
}

/// The bytes of the variable holding byte `b`, if one does.
pub(super) fn variable_at(vars: &[LdsVariable], b: u32) -> Option<(u32, u32)> {
    holding(vars, b).map(|i| (vars[i].start, vars[i].end))
}

/// `a` (bytes 0x0..0x100).
fn named(v: &LdsVariable) -> String {
    format!("`{}` (bytes {:#x}..{:#x})", v.name, v.start, v.end)
}

/// Checks the accesses of one instruction execution, each (slot, lane, offset, size) in
/// lane order per slot, against `vars` (sorted by start).
pub(super) fn check(
    vars: &[LdsVariable],
    accesses: impl Iterator<Item = (usize, u8, u32, u32)> + Clone,
) -> Option<Crossing> {
    if in_one(vars, accesses.clone()) {
        return None;
    }
    // Per slot: the lanes of each variable, and the lanes whose access is in none or
    // straddles two (with the first byte outside).
    let mut slots: Vec<(Vec<u64>, u64, Option<u32>)> = Vec::new();
    for (slot, lane, offset, size) in accesses {
        if slots.len() <= slot {
            slots.resize(slot + 1, (vec![0; vars.len()], 0, None));
        }
        let s = &mut slots[slot];
        let bit = 1u64 << (lane & 63);
        let last = offset + size.max(1) - 1;
        match (holding(vars, offset), holding(vars, last)) {
            (Some(a), Some(b)) if a == b => s.0[a] |= bit,
            (first, _) => {
                s.1 |= bit;
                let outside = if first.is_some() { last } else { offset };
                s.2.get_or_insert(outside);
            }
        }
    }
    for (lanes_of, odd, first_odd) in slots {
        let counts: Vec<u32> = lanes_of.iter().map(|m| m.count_ones()).collect();
        let Some((main, &n)) = counts
            .iter()
            .enumerate()
            .max_by_key(|(i, c)| (**c, usize::MAX - i))
        else {
            continue;
        };
        let others: u64 = lanes_of
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != main)
            .fold(odd, |m, (_, l)| m | l);
        if n == 0 || others == 0 {
            continue;
        }
        let v = &vars[main];
        let (address, into) = match first_odd {
            Some(a) if odd != 0 => (
                a,
                match holding(vars, a) {
                    Some(i) => named(&vars[i]),
                    None => "padding between variables".to_string(),
                },
            ),
            _ => {
                let (i, _) = lanes_of
                    .iter()
                    .enumerate()
                    .find(|(i, l)| *i != main && **l != 0)
                    .expect("another variable's lanes");
                (vars[i].start, named(&vars[i]))
            }
        };
        let verb = if others.count_ones() == 1 {
            "reaches"
        } else {
            "reach"
        };
        let message = format!(
            "{} of this access {verb} {into} while {} access {}: an index past the bounds of \
             `{}` into another __local variable (inside the allocation, so the hardware gives \
             what that one holds)",
            super::lanes_text(others),
            super::lanes_text(lanes_of[main]),
            named(v),
            v.name
        );
        return Some(Crossing {
            lanes: others,
            address,
            message,
        });
    }
    None
}

/// Whether every access lies in one variable (the common case, checked without the
/// per-lane bookkeeping).
fn in_one(
    vars: &[LdsVariable],
    accesses: impl Iterator<Item = (usize, u8, u32, u32)> + Clone,
) -> bool {
    let Some((_, _, first, _)) = accesses.clone().next() else {
        return true;
    };
    let Some(v) = holding(vars, first).map(|i| &vars[i]) else {
        return false;
    };
    accesses
        .into_iter()
        .all(|(_, _, o, s)| o >= v.start && u64::from(o) + u64::from(s.max(1)) <= u64::from(v.end))
}

/// The accesses of a trace as [`check`] takes them: each lane's `k`-th touch is slot `k`.
pub(super) fn of_trace(
    touches: &[LdsTouch],
) -> impl Iterator<Item = (usize, u8, u32, u32)> + Clone + '_ {
    let mut seen = [0usize; 64];
    touches.iter().map(move |t| {
        let l = (t.lane & 63) as usize;
        seen[l] += 1;
        (seen[l] - 1, t.lane, t.offset, u32::from(t.size))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Vec<LdsVariable> {
        vec![
            LdsVariable {
                name: "a".into(),
                start: 0,
                end: 256,
            },
            LdsVariable {
                name: "b".into(),
                start: 256,
                end: 384,
            },
        ]
    }

    #[test]
    fn a_lane_past_the_end_of_its_array_is_found_and_the_rest_are_not() {
        // a[l + 1] for 64 lanes: lane 63 reads b[0].
        let a = (0..64u8).map(|l| (0, l, 4 * (u32::from(l) + 1), 4));
        let c = check(&vars(), a).expect("a crossing");
        assert_eq!((c.lanes, c.address), (1 << 63, 256));
        assert!(
            c.message.contains("`b`") && c.message.contains("`a`"),
            "{}",
            c.message
        );
        // a[l] and b[l] in the two slots of one 2addr load: each slot in one variable.
        let two = (0..32u8).flat_map(|l| {
            [
                (0, l, 4 * u32::from(l), 4),
                (1, l, 256 + 4 * u32::from(l), 4),
            ]
        });
        assert!(check(&vars(), two).is_none());
        // One lane alone, and every lane in the other variable, tell nothing.
        assert!(check(&vars(), [(0, 5, 300, 4)].into_iter()).is_none());
        // A lane whose 8 bytes straddle the end of `a`.
        let straddle = [(0, 0, 0, 8), (0, 1, 8, 8), (0, 2, 252, 8)].into_iter();
        let c = check(&vars(), straddle).expect("a straddle");
        assert_eq!((c.lanes, c.address), (1 << 2, 259));
    }
}
