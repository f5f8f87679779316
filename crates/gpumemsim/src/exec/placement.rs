//! Placement: which WGP, CU and SIMD each workgroup and wave runs on, and when it starts
//! (docs/rules/timing.md#placement).
//!
//! The grid's workgroups are dealt to the WGPs in contiguous blocks in dispatch order (WGP
//! `k` of `N` gets workgroups `k·G/N .. (k+1)·G/N`); on its WGP, a workgroup starts as soon
//! as every one of its waves has a wave slot (at most the occupancy limit per SIMD, the limit
//! [`crate::occupancy::occupancy`] computes) and its LDS allocation fits the free LDS of its
//! CU (CU mode) or WGP (WGP mode); until then it waits, and the workgroups after it wait
//! behind it (in-order dispatch). Each wave goes to the SIMD of its CU or WGP holding the
//! fewest waves (the lowest SIMD on a tie). A WGP's LDS is two halves, one near each CU, each
//! with its own pipe: a CU-mode workgroup's allocation lies in its CU's half, a WGP-mode
//! workgroup's in the half with more room, or across both when neither holds it alone
//! (docs/rules/timing.md#lds-halves).
//!
//! The block assignment is this simulator's choice (an estimate: AMD's workgroup dispatcher
//! balances work between CUs at run time and documents no fixed order). It makes WGPs share
//! nothing in the model, so a grid can run one WGP per host thread with the result of one
//! schedule (`exec::grid`).

use super::units::SIMDS_PER_WGP;
use crate::timeline::PlacementStats;

/// The WGP (of `wgps`) that grid workgroup `g` of `groups` is dealt to: the `k` with
/// `k·groups/wgps <= g < (k+1)·groups/wgps`.
pub(crate) fn wgp_of(g: u32, groups: u32, wgps: u32) -> u32 {
    let (g, groups, wgps) = (u64::from(g), u64::from(groups), u64::from(wgps.max(1)));
    (((g + 1) * wgps - 1) / groups.max(1)) as u32
}

/// The grid workgroups dealt to WGP `k` of `wgps`.
pub(crate) fn block_of(k: u32, groups: u32, wgps: u32) -> std::ops::Range<u32> {
    let (groups64, wgps64) = (u64::from(groups), u64::from(wgps.max(1)));
    let start = |k: u64| (k * groups64 / wgps64) as u32;
    start(u64::from(k))..start(u64::from(k) + 1)
}

/// What placement needs to know of a run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlacementShape {
    /// WGPs of the device (the whole grid's).
    pub wgps: u32,
    /// The grid's workgroups.
    pub grid_groups: u32,
    /// The device's first workgroup (grid index) and how many it holds (a contiguous run).
    pub first_group: u32,
    pub groups: u32,
    /// Whether resident workgroups take reusable slots (a device that makes each
    /// workgroup's waves when it starts); otherwise workgroup `g`'s slot is `g`.
    pub reuse_slots: bool,
    /// Waves per workgroup.
    pub group_waves: u32,
    /// CUs per WGP (the placement unit): 2 on RDNA3, 1 on CDNA3 (its unit is the CU).
    pub cus: u32,
    /// CU mode (a workgroup on one CU's SIMDs and LDS half) or WGP mode (on the whole
    /// unit); always WGP mode where the unit is one CU.
    pub cu_mode: bool,
    /// Waves one SIMD may hold at once.
    pub waves_per_simd: u32,
    /// LDS bytes each workgroup allocates, and what one CU (CU mode) or WGP holds.
    pub lds_bytes: u32,
    pub lds_pool: u32,
}

impl PlacementShape {
    /// LDS halves of a WGP (one per CU).
    fn halves(&self) -> usize {
        self.cus.clamp(1, 2) as usize
    }

    /// Bytes of one LDS half: the CU's pool in CU mode, the WGP's shared among its CUs in
    /// WGP mode.
    fn half_bytes(&self) -> u32 {
        if self.cu_mode {
            self.lds_pool
        } else {
            self.lds_pool / self.halves() as u32
        }
    }
}

