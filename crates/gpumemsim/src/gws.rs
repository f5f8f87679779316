//! Global wave sync (GWS) resources and the ordered-count counters.
//!
//! GWS (docs/rules/gds-gws.md#gws-resources): 64 resources, each with a 1-bit flag
//! (separating odd and even passes, arriving from leaving waves), a 12-bit counter, a type
//! (semaphore or barrier), a queue of waiting waves; per-VMID base and size; resource id =
//! (VMID base + M0\[21:16\] + offset0\[5:0\]) mod 64, clamped to the VMID's range, with a NACK
//! when clamping happens. The per-opcode state machines
//! (docs/rules/gds-gws.md#gws-operations) follow the descriptions AMD's ISA guides give for
//! DS_GWS_* since GCN:
//! - INIT: counter = the first valid lane's value; flag = 0.
//! - SEMA_V: counter += 1; type = semaphore. SEMA_BR: counter += the first valid lane's value.
//! - SEMA_P: queue until the counter is nonzero, then decrement it.
//! - SEMA_RELEASE_ALL: release every queued wave.
//! - BARRIER: type = barrier; if the counter is 0 the arriving wave completes the barrier:
//!   the flag flips, the counter is reloaded with the wave's value (waves − 1) and every
//!   queued wave (queued with the old flag) is released; otherwise the counter decrements and
//!   the wave queues with the current flag.
//!
//! Ordered count (docs/rules/gds-gws.md#ordered-count): DS_ORDERED_COUNT requests are
//! processed in wave creation order whatever order they arrive in; an early arrival waits (the
//! GDS FIFO) until every earlier wave has released the counter. Our reading of the
//! instruction's fields is LLVM's packing of `llvm.amdgcn.ds.ordered.add/swap`: offset0\[7:2\]
//! counter index (0-3 used), offset1\[0\] wave_release, offset1\[1\] wave_done, offset1\[4\]
//! instruction (0 add, 1 swap). The four counters are GDS-internal; each is an append pointer
//! (unbounded) or, when configured with a ring size, a ring-buffer allocator whose pointer
//! wraps modulo that size (ordered alloc).
//!
//! Once per wave (docs/rules/gds-gws.md#once-per-wave: a shader that uses ordered count must
//! issue DS_ORDERED_COUNT once and only once in each wave, at most four ordered allocs, one
//! per counter): each counter remembers which waves it has processed
//! ([`OrderedCount::issued`]) and which ended without releasing it
//! ([`OrderedCount::take_unreleased`]), so the executor can report both breaches
//! (`ordered_count_rule`). The answers stay the model's: a second request is processed when it
//! arrives (every earlier wave has had its turn), and a wave that ended does not hold the
//! later ones back.

use std::collections::VecDeque;

/// Number of GWS resources.
pub const GWS_RESOURCES: u32 = 64;
/// Number of ordered-count counters.
pub const ORDERED_COUNTERS: usize = 4;

/// The VMID's share of the resources (GDS_GWS_VMID base and size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GwsConfig {
    /// First resource of the VMID.
    pub base: u32,
    /// Number of resources of the VMID.
    pub size: u32,
}

impl Default for GwsConfig {
    fn default() -> GwsConfig {
        GwsConfig {
            base: 0,
            size: GWS_RESOURCES,
        }
    }
}

/// What a resource is being used as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ResourceType {
    /// Counting semaphore.
    #[default]
    Semaphore,
    /// Barrier.
    Barrier,
}

/// One GWS resource.
#[derive(Clone, Debug, Default)]
pub struct Resource {
    /// Pass flag.
    pub flag: bool,
    /// 12-bit counter.
    pub counter: u32,
    /// Type.
    pub ty: ResourceType,
    /// Waiting waves, oldest first, with the flag they queued under.
    pub queue: VecDeque<(usize, bool)>,
}

/// The result of a GWS operation for the issuing wave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GwsResult {
    /// The wave goes on; `released` waves leave the queue.
    Done {
        /// Waves released by this operation.
        released: Vec<usize>,
    },
    /// The wave waits in the resource's queue.
    Wait,
}

/// The GWS unit.
#[derive(Clone, Debug)]
pub struct Gws {
    /// VMID range.
    pub config: GwsConfig,
    /// The 64 resources.
    pub resources: Vec<Resource>,
}

impl Gws {
    /// All resources zeroed.
    pub fn new(config: GwsConfig) -> Gws {
        Gws {
            config,
            resources: vec![Resource::default(); GWS_RESOURCES as usize],
        }
    }

