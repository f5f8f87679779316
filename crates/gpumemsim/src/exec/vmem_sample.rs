//! Opt-in recording of vector memory accesses for the coalescing pictures
//! ([`RunConfig::record_samples`]): for each vector memory instruction of the program, the
//! cache lines of the execution that requested the most, each with the lanes that touched
//! it and the level that served it.
//!
//! The execution with the most lines is the one that explains the instruction's requests, as
//! the costliest DS execution explains its bank cycles (`ds_sample`); ties go to the wave
//! created first, then to its earliest execution, so a grid run apart records what the same
//! grid run together records. Recording runs the instruction lane by lane (the path the
//! faster one is tested against), so the results are the same with or without it.
//!
//! [`RunConfig::record_samples`]: super::RunConfig::record_samples

use super::Device;
use crate::vcache::Level;

/// One cache line of a [`VmemSample`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SampleLine {
    /// The line's address ÷ [`crate::vcache::LINE_BYTES`].
    pub line: u64,
    /// The lanes whose access touched it (bit `i`: lane `i`).
    pub lanes: u64,
    /// The level that served it.
    pub level: Level,
}

/// One execution of a vector memory instruction as the caches saw it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VmemSample {
    /// The wave that executed it (its id: index in creation order over the whole grid).
    pub wave: u32,
    /// The wave's size (32 or 64).
    pub wave_size: u32,
    /// The lanes in EXEC.
    pub active: u64,
    /// The lines its accesses touched, in address order: its requests.
    pub lines: Vec<SampleLine>,
}

impl VmemSample {
    /// Builds the sample of wave `wave` (of `wave_size` lanes, EXEC `active`) from the lines
    /// the memory noted in order (`noted`), `marks` (each lane in EXEC and the count of notes
    /// after its access) and the level that served each distinct line (`served`, in address
    /// order).
    pub(crate) fn new(
        (wave, wave_size, active): (u32, u32, u64),
        noted: &[u64],
        marks: &[(u32, usize)],
        served: &[(u64, Level)],
    ) -> VmemSample {
        let mut lines: Vec<SampleLine> = served
            .iter()
            .map(|&(line, level)| SampleLine {
                line,
                lanes: 0,
                level,
            })
            .collect();
        let mut from = 0;
        for &(lane, to) in marks {
            for line in &noted[from..to] {
                if let Ok(i) = lines.binary_search_by_key(line, |l| l.line) {
                    lines[i].lanes |= 1 << lane;
                }
            }
            from = to;
        }
        VmemSample {
            wave,
            wave_size,
            active,
            lines,
        }
    }
}

impl Device {
    /// Keeps `sample`, an execution of the vector memory instruction at `pc`, if it requested
    /// more lines than the one kept so far (see the module text for ties).
    pub(crate) fn record_vmem_sample(&mut self, pc: usize, sample: VmemSample) {
        let Some(slot) = self.vmem_worst.get_mut(pc) else {
            return;
        };
        if let Some(old) = slot {
            let (n, m) = (sample.lines.len(), old.lines.len());
            if n < m || (n == m && sample.wave >= old.wave) {
                return;
            }
        }
        *slot = Some(sample);
    }

    /// Merges the samples of `other` (a device holding later workgroups) into `self`'s.
    pub(crate) fn absorb_vmem_samples(&mut self, other: Vec<Option<VmemSample>>) {
        if self.vmem_worst.len() < other.len() {
            self.vmem_worst.resize(other.len(), None);
        }
        for (mine, theirs) in self.vmem_worst.iter_mut().zip(other) {
            let Some(t) = theirs else { continue };
            // Their waves were created after ours: they win only by requesting more.
            if mine.as_ref().is_none_or(|m| t.lines.len() > m.lines.len()) {
                *mine = Some(t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_gets_the_lanes_that_touched_it() {
        // Lane 0 touches lines 7 and 8 (a crossing access), lane 3 line 8, lane 5 nothing
        // (its access went to LDS).
        let noted = [7, 8, 8];
        let marks = [(0, 2), (3, 3), (5, 3)];
        let served = [(7, Level::L0), (8, Level::Vram)];
        let s = VmemSample::new((4, 32, 0b101001), &noted, &marks, &served);
        let got: Vec<(u64, u64, Level)> =
            s.lines.iter().map(|l| (l.line, l.lanes, l.level)).collect();
        assert_eq!(got, [(7, 0b1, Level::L0), (8, 0b1001, Level::Vram)]);
    }
}
