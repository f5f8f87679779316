//! Happens-before between waves for the global race check, as the hardware orders global
//! memory: what one wave has proven complete before it synchronises, another wave that
//! synchronises with it after sees.
//!
//! A wave's global access is complete once the wave waited for it (`s_waitcnt vmcnt`,
//! `s_waitcnt_vscnt`, `lgkmcnt` for scalar stores): LLVM's AMDGPU memory model lowers a
//! release (a fence, a release atomic, the release half of `__syncthreads`) to exactly those
//! waits. Two things hand what a wave completed to another:
//! - an `s_barrier` of its workgroup: every wave waiting at the release knows what each
//!   arriving wave had completed when it arrived (and what that wave knew);
//! - an atomic on a global location (the L2 performs a location's atomics one after another):
//!   a wave's atomic takes what earlier atomics on the location handed there, and hands on
//!   what the wave completed (and knows), itself included.
//!
//! A choice: the acquire side is the atomic itself, in program order — the invalidates LLVM
//! emits for an acquire (`buffer_gl0_inv`, `buffer_gl1_inv`) are not required, because the
//! simulator's global memory has no stale cache lines for them to drop. So CUDA's
//! threadFenceReduction, whose last block reads the partial sums with no fence after its
//! ticket, is clean; the same kernel without `__threadfence()` before the ticket races (its
//! store is not waited for before the atomic).
//!
//! Clocks hold only waves that made a watched access ([`Order::mark`]): the others'
//! operations never need ordering, and a grid of many waves sharing one atomic counter would
//! otherwise carry them all in every clock.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use crate::addr::{FastMap, PageHasher};

/// Per wave (its id): the operations it had completed when it handed them on, counted per
/// wait counter: VMcnt and VScnt operations, and `s_waitcnt lgkmcnt(0)`s (scalar stores,
/// which complete out of order, are complete after the next one).
pub(super) type Clock = FastMap<u32, [u64; 3]>;

/// One wave's view: its id, workgroup (index in the grid) and completed operation counts.
#[derive(Clone, Copy, Debug)]
pub(super) struct WaveNow {
    pub(super) wave: u32,
    pub(super) group: u32,
    pub(super) done: [u64; 3],
}

/// The happens-before state of a run together.
#[derive(Default)]
pub(super) struct Order {
    /// Per wave: what it knows complete of other waves. A barrier's release gives its waves
    /// one shared clock ([`Order::release`]), so the next barrier joins it once.
    know: FastMap<u32, Arc<Clock>>,
    /// Waves that made a watched access.
    marked: HashSet<u32, BuildHasherDefault<PageHasher>>,
    /// Per atomic location (dword address): what its atomics handed on.
    locations: FastMap<u64, Clock>,
    /// Per workgroup: what its waves brought to the barrier being gathered.
    arrived: FastMap<u32, Gathering>,
}

/// What the waves arriving at a workgroup's barrier brought, and the last clock joined in
/// (an arrival holding that same clock brings nothing new).
#[derive(Default)]
struct Gathering {
    clock: Clock,
    last: Option<Arc<Clock>>,
}

/// `a ⊔= b`, counter by counter.
fn join_counts(a: &mut [u64; 3], b: &[u64; 3]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x).max(*y);
    }
}

/// `into ⊔= from`.
fn join(into: &mut Clock, from: &Clock) {
    for (&w, c) in from {
        join_counts(into.entry(w).or_insert([0; 3]), c);
    }
}

impl Order {
    /// Wave `w` made a watched access.
    pub(super) fn mark(&mut self, w: u32) {
        self.marked.insert(w);
    }

    /// Wave `w` ended: what it knows and whether it made a watched access are asked no
    /// more (it makes no access, arrives at no barrier and takes no atomic), so a grid's
    /// state holds its resident waves, not every wave it ran. Its completed operations stay
    /// in the clocks of the waves and locations it handed them to.
    pub(super) fn forget(&mut self, w: u32) {
        self.know.remove(&w);
        self.marked.remove(&w);
    }

    /// Whether wave `me` knows wave `w`'s operation `seq` on counter `counter` complete (a
    /// wave's own accesses are in program order).
    #[cfg(test)]
    pub(super) fn ordered(&self, w: u32, counter: usize, seq: u64, me: u32) -> bool {
        self.known_to(me)(w, counter, seq)
    }

