//! Resident slots: a device that makes each workgroup's waves when it starts and reuses
//! their state when it ends, so that memory follows the resident workgroups, not the grid.
//!
//! A device holds its per-wave state (registers, clocks, counters, scoreboards, queues) in
//! wave slots and its per-workgroup state (LDS, checker shadow) in workgroup slots; wave
//! slot `s * waves + i` is wave `i` of the workgroup in slot `s`. Made with an initialiser
//! ([`WaveInit`], a launch), a device starts with no slots: placement gives a starting
//! workgroup the lowest free slot, or a new one, and the device makes its waves there
//! ([`Device::occupy_slot`]). Made without (assembly runs, which set registers before the
//! run and read every wave after it), workgroup `g` holds slot `g` for the whole run and
//! every wave is made up front. What a reused slot's last wave leaves for the report (its
//! clock) is kept in [`Retired`].
//!
//! The scheduler breaks ties between waves by wave id, not slot, so a run gives the same
//! result either way.

use std::sync::Arc;

use super::{deps, inflight, Device, RunConfig};
use crate::addr::{Apertures, ScratchLayout};
use crate::lds::{AlignMode, Lds, LdsMode};
use crate::smem::ClauseTracker;
use crate::wave::Wave;

/// Sets up a wave when it is made (registers, EXEC, MODE), given its workgroup's index in
/// the grid; the wave's index in its workgroup is `wave.id % waves`.
pub type WaveInit = Arc<dyn Fn(u32, &mut Wave) + Send + Sync>;

/// What making a wave needs of the run's configuration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spawn {
    pub wave_size: u32,
    waves: u32,
    apertures: Apertures,
    gfx9_dpp: bool,
    accum_offset: u32,
    scratch: ScratchLayout,
    lds_mode: LdsMode,
    lds_align: AlignMode,
}

impl Spawn {
    pub(crate) fn of(cfg: &RunConfig) -> Spawn {
        Spawn {
            wave_size: cfg.wave_size,
            waves: cfg.waves,
            apertures: cfg.apertures,
            gfx9_dpp: cfg.chip.isa == rdna3_isa::Isa::Gfx940,
            accum_offset: cfg.accum_offset,
            scratch: ScratchLayout {
                base: cfg.scratch_base,
                wave_size: cfg.wave_size,
                scratch_size: cfg.scratch_size,
            },
            lds_mode: cfg.lds_mode,
            lds_align: cfg.align,
        }
    }

    /// Wave `i` of grid workgroup `g` as the `run` command defines it before any
    /// initialiser: v0 = work-item id (lane + i × wave size), s0 = `g`, everything else 0,
    /// EXEC all ones, its scratch region and apertures.
    /// `vgprs`: an earlier wave's VGPR storage to reuse ([`Wave::reuse_vgprs`]).
    pub(crate) fn wave(&self, g: u32, i: u32, vgprs: Vec<u32>) -> Wave {
        let mut w = Wave::new(g * self.waves + i, self.wave_size);
        w.reuse_vgprs(vgprs);
        w.apertures = self.apertures;
        w.gfx9_dpp = self.gfx9_dpp;
        w.accum_offset = self.accum_offset;
        w.flat_scratch = self.scratch.flat_scratch(w.id);
        for l in 0..self.wave_size {
            w.set_vgpr(0, l, l + i * self.wave_size);
        }
        w.set_sreg(0, g);
        w
    }
}

/// What the waves that left reused slots leave for the report.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Retired {
    /// Waves that left their slot.
    pub waves: u64,
    /// Their clocks, added up, and the latest.
    pub clock_sum: u64,
    pub clock_max: u64,
}

impl Retired {
    pub(crate) fn add(&mut self, o: &Retired) {
        self.waves += o.waves;
        self.clock_sum += o.clock_sum;
        self.clock_max = self.clock_max.max(o.clock_max);
    }
}

impl Device {
    /// Puts device workgroup `g`'s waves in workgroup slot `slot` (made when new): a device
    /// made with an initialiser makes them now, after noting what the slot's last waves
    /// leave; an up-front device already has them there.
    pub(crate) fn occupy_slot(&mut self, g: usize, slot: usize) {
        let Some(init) = self.wave_init.clone() else {
            return;
        };
        let gw = self.group_waves;
        if slot == self.slot_group.len() {
            self.grow_slot();
        } else {
            self.retire_slot(slot);
        }
        self.slot_group[slot] = g as u32;
        let grid_g = self.first_group + g as u32;
        for i in 0..gw {
            let wi = slot * gw + i;
            let vgprs = self.waves[wi].take_vgprs();
            let mut w = self.spawn.wave(grid_g, i as u32, vgprs);
            init(grid_g, &mut w);
            self.waves[wi] = w;
        }
    }

    /// Notes what the waves in `slot` leave (their clocks) and resets the slot's state.
    fn retire_slot(&mut self, slot: usize) {
        let gw = self.group_waves;
        for wi in slot * gw..(slot + 1) * gw {
            let c = self.clocks[wi];
            self.retired.waves += 1;
            self.retired.clock_sum += c;
            self.retired.clock_max = self.retired.clock_max.max(c);
            self.clocks[wi] = 0;
            self.waits[wi] = None;
            self.clauses[wi] = ClauseTracker::default();
            self.sgpr_returns[wi].clear();
            self.sgpr_late[wi] = 0;
            self.pending[wi].clear();
            self.pending_next[wi] = 0;
            self.lds_ops[wi] = Default::default();
            self.inflight[wi].reset();
            self.scoreboards[wi].reset();
            self.started[wi] = false;
            self.booked[wi] = false;
            self.last_segment[wi] = None;
            self.life[wi] = None;
        }
    }

    /// Adds one workgroup slot and its wave slots.
    fn grow_slot(&mut self) {
        let gw = self.group_waves;
        self.slot_group.push(0);
        self.lds
            .push(Lds::unallocated(self.spawn.lds_mode, self.spawn.lds_align));
        self.checker.add_slot(gw);
        for _ in 0..gw {
            self.waves.push(Wave::new(0, self.spawn.wave_size));
            self.wave_group.push(self.slot_group.len() - 1);
            self.clocks.push(0);
            self.waits.push(None);
            self.clauses.push(ClauseTracker::default());
            self.sgpr_returns.push(Vec::new());
            self.sgpr_late.push(0);
            self.pending.push(Vec::new());
            self.pending_next.push(0);
            self.lds_ops.push(Default::default());
            self.inflight.push(inflight::InFlight::default());
            self.scoreboards.push(deps::Scoreboard::default());
            self.started.push(false);
            self.booked.push(false);
            self.last_segment.push(None);
            self.life.push(None);
        }
    }
}
