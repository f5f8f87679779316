//! FLAT, GLOBAL, SCRATCH and MUBUF loads and stores in the executor: the access itself is
//! [`crate::vmem`]'s; here it gets its wait counter (VMcnt for loads, VScnt for stores; a FLAT
//! access also counts on LGKMcnt, since it may go to LDS) and its completion time.

use rdna3_isa::Instruction;

use super::{Counter, Device, Pending, RunConfig};
use crate::addr::ScratchLayout;
use crate::event::Event;
use crate::vmem::{self, GlobalOp, VmemEnv};

impl Device {
    /// Executes GLOBAL instruction `inst` of wave `wi`; returns its issue cycles, or `None`
    /// when the vector-memory model does not implement it.
    // Out of line: inlined into `Device::step`, it made the VALU/SALU path save and spill
    // for its registers (docs/benchmarks.md, fifth pass).
    #[inline(never)]
    pub(crate) fn global(
        &mut self,
        wi: usize,
        pc: usize,
        inst: &Instruction,
        cfg: &RunConfig,
    ) -> Option<u64> {
        let op = vmem::global_op_of(inst.opcode)?;
        let atomic = matches!(op, GlobalOp::Atomic { .. });
        self.global_log_begin(atomic);
        let g = self.wave_group[wi];
        let mut env = VmemEnv {
            mem: &mut self.memory,
            lds: &mut self.lds[g],
            alloc: self.alloc,
            scratch: ScratchLayout {
                base: cfg.scratch_base,
                wave_size: cfg.wave_size,
                scratch_size: cfg.scratch_size,
            },
            apertures: cfg.apertures,
            float_rules: cfg.memory_float_rules,
            isa: cfg.chip.isa,
        };
        let traced = self.vcache.is_some();
        let mut marks = Vec::new();
        let out = if traced && cfg.record_samples {
            env.mem.trace_lines(true);
            vmem::execute_marking_lanes(inst, op, &mut self.waves[wi], &mut env, &mut marks)
        } else {
            env.mem.trace_lines(traced);
            vmem::execute(inst, op, &mut self.waves[wi], &mut env)
        };
        env.mem.trace_lines(false);
        let noted = (traced && cfg.record_samples).then(|| self.memory.traced_lines());
        self.global_log_end(wi, pc, self.counter_of(inst, op));
        self.check_lds(wi, pc, atomic, true);
        if let Some(f) = out.unsupported_format {
            let message = format!(
                "buffer format {f} ({}) is not implemented by the typed-buffer model",
                rdna3_isa::special::BUF_FORMATS
                    .get(f as usize)
                    .map_or("out of range", |n| n)
            );
            let wave = self.waves[wi].id;
            self.events
                .push(Event::new("unsupported_format", wave, pc, message));
            return None;
        }
        self.dropped_access_events(wi, pc, &out);
        if out.out_of_bounds != 0 {
            let e = self.out_of_bounds_event(wi, pc, inst, &out);
            self.events.push(e);
        }
        self.address_rule_events(wi, pc, &out);
        let cost = cfg.timing.valu * (self.waves[wi].size as u64).div_ceil(32);
        let mut served = Vec::new();
        let sampled = noted.is_some().then_some(&mut served);
        let latency = cost
            + match self.vcache {
                Some(c) => self
                    .cache_latency(wi, pc, &c, op, sampled)
                    .latency(&cfg.timing),
                None => cfg.timing.vmem_latency,
            };
        if let Some(noted) = noted {
            let w = &self.waves[wi];
            let lanes = (w.id, w.size, w.exec() & w.lane_mask());
            let sample = super::VmemSample::new(lanes, &noted, &marks, &served);
            self.record_vmem_sample(pc, sample);
        }
        let done_at = self.count_vector_memory(wi, inst, op, self.clocks[wi] + latency);
        self.stats[pc].latency_cycles += done_at - self.clocks[wi];
        Some(cost)
    }

