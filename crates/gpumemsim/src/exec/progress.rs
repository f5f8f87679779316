//! How far a run has got, for a progress bar on another thread ([`RunConfig::progress`]).
//!
//! The executor adds to two counters: instructions executed and waves ended. It does so in
//! batches — every [`PROGRESS_STEPS`] instructions and when [`Device::run`] returns — so a run
//! that reports pays one branch per instruction and one atomic add per batch, and a run that
//! does not report pays the branch only. Workgroups run apart on worker threads all add to the
//! same counters; when a grid has to run again together ([`run_grid`]), the counters start
//! over.
//!
//! [`RunConfig::progress`]: super::RunConfig::progress
//! [`Device::run`]: super::Device::run
//! [`run_grid`]: super::run_grid

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// Instructions between two updates of the counters (a power of two).
pub const PROGRESS_STEPS: u64 = 4096;

/// Counters a run adds to as it goes; read them from any thread.
#[derive(Debug, Default)]
pub struct RunProgress {
    steps: AtomicU64,
    waves_ended: AtomicU64,
    restarts: AtomicU64,
    restart_reason: Mutex<Option<String>>,
    cancelled: AtomicBool,
}

impl RunProgress {
    /// Counters at zero.
    pub fn new() -> RunProgress {
        RunProgress::default()
    }

    /// Instructions executed so far (all waves; updated in batches of [`PROGRESS_STEPS`]).
    pub fn steps(&self) -> u64 {
        self.steps.load(Ordering::Relaxed)
    }

    /// Waves that have ended so far.
    pub fn waves_ended(&self) -> u64 {
        self.waves_ended.load(Ordering::Relaxed)
    }

    /// How many times the run started over (a grid that ran apart and then had to run
    /// together).
    pub fn restarts(&self) -> u64 {
        self.restarts.load(Ordering::Relaxed)
    }

    /// Why the run last started over (a grid run again together), for the bar to say.
    pub fn restart_reason(&self) -> Option<String> {
        self.restart_reason.lock().ok().and_then(|r| r.clone())
    }

    /// Asks the run to stop: it ends with [`RunError::Interrupted`](super::RunError) within
    /// [`PROGRESS_STEPS`] instructions (from another thread: a Ctrl-C handler, a UI).
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`RunProgress::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Adds a batch of executed instructions and ended waves.
    pub(crate) fn add(&self, steps: u64, waves_ended: u64) {
        self.steps.fetch_add(steps, Ordering::Relaxed);
        self.waves_ended.fetch_add(waves_ended, Ordering::Relaxed);
    }

    /// Sets the counters back to zero for a run that starts over, and says why.
    pub(crate) fn restart(&self, reason: String) {
        if let Ok(mut r) = self.restart_reason.lock() {
            *r = Some(reason);
        }
        self.steps.store(0, Ordering::Relaxed);
        self.waves_ended.store(0, Ordering::Relaxed);
        self.restarts.fetch_add(1, Ordering::Relaxed);
    }
}

/// What one [`Device::run`](super::Device::run) has added to the counters so far.
pub(crate) struct ProgressMark {
    /// Instructions executed (the device's `steps`) when last reported.
    pub steps: u64,
    /// Waves that ended during this run, and how many of them were reported.
    pub ended: u64,
    pub ended_told: u64,
}

impl ProgressMark {
    /// A mark at the device's current step count.
    pub fn at(steps: u64) -> ProgressMark {
        ProgressMark {
            steps,
            ended: 0,
            ended_told: 0,
        }
    }

    /// Adds what happened since the last report to `progress`.
    pub fn report(&mut self, progress: &RunProgress, steps: u64) {
        progress.add(steps - self.steps, self.ended - self.ended_told);
        self.steps = steps;
        self.ended_told = self.ended;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_report_only_what_is_new() {
        let p = RunProgress::new();
        let mut m = ProgressMark::at(10);
        m.ended = 2;
        m.report(&p, 4106);
        assert_eq!((p.steps(), p.waves_ended()), (4096, 2));
        m.ended = 3;
        m.report(&p, 4200);
        assert_eq!((p.steps(), p.waves_ended()), (4190, 3));
        assert_eq!(p.restart_reason(), None);
        p.restart("workgroups on WGPs 0 and 1 touch the same global memory".into());
        assert_eq!((p.steps(), p.waves_ended(), p.restarts()), (0, 0, 1));
        assert_eq!(
            p.restart_reason().as_deref(),
            Some("workgroups on WGPs 0 and 1 touch the same global memory")
        );
    }
}
