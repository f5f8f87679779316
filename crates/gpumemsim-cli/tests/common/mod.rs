//! Shared helpers of the CLI tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `gpumemsim ARGS` with `stdin` as standard input.
pub fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn gpumemsim");
    // A command that stops before reading its input (an error found first) closes the pipe:
    // that is not the test's failure, the command's output says what happened.
    let written = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("wait")
}

/// The launch of tests/front_door/block_sum.o whose `in` buffer (100 elements) is shorter than
/// `n` (192): the lanes past element 99 read outside it (out-of-bounds events on line 9). On
/// one WGP (the three workgroups in one schedule), wave 3 reaches the load first.
#[allow(dead_code)] // not every test binary uses it
pub const BLOCK_SUM_OUT_OF_BOUNDS: [&str; 16] = [
    "--wgps",
    "1",
    "--grid",
    "3",
    "--block",
    "64",
    "--arg",
    "buf:i32[100]=iota",
    "--arg",
    "buf:i32[12]=zeros",
    "--arg",
    "local:256",
    "--arg",
    "local:512",
    "--arg",
    "i32:192",
];

/// `gpumemsim ARGS` with no input: (exit code, stdout, stderr).
#[allow(dead_code)] // not every test binary uses it
pub fn outcome(args: &[&str]) -> (Option<i32>, String, String) {
    let o = run(args, "");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A JSON array of numbers (a report's buffer or symbol values) as f64s.
#[allow(dead_code)] // not every test binary uses it
pub fn numbers(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

/// The kinds of a JSON report's events, in order.
#[allow(dead_code)] // not every test binary uses it
pub fn event_kinds(report: &serde_json::Value) -> Vec<&str> {
    report["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["kind"].as_str())
        .collect()
}
