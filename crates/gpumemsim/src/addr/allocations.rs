//! The host's allocations in global memory, as a launch makes them (each buffer argument, the
//! kernarg segment, the dispatch packet): the bounds the memory checker holds vector-memory
//! accesses to, as compute-sanitizer's memcheck does for CUDA. With no allocation registered
//! (assembly programs placing data with `--mem`) every address is in bounds.

use std::sync::Arc;

/// One allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// First byte.
    pub start: u64,
    /// Bytes.
    pub len: u64,
    /// What it is, for messages: `` arg 1 `out` (int*) ``.
    pub name: String,
}

impl Allocation {
    /// One past the last byte.
    pub fn end(&self) -> u64 {
        self.start.saturating_add(self.len)
    }
}

/// Every allocation, sorted by start (shared between the copies of memory the grid's
/// threads run on).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Allocations(Arc<Vec<Allocation>>);

impl Allocations {
    /// The allocations `list` names (in any order; they must not overlap).
    pub fn new(mut list: Vec<Allocation>) -> Allocations {
        list.sort_by_key(|a| a.start);
        Allocations(Arc::new(list))
    }

    /// Whether none is registered (then nothing is checked).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `n` bytes at `addr` lie inside one allocation (always, when none is
    /// registered).
    #[inline]
    pub fn contains(&self, addr: u64, n: u64) -> bool {
        if self.0.is_empty() {
            return true;
        }
        let i = self.0.partition_point(|a| a.start <= addr);
        i > 0 && addr.saturating_add(n) <= self.0[i - 1].end()
    }

    /// Whether the `n` bytes at every address from `first` to `last` (a run of accesses, each
    /// `n` bytes) lie inside one allocation, the same for all: what [`Allocations::contains`]
    /// says of each, with two lookups for the run.
    #[inline]
    pub fn contains_run(&self, first: u64, last: u64, n: u64) -> bool {
        if self.0.is_empty() {
            return true;
        }
        let i = self.0.partition_point(|a| a.start <= first);
        // No allocation starts after `first` up to `last`: every address between is in the
        // one `first` is in.
        let j = self.0.partition_point(|a| a.start <= last);
        i > 0 && i == j && last.saturating_add(n) <= self.0[i - 1].end()
    }

    /// The allocation nearest to `addr` (the one it overruns, or the first after it) and how
    /// `addr` stands to it, for an out-of-bounds message: `"4 bytes past the end of arg 1
    /// `out` (int*, 4096 bytes at 0x100000000)"`.
    pub fn describe(&self, addr: u64) -> String {
        let i = self.0.partition_point(|a| a.start <= addr);
        let before = i.checked_sub(1).map(|k| &self.0[k]);
        let after = self.0.get(i);
        let show = |a: &Allocation| format!("{} ({} bytes at {:#x})", a.name, a.len, a.start);
        let past = |b: &Allocation| format!("{} bytes past the end of {}", addr - b.end(), show(b));
        let ahead =
            |a: &Allocation| format!("{} bytes before the start of {}", a.start - addr, show(a));
        match (before, after) {
            (Some(b), _) if addr < b.end() => format!("straddles the end of {}", show(b)),
            (Some(b), Some(a)) if a.start - addr < addr - b.end() => ahead(a),
            (Some(b), _) => past(b),
            (None, Some(a)) => ahead(a),
            (None, None) => "no allocation is registered".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> Allocations {
        Allocations::new(vec![
            Allocation {
                start: 0x2000,
                len: 16,
                name: "b".into(),
            },
            Allocation {
                start: 0x1000,
                len: 8,
                name: "a".into(),
            },
        ])
    }

    #[test]
    fn accesses_must_fit_inside_one_allocation() {
        let a = two();
        assert!(a.contains(0x1000, 8));
        assert!(!a.contains(0x1004, 8));
        assert!(!a.contains(0xfff, 1));
        assert!(a.contains(0x200c, 4));
        assert!(!a.contains(0x2010, 1));
        assert!(Allocations::default().contains(0, 8));
    }

    /// A run is inside exactly when each of its accesses is, on random runs about two
    /// allocations and one of no bytes.
    #[test]
    fn a_run_is_inside_when_each_access_is() {
        let mut a = two().0.as_ref().clone();
        a.push(Allocation {
            start: 0x2008,
            len: 0,
            name: "empty".into(),
        });
        let a = Allocations(Arc::new(a));
        let mut rng = crate::xorshift::XorShift::new(0x5eed_0a11);
        let (mut inside, mut outside) = (0, 0);
        for _ in 0..20_000 {
            let first = rng.pick(&[0xffc, 0x1000, 0x1ffc, 0x2000]) + rng.below(16);
            let n = rng.pick(&[1, 2, 4, 8]);
            let lanes = 1 + rng.below(4);
            let last = first + (lanes - 1) * n;
            let each = (0..lanes).all(|k| a.contains(first + k * n, n));
            assert_eq!(
                a.contains_run(first, last, n),
                each,
                "{first:#x} {lanes} × {n}"
            );
            inside += each as u32;
            outside += !each as u32;
        }
        assert!(inside > 100 && outside > 100, "{inside} in, {outside} out");
        assert!(Allocations::default().contains_run(0, 1 << 40, 8));
    }

    #[test]
    fn the_nearest_allocation_is_named() {
        let a = two();
        assert_eq!(
            a.describe(0x100c),
            "4 bytes past the end of a (8 bytes at 0x1000)"
        );
        assert_eq!(
            a.describe(0x1ffc),
            "4 bytes before the start of b (16 bytes at 0x2000)"
        );
        assert_eq!(
            a.describe(0x1006),
            "straddles the end of a (8 bytes at 0x1000)"
        );
        assert_eq!(
            a.describe(0x10),
            "4080 bytes before the start of a (8 bytes at 0x1000)"
        );
        assert_eq!(
            a.describe(0x3000),
            "4080 bytes past the end of b (16 bytes at 0x2000)"
        );
    }
}
