//! Recording the timeline ([`crate::timeline::Timeline`], with
//! [`super::RunConfig::record_timeline`]): each wave's life, its issue, stall and wait
//! segments, the LDS pipes' busy periods, and the critical path.

use super::Device;
use crate::timeline::{PipeBusy, Segment, SegmentKind, Timeline, WaveLife};

impl Device {
    /// Records `start..end` of wave `wi` as `kind` on the instruction at `pc`, merged into the
    /// wave's previous segment when that one is of the same kind and instruction and ends
    /// where this one starts.
    #[inline]
    pub(crate) fn segment(
        &mut self,
        wi: usize,
        kind: SegmentKind,
        start: u64,
        end: u64,
        pc: usize,
    ) {
        if self.timeline.is_some() && end > start {
            self.record_segment(wi, kind, start, end, pc);
        }
    }

    /// [`Device::segment`] with a timeline and a segment of at least a cycle.
    fn record_segment(&mut self, wi: usize, kind: SegmentKind, start: u64, end: u64, pc: usize) {
        let Some(t) = self.timeline.as_mut() else {
            return;
        };
        if let Some(i) = self.last_segment[wi] {
            let s = &mut t.segments[i];
            if s.kind == kind && s.pc == pc && s.end == start {
                s.end = end;
                return;
            }
        }
        if t.segments.len() >= Timeline::MAX_SEGMENTS {
            t.truncated = true;
            return;
        }
        self.last_segment[wi] = Some(t.segments.len());
        t.segments.push(Segment {
            wave: self.waves[wi].id,
            kind,
            start,
            end,
            pc,
        });
    }

    /// Records the busy period of LDS pipe `pipe` (device index) for wave `wi`'s instruction.
    pub(crate) fn pipe_busy(&mut self, wi: usize, pipe: usize, start: u64, end: u64) {
        let Some(t) = self.timeline.as_mut() else {
            return;
        };
        if end <= start {
            return;
        }
        if t.lds_busy.len() >= Timeline::MAX_SEGMENTS {
            t.truncated = true;
            return;
        }
        let p = self.placement.as_ref().expect("placed before running");
        t.lds_busy.push(PipeBusy {
            pipe: (p.first_wgp() as usize * p.cus() + pipe) as u32,
            start,
            end,
            wave: self.waves[wi].id,
        });
    }

    /// Wave `wi` started at `at`, on the SIMD placement gave it; `by` is the wave whose end
    /// freed its slot (none at the launch).
    pub(crate) fn start_life(&mut self, wi: usize, at: u64, by: Option<usize>) {
        let id = self.waves[wi].id;
        let workgroup = self.grid_workgroup(wi);
        let by = by.map(|b| self.waves[b].id);
        let Some(t) = self.timeline.as_mut() else {
            return;
        };
        let p = self
            .placement
            .as_ref()
            .expect("placed before starting a wave");
        t.waves.push(WaveLife {
            wave: id,
            workgroup,
            wgp: p.first_wgp() + p.wgp(wi) as u32,
            simd: (p.simd(wi) % super::units::SIMDS_PER_WGP) as u32,
            start: at,
            end: None,
            started_by: by,
        });
        self.life[wi] = Some(t.waves.len() - 1);
    }

    /// Wave `wi` ended at `at`.
    pub(crate) fn end_life(&mut self, wi: usize, at: u64) {
        let (Some(t), Some(i)) = (self.timeline.as_mut(), self.life[wi]) else {
            return;
        };
        t.waves[i].end = Some(at);
    }
}

impl Device {
    /// Works out the critical path once every wave has ended.
    pub(crate) fn finish_timeline(&mut self) {
        if let Some(t) = self.timeline.as_mut() {
            t.critical = critical_path(t);
        }
    }

    /// Adds a device part's timeline to this one's (after both ran).
    pub(crate) fn absorb_timeline(&mut self, o: Option<Timeline>) {
        let (Some(t), Some(o)) = (self.timeline.as_mut(), o) else {
            return;
        };
        t.waves.extend(o.waves);
        t.segments.extend(o.segments);
        t.lds_busy.extend(o.lds_busy);
        t.truncated |= o.truncated;
        t.critical = critical_path(t);
    }
}

/// The critical path of `t`: from the wave that ended last back through the waves whose ends
/// let each one start (a workgroup waiting for a slot), as (wave, start, end), earliest first.
pub(crate) fn critical_path(t: &Timeline) -> Vec<(u32, u64, u64)> {
    let by_id: std::collections::HashMap<u32, &WaveLife> =
        t.waves.iter().map(|w| (w.wave, w)).collect();
    let mut at = t
        .waves
        .iter()
        .filter(|w| w.end.is_some())
        .max_by_key(|w| (w.end, std::cmp::Reverse(w.wave)));
    let mut path = Vec::new();
    while let Some(w) = at {
        path.push((w.wave, w.start, w.end.unwrap_or(w.start)));
        at = w.started_by.and_then(|b| by_id.get(&b).copied());
        if path.len() > t.waves.len() {
            break;
        }
    }
    path.reverse();
    path
}
