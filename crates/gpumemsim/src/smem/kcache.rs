//! The scalar data cache ("Kcache", also the constant cache or scalar L0): a set-associative,
//! read-only cache between SMEM loads and global memory, one per WGP.
//!
//! It keeps a copy of each line it fills and answers later loads from that copy, so it is
//! not coherent with vector stores: a scalar load after a vector store to a cached line
//! returns the old data until `s_dcache_inv` drops the line; the constant cache is
//! invalidated when a new kernel starts, and nothing else refreshes it
//! (docs/rules/smem.md#scalar-cache-coherence).

use crate::addr::GlobalMemory;

/// Geometry and latencies of the scalar cache.
///
/// Defaults (docs/rules/smem.md#scalar-cache-geometry): 16 KiB, 64-byte lines, 4 ways, the RDNA scalar data cache as the community's
/// unofficial AMDGPU documentation describes it ("4-way set-associative, 16kB, line is
/// 64bytes, shared by all SIMD in a WGP"). AMD publishes no latencies: a hit of 32 cycles
/// and a miss of 200 are this simulator's assumptions (same order as the LDS latency of
/// [`crate::timing::TimingParams`]), kept here to be calibrated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KcacheConfig {
    /// Capacity in bytes.
    pub size: u32,
    /// Line size in bytes (a power of two, 4 to 4096).
    pub line: u32,
    /// Ways per set.
    pub ways: u32,
    /// Cycles from issue to data for a hit.
    pub hit_latency: u64,
    /// Cycles from issue to data for a miss.
    pub miss_latency: u64,
}

impl Default for KcacheConfig {
    fn default() -> KcacheConfig {
        KcacheConfig {
            size: 16 * 1024,
            line: 64,
            ways: 4,
            // Chips and Cheese measured 15.4 ns load-to-use on an RX 7900 XTX, about 38
            // cycles at 2.5 GHz; the miss latency is an estimate (ACO's 200). Sources:
            // docs/timing.md's parameter table.
            hit_latency: 38,
            miss_latency: 200,
        }
    }
}

impl KcacheConfig {
    /// Checks the geometry: a power-of-two line of 4 to 4096 bytes, at least one way, and
    /// a whole power-of-two number of sets.
    pub fn validate(&self) -> Result<(), String> {
        if !self.line.is_power_of_two() || !(4..=4096).contains(&self.line) {
            return Err(format!(
                "scalar cache line must be a power of two from 4 to 4096 bytes, not {}",
                self.line
            ));
        }
        if self.ways == 0 || self.ways > 64 {
            return Err(format!(
                "scalar cache ways must be 1 to 64, not {}",
                self.ways
            ));
        }
        let set_bytes = self.line as u64 * self.ways as u64;
        let sets = self.size as u64 / set_bytes;
        if !(self.size as u64).is_multiple_of(set_bytes) || sets == 0 || !sets.is_power_of_two() {
            return Err(format!(
                "scalar cache size {} must be a power-of-two number of sets of {} ways × {} bytes",
                self.size, self.ways, self.line
            ));
        }
        Ok(())
    }
}

const INVALID: u64 = u64::MAX;

/// Hit and miss counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KcacheStats {
    /// Line lookups that hit.
    pub hits: u64,
    /// Line lookups that missed (and filled the line).
    pub misses: u64,
    /// `s_dcache_inv` executed.
    pub invalidations: u64,
}

/// One line lookup's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineHit {
    /// Which way slot holds the line.
    slot: usize,
    /// When its data is available.
    pub ready_at: u64,
    /// Whether it was already there.
    pub hit: bool,
}

/// The scalar data cache of one WGP.
#[derive(Clone, Debug)]
pub struct ScalarCache {
    cfg: KcacheConfig,
    line_shift: u32,
    set_mask: u64,
    /// Line address (byte address >> line_shift) held by each slot, or `INVALID`.
    tags: Vec<u64>,
    /// Last use of each slot (for LRU).
    used: Vec<u64>,
    /// When each slot's fill completes.
    ready: Vec<u64>,
    /// Each slot's copy of its line, in dwords.
    data: Vec<u32>,
    clock: u64,
    /// Counts.
    pub stats: KcacheStats,
}

