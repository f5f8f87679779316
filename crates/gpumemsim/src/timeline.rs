//! What the timing model did, as data: where workgroups and waves were placed
//! ([`PlacementStats`]), how busy each kind of unit was ([`UnitBusy`]), and — when a run asks
//! for it ([`crate::exec::RunConfig::record_timeline`]) — each wave's time as issue, stall and
//! wait segments plus the LDS pipes' busy periods ([`Timeline`]), for the HTML report's
//! timeline picture. The model itself is docs/timing.md.

/// The kinds of shared unit the timing model queues instructions on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitKind {
    /// A SIMD's vector ALU (one per SIMD).
    Valu,
    /// A SIMD's transcendental unit (one per SIMD), beside its vector ALU.
    Trans,
    /// A SIMD's scalar ALU, which also runs program control (one per SIMD).
    Salu,
    /// The LDS pipes: one per half of a WGP's LDS (docs/rules/timing.md#lds-halves).
    Lds,
    /// Vector memory requests: one texture-addressing unit per CU.
    Vmem,
    /// Scalar memory requests through the WGP's scalar cache (one per WGP).
    Smem,
    /// The device's GDS/GWS unit (one).
    Gds,
}

impl UnitKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [UnitKind; 7] = [
        UnitKind::Lds,
        UnitKind::Valu,
        UnitKind::Trans,
        UnitKind::Salu,
        UnitKind::Vmem,
        UnitKind::Smem,
        UnitKind::Gds,
    ];

    /// The name `--json` uses under `"units"`.
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Valu => "valu",
            UnitKind::Trans => "trans",
            UnitKind::Salu => "salu",
            UnitKind::Lds => "lds",
            UnitKind::Vmem => "vmem",
            UnitKind::Smem => "smem",
            UnitKind::Gds => "gds",
        }
    }
}

/// Busy cycles of each kind of unit, summed over its instances, and how many instances the
/// run's placement had.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UnitBusy {
    /// Busy cycles, indexed like [`UnitKind::ALL`].
    pub busy_cycles: [u64; 7],
    /// Instances of each kind, indexed like [`UnitKind::ALL`].
    pub instances: [u32; 7],
}

impl UnitBusy {
    /// Busy cycles of `kind`, all instances together.
    pub fn busy(&self, kind: UnitKind) -> u64 {
        self.busy_cycles[Self::index(kind)]
    }

    /// Instances of `kind`.
    pub fn instances(&self, kind: UnitKind) -> u32 {
        self.instances[Self::index(kind)]
    }

    /// Adds `cycles` of busy time to `kind`.
    pub fn add(&mut self, kind: UnitKind, cycles: u64) {
        self.busy_cycles[Self::index(kind)] += cycles;
    }

    /// Adds another device part's busy cycles to these (instances stay).
    pub fn absorb(&mut self, o: &UnitBusy) {
        for (a, b) in self.busy_cycles.iter_mut().zip(o.busy_cycles) {
            *a += b;
        }
    }

    fn index(kind: UnitKind) -> usize {
        UnitKind::ALL
            .iter()
            .position(|&k| k == kind)
            .expect("ALL lists every kind")
    }
}

/// Where the run put its workgroups and waves (`--json`'s `"placement"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlacementStats {
    /// WGPs of the device.
    pub wgps: u32,
    /// The occupancy limit used: waves one SIMD may hold at once.
    pub waves_per_simd: u32,
    /// The most waves any SIMD held at once during the run.
    pub max_resident_waves_per_simd: u32,
    /// The most workgroups resident on the device at once during the run.
    pub max_resident_workgroups: u32,
}

/// What a wave was doing over one stretch of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SegmentKind {
    /// Issuing an instruction (its issue cycles).
    Issue,
    /// Ready to issue but held back: a dependency on an earlier result, or its unit busy
    /// with another wave's instruction (the LDS pipe, the SIMD's VALU, ...).
    Stall,
    /// Waiting by the program's own choice: `s_waitcnt` for memory, `s_barrier` for the
    /// workgroup, GWS and ordered-count turns.
    Wait,
}

/// One stretch of one wave's time, `start..end` in cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Segment {
    /// The wave (its id: index in the grid's creation order).
    pub wave: u32,
    /// What it was doing.
    pub kind: SegmentKind,
    /// First cycle.
    pub start: u64,
    /// One past the last cycle.
    pub end: u64,
    /// The instruction (index in the program) it issued, stalled or waited on.
    pub pc: usize,
}

/// One busy period of an LDS pipe, `start..end` in cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PipeBusy {
    /// The pipe: `wgp * cus + half`, one per half of a WGP's LDS (half `c` is near CU `c`;
    /// one half on CDNA3, whose unit is one CU).
    pub pipe: u32,
    /// First cycle.
    pub start: u64,
    /// One past the last cycle.
    pub end: u64,
    /// The wave whose instruction occupied it.
    pub wave: u32,
}

/// Each wave's placement and life, for the timeline's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WaveLife {
    /// The wave's id.
    pub wave: u32,
    /// Its workgroup (grid index).
    pub workgroup: u32,
    /// The WGP it ran on.
    pub wgp: u32,
    /// Its SIMD within the WGP (0..4).
    pub simd: u32,
    /// When it started.
    pub start: u64,
    /// When it ended (`None`: it did not end).
    pub end: Option<u64>,
    /// The wave whose end freed the slot it started in (`None`: it started at the launch).
    pub started_by: Option<u32>,
}

/// A recorded run's time, wave by wave.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Timeline {
    /// Every wave's placement and life.
    pub waves: Vec<WaveLife>,
    /// Segments in the order they happened, per wave; adjacent segments of one kind on one
    /// instruction are merged. At most [`Timeline::MAX_SEGMENTS`]; `truncated` says when
    /// more happened.
    pub segments: Vec<Segment>,
    /// The LDS pipes' busy periods (at most [`Timeline::MAX_SEGMENTS`] too).
    pub lds_busy: Vec<PipeBusy>,
    /// Whether segments or busy periods were left out past the limit.
    pub truncated: bool,
    /// The critical path: the waves, in order, whose segments decided when the last wave
    /// ended — the last-ending wave, and before each barrier it waited at, the wave that
    /// arrived last.
    pub critical: Vec<(u32, u64, u64)>,
}

impl Timeline {
    /// The most segments (and LDS busy periods) a timeline keeps.
    pub const MAX_SEGMENTS: usize = 200_000;
}
