//! The progress bar of `gpumemsim run`: drawn on a terminal's standard error, never when the
//! output is piped or `--json`. A terminal comes from `script` (util-linux), and
//! `GPUMEMSIM_PROGRESS_AFTER_MS=0` makes the bar appear on a short run.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use common::run;

fn find_script() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("script"))
        .find(|p| p.is_file())
}

/// Runs `gpumemsim ARGS` on a pseudo-terminal (stdout and stderr both); returns what the
/// terminal showed, or `None` after saying the test is skipped when `script` is missing.
fn on_terminal(test: &str, args: &str) -> Option<String> {
    let Some(script) = find_script() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: `script` (util-linux) is missing"
        );
        // Written to the process's stderr directly: the test harness captures eprintln!.
        let _ = writeln!(std::io::stderr(), "SKIPPED (no `script` command) {test}");
        return None;
    };
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_gpumemsim"));
    let o = Command::new(script)
        .args(["-qec", &command, "/dev/null"])
        .env("GPUMEMSIM_PROGRESS_AFTER_MS", "0")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run script");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Some(String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn a_terminal_shows_the_bar_and_it_clears_itself() {
    let Some(screen) = on_terminal("a_terminal_shows_the_bar", "run --grid 4") else {
        return;
    };
    assert!(screen.contains("/4 waves"), "{screen:?}");
    // The last frame is cleared before the summary is printed.
    let summary = screen
        .find("kernel `transpose_naive`: 4 wave(s) of 32 lanes")
        .expect("the summary");
    assert!(screen[..summary].ends_with("\r\x1b[2K"), "{screen:?}");
}

#[test]
fn json_on_a_terminal_draws_no_bar() {
    let Some(screen) = on_terminal("json_on_a_terminal_draws_no_bar", "run --grid 4 --json") else {
        return;
    };
    assert!(screen.contains("\"steps\""), "{screen:?}");
    assert!(!screen.contains("waves  "), "{screen:?}");
    assert!(!screen.contains("\x1b[2K"), "{screen:?}");
}

#[test]
fn piped_output_draws_no_bar() {
    let o = run(&["run", "--grid", "4"], "");
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.is_empty(), "{err:?}");
}

#[test]
fn a_grid_that_runs_again_together_says_why_on_the_bar() {
    // The histogram's workgroups all add to the same global bins: run apart, they touch the
    // same bytes, so the grid runs again with every workgroup together.
    let args = format!(
        "run {}/../../examples/apps/build/histogram256.o --kernel histogram256_block --grid 6 \
         --block 128 --wgps 6 --arg buf:u8[3000]=rand:7 --arg i32:3000 --arg buf:u32[256]=zeros",
        env!("CARGO_MANIFEST_DIR")
    );
    let Some(screen) = on_terminal("a_grid_that_runs_again_together_says_why", &args) else {
        return;
    };
    assert!(
        screen.contains(
            "(running again with every workgroup together: workgroups on WGPs 0 and 1 touch the same global memory)"
        ),
        "{screen:?}"
    );
}
