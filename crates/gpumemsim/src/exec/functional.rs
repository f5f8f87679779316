//! The functional run ([`RunConfig::functional`], `gpumemsim run --functional`): the same
//! instructions through the same unit models, without the timing model and the observers.
//!
//! What it leaves out, and why the results stay those of the timed run
//! (docs/functional.md):
//! - The issue model (dependencies, units, `s_delay_alu`), the LDS pipe, the bank model and the
//!   vector caches only decide *when* things happen.
//! - Data a memory instruction returns is written to its registers when it issues, and no
//!   operation stays outstanding, so `s_waitcnt` never waits. The timed run writes it when it
//!   lands; a program that waits before it reads what it loaded (as every correct program
//!   does) reads the same values either way.
//! - The shadow-memory checks, the timeline and the samples of the HTML report only watch.
//! - The scalar cache stays: a scalar load can return what the cache holds rather than what
//!   memory holds, which is a result.
//!
//! The schedule differs: a wave runs until it blocks (a barrier, GWS, an ordered-count turn),
//! ends, or has run [`FUNCTIONAL_SLICE`] instructions, then the queue's next wave takes its
//! turn. A program whose result depends on the order of its waves' accesses (a global
//! atomic counter handing out slots, two workgroups racing for one word) can give another of
//! its possible results, as another run on the hardware can; every other program gives the
//! timed run's registers and memory, bit for bit.

use rdna3_isa::asm::AsmLine;

use super::{control, progress, Device, RunConfig, RunError};

/// Instructions a wave runs before the next queued wave takes its turn in a functional run:
/// long enough that switching waves costs little, short enough that a wave spinning on a
/// flag another wave sets gives that wave its turn soon.
pub const FUNCTIONAL_SLICE: u32 = 256;

impl Device {
    /// Runs `program` functionally (the module text) until every wave ends.
    pub(super) fn run_functional(
        &mut self,
        program: &[AsmLine],
        cfg: &RunConfig,
        code: &control::CodeMap,
        mark: &mut progress::ProgressMark,
    ) -> Result<(), RunError> {
        let result = self.take_turns(program, cfg, code, mark);
        // The unit models add latencies and stalls as they go: a functional run keeps only
        // its counts.
        for s in &mut self.stats {
            *s = s.untimed();
        }
        result
    }

    /// Runs the queue's next wave for a turn ([`Device::run_slice`]) until no wave can run.
    fn take_turns(
        &mut self,
        program: &[AsmLine],
        cfg: &RunConfig,
        code: &control::CodeMap,
        mark: &mut progress::ProgressMark,
    ) -> Result<(), RunError> {
        loop {
            if let Some(p) = self.placement.as_mut() {
                p.recycle();
            }
            let Some(wi) = self.next_wave() else {
                return self.no_wave_left(program);
            };
            self.run_slice(wi, program, cfg, code, mark)?;
            if !self.waves[wi].done && self.waits[wi].is_none() {
                self.queue(wi);
            }
        }
    }

    /// Runs wave `wi` until it ends or blocks, or for [`FUNCTIONAL_SLICE`] instructions.
    fn run_slice(
        &mut self,
        wi: usize,
        program: &[AsmLine],
        cfg: &RunConfig,
        code: &control::CodeMap,
        mark: &mut progress::ProgressMark,
    ) -> Result<(), RunError> {
        for _ in 0..FUNCTIONAL_SLICE {
            let pc = self.waves[wi].pc;
            self.count_step(wi, cfg, mark)?;
            if pc >= program.len() {
                self.run_off_end(wi, pc);
                mark.ended += 1;
                return Ok(());
            }
            self.step(wi, pc, program, cfg, code, None)?;
            if self.waves[wi].done {
                mark.ended += 1;
                return Ok(());
            }
            if self.waits[wi].is_some() {
                return Ok(());
            }
        }
        Ok(())
    }
}