impl ScalarCache {
    /// An empty cache; `cfg` must pass [`KcacheConfig::validate`].
    pub fn new(cfg: KcacheConfig) -> Result<ScalarCache, String> {
        cfg.validate()?;
        let slots = (cfg.size / cfg.line) as usize;
        let sets = slots as u64 / cfg.ways as u64;
        Ok(ScalarCache {
            cfg,
            line_shift: cfg.line.trailing_zeros(),
            set_mask: sets - 1,
            tags: vec![INVALID; slots],
            used: vec![0; slots],
            ready: vec![0; slots],
            data: vec![0; slots * (cfg.line / 4) as usize],
            clock: 0,
            stats: KcacheStats::default(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &KcacheConfig {
        &self.cfg
    }

    /// The line address (`addr >> log2(line)`) that holds byte `addr`.
    #[inline]
    pub fn line_of(&self, addr: u64) -> u64 {
        addr >> self.line_shift
    }

    /// Looks up line `line` at time `now`, filling it from `mem` on a miss (the least
    /// recently used way of its set is replaced). A hit on a line whose fill is still in
    /// flight gets its data when the fill completes.
    pub fn lookup(&mut self, mem: &GlobalMemory, line: u64, now: u64) -> LineHit {
        self.clock += 1;
        let ways = self.cfg.ways as usize;
        let set = (line & self.set_mask) as usize * ways;
        let mut victim = set;
        for slot in set..set + ways {
            if self.tags[slot] == line {
                self.used[slot] = self.clock;
                self.stats.hits += 1;
                return LineHit {
                    slot,
                    ready_at: self.ready[slot].max(now + self.cfg.hit_latency),
                    hit: true,
                };
            }
            if self.tags[victim] != INVALID
                && (self.tags[slot] == INVALID || self.used[slot] < self.used[victim])
            {
                victim = slot;
            }
        }
        self.stats.misses += 1;
        self.tags[victim] = line;
        self.used[victim] = self.clock;
        self.ready[victim] = now + self.cfg.miss_latency;
        let words = (self.cfg.line / 4) as usize;
        mem.read_words(
            line << self.line_shift,
            &mut self.data[victim * words..(victim + 1) * words],
        );
        LineHit {
            slot: victim,
            ready_at: self.ready[victim],
            hit: false,
        }
    }

    /// The cached dword at byte `addr` (4-aligned) of the line `h` found.
    #[inline]
    pub fn dword(&self, h: &LineHit, addr: u64) -> u32 {
        let words = (self.cfg.line / 4) as usize;
        let i = ((addr >> 2) as usize) & (words - 1);
        self.data[h.slot * words + i]
    }

    /// Drops every line (`s_dcache_inv`).
    pub fn invalidate(&mut self) {
        self.tags.fill(INVALID);
        self.stats.invalidations += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> ScalarCache {
        // 2 sets × 2 ways × 16-byte lines.
        ScalarCache::new(KcacheConfig {
            size: 64,
            line: 16,
            ways: 2,
            hit_latency: 10,
            miss_latency: 100,
        })
        .expect("valid")
    }

    #[test]
    fn bad_geometries_are_refused() {
        for (size, line, ways) in [(16384, 48, 4), (16384, 2, 4), (100, 16, 2), (16384, 64, 0)] {
            let cfg = KcacheConfig {
                size,
                line,
                ways,
                ..KcacheConfig::default()
            };
            assert!(cfg.validate().is_err(), "{size} {line} {ways}");
        }
        KcacheConfig::default()
            .validate()
            .expect("default is valid");
    }

    #[test]
    fn miss_then_hit_with_latencies_and_hit_under_miss() {
        let mut mem = GlobalMemory::new();
        mem.write_u32(0x104, 0xabcd);
        let mut c = small();
        let l = c.line_of(0x104);
        let a = c.lookup(&mem, l, 0);
        assert!(!a.hit);
        assert_eq!(a.ready_at, 100);
        assert_eq!(c.dword(&a, 0x104), 0xabcd);
        // Issued at 5, while the fill is in flight: waits for the fill.
        let b = c.lookup(&mem, l, 5);
        assert!(b.hit);
        assert_eq!(b.ready_at, 100);
        let d = c.lookup(&mem, l, 500);
        assert_eq!(d.ready_at, 510);
        assert_eq!(c.stats.hits, 2);
        assert_eq!(c.stats.misses, 1);
    }

    #[test]
    fn lines_keep_stale_data_until_invalidated() {
        let mut mem = GlobalMemory::new();
        mem.write_u32(0x40, 1);
        let mut c = small();
        let l = c.line_of(0x40);
        c.lookup(&mem, l, 0);
        mem.write_u32(0x40, 2);
        let h = c.lookup(&mem, l, 200);
        assert_eq!(c.dword(&h, 0x40), 1, "the cached copy, not memory");
        c.invalidate();
        let h = c.lookup(&mem, l, 300);
        assert!(!h.hit);
        assert_eq!(c.dword(&h, 0x40), 2);
    }

    #[test]
    fn least_recently_used_way_is_replaced() {
        let mem = GlobalMemory::new();
        let mut c = small();
        // Lines 0, 2, 4 all map to set 0 (2 sets).
        c.lookup(&mem, 0, 0);
        c.lookup(&mem, 2, 0);
        c.lookup(&mem, 0, 0); // 0 is now the most recent
        c.lookup(&mem, 4, 0); // evicts 2
        assert!(c.lookup(&mem, 0, 0).hit);
        assert!(!c.lookup(&mem, 2, 0).hit);
    }
}
