//! The shared units an instruction issues to, as resources with a time at which each is free
//! (docs/rules/timing.md#issue, docs/rules/timing.md#one-lds-instruction-at-a-time): per
//! SIMD a vector ALU, a transcendental unit and a scalar ALU; per half of a WGP's LDS
//! its pipe (docs/rules/timing.md#lds-halves); per CU the vector memory request path; per WGP the scalar cache's request port; and
//! one GDS/GWS unit for the device. An instruction waits
//! until its unit is free, then occupies it for its issue cycles; the busy cycles of every
//! instance add up per kind for `--json`'s `"units"`.

use crate::timeline::{UnitBusy, UnitKind};

/// SIMD32s of one WGP (docs/rules/timing.md#placement).
pub(crate) const SIMDS_PER_WGP: usize = 4;

/// One run's units, for `wgps` WGPs.
#[derive(Clone, Debug, Default)]
pub(crate) struct Units {
    /// Each SIMD's vector ALU: free from this cycle (index `wgp * 4 + simd`).
    valu: Vec<u64>,
    /// Each SIMD's transcendental unit.
    trans: Vec<u64>,
    /// Each SIMD's scalar ALU.
    salu: Vec<u64>,
    /// Each LDS half's pipe (index `wgp * cus + half`: a half per CU).
    lds: Vec<u64>,
    /// Each CU's vector memory path (index `wgp * cus + cu`).
    vmem: Vec<u64>,
    /// Each WGP's scalar cache port.
    smem: Vec<u64>,
    /// The device's GDS/GWS unit.
    gds: u64,
    /// Busy cycles per kind.
    busy: UnitBusy,
}

impl Units {
    /// Units of the `wgps` WGPs of `cus` CUs each a device part holds, of a device of
    /// `device_wgps`. The instances reported are the device's.
    pub(crate) fn new(wgps: usize, device_wgps: usize, cus: usize) -> Units {
        let pipes = |w: usize| cus * w;
        let mut busy = UnitBusy::default();
        let w = device_wgps;
        let simds = SIMDS_PER_WGP * w;
        // Indexed like UnitKind::ALL.
        let counts = [pipes(w), simds, simds, simds, cus * w, w, 1];
        for (slot, n) in busy.instances.iter_mut().zip(counts) {
            *slot = n as u32;
        }
        Units {
            valu: vec![0; SIMDS_PER_WGP * wgps],
            trans: vec![0; SIMDS_PER_WGP * wgps],
            salu: vec![0; SIMDS_PER_WGP * wgps],
            lds: vec![0; pipes(wgps)],
            vmem: vec![0; cus * wgps],
            smem: vec![0; wgps],
            gds: 0,
            busy,
        }
    }

    #[inline(always)]
    fn slot(&mut self, kind: UnitKind, instance: usize) -> &mut u64 {
        match kind {
            UnitKind::Valu => &mut self.valu[instance],
            UnitKind::Trans => &mut self.trans[instance],
            UnitKind::Salu => &mut self.salu[instance],
            UnitKind::Lds => &mut self.lds[instance],
            UnitKind::Vmem => &mut self.vmem[instance],
            UnitKind::Smem => &mut self.smem[instance],
            UnitKind::Gds => &mut self.gds,
        }
    }

    /// When unit `instance` of `kind` is free.
    #[inline]
    pub(crate) fn free_at(&mut self, kind: UnitKind, instance: usize) -> u64 {
        *self.slot(kind, instance)
    }

    /// Occupies unit `instance` of `kind` for `cycles` from the later of `at` and the time it
    /// is free; returns when the occupation began.
    #[inline]
    pub(crate) fn occupy(&mut self, kind: UnitKind, instance: usize, at: u64, cycles: u64) -> u64 {
        let slot = self.slot(kind, instance);
        let begin = at.max(*slot);
        *slot = begin + cycles;
        self.busy.add(kind, cycles);
        begin
    }

    /// Keeps unit `instance` of `kind` from issuing before `until` without counting it busy
    /// (a wave holding its SIMD's issue through a dependency stall nothing declared).
    pub(crate) fn hold(&mut self, kind: UnitKind, instance: usize, until: u64) {
        let slot = self.slot(kind, instance);
        *slot = (*slot).max(until);
    }

    /// Busy cycles per kind.
    pub(crate) fn busy(&self) -> UnitBusy {
        self.busy
    }

    /// Sets the busy cycles (and instances) to `busy`: a part run elsewhere
    /// (`exec::shard`).
    pub(crate) fn set_busy(&mut self, busy: UnitBusy) {
        self.busy = busy;
    }

    /// Adds another device part's busy cycles to these.
    pub(crate) fn absorb(&mut self, o: &Units) {
        self.busy.absorb(&o.busy);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_unit_delays_the_next_occupant_and_counts_busy_cycles() {
        let mut u = Units::new(1, 1, 2);
        assert_eq!(u.occupy(UnitKind::Lds, 0, 10, 32), 10);
        assert_eq!(
            u.occupy(UnitKind::Lds, 0, 12, 32),
            42,
            "queued behind the first"
        );
        assert_eq!(u.free_at(UnitKind::Lds, 0), 74);
        assert_eq!(u.busy().busy(UnitKind::Lds), 64);
        u.hold(UnitKind::Valu, 3, 20);
        assert_eq!(u.free_at(UnitKind::Valu, 3), 20);
        assert_eq!(u.busy().busy(UnitKind::Valu), 0, "a hold is not busy time");
    }

    #[test]
    fn each_wgp_has_an_lds_pipe_per_half() {
        let u = Units::new(2, 2, 2);
        assert_eq!(u.busy().instances(UnitKind::Lds), 4);
        assert_eq!(u.busy().instances(UnitKind::Valu), 8);
        assert_eq!(u.busy().instances(UnitKind::Gds), 1);
    }
}