    /// The resource an instruction names: `Ok(id)`, or `Err(clamped id)` when the id falls
    /// outside the VMID's range and the hardware clamps it and answers NACK.
    pub fn resource_id(&self, m0: u32, offset0: u32) -> Result<u32, u32> {
        let c = self.config;
        let id = (c.base + ((m0 >> 16) & 0x3f) + (offset0 & 0x3f)) % GWS_RESOURCES;
        let end = c.base + c.size;
        if id >= c.base && id < end {
            Ok(id)
        } else if id < c.base {
            Err(c.base)
        } else {
            Err(end.saturating_sub(1).max(c.base))
        }
    }

    fn wake_while_positive(r: &mut Resource) -> Vec<usize> {
        let mut released = Vec::new();
        while r.counter > 0 {
            let Some((w, _)) = r.queue.pop_front() else {
                break;
            };
            r.counter -= 1;
            released.push(w);
        }
        released
    }

    /// DS_GWS_INIT.
    pub fn init(&mut self, rid: u32, value: u32) -> GwsResult {
        let r = &mut self.resources[rid as usize];
        r.counter = value & 0xfff;
        r.flag = false;
        GwsResult::Done { released: vec![] }
    }

    /// DS_GWS_SEMA_V (`count` = 1) and DS_GWS_SEMA_BR (`count` = the lane's value).
    pub fn sema_release(&mut self, rid: u32, count: u32) -> GwsResult {
        let r = &mut self.resources[rid as usize];
        r.ty = ResourceType::Semaphore;
        // The counter is 12 bits: the sum wraps there whatever the lane's 32-bit value (a
        // count near 2^32 must not overflow the host's arithmetic first).
        r.counter = r.counter.wrapping_add(count) & 0xfff;
        GwsResult::Done {
            released: Self::wake_while_positive(r),
        }
    }

    /// DS_GWS_SEMA_P for `wave`.
    pub fn sema_p(&mut self, rid: u32, wave: usize) -> GwsResult {
        let r = &mut self.resources[rid as usize];
        r.ty = ResourceType::Semaphore;
        if r.counter > 0 && r.queue.is_empty() {
            r.counter -= 1;
            GwsResult::Done { released: vec![] }
        } else {
            r.queue.push_back((wave, r.flag));
            GwsResult::Wait
        }
    }

    /// DS_GWS_SEMA_RELEASE_ALL.
    pub fn release_all(&mut self, rid: u32) -> GwsResult {
        let r = &mut self.resources[rid as usize];
        r.ty = ResourceType::Semaphore;
        GwsResult::Done {
            released: r.queue.drain(..).map(|(w, _)| w).collect(),
        }
    }

    /// DS_GWS_BARRIER for `wave` with the lane's `value` (waves − 1).
    pub fn barrier(&mut self, rid: u32, wave: usize, value: u32) -> GwsResult {
        let r = &mut self.resources[rid as usize];
        r.ty = ResourceType::Barrier;
        if r.counter == 0 {
            let old = r.flag;
            r.flag = !r.flag;
            r.counter = value & 0xfff;
            let (released, kept): (Vec<_>, Vec<_>) =
                r.queue.drain(..).partition(|(_, f)| *f == old);
            r.queue = kept.into();
            GwsResult::Done {
                released: released.into_iter().map(|(w, _)| w).collect(),
            }
        } else {
            r.counter -= 1;
            r.queue.push_back((wave, r.flag));
            GwsResult::Wait
        }
    }
}

/// One ordered-count counter.
#[derive(Clone, Debug, Default)]
pub struct OrderedCounter {
    /// Current pointer.
    pub value: u32,
    /// Ring size for ordered alloc; `None` for an append buffer.
    pub ring: Option<u32>,
    /// Waves (creation order) that have released this counter.
    pub released: Vec<bool>,
    /// Waves whose request this counter has processed.
    pub processed: Vec<bool>,
    /// Ended waves already reported as never releasing this counter.
    pub reported: Vec<bool>,
}

/// The ordered-count unit.
#[derive(Clone, Debug)]
pub struct OrderedCount {
    /// The four counters.
    pub counters: Vec<OrderedCounter>,
}

impl OrderedCount {
    /// Counters for `waves` waves; `rings[i]` makes counter i a ring of that size.
    pub fn new(waves: usize, rings: [Option<u32>; ORDERED_COUNTERS]) -> OrderedCount {
        OrderedCount {
            counters: rings
                .iter()
                .map(|&ring| OrderedCounter {
                    value: 0,
                    ring,
                    released: vec![false; waves],
                    processed: vec![false; waves],
                    reported: vec![false; waves],
                })
                .collect(),
        }
    }

    /// Whether `wave` may be processed on counter `index`: every earlier wave has released it
    /// or ended (`ended[w]`).
    pub fn is_turn(&self, index: usize, wave: usize, ended: &[bool]) -> bool {
        let c = &self.counters[index];
        (0..wave).all(|w| c.released[w] || ended[w])
    }