    /// The level whose latency wave `wi`'s vector memory instruction at `pc` (access `op`)
    /// takes through the vector caches `c`: the one serving the slowest of the cache lines its
    /// accesses touched (L0 when they touched none, as every lane was inactive or went to
    /// LDS); the lines and the levels that served them go to the instruction's statistics
    /// (docs/rules/timing.md#vector-caches) and, when asked, to `served` (in address order).
    fn cache_latency(
        &mut self,
        wi: usize,
        pc: usize,
        c: &crate::vcache::VcacheConfig,
        op: GlobalOp,
        mut served: Option<&mut Vec<(u64, crate::vcache::Level)>>,
    ) -> crate::vcache::Level {
        use crate::vcache::{Level, WgpCaches};
        let mut lines = std::mem::take(&mut self.vcache_lines);
        self.memory.take_lines(&mut lines);
        let p = self.placement.as_ref().expect("placed");
        let (wgp, cu) = (p.wgp(wi), p.cu(wi) % p.cus());
        if self.vcaches.len() <= wgp {
            self.vcaches.resize_with(wgp + 1, || WgpCaches::new(c));
        }
        let write = !op.is_load();
        let caches = &mut self.vcaches[wgp];
        let counts = &mut self.stats[pc].lines;
        let mut slowest = Level::L0;
        for &line in &lines {
            let level = if write {
                caches.write(line)
            } else {
                caches.load(cu, line)
            };
            counts.served[level as usize] += 1;
            slowest = slowest.max(level);
            if let Some(s) = served.as_deref_mut() {
                s.push((line, level));
            }
        }
        counts.requests += lines.len() as u64;
        if write {
            counts.writes += lines.len() as u64;
        }
        self.vcache_lines = lines;
        slowest
    }

    /// Puts an access of `op` that would complete at `ready` on its wait counters
    /// (docs/rules/addressing.md#wait-counters-of-vector-memory): VMcnt for loads and for
    /// atomics that return data, VScnt for stores and atomics that do not; FLAT (which may go
    /// to LDS) and the buffer loads to LDS (which write it) on LGKMcnt too. Returns when it
    /// completes: vector memory returns in order on its counter (what `s_waitcnt vmcnt(N)`
    /// relies on), so an access the caches answer sooner than an earlier one of its wave
    /// completes with that one (docs/rules/timing.md#vector-caches).
    fn count_vector_memory(
        &mut self,
        wi: usize,
        inst: &Instruction,
        op: GlobalOp,
        ready: u64,
    ) -> u64 {
        let counter = self.counter_of(inst, op);
        let earlier = self.pending[wi]
            .iter()
            .filter(|p| p.counter == counter)
            .map(|p| p.done_at)
            .max();
        let done_at = earlier.map_or(ready, |e| e.max(ready));
        let also_lgkm =
            inst.def().format == rdna3_isa::Format::Flat || matches!(op, GlobalOp::LoadLds { .. });
        let seq = self.count_issued(wi, counter);
        self.last_issue = (done_at, counter, seq);
        let lgkm = also_lgkm.then(|| {
            self.count_issued(wi, Counter::Lgkm);
            Counter::Lgkm
        });
        for counter in std::iter::once(counter).chain(lgkm) {
            self.add_pending(
                wi,
                Pending {
                    counter,
                    done_at,
                    gds: false,
                    weight: 1,
                },
            );
        }
        done_at
    }

    /// The wait counter an access of `op` counts on: VMcnt for loads and for atomics that
    /// return data, VScnt for stores and atomics that do not (GFX9, with no VScnt: VMcnt for
    /// every one).
    fn counter_of(&self, inst: &Instruction, op: GlobalOp) -> Counter {
        let returns = matches!(op, GlobalOp::Atomic { .. }) && vmem::returns_data(inst);
        let counter = if op.is_load() || returns {
            Counter::Vm
        } else {
            Counter::Vs
        };
        match counter {
            Counter::Vs if self.stores_on_vmcnt => Counter::Vm,
            c => c,
        }
    }

