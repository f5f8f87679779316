//! The vector memory caches: which level serves each cache line a vector memory instruction
//! touches, and so how long the instruction takes (docs/rules/timing.md#vector-caches).
//!
//! RDNA3's path from a CU to memory: the CU's L0 (GL0, counted as TCP by rocprof), the shader
//! array's L1 (GL1), the chip's L2 (GL2), the Infinity Cache (a memory-side cache in front of
//! VRAM) and VRAM. CDNA3's (MI300X) has no shader-array level: the CU's vector L1 (vL1D, TCP:
//! the role of RDNA3's L0, [`Level::L0`] here), the XCD's L2 (TCC), the Infinity Cache and
//! HBM ([`Family`] names each level as the device does). A wave's access is coalesced into
//! the 128-byte lines its lanes touch; each line is looked up level by level and filled into
//! every level it missed in. Loads start at L0; stores and atomics, which L0 and L1 pass
//! through, at L2. The instruction completes
//! when its slowest line has come back. Only time depends on the caches: what an access reads
//! and writes is global memory's ([`crate::addr`]).
//!
//! Choices (each written in the rules): every level keeps least-recently-used order within a
//! set; one line size, 128 bytes, for every level; no bandwidth or queueing (a level answers
//! any number of lines at its latency). The levels shared by several WGPs (L1 by a shader
//! array's, L2 and the Infinity Cache by all) are kept per WGP: each WGP sees their whole
//! size and only its own fills. That keeps WGPs independent, so a grid run apart gives what
//! it gives run together; what it leaves out is one WGP's fill serving another WGP's miss,
//! and WGPs evicting each other's lines.

use crate::addr::FastMap;

/// Bytes per cache line at every level.
pub const LINE_BYTES: u64 = 128;

/// One level's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelConfig {
    /// Capacity in bytes.
    pub bytes: u64,
    /// Lines per set.
    pub ways: u32,
}

/// Whose hierarchy: what the levels are called, and the profiler counters they give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// RDNA3: L0, L1, L2, Infinity Cache, VRAM; rocprof's TCP, GL1C and GL2C counters.
    Rdna3,
    /// CDNA3: vL1D, L2, Infinity Cache, HBM (no L1 level); rocprof's TCP and TCC counters.
    Cdna3,
}

impl Family {
    /// The name people read for `level` on this family's devices; `None` for a level it
    /// does not have.
    pub fn label(self, level: Level) -> Option<&'static str> {
        match (self, level) {
            (_, Level::L2) => Some("L2"),
            (_, Level::Mall) => Some("Infinity Cache"),
            (Family::Rdna3, Level::L0) => Some("L0"),
            (Family::Rdna3, Level::L1) => Some("L1"),
            (Family::Rdna3, Level::Vram) => Some("VRAM"),
            (Family::Cdna3, Level::L0) => Some("vL1D"),
            (Family::Cdna3, Level::L1) => None,
            (Family::Cdna3, Level::Vram) => Some("HBM"),
        }
    }

    /// The levels this family's devices have, nearest first.
    pub fn levels(self) -> impl Iterator<Item = Level> {
        Level::ALL
            .into_iter()
            .filter(move |&l| self.label(l).is_some())
    }
}

/// The shape of one device's hierarchy (the latencies are timing parameters:
/// [`crate::timing::TimingParams::l0_latency`] and the four after it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcacheConfig {
    /// What the levels are called.
    pub family: Family,
    /// Per CU.
    pub l0: LevelConfig,
    /// Per shader array (kept per WGP: see the module text); `None` where there is none
    /// (CDNA3: a CU's misses go to the L2).
    pub l1: Option<LevelConfig>,
    /// Per chip (kept per WGP).
    pub l2: LevelConfig,
    /// The Infinity Cache (kept per WGP).
    pub mall: LevelConfig,
}

/// The level that served a line.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Level {
    /// The CU's cache (RDNA3's L0; CDNA3's vL1D).
    L0,
    /// The shader array's (RDNA3 only).
    L1,
    /// The chip's (RDNA3) or the XCD's (CDNA3) L2.
    L2,
    /// The Infinity Cache, in front of memory.
    Mall,
    /// Memory: VRAM, or CDNA3's HBM.
    Vram,
}

impl Level {
    /// Every level, nearest first.
    pub const ALL: [Level; 5] = [Level::L0, Level::L1, Level::L2, Level::Mall, Level::Vram];

    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            Level::L0 => "l0",
            Level::L1 => "l1",
            Level::L2 => "l2",
            Level::Mall => "infinity_cache",
            Level::Vram => "vram",
        }
    }

    /// Cycles from a vector memory instruction's issue until a line `self` serves is back.
    pub fn latency(self, t: &crate::timing::TimingParams) -> u64 {
        match self {
            Level::L0 => t.l0_latency,
            Level::L1 => t.l1_latency,
            Level::L2 => t.l2_latency,
            Level::Mall => t.mall_latency,
            Level::Vram => t.vram_latency,
        }
    }
}