    /// Whether counter `index` has already processed a request of `wave` (a second one breaks
    /// the once-per-wave rule).
    pub fn issued(&self, index: usize, wave: usize) -> bool {
        self.counters[index].processed[wave]
    }

    /// The waves before `wave` that ended without releasing counter `index` and were not
    /// reported yet (they are marked reported): waves that skipped their once-per-wave
    /// request, or made it without `wave_release`/`wave_done`.
    pub fn take_unreleased(&mut self, index: usize, wave: usize, ended: &[bool]) -> Vec<usize> {
        let c = &mut self.counters[index];
        let mut out = Vec::new();
        for (w, &done) in ended.iter().enumerate().take(wave) {
            if done && !c.released[w] && !c.reported[w] {
                c.reported[w] = true;
                out.push(w);
            }
        }
        out
    }

    /// Processes `wave`'s request: returns the pre-operation pointer.
    pub fn process(
        &mut self,
        index: usize,
        wave: usize,
        data: u32,
        swap: bool,
        release: bool,
    ) -> u32 {
        let c = &mut self.counters[index];
        let old = c.value;
        let new = if swap { data } else { old.wrapping_add(data) };
        c.value = match c.ring {
            Some(size) if size > 0 => new % size,
            _ => new,
        };
        if release {
            c.released[wave] = true;
        }
        c.processed[wave] = true;
        old
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_ids_wrap_and_clamp_to_the_vmid_range() {
        let g = Gws::new(GwsConfig { base: 8, size: 4 });
        assert_eq!(g.resource_id(2 << 16, 1), Ok(11));
        assert_eq!(
            g.resource_id(2 << 16, 2),
            Err(11),
            "12 is past the range: clamped, NACK"
        );
        let g = Gws::new(GwsConfig::default());
        assert_eq!(g.resource_id(63 << 16, 3), Ok(2), "mod 64");
    }

    #[test]
    fn semaphore_p_waits_and_v_releases_in_fifo_order() {
        let mut g = Gws::new(GwsConfig::default());
        g.init(5, 1);
        assert_eq!(g.sema_p(5, 0), GwsResult::Done { released: vec![] });
        assert_eq!(g.sema_p(5, 1), GwsResult::Wait);
        assert_eq!(g.sema_p(5, 2), GwsResult::Wait);
        assert_eq!(g.sema_release(5, 1), GwsResult::Done { released: vec![1] });
        assert_eq!(g.sema_release(5, 3), GwsResult::Done { released: vec![2] });
        assert_eq!(g.resources[5].counter, 2);
        assert_eq!(g.sema_p(5, 3), GwsResult::Done { released: vec![] });
        assert_eq!(g.sema_p(5, 4), GwsResult::Done { released: vec![] });
        assert_eq!(g.sema_p(5, 5), GwsResult::Wait);
        assert_eq!(g.release_all(5), GwsResult::Done { released: vec![5] });
    }

    #[test]
    fn barrier_releases_when_the_last_wave_arrives_and_rearms() {
        let mut g = Gws::new(GwsConfig::default());
        g.init(0, 2); // 3 waves
        assert_eq!(g.barrier(0, 0, 2), GwsResult::Wait);
        assert_eq!(g.barrier(0, 1, 2), GwsResult::Wait);
        assert_eq!(
            g.barrier(0, 2, 2),
            GwsResult::Done {
                released: vec![0, 1]
            }
        );
        assert!(g.resources[0].flag);
        assert_eq!(g.resources[0].counter, 2, "re-armed for the next pass");
        assert_eq!(g.barrier(0, 0, 2), GwsResult::Wait);
    }

    #[test]
    fn ordered_count_follows_creation_order_and_rings_wrap() {
        let mut o = OrderedCount::new(3, [None, Some(10), None, None]);
        let ended = [false; 3];
        assert!(!o.is_turn(0, 2, &ended));
        assert!(o.is_turn(0, 0, &ended));
        assert_eq!(o.process(0, 0, 4, false, true), 0);
        assert_eq!(o.process(0, 1, 4, false, true), 4);
        assert!(o.is_turn(0, 2, &ended));
        assert_eq!(o.process(0, 2, 4, false, true), 8);
        assert_eq!(o.counters[0].value, 12);
        assert_eq!(o.process(1, 0, 7, false, true), 0);
        assert_eq!(o.process(1, 1, 7, false, true), 7);
        assert_eq!(o.counters[1].value, 4, "ring of 10 wraps");
        assert!(
            o.is_turn(2, 2, &[true, true, false]),
            "ended waves do not block"
        );
    }
}
