//! The progress bar of `gpumemsim run`: on standard error, only when standard error is a
//! terminal and the output is not `--json`, and only once a run has gone on for a second.
//!
//! The run adds to [`RunProgress`] counters in batches (instructions executed, waves ended);
//! a thread of ours reads them ten times a second and redraws one line. When the run ends the
//! line is cleared, so the bar leaves nothing behind in the terminal.
//!
//! `GPUMEMSIM_PROGRESS_AFTER_MS` sets how long a run goes before the bar appears (default
//! 1000), for testing the bar on short runs.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use gpumemsim::exec::RunProgress;

/// How long a run goes before the bar appears.
const DEFAULT_AFTER: Duration = Duration::from_millis(1000);
/// Time between redraws.
const PERIOD: Duration = Duration::from_millis(100);
/// Width of the bar itself, in characters.
const BAR_WIDTH: usize = 30;

/// A progress bar that may be drawing on another thread.
pub struct ProgressBar {
    counters: Option<Arc<RunProgress>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ProgressBar {
    /// Starts a bar for a run of `total_waves` waves, if standard error is a terminal and
    /// `json` is false; otherwise a bar that does nothing (and gives the run no counters).
    pub fn start(total_waves: u64, json: bool) -> ProgressBar {
        if json || !std::io::stderr().is_terminal() {
            return ProgressBar::off();
        }
        let after = std::env::var("GPUMEMSIM_PROGRESS_AFTER_MS")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .map_or(DEFAULT_AFTER, Duration::from_millis);
        ProgressBar::start_on(total_waves, after, Box::new(std::io::stderr()))
    }

    /// A bar that draws nothing.
    pub fn off() -> ProgressBar {
        ProgressBar {
            counters: None,
            stop: Arc::new(AtomicBool::new(false)),
            thread: None,
        }
    }

    /// Starts a bar that draws on `out` once `after` has passed.
    pub fn start_on(total_waves: u64, after: Duration, out: Box<dyn Write + Send>) -> ProgressBar {
        let counters = Arc::new(RunProgress::new());
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (counters, stop) = (counters.clone(), stop.clone());
            std::thread::Builder::new()
                .name("progress".into())
                .spawn(move || draw_until_stopped(&counters, total_waves, after, &stop, out))
                .ok()
        };
        ProgressBar {
            counters: thread.is_some().then_some(counters),
            stop,
            thread,
        }
    }

    /// The counters the run should add to (`None` when the bar is off).
    pub fn counters(&self) -> Option<Arc<RunProgress>> {
        self.counters.clone()
    }

    /// Stops drawing and clears the line.
    pub fn finish(mut self) {
        self.stop_thread();
    }

    fn stop_thread(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

impl Drop for ProgressBar {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

fn draw_until_stopped(
    counters: &RunProgress,
    total_waves: u64,
    after: Duration,
    stop: &AtomicBool,
    mut out: Box<dyn Write + Send>,
) {
    let start = Instant::now();
    let mut shown = false;
    loop {
        // Draw before looking at `stop`: a bar due at once draws at least one frame.
        let elapsed = start.elapsed();
        if elapsed >= after {
            let mut line = render(
                counters.steps(),
                counters.waves_ended(),
                total_waves,
                elapsed,
            );
            if let Some(why) = counters.restart_reason() {
                line = format!("{line}  ({why})");
            }
            let _ = write!(out, "\r\x1b[2K{line}");
            let _ = out.flush();
            shown = true;
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
        std::thread::park_timeout(if elapsed >= after {
            PERIOD
        } else {
            (after - elapsed).min(PERIOD)
        });
    }
    if shown {
        let _ = write!(out, "\r\x1b[2K");
        let _ = out.flush();
    }
}

/// One line of the bar: `[=========>          ]  12/64 waves  1.3M instructions  2.1 s`.
pub fn render(steps: u64, waves_ended: u64, total_waves: u64, elapsed: Duration) -> String {
    let done = waves_ended.min(total_waves);
    let filled = if total_waves == 0 {
        0
    } else {
        (done as u128 * BAR_WIDTH as u128 / total_waves as u128) as usize
    };
    let mut bar = "=".repeat(filled);
    if filled < BAR_WIDTH {
        bar.push('>');
        bar.push_str(&" ".repeat(BAR_WIDTH - filled - 1));
    }
    format!(
        "[{bar}] {done}/{total_waves} waves  {} instructions  {:.1} s",
        count(steps),
        elapsed.as_secs_f64()
    )
}

/// A count in a few characters: `950`, `12.3k`, `4.5M`, `1.2G`.
fn count(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1}M", n as f64 / 1e6),
        _ => format!("{:.1}G", n as f64 / 1e9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn renders_the_fraction_of_waves_ended() {
        let line = render(1_234_567, 16, 64, Duration::from_millis(2500));
        assert_eq!(
            line,
            "[=======>                      ] 16/64 waves  1.2M instructions  2.5 s"
        );
        let full = render(950, 64, 64, Duration::from_secs(1));
        assert!(full.starts_with(&format!("[{}]", "=".repeat(30))), "{full}");
        assert!(full.contains("64/64 waves  950 instructions"));
        // More ended than announced (a grid that restarted) never overflows the bar.
        assert_eq!(
            render(0, 9, 4, Duration::ZERO),
            render(0, 4, 4, Duration::ZERO)
        );
    }

    #[test]
    fn counts_are_short() {
        assert_eq!(count(999), "999");
        assert_eq!(count(12_345), "12.3k");
        assert_eq!(count(4_500_000), "4.5M");
        assert_eq!(count(1_200_000_000), "1.2G");
    }

    /// A `Write` whose bytes the test can read.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("lock").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn draws_the_counters_and_clears_the_line_at_the_end() {
        let out = Shared::default();
        let bar = ProgressBar::start_on(8, Duration::ZERO, Box::new(out.clone()));
        let counters = bar.counters().expect("a bar that draws has counters");
        assert_eq!(counters.waves_ended(), 0);
        // A bar due at once draws a frame even if the run ends first.
        bar.finish();
        let text = String::from_utf8(out.0.lock().expect("lock").clone()).expect("utf-8");
        assert!(text.contains("0/8 waves"), "{text:?}");
        assert!(text.ends_with("\r\x1b[2K"), "{text:?}");
    }

    #[test]
    fn a_bar_that_is_off_gives_no_counters_and_draws_nothing() {
        let bar = ProgressBar::off();
        assert!(bar.counters().is_none());
        bar.finish();
    }
}
