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

use super::quick::execute_fast;
use super::{control, progress, Device, RunConfig, RunError};

/// Instructions a wave runs before the next queued wave takes its turn in a functional run:
/// long enough that switching waves costs little, short enough that a wave spinning on a
/// flag another wave sets gives that wave its turn soon.
pub const FUNCTIONAL_SLICE: u32 = 256;

/// What every turn of a functional run reads: the program, the run's settings and the
/// program's branch targets.
struct Turns<'a> {
    program: &'a [AsmLine],
    cfg: &'a RunConfig,
    code: &'a control::CodeMap,
}

impl Device {
    /// Runs `program` functionally (the module text) until every wave ends.
    pub(super) fn run_functional(
        &mut self,
        program: &[AsmLine],
        cfg: &RunConfig,
        code: &control::CodeMap,
        mark: &mut progress::ProgressMark,
    ) -> Result<(), RunError> {
        let turns = Turns { program, cfg, code };
        let result = self.take_turns(&turns, mark);
        // The unit models add latencies and stalls as they go: a functional run keeps only
        // its counts.
        for s in &mut self.stats {
            *s = s.untimed();
        }
        result
    }

    /// Runs the queue's next wave for a turn ([`Device::run_slice`]) until no wave can run.
    fn take_turns(&mut self, t: &Turns, mark: &mut progress::ProgressMark) -> Result<(), RunError> {
        loop {
            if let Some(p) = self.placement.as_mut() {
                p.recycle();
            }
            let Some(wi) = self.next_wave() else {
                return self.no_wave_left(t.program);
            };
            let ran = self.run_slice(wi, t, mark);
            // A wave's clock counts its steps: the wave that ran longest goes last.
            self.clocks[wi] = self.clocks[wi].max(self.waves[wi].steps);
            ran?;
            if !self.waves[wi].done && self.waits[wi].is_none() {
                self.queue(wi);
            }
        }
    }

    /// Runs wave `wi` until it ends or blocks, or for [`FUNCTIONAL_SLICE`] instructions:
    /// stretches of the common kinds in [`Device::run_fast`], the others one at a time
    /// through [`Device::step`].
    fn run_slice(
        &mut self,
        wi: usize,
        t: &Turns,
        mark: &mut progress::ProgressMark,
    ) -> Result<(), RunError> {
        let mut left = FUNCTIONAL_SLICE;
        while left > 0 {
            let before = self.steps;
            let ran = self.run_fast(wi, t, left);
            self.report_progress(before, t.cfg, mark)?;
            left -= ran?;
            if left == 0 {
                break;
            }
            // The next instruction is one the step runs (or the wave is at its step limit,
            // or past the program's end).
            let pc = self.waves[wi].pc;
            self.count_step(wi, t.cfg, mark)?;
            left -= 1;
            if pc >= t.program.len() {
                self.run_off_end(wi, pc);
                mark.ended += 1;
                return Ok(());
            }
            self.step(wi, pc, t.program, t.cfg, t.code, None)?;
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

    /// Runs up to `budget` instructions of wave `wi` while they are of the common kinds
    /// ([`Fast`]) and the wave is under its step limit, doing for each
    /// what [`Device::step`] does in a functional run; returns how many ran. None of these
    /// kinds ends or blocks a wave.
    fn run_fast(&mut self, wi: usize, t: &Turns, budget: u32) -> Result<u32, RunError> {
        let (max_steps, targets) = (t.cfg.max_steps, &t.code.targets);
        let Device {
            waves,
            valu,
            stats,
            facts,
            ..
        } = self;
        let w = &mut waves[wi];
        let mut ran = 0;
        let result = loop {
            let pc = w.pc;
            let (Some(f), Some(line)) = (facts.get(pc).and_then(|f| f.fast), t.program.get(pc))
            else {
                break Ok(());
            };
            if ran == budget || w.steps >= max_steps {
                break Ok(());
            }
            w.steps += 1;
            ran += 1;
            let done = execute_fast(w, valu, pc, line, f, targets);
            let next = match done {
                Ok(next) => next,
                Err(e) => break Err(e),
            };
            w.pc = next;
            stats[pc].executions += 1;
        };
        self.steps += u64::from(ran);
        result.map(|()| ran)
    }
}