    /// The `lds_out_of_range`, `scratch_out_of_range` and `buffer_out_of_range` events of an
    /// access some lanes of which were dropped (docs/rules/addressing.md#flat-routing-per-lane,
    /// docs/rules/addressing.md#private-accesses-out-of-range,
    /// docs/rules/addressing.md#buffer-range-checking).
    fn dropped_access_events(&mut self, wi: usize, pc: usize, out: &vmem::VmemOutcome) {
        let wave = self.waves[wi].id;
        for (n, kind, what) in [
            (
                out.lds_out_of_range,
                "lds_out_of_range",
                "flat access(es) to the shared aperture outside the LDS allocation",
            ),
            (
                out.scratch_out_of_range,
                "scratch_out_of_range",
                "private access(es) past scratch_size",
            ),
            (
                out.buffer_out_of_range,
                "buffer_out_of_range",
                "buffer access(es) with dwords outside the V#'s range",
            ),
        ] {
            if n > 0 {
                let message = format!("{n} lane {what}: loads read 0, stores are dropped");
                self.events.push(Event::new(kind, wave, pc, message));
            }
        }
    }

    /// The `flat_address_range` and `scratch_overlap` events of an access
    /// ([`vmem::in_virtual_range`], [`crate::addr::ScratchLayout::spills_past_wave`]).
    fn address_rule_events(&mut self, wi: usize, pc: usize, out: &vmem::VmemOutcome) {
        let wave = self.waves[wi].id;
        for (lanes, at, kind, what) in [
            (
                out.beyond_va,
                out.beyond_va_at,
                "flat_address_range",
                "addressed memory outside the 48-bit virtual address space (and outside the flat apertures): a memory violation; the accesses were dropped (loads read 0)",
            ),
            (
                out.scratch_overlap,
                out.scratch_overlap_at,
                "scratch_overlap",
                "reached past their wave's scratch region into the next wave's private memory (scratch_size is not a multiple of 4, so the swizzled last dword overlaps)",
            ),
        ] {
            if lanes == 0 {
                continue;
            }
            self.events.push(
                Event::new(
                    kind,
                    wave,
                    pc,
                    format!(
                        "lanes {} {what}; lane {} at {at:#x}",
                        crate::banks::lane_ranges(lanes),
                        lanes.trailing_zeros()
                    ),
                )
                .with_detail(crate::event::EventDetail {
                    lanes: (0..64).filter(|l| lanes >> l & 1 == 1).collect(),
                    address: Some(at),
                    ..Default::default()
                }),
            );
        }
    }

    /// The `out_of_bounds` event of a global access some lanes made outside every host
    /// allocation: the lanes, the first one's address and the allocation it is nearest.
    fn out_of_bounds_event(
        &self,
        wi: usize,
        pc: usize,
        inst: &Instruction,
        out: &vmem::VmemOutcome,
    ) -> Event {
        let lanes = out.out_of_bounds;
        let what = match vmem::global_op_of(inst.opcode) {
            Some(GlobalOp::Store { .. } | GlobalOp::Format { store: true, .. }) => {
                "the writes are dropped"
            }
            Some(GlobalOp::Atomic { .. }) => "the atomics are dropped (returning 0)",
            _ => "the reads give 0",
        };
        Event::new(
            "out_of_bounds",
            self.waves[wi].id,
            pc,
            format!(
                "lanes {} ({} lane{}) accessed global memory outside every allocation: lane {} at {:#x}, {}; {what}",
                crate::banks::lane_ranges(lanes),
                lanes.count_ones(),
                if lanes.count_ones() == 1 { "" } else { "s" },
                lanes.trailing_zeros(),
                out.out_of_bounds_at,
                self.memory.allocations.describe(out.out_of_bounds_at),
            ),
        )
    }
}
