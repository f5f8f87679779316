//! The progress bar of `gpumemsim run`: on standard error, only when standard error is a
//! terminal and the output is not `--json`, and only once a run has gone on for a second.
//!
//! The run adds to [`RunProgress`] counters in batches (instructions executed, waves ended);
//! a thread of ours reads them ten times a second and hands them to an `indicatif` bar, which
//! draws the line. When the run ends the line is cleared, so the bar leaves nothing behind in
//! the terminal.
//!
//! `GPUMEMSIM_PROGRESS_AFTER_MS` sets how long a run goes before the bar appears (default
//! 1000), for testing the bar on short runs.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use gpumemsim::exec::RunProgress;
use indicatif::{ProgressDrawTarget, ProgressState, ProgressStyle, TermLike};

/// How long a run goes before the bar appears.
const DEFAULT_AFTER: Duration = Duration::from_millis(1000);
/// The width taken for a terminal that does not say its own (a pseudo-terminal without a
/// size): wide enough that the line never wraps.
const UNKNOWN_WIDTH: u16 = 1000;
/// Time between redraws.
const PERIOD: Duration = Duration::from_millis(100);
/// The bar's template: the bar itself (30 characters), the waves ended, then [`tail`].
const TEMPLATE: &str = "[{bar:30}] {pos}/{len} waves  {tail}";

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
        let term = Terminal {
            out: Mutex::new(Box::new(std::io::stderr())),
            width: || console::Term::stderr().size_checked().map(|(_, cols)| cols),
        };
        ProgressBar::start_with(total_waves, after, term.draw_target())
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
    #[cfg(test)]
    pub fn start_on(total_waves: u64, after: Duration, out: Box<dyn Write + Send>) -> ProgressBar {
        let term = Terminal {
            out: Mutex::new(out),
            width: || Some(80),
        };
        ProgressBar::start_with(total_waves, after, term.draw_target())
    }

    /// Starts a bar that draws on `target` once `after` has passed.
    fn start_with(total_waves: u64, after: Duration, target: ProgressDrawTarget) -> ProgressBar {
        let counters = Arc::new(RunProgress::new());
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (counters, stop) = (counters.clone(), stop.clone());
            std::thread::Builder::new()
                .name("progress".into())
                .spawn(move || draw_until_stopped(&counters, total_waves, after, &stop, target))
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

/// The thread of a bar: once `after` has passed, hands the counters to an `indicatif` bar
/// every [`PERIOD`] until `stop`, then clears the line.
fn draw_until_stopped(
    counters: &Arc<RunProgress>,
    total_waves: u64,
    after: Duration,
    stop: &AtomicBool,
    target: ProgressDrawTarget,
) {
    let start = Instant::now();
    let mut target = Some(target);
    let mut bar: Option<indicatif::ProgressBar> = None;
    loop {
        // Draw before looking at `stop`: a bar due at once draws at least one frame.
        let elapsed = start.elapsed();
        if elapsed >= after {
            let bar = bar.get_or_insert_with(|| {
                let c = counters.clone();
                let tail = move || tail(c.steps(), start.elapsed(), c.restart_reason());
                let draw = target.take().unwrap_or_else(ProgressDrawTarget::hidden);
                indicatif::ProgressBar::with_draw_target(Some(total_waves), draw)
                    .with_style(style(tail))
            });
            bar.set_position(counters.waves_ended().min(total_waves));
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
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

/// The bar's look ([`TEMPLATE`]), `tail` giving the words after the waves.
fn style(tail: impl Fn() -> String + Send + Sync + Clone + 'static) -> ProgressStyle {
    ProgressStyle::with_template(TEMPLATE)
        .expect("the template is valid")
        .progress_chars("=> ")
        .with_key(
            "tail",
            move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&tail());
            },
        )
}

/// The words after the waves: `1.3M instructions  2.1 s`, then `  (why)` when the run started
/// over.
fn tail(steps: u64, elapsed: Duration, why: Option<String>) -> String {
    let mut s = format!(
        "{} instructions  {:.1} s",
        count(steps),
        elapsed.as_secs_f64()
    );
    if let Some(why) = why {
        s = format!("{s}  ({why})");
    }
    s
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

/// The terminal a bar draws on, for `indicatif`: its bytes go to `out` (ANSI escapes for the
/// cursor; a line is cleared with `\r\x1b[2K`), and `width` gives its width in columns where
/// it is known ([`UNKNOWN_WIDTH`] otherwise).
struct Terminal {
    out: Mutex<Box<dyn Write + Send>>,
    width: fn() -> Option<u16>,
}

impl Terminal {
    /// An `indicatif` draw target on this terminal.
    fn draw_target(self) -> ProgressDrawTarget {
        ProgressDrawTarget::term_like(Box::new(self))
    }

    /// `ESC [ n dir`, or nothing for a move by 0.
    fn move_cursor(&self, n: usize, dir: char) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.write_str(&format!("\x1b[{n}{dir}"))
    }
}

impl std::fmt::Debug for Terminal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Terminal")
    }
}

impl TermLike for Terminal {
    fn width(&self) -> u16 {
        (self.width)().unwrap_or(UNKNOWN_WIDTH)
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.move_cursor(n, 'A')
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.move_cursor(n, 'B')
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.move_cursor(n, 'C')
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.move_cursor(n, 'D')
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.write_str(&format!("{s}\n"))
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        let mut out = self.out.lock().map_err(|_| std::io::ErrorKind::Other)?;
        out.write_all(s.as_bytes())
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.write_str("\r\x1b[2K")
    }
    fn flush(&self) -> std::io::Result<()> {
        let mut out = self.out.lock().map_err(|_| std::io::ErrorKind::Other)?;
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One line of the bar as `indicatif` draws it on an 80-column terminal:
    /// `[=========>          ]  12/64 waves  1.3M instructions  2.1 s`.
    pub fn render(steps: u64, waves_ended: u64, total_waves: u64, elapsed: Duration) -> String {
        let out = Shared::default();
        let term = Terminal {
            out: Mutex::new(Box::new(out.clone())),
            width: || Some(80),
        };
        let bar = indicatif::ProgressBar::with_draw_target(Some(total_waves), term.draw_target())
            .with_style(style(move || tail(steps, elapsed, None)));
        bar.set_position(waves_ended.min(total_waves));
        bar.finish_and_clear();
        let text = String::from_utf8(out.0.lock().expect("lock").clone()).expect("utf-8");
        // The first frame, without the spaces that fill the terminal's line after it.
        let frame = text.split('\r').next().unwrap_or("");
        frame.trim_end().to_string()
    }

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