/// The device's placement state.
#[derive(Clone, Debug)]
pub(crate) struct Placement {
    shape: PlacementShape,
    /// The first WGP (grid index) the device holds, and how many.
    first_wgp: u32,
    /// Each workgroup slot's WGP (device index) and CU within it, once started, and the
    /// bytes its LDS allocation takes in each half of the WGP's LDS.
    group_wgp: Vec<u32>,
    group_cu: Vec<u32>,
    group_lds: Vec<[u32; 2]>,
    /// Each workgroup slot's live waves (0 before it starts and after it ends).
    live: Vec<u32>,
    /// Each wave slot's SIMD (device index `wgp * 4 + simd`; `u32::MAX` before it starts).
    /// Wave slot `s * group_waves + i` is wave `i` of the workgroup in slot `s`.
    wave_simd: Vec<u32>,
    /// With [`PlacementShape::reuse_slots`]: the slots free for the next workgroup (lowest
    /// first), and those whose workgroup ended during the current step (free after it:
    /// [`Placement::recycle`]).
    free: std::collections::BinaryHeap<std::cmp::Reverse<u32>>,
    retiring: Vec<u32>,
    /// Waves resident on each SIMD.
    resident: Vec<u32>,
    /// LDS bytes in use in each half (index `wgp * halves + half`; half `c` is near CU `c`).
    lds_used: Vec<u32>,
    /// Per WGP: the next of its workgroups (device index) to start, and the end of its block.
    next: Vec<u32>,
    end: Vec<u32>,
    /// Workgroups resident now.
    resident_groups: u32,
    stats: PlacementStats,
}

impl Placement {
    /// Placement for `shape`; nothing has started.
    pub(crate) fn new(shape: PlacementShape) -> Placement {
        let last = shape.first_group + shape.groups.max(1) - 1;
        let first_wgp = wgp_of(shape.first_group, shape.grid_groups, shape.wgps);
        let wgps = wgp_of(last, shape.grid_groups, shape.wgps) - first_wgp + 1;
        let device_range = |k: u32| {
            let b = block_of(first_wgp + k, shape.grid_groups, shape.wgps);
            let lo = b.start.max(shape.first_group) - shape.first_group;
            let hi = b.end.min(shape.first_group + shape.groups) - shape.first_group;
            (lo, hi.max(lo))
        };
        let (next, end) = (0..wgps).map(device_range).unzip();
        // Slots are made as workgroups start when they are reused.
        let slots = if shape.reuse_slots { 0 } else { shape.groups };
        Placement {
            shape,
            first_wgp,
            group_wgp: vec![0; slots as usize],
            group_cu: vec![0; slots as usize],
            group_lds: vec![[0; 2]; slots as usize],
            live: vec![0; slots as usize],
            wave_simd: vec![u32::MAX; slots as usize * shape.group_waves as usize],
            free: std::collections::BinaryHeap::new(),
            retiring: Vec::new(),
            resident: vec![0; SIMDS_PER_WGP * wgps as usize],
            lds_used: vec![0; shape.halves() * wgps as usize],
            next,
            end,
            resident_groups: 0,
            stats: PlacementStats {
                wgps: shape.wgps,
                waves_per_simd: shape.waves_per_simd,
                ..PlacementStats::default()
            },
        }
    }

    /// WGPs the device holds.
    pub(crate) fn wgps(&self) -> usize {
        self.next.len()
    }

    /// The first WGP (grid index) the device holds.
    pub(crate) fn first_wgp(&self) -> u32 {
        self.first_wgp
    }

    /// Wave `wi`'s SIMD (device index `wgp * 4 + simd`), once it has started.
    pub(crate) fn simd(&self, wi: usize) -> usize {
        self.wave_simd[wi] as usize
    }

    /// The LDS pipes (device indices `wgp * halves + half`) wave `wi`'s workgroup uses: those
    /// of the halves its allocation lies in (docs/rules/timing.md#lds-halves).
    pub(crate) fn pipes(&self, wi: usize) -> std::ops::Range<usize> {
        let g = wi / self.shape.group_waves.max(1) as usize;
        let first = self.shape.halves() * self.group_wgp[g] as usize;
        match self.group_lds[g] {
            [a, b] if a > 0 && b > 0 => first..first + 2,
            [0, b] if b > 0 => first + 1..first + 2,
            // An empty allocation still has a side: its CU's in CU mode, the first in WGP mode.
            [0, 0] => first + self.group_cu[g] as usize..first + self.group_cu[g] as usize + 1,
            _ => first..first + 1,
        }
    }

    /// Wave `wi`'s CU (device index `wgp * cus + cu`).
    pub(crate) fn cu(&self, wi: usize) -> usize {
        self.simd(wi) / (SIMDS_PER_WGP / self.shape.halves())
    }