    /// For wave `me`, its clock looked up once: whether it knows wave
    /// `w`'s operation `seq` on counter `counter` complete.
    pub(super) fn known_to(&self, me: u32) -> impl Fn(u32, usize, u64) -> bool + '_ {
        let know = self.know.get(&me);
        move |w, counter, seq| {
            w == me
                || know
                    .and_then(|k| k.get(&w))
                    .is_some_and(|c| c[counter] > seq)
        }
    }

    /// What wave `n` hands on: what it knows, and what it completed when it is marked.
    fn handed(&self, n: &WaveNow) -> Option<Clock> {
        let mut c = self
            .know
            .get(&n.wave)
            .map(|k| Clock::clone(k))
            .unwrap_or_default();
        if self.marked.contains(&n.wave) {
            join_counts(c.entry(n.wave).or_insert([0; 3]), &n.done);
        }
        (!c.is_empty()).then_some(c)
    }

    /// Wave `n` arrives at its workgroup's `s_barrier`: the barrier gathers what it hands
    /// on ([`Order::handed`]), joined in place rather than copied first.
    pub(super) fn arrive(&mut self, n: &WaveNow) {
        let know = self.know.get(&n.wave).filter(|k| !k.is_empty());
        let marked = self.marked.contains(&n.wave);
        if know.is_none() && !marked {
            return;
        }
        let gathered = self.arrived.entry(n.group).or_default();
        if let Some(k) = know {
            if !gathered.last.as_ref().is_some_and(|l| Arc::ptr_eq(l, k)) {
                join(&mut gathered.clock, k);
                gathered.last = Some(Arc::clone(k));
            }
        }
        if marked {
            join_counts(gathered.clock.entry(n.wave).or_insert([0; 3]), &n.done);
        }
    }

    /// Workgroup `group`'s barrier releases the waves `waiting`: each knows what every
    /// arrival brought.
    ///
    /// Each waiting wave arrived with what it knew, which the gathered clock holds, and has
    /// run nothing since: what it knows joined with the clock is the clock, which they all
    /// share.
    pub(super) fn release(&mut self, group: u32, waiting: &[u32]) {
        let Some(g) = self.arrived.remove(&group) else {
            return;
        };
        let c = Arc::new(g.clock);
        for w in waiting {
            self.know.insert(*w, Arc::clone(&c));
        }
    }

    /// Wave `n`'s atomic at `locations` (dword addresses), its own operation `seq` on
    /// `counter`: it takes what each location's earlier atomics handed on, and hands on what
    /// it completed, the atomic included.
    pub(super) fn atomic(&mut self, n: &WaveNow, counter: usize, seq: u64, locations: &[u64]) {
        let know = Arc::make_mut(self.know.entry(n.wave).or_default());
        for c in locations.iter().filter_map(|l| self.locations.get(l)) {
            join(know, c);
        }
        let mut me = *n;
        me.done[counter] = me.done[counter].max(seq + 1);
        if let Some(c) = self.handed(&me) {
            for l in locations {
                join(self.locations.entry(*l).or_default(), &c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now(wave: u32, group: u32, done: [u64; 3]) -> WaveNow {
        WaveNow { wave, group, done }
    }

    /// A store waited for before an atomic is known to the wave whose later atomic on the
    /// location follows; one not waited for, or the other way round, is not.
    #[test]
    fn an_atomic_hands_on_what_was_waited_for_before_it() {
        let mut o = Order::default();
        o.mark(1);
        // Wave 1's store is VScnt operation 0; waited (done 1) before its atomic (VMcnt 0).
        o.atomic(&now(1, 0, [0, 1, 0]), 0, 0, &[0x100]);
        assert!(!o.ordered(1, 1, 0, 2), "nothing taken yet");
        o.atomic(&now(2, 1, [0, 0, 0]), 0, 0, &[0x100]);
        assert!(o.ordered(1, 1, 0, 2));
        assert!(!o.ordered(1, 1, 1, 2), "a later store of wave 1");
        // An atomic on another location takes nothing.
        o.atomic(&now(3, 2, [0, 0, 0]), 0, 0, &[0x200]);
        assert!(!o.ordered(1, 1, 0, 3));
        // Not waited for: wave 4's store (VScnt 0) is not handed on.
        o.mark(4);
        o.atomic(&now(4, 3, [0, 0, 0]), 0, 0, &[0x300]);
        o.atomic(&now(5, 4, [0, 0, 0]), 0, 0, &[0x300]);
        assert!(!o.ordered(4, 1, 0, 5));
        // The atomic itself is handed on (VMcnt 0 of wave 4).
        assert!(o.ordered(4, 0, 0, 5));
    }

    /// A wave that ended is forgotten, and what it handed on is not: a grid of one-wave
    /// workgroups, each through its barrier and an atomic, leaves no per-wave state behind,
    /// while the atomic's location still hands the first wave's stores to a later one.
    #[test]
    fn ended_waves_are_forgotten_but_what_they_handed_on_stays() {
        let mut o = Order::default();
        for w in 0..1000 {
            o.mark(w);
            o.arrive(&now(w, w, [0, 1, 0]));
            o.release(w, &[w]);
            o.atomic(&now(w, w, [0, 1, 0]), 0, 0, &[0x80]);
            o.forget(w);
        }
        assert!(o.know.is_empty() && o.marked.is_empty() && o.arrived.is_empty());
        o.atomic(&now(5000, 9, [0, 0, 0]), 0, 0, &[0x80]);
        assert!(
            o.ordered(0, 1, 0, 5000),
            "wave 0's store, handed on by its atomic"
        );
        assert!(!o.ordered(0, 1, 1, 5000), "a store wave 0 never completed");
    }

    /// A barrier hands each arrival's completed operations to every waiting wave, and what
    /// they knew (transitively).
    #[test]
    fn a_barrier_hands_on_what_each_arrival_completed() {
        let mut o = Order::default();
        o.mark(7);
        o.atomic(&now(7, 9, [0, 3, 0]), 0, 0, &[0x40]);
        o.atomic(&now(1, 0, [0, 0, 0]), 0, 0, &[0x40]);
        o.mark(0);
        o.arrive(&now(0, 0, [2, 0, 0]));
        o.arrive(&now(1, 0, [0, 0, 0]));
        assert!(!o.ordered(0, 0, 1, 1), "not released yet");
        o.release(0, &[0, 1]);
        assert!(o.ordered(0, 0, 1, 1));
        assert!(!o.ordered(0, 0, 2, 1));
        assert!(o.ordered(7, 1, 2, 0), "wave 1 knew wave 7's stores");
    }

    /// The shared clocks know what joining every arrival into every waiting wave knows:
    /// random marks, atomics and barriers of four workgroups of four waves (a waiting wave
    /// does nothing until its barrier releases it), against that plain join.
    #[test]
    fn shared_barrier_clocks_know_what_plain_joins_know() {
        #[derive(Default)]
        struct Plain {
            know: FastMap<u32, Clock>,
            marked: HashSet<u32>,
            locations: FastMap<u64, Clock>,
            arrived: FastMap<u32, Clock>,
        }
        impl Plain {
            fn handed(&self, n: &WaveNow) -> Clock {
                let mut c = self.know.get(&n.wave).cloned().unwrap_or_default();
                if self.marked.contains(&n.wave) {
                    join_counts(c.entry(n.wave).or_insert([0; 3]), &n.done);
                }
                c
            }
        }
        let mut rng = crate::xorshift::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let mut o = Order::default();
        let mut p = Plain::default();
        let mut waiting: Vec<Vec<u32>> = vec![Vec::new(); 4];
        for step in 0..5000 {
            let w = rng.below(16) as u32;
            let g = w / 4;
            if waiting[g as usize].contains(&w) {
                continue;
            }
            let n = now(w, g, [rng.below(6), rng.below(6), rng.below(6)]);
            match rng.below(3) {
                0 => {
                    o.mark(w);
                    p.marked.insert(w);
                }
                1 => {
                    let (counter, seq) = (rng.below(3) as usize, rng.below(6));
                    let at = [rng.below(3) * 4];
                    o.atomic(&n, counter, seq, &at);
                    let know = p.know.entry(w).or_default();
                    if let Some(c) = p.locations.get(&at[0]) {
                        join(know, c);
                    }
                    let mut me = n;
                    me.done[counter] = me.done[counter].max(seq + 1);
                    let c = p.handed(&me);
                    if !c.is_empty() {
                        join(p.locations.entry(at[0]).or_default(), &c);
                    }
                }
                _ => {
                    o.arrive(&n);
                    let c = p.handed(&n);
                    if !c.is_empty() {
                        join(p.arrived.entry(g).or_default(), &c);
                    }
                    waiting[g as usize].push(w);
                    if waiting[g as usize].len() == 4 {
                        let ids = std::mem::take(&mut waiting[g as usize]);
                        o.release(g, &ids);
                        if let Some(c) = p.arrived.remove(&g) {
                            for x in &ids {
                                join(p.know.entry(*x).or_default(), &c);
                            }
                        }
                    }
                }
            }
            for x in 0..16u32 {
                let shared = o.know.get(&x).map(|k| Clock::clone(k)).unwrap_or_default();
                let plain = p.know.get(&x).cloned().unwrap_or_default();
                assert_eq!(shared, plain, "wave {x} after step {step}");
            }
            assert_eq!(o.locations, p.locations, "step {step}");
        }
    }
}