/// Lines served per level, and requests, of some instructions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LineCounts {
    /// Lines looked up (a wave's access touching 3 lines is 3 requests).
    pub requests: u64,
    /// Of those, lines stores and atomics sent (they start at L2).
    pub writes: u64,
    /// Lines served by each level, indexed like [`Level::ALL`].
    pub served: [u64; 5],
}

impl LineCounts {
    /// Adds `o`'s counts to these.
    pub fn add(&mut self, o: &LineCounts) {
        self.requests += o.requests;
        self.writes += o.writes;
        for (a, b) in self.served.iter_mut().zip(o.served) {
            *a += b;
        }
    }

    /// Lines `level` served.
    pub fn served_by(&self, level: Level) -> u64 {
        self.served[level as usize]
    }

    /// Lines looked up at `level`: loads at L0, the loads L0 did not serve at L1, and from
    /// L2 out every line served there or further (stores and atomics start at L2).
    pub fn reached(&self, level: Level) -> u64 {
        let loads = self.requests - self.writes;
        match level {
            Level::L0 => loads,
            Level::L1 => loads - self.served[Level::L0 as usize],
            _ => self.served[level as usize..].iter().sum(),
        }
    }

    /// The share of the lines looked up at `level` that it served; `None` when none reached
    /// it.
    pub fn hit_rate(&self, level: Level) -> Option<f64> {
        let reached = self.reached(level);
        (reached > 0).then(|| self.served_by(level) as f64 / reached as f64)
    }
}

/// One cache's tags: sets of at most `ways` lines, most recently used first; a set is made
/// when first touched, so memory follows the lines used, not the capacity.
#[derive(Clone, Debug)]
struct Tags {
    sets: u64,
    ways: usize,
    map: FastMap<u64, Vec<u64>>,
}

impl Tags {
    fn new(c: &LevelConfig) -> Tags {
        let ways = c.ways.max(1) as usize;
        Tags {
            sets: (c.bytes / (LINE_BYTES * ways as u64)).max(1),
            ways,
            map: FastMap::default(),
        }
    }

    /// Whether `line` is held (it becomes the most recently used); a miss fills it, evicting
    /// the set's least recently used line when the set is full.
    fn lookup(&mut self, line: u64) -> bool {
        let set = self.map.entry(line % self.sets).or_default();
        if let Some(i) = set.iter().position(|&t| t == line) {
            set[..=i].rotate_right(1);
            return true;
        }
        if set.len() == self.ways {
            set.pop();
        }
        set.insert(0, line);
        false
    }
}

/// The caches one WGP sees: its two CUs' L0s and its view of L1, L2 and the Infinity Cache.
#[derive(Clone, Debug)]
pub struct WgpCaches {
    l0: [Tags; 2],
    l1: Option<Tags>,
    l2: Tags,
    mall: Tags,
}

impl WgpCaches {
    /// Empty caches of shape `c`.
    pub fn new(c: &VcacheConfig) -> WgpCaches {
        WgpCaches {
            l0: [Tags::new(&c.l0), Tags::new(&c.l0)],
            l1: c.l1.as_ref().map(Tags::new),
            l2: Tags::new(&c.l2),
            mall: Tags::new(&c.mall),
        }
    }

    /// A load of `line` (an address / [`LINE_BYTES`]) by CU `cu` (0 or 1) of the WGP: the
    /// level that served it, filled into every nearer level.
    pub fn load(&mut self, cu: usize, line: u64) -> Level {
        if self.l0[cu & 1].lookup(line) {
            return Level::L0;
        }
        if self.l1.as_mut().is_some_and(|l1| l1.lookup(line)) {
            return Level::L1;
        }
        self.l2_out(line)
    }

    /// A store or atomic of `line`: served from L2 out (L0 and L1 pass writes through).
    pub fn write(&mut self, line: u64) -> Level {
        self.l2_out(line)
    }

    fn l2_out(&mut self, line: u64) -> Level {
        if self.l2.lookup(line) {
            Level::L2
        } else if self.mall.lookup(line) {
            Level::Mall
        } else {
            Level::Vram
        }
    }
}

