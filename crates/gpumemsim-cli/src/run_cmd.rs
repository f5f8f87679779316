//! `gpumemsim run PROGRAM`: run an assembly program, a code object's kernel or a source, and
//! report what the memory system did. The launch ([`crate::launch`]) is shared with
//! `gpumemsim check`, which reports the same run's findings instead.

use std::process::ExitCode;

use crate::output::{Output, RunArgs};

/// `gpumemsim run`.
pub fn run(args: &RunArgs) -> Result<ExitCode, String> {
    if args.launch.functional {
        // What a functional run does not have, asked for: an error before any work.
        for (asked, what) in [
            (
                args.html.is_some(),
                "--html (its pictures are the timed run's)",
            ),
            (
                args.counters,
                "--counters (they count cycles and cache lines)",
            ),
            (args.baseline.is_some(), "--baseline (it compares cycles)"),
            (
                args.launch.timing.is_some(),
                "--timing (its parameters are the timing model's)",
            ),
            (
                args.launch.banks.is_some(),
                "--banks (the bank model prices cycles)",
            ),
        ] {
            if asked {
                return Err(format!(
                    "--functional runs without the timing model, so it has nothing for {what}; drop one of the two"
                ));
            }
        }
    }
    // A baseline that cannot be read is an error before any work.
    if let Some(path) = &args.baseline {
        crate::diff_cmd::read_report(path).map_err(|e| format!("--baseline {e}"))?;
    }
    crate::launch::launch(&args.launch, Output::Run(args))
}
