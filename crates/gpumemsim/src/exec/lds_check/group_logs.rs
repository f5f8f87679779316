//! The per-workgroup logs of a grid's global accesses, kept for the race check while the grid
//! runs together: each made from its waves' logs, so that it also holds the bytes two of its
//! waves raced on ([`AccessLog::absorb_wave`]).

use std::collections::BTreeMap;

use crate::addr::{AccessLog, GlobalMemory};

/// One log per workgroup that made a global access. A running wave's log sits by its slot,
/// so that an access swaps it in and out of the memory (no map lookup per instruction); it
/// joins its workgroup's log in `done` when a wave of another workgroup takes the slot, or
/// at the end.
#[derive(Default)]
pub(super) struct GroupLogs {
    /// The logs of the workgroups whose waves left their slots, by index in the device (the
    /// grid runs together; a grid can have billions of workgroups).
    done: BTreeMap<usize, AccessLog>,
    /// Per wave slot: its workgroup's index and the wave's log.
    slots: Vec<Option<(usize, AccessLog)>>,
}

impl GroupLogs {
    /// Starts logging into the log of the wave in slot `slot`, of workgroup `group`.
    pub(super) fn begin(&mut self, memory: &mut GlobalMemory, slot: usize, group: usize) {
        if self.slots.len() <= slot {
            self.slots.resize_with(slot + 1, || None);
        }
        let held = &mut self.slots[slot];
        if held.as_ref().is_none_or(|(g, _)| *g != group) {
            if let Some((g, log)) = held.replace((group, AccessLog::default())) {
                self.done.entry(g).or_default().absorb_wave(&log);
            }
        }
        let (_, log) = held.as_mut().expect("a log was just placed");
        memory.swap_log(log, true);
    }

    /// Stops logging: the log goes back by slot `slot`.
    pub(super) fn end(&mut self, memory: &mut GlobalMemory, slot: usize) {
        let (_, log) = self.slots[slot].as_mut().expect("begin placed the log");
        memory.swap_log(log, false);
    }

    /// The logs, in workgroup order.
    pub(super) fn into_logs(mut self) -> Vec<AccessLog> {
        for (g, log) in self.slots.into_iter().flatten() {
            self.done.entry(g).or_default().absorb_wave(&log);
        }
        self.done.into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xorshift::XorShift;

    /// Random workgroups taking random slots, each access between `begin` and `end`: the
    /// logs match one map entry per workgroup filled in place, and accesses outside are not
    /// logged.
    #[test]
    fn slot_logs_match_one_log_per_group() {
        for seed in 1..40u64 {
            let mut rng = XorShift::new(seed);
            let (mut memory, mut logs) = (GlobalMemory::new(), GroupLogs::default());
            let mut want: BTreeMap<usize, AccessLog> = BTreeMap::new();
            let mut slot_group = [usize::MAX; 4];
            let mut next = 0usize;
            for _ in 0..200 {
                let slot = (rng.next_u64() % 4) as usize;
                if slot_group[slot] == usize::MAX || rng.below(5) == 0 {
                    slot_group[slot] = next;
                    next += 1;
                }
                let g = slot_group[slot];
                let (addr, op) = (rng.next_u64() % 4096, rng.next_u64() % 3);
                logs.begin(&mut memory, slot, g);
                let mut expect = GlobalMemory::new();
                expect.start_log();
                for m in [&mut memory, &mut expect] {
                    match op {
                        0 => {}
                        1 => m.write_u32(addr, 7),
                        _ => _ = m.read_u32(addr),
                    }
                }
                logs.end(&mut memory, slot);
                memory.write_u32(addr + 8192, 1);
                want.entry(g).or_default().merge(&expect.take_log());
            }
            let got = logs.into_logs();
            assert_eq!(got, want.into_values().collect::<Vec<_>>(), "seed {seed}");
        }
    }
}