    /// CUs per WGP.
    pub(crate) fn cus(&self) -> usize {
        self.shape.halves()
    }

    /// Wave `wi`'s WGP (device index).
    pub(crate) fn wgp(&self, wi: usize) -> usize {
        self.simd(wi) / SIMDS_PER_WGP
    }

    /// What the run observed.
    pub(crate) fn stats(&self) -> PlacementStats {
        self.stats
    }

    /// Starts every workgroup of WGP `k` (device index) that fits now, in order; returns
    /// the workgroups started: (device index, slot).
    pub(crate) fn dispatch(&mut self, k: usize) -> Vec<(u32, u32)> {
        let mut started = Vec::new();
        while self.next[k] < self.end[k] {
            let g = self.next[k];
            let Some(cu) = self.room(k) else { break };
            let slot = self.take_slot(g);
            self.start(slot, k, cu);
            self.next[k] += 1;
            started.push((g, slot));
        }
        started
    }

    /// The slot workgroup `g` takes: `g`, or the lowest free slot, or a new one.
    fn take_slot(&mut self, g: u32) -> u32 {
        if !self.shape.reuse_slots {
            return g;
        }
        if let Some(std::cmp::Reverse(s)) = self.free.pop() {
            return s;
        }
        let s = self.live.len() as u32;
        self.group_wgp.push(0);
        self.group_cu.push(0);
        self.live.push(0);
        let waves = self.shape.group_waves as usize;
        self.wave_simd.extend(std::iter::repeat_n(u32::MAX, waves));
        self.group_lds.push([0; 2]);
        s
    }

    /// Makes the slots of workgroups that ended during the last step free for the next.
    /// A slot is not reused within the step its workgroup ended in: the step's caller may
    /// still look at the ended wave.
    #[inline]
    pub(crate) fn recycle(&mut self) {
        if self.retiring.is_empty() {
            return;
        }
        for s in self.retiring.drain(..) {
            self.free.push(std::cmp::Reverse(s));
        }
    }

