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