/// Navi 31's hierarchy (RX 7900 XTX, Radeon PRO W7900; docs/timing.md#vector-caches gives
/// each source).
pub const NAVI31: VcacheConfig = VcacheConfig {
    family: Family::Rdna3,
    l0: LevelConfig {
        bytes: 32 << 10,
        ways: 4,
    },
    l1: Some(LevelConfig {
        bytes: 256 << 10,
        ways: 16,
    }),
    l2: LevelConfig {
        bytes: 6 << 20,
        ways: 16,
    },
    mall: LevelConfig {
        bytes: 96 << 20,
        ways: 16,
    },
};

/// Navi 33's (RX 7600): Navi 31's L0 and L1, a 2 MB L2 and a 32 MB Infinity Cache.
pub const NAVI33: VcacheConfig = VcacheConfig {
    l2: LevelConfig {
        bytes: 2 << 20,
        ways: 16,
    },
    mall: LevelConfig {
        bytes: 32 << 20,
        ways: 16,
    },
    ..NAVI31
};

/// MI300X's hierarchy (docs/timing.md#vector-caches gives each source): a 32 KB vL1D per
/// CU, a 4 MB L2 per XCD, a 256 MB Infinity Cache, HBM.
pub const MI300X: VcacheConfig = VcacheConfig {
    family: Family::Cdna3,
    l0: LevelConfig {
        bytes: 32 << 10,
        ways: 4,
    },
    l1: None,
    l2: LevelConfig {
        bytes: 4 << 20,
        ways: 16,
    },
    mall: LevelConfig {
        bytes: 256 << 20,
        ways: 16,
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> VcacheConfig {
        let level = |lines: u64, ways: u32| LevelConfig {
            bytes: lines * LINE_BYTES,
            ways,
        };
        VcacheConfig {
            family: Family::Rdna3,
            l0: level(4, 2),
            l1: Some(level(8, 2)),
            l2: level(16, 4),
            mall: level(32, 4),
        }
    }

    #[test]
    fn a_line_is_served_where_it_is_and_filled_nearer() {
        let mut c = WgpCaches::new(&small());
        assert_eq!(c.load(0, 7), Level::Vram);
        assert_eq!(c.load(0, 7), Level::L0);
        // The other CU's L0 does not hold it; the WGP's L1 does.
        assert_eq!(c.load(1, 7), Level::L1);
        assert_eq!(c.load(1, 7), Level::L0);
        // A store goes from L2 out.
        assert_eq!(c.write(9), Level::Vram);
        assert_eq!(c.write(9), Level::L2);
        assert_eq!(c.load(0, 9), Level::L2);
    }

    #[test]
    fn without_an_l1_an_l0_miss_goes_to_the_l2() {
        let mut c = WgpCaches::new(&VcacheConfig {
            family: Family::Cdna3,
            l1: None,
            ..small()
        });
        assert_eq!(c.load(0, 7), Level::Vram);
        assert_eq!(c.load(0, 7), Level::L0);
        // Evict line 7 from the 4-line L0 (2 sets of 2 ways: 9, 11 share its set).
        assert_eq!(c.load(0, 9), Level::Vram);
        assert_eq!(c.load(0, 11), Level::Vram);
        assert_eq!(c.load(0, 7), Level::L2, "no L1 between");
        let labels: Vec<&str> = Family::Cdna3
            .levels()
            .filter_map(|l| Family::Cdna3.label(l))
            .collect();
        assert_eq!(labels, ["vL1D", "L2", "Infinity Cache", "HBM"]);
    }

    #[test]
    fn the_least_recently_used_line_of_a_full_set_is_evicted() {
        let mut t = Tags::new(&LevelConfig {
            bytes: 4 * LINE_BYTES,
            ways: 2,
        });
        // Two sets of two ways: lines 0, 2, 4 share set 0.
        assert!(!t.lookup(0));
        assert!(!t.lookup(2));
        assert!(t.lookup(0), "0 is now the most recent");
        assert!(!t.lookup(4), "evicts 2, the least recent");
        assert!(t.lookup(0));
        assert!(!t.lookup(2));
        assert!(!t.lookup(1), "set 1 is its own");
        assert!(t.lookup(1));
    }

    /// A pointer chase over a working set: within a level's capacity every line comes from
    /// that level after the first pass; past every level's, from VRAM.
    #[test]
    fn a_working_set_is_served_by_the_first_level_it_fits_in() {
        let c = small();
        for (lines, want) in [
            (4, Level::L0),
            (8, Level::L1),
            (16, Level::L2),
            (32, Level::Mall),
            (64, Level::Vram),
        ] {
            let mut w = WgpCaches::new(&c);
            for l in 0..lines {
                w.load(0, l);
            }
            let served: Vec<Level> = (0..lines).map(|l| w.load(0, l)).collect();
            assert!(served.iter().all(|&s| s == want), "{lines}: {served:?}");
        }
    }
}