    /// The device's workgroups (device indices) not started yet.
    pub(crate) fn unstarted(&self) -> impl Iterator<Item = u32> + '_ {
        self.next.iter().zip(&self.end).flat_map(|(&n, &e)| n..e)
    }

    /// The SIMDs (device indices) a workgroup on CU `cu` of WGP `k` uses: the CU's two in CU
    /// mode, the WGP's four in WGP mode (where `cu` is 0).
    fn domain(&self, k: usize, cu: usize) -> std::ops::Range<usize> {
        if self.shape.cu_mode {
            k * SIMDS_PER_WGP + 2 * cu..k * SIMDS_PER_WGP + 2 * cu + 2
        } else {
            k * SIMDS_PER_WGP..(k + 1) * SIMDS_PER_WGP
        }
    }

    /// Where a new workgroup's LDS allocation goes on CU `cu` of WGP `k`: the bytes it takes
    /// in each half, or `None` when it does not fit. In CU mode it lies in the CU's half; in
    /// WGP mode in the half with more room (the first on a tie), or across both when the
    /// WGP has room for it but neither half alone (docs/rules/timing.md#lds-halves).
    fn lds_place(&self, k: usize, cu: usize) -> Option<[u32; 2]> {
        let s = &self.shape;
        let halves = s.halves();
        let free = |h: usize| s.half_bytes().saturating_sub(self.lds_used[halves * k + h]);
        let bytes = s.lds_bytes;
        if s.cu_mode {
            let mut split = [0; 2];
            split[cu] = bytes;
            return (bytes <= free(cu)).then_some(split);
        }
        let roomier = usize::from(halves == 2 && free(1) > free(0));
        let other = 1 - roomier;
        let mut split = [0; 2];
        if bytes <= free(roomier) {
            split[roomier] = bytes;
        } else if halves == 2 && bytes <= free(roomier) + free(other) {
            split[roomier] = free(roomier);
            split[other] = bytes - free(roomier);
        } else {
            return None;
        }
        Some(split)
    }

    /// The CU (0 in WGP mode) of WGP `k` that has room for one more workgroup, if any: the
    /// one with the more free wave slots, the first on a tie. A workgroup on an empty CU or
    /// WGP always starts, even one the limits would refuse (it could never start otherwise).
    fn room(&self, k: usize) -> Option<u32> {
        let s = &self.shape;
        let free_slots = |cu: usize| -> u32 {
            self.domain(k, cu)
                .map(|i| s.waves_per_simd.saturating_sub(self.resident[i]))
                .sum()
        };
        let fits = |cu: usize| free_slots(cu) >= s.group_waves && self.lds_place(k, cu).is_some();
        let empty = |cu: usize| self.domain(k, cu).all(|i| self.resident[i] == 0);
        let cus = if s.cu_mode { 2 } else { 1 };
        (0..cus)
            .filter(|&cu| fits(cu) || empty(cu))
            .min_by_key(|&cu| (std::cmp::Reverse(free_slots(cu)), cu))
            .map(|cu| cu as u32)
    }

    /// Starts the workgroup in `slot` on CU `cu` of WGP `k`.
    fn start(&mut self, slot: u32, k: usize, cu: u32) {
        let s = self.shape;
        self.group_wgp[slot as usize] = k as u32;
        self.group_cu[slot as usize] = cu;
        let domain = self.domain(k, cu as usize);
        for w in 0..s.group_waves {
            let simd = domain
                .clone()
                .min_by_key(|&i| (self.resident[i], i))
                .expect("a CU has SIMDs");
            self.resident[simd] += 1;
            self.wave_simd[(slot * s.group_waves + w) as usize] = simd as u32;
            self.stats.max_resident_waves_per_simd = self
                .stats
                .max_resident_waves_per_simd
                .max(self.resident[simd]);
        }
        // A workgroup that starts on an empty CU or WGP though it does not fit takes what is
        // free and the rest nowhere (it runs alone).
        let split = self.lds_place(k, cu as usize).unwrap_or_else(|| {
            let h = if s.cu_mode { cu as usize } else { 0 };
            let mut split = [0; 2];
            split[h] = s
                .lds_bytes
                .min(s.half_bytes() - self.lds_used[s.halves() * k + h]);
            split
        });
        for (h, bytes) in split.iter().enumerate().take(s.halves()) {
            self.lds_used[s.halves() * k + h] += bytes;
        }
        self.group_lds[slot as usize] = split;
        self.live[slot as usize] = s.group_waves;
        self.resident_groups += 1;
        self.stats.max_resident_workgroups =
            self.stats.max_resident_workgroups.max(self.resident_groups);
    }

    /// Whether the workgroup in slot `g` started and every wave of it has ended.
    pub(crate) fn group_ended(&self, g: usize) -> bool {
        self.live[g] == 0
    }

    /// Wave slot `wi` of workgroup slot `g` ended: frees its SIMD slot, and its workgroup's
    /// LDS (and slot) when it was the last; returns its WGP (to dispatch on).
    pub(crate) fn end_wave(&mut self, wi: usize, g: usize) -> usize {
        let simd = self.simd(wi);
        self.resident[simd] -= 1;
        self.live[g] -= 1;
        let k = self.group_wgp[g] as usize;
        if self.live[g] == 0 {
            let halves = self.shape.halves();
            for (h, bytes) in self.group_lds[g].iter().enumerate().take(halves) {
                self.lds_used[halves * k + h] -= bytes;
            }
            self.resident_groups -= 1;
            if self.shape.reuse_slots {
                self.retiring.push(g as u32);
            }
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cover_the_grid_and_agree_with_wgp_of() {
        for groups in 1..40 {
            for wgps in 1..12 {
                let mut seen = 0;
                for k in 0..wgps {
                    for g in block_of(k, groups, wgps) {
                        assert_eq!(wgp_of(g, groups, wgps), k, "{g} of {groups} on {wgps}");
                        assert_eq!(g, seen);
                        seen += 1;
                    }
                }
                assert_eq!(seen, groups);
            }
        }
    }

    fn shape(groups: u32, waves: u32, limit: u32, lds: u32, cu_mode: bool) -> PlacementShape {
        PlacementShape {
            wgps: 1,
            grid_groups: groups,
            first_group: 0,
            groups,
            reuse_slots: false,
            group_waves: waves,
            cus: 2,
            cu_mode,
            waves_per_simd: limit,
            lds_bytes: lds,
            lds_pool: if cu_mode { 65536 } else { 131072 },
        }
    }

    #[test]
    fn workgroups_start_while_slots_last_then_as_waves_end() {
        // 4 waves per workgroup, 2 per SIMD allowed: two workgroups fill a WGP's 4 SIMDs.
        let mut p = Placement::new(shape(5, 4, 2, 0, false));
        assert_eq!(p.dispatch(0), [(0, 0), (1, 1)]);
        assert_eq!(p.stats().max_resident_waves_per_simd, 2);
        assert_eq!(p.stats().max_resident_workgroups, 2);
        for wi in 0..3 {
            p.end_wave(wi, 0);
            assert!(p.dispatch(0).is_empty(), "one wave's slot is not enough");
        }
        p.end_wave(3, 0);
        assert_eq!(p.dispatch(0), [(2, 2)]);
        assert_eq!(p.stats().max_resident_waves_per_simd, 2);
    }

    #[test]
    fn lds_limits_residency_per_pool() {
        // 48 KB each: two fit a WGP's 128 KB, one fits a CU's 64 KB (two CUs: two in all).
        let mut p = Placement::new(shape(4, 1, 16, 48 * 1024, false));
        assert_eq!(p.dispatch(0), [(0, 0), (1, 1)]);
        let mut p = Placement::new(shape(4, 1, 16, 48 * 1024, true));
        assert_eq!(p.dispatch(0), [(0, 0), (1, 1)]);
        assert_eq!(
            (p.pipes(0), p.pipes(1)),
            (0..1, 1..2),
            "CU mode: the two went to different CUs"
        );
    }

    #[test]
    fn wgp_mode_allocations_fill_the_roomier_half_then_span_both() {
        // 40 KB each in WGP mode: one per half, then the third spans the 24 KB left in each.
        let mut p = Placement::new(shape(4, 1, 16, 40 * 1024, false));
        assert_eq!(p.dispatch(0), [(0, 0), (1, 1), (2, 2)]);
        assert_eq!([p.pipes(0), p.pipes(1), p.pipes(2)], [0..1, 1..2, 0..2]);
        assert_eq!(p.lds_used, [65536, 57344]);
        // The spanning one ends: both halves get their bytes back, and the fourth fits.
        p.end_wave(2, 2);
        assert_eq!(p.lds_used, [40960, 40960]);
        assert_eq!(p.dispatch(0), [(3, 3)]);
        assert_eq!(p.pipes(3), 0..2);
    }

    #[test]
    fn a_cdna3_cu_is_one_unit_with_one_lds() {
        // gfx942: the unit is a CU of 4 SIMDs and 64 KB of LDS with one pipe.
        let cdna3 = |lds| PlacementShape {
            cus: 1,
            lds_pool: 65536,
            ..shape(3, 4, 8, lds, false)
        };
        let mut p = Placement::new(cdna3(40 * 1024));
        assert_eq!(p.dispatch(0), [(0, 0)], "a second 40 KB does not fit 64 KB");
        let simds: Vec<usize> = (0..4).map(|w| p.simd(w)).collect();
        assert_eq!(
            simds,
            [0, 1, 2, 3],
            "the workgroup's waves on all four SIMDs"
        );
        assert_eq!((p.pipes(0), p.cu(0), p.cus()), (0..1, 0, 1));
        let mut p = Placement::new(cdna3(16 * 1024));
        assert_eq!(p.dispatch(0).len(), 3);
        assert_eq!([p.pipes(0), p.pipes(4), p.pipes(8)], [0..1, 0..1, 0..1]);
    }

    #[test]
    fn workgroups_without_lds_keep_a_side() {
        let mut p = Placement::new(shape(4, 1, 16, 0, true));
        assert_eq!(p.dispatch(0).len(), 4);
        let pipes: Vec<_> = (0..4).map(|w| p.pipes(w)).collect();
        assert_eq!(
            pipes,
            [0..1, 1..2, 0..1, 1..2],
            "CU mode: each on its CU's side"
        );
        let mut p = Placement::new(shape(2, 1, 16, 0, false));
        assert_eq!(p.dispatch(0).len(), 2);
        assert_eq!([p.pipes(0), p.pipes(1)], [0..1, 0..1]);
    }

    #[test]
    fn an_oversized_workgroup_still_runs_alone() {
        let mut p = Placement::new(shape(2, 8, 1, 0, false));
        assert_eq!(p.dispatch(0), [(0, 0)], "8 waves on 4 SIMDs of limit 1");
        assert!(p.dispatch(0).is_empty());
    }
}
