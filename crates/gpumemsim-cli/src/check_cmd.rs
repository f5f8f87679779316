//! `gpumemsim check PROGRAM [launch options]`: run a launch as `gpumemsim run` does and report
//! only what it did wrong — its events grouped into findings by kind and instructions
//! (`gpumemsim::check`), each with its count, instructions (and their source lines), waves,
//! lanes and memory address. Exit status 0 when clean, 1 when something was found or the run
//! stopped, 2 for bad input (docs/check.md).

use std::process::ExitCode;

use clap::Args;

use crate::launch_args::LaunchArgs;
use crate::output::Output;

/// Options of `gpumemsim check`: the launch (as `run` takes it) and the output.
#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub launch: LaunchArgs,
    /// Print one JSON object, `{"findings": [...]}` (with `"error"` when the run stopped),
    /// instead of the text (docs/check.md lists the keys).
    #[arg(long)]
    pub json: bool,
    /// Also write the run's HTML report to PATH (as `run --html` does), the findings marked on
    /// their source lines and instructions.
    #[arg(long, value_name = "PATH")]
    pub html: Option<String>,
}

/// `gpumemsim check`.
pub fn check(args: &CheckArgs) -> Result<ExitCode, String> {
    if args.launch.no_check {
        return Err("--no-check is for `run`: `check` always runs every check".into());
    }
    if args.launch.functional {
        return Err(
            "--functional is for `run`: `check` needs the timed run its checks watch".into(),
        );
    }
    let out = Output::Check {
        json: args.json,
        html: args.html.as_deref(),
    };
    crate::launch::launch(&args.launch, out)
}
