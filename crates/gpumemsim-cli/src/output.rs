//! What a launch reports: `gpumemsim run`'s options ([`RunArgs`]) or `gpumemsim check`'s
//! findings ([`Output`]).

use std::process::ExitCode;

use clap::Args;
use gpumemsim::banks::BankModel;
use gpumemsim::exec::Device;
use gpumemsim::report::SourceTexts;

use crate::check_text::Checked;
use crate::launch_args::LaunchArgs;
use crate::run_text::By;

/// Options of `gpumemsim run`: the launch, then what to report.
#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub launch: LaunchArgs,
    /// What to show at the end (repeatable): vN, sN, m0, exec, vcc, scc, mode (one value per
    /// wave, all workgroups), lds:START:END (workgroup 0's LDS), gds:START:END,
    /// mem:START:END (global memory; all in bytes).
    #[arg(long = "dump", value_name = "WHAT")]
    pub dumps: Vec<String>,
    /// Print one JSON object instead of a readable summary.
    #[arg(long)]
    pub json: bool,
    /// The text report's instruction table: the N hottest instructions (0: all).
    #[arg(long, value_name = "N", default_value_t = 15)]
    pub top: usize,
    /// What the text report's first table groups by.
    #[arg(long, value_enum, default_value_t = By::Line)]
    pub by: By,
    /// Print every value of each buffer argument (the text report summarises them).
    #[arg(long)]
    pub full: bool,
    /// Compare this run with an earlier report (`gpumemsim run ... --json > BEFORE.json`):
    /// the text report ends with the comparison, `--json` gains it under "diff" (as
    /// `gpumemsim diff BEFORE.json AFTER.json` prints it).
    #[arg(long, value_name = "BEFORE.json")]
    pub baseline: Option<String>,
    /// Also print the run's totals under rocprof's counter names (docs/counters.md); --json
    /// always has them under "counters".
    #[arg(long)]
    pub counters: bool,
    /// Code objects: write each buffer argument's final contents to DIR/argN.TYPE.bin.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<String>,
    /// Also write an HTML report to PATH (one self-contained file): the source lines and
    /// instructions, hottest first, a bank × phase heat map of each DS instruction's
    /// costliest execution, and the findings (as `gpumemsim check` lists them) marked on
    /// their lines and instructions.
    #[arg(long, value_name = "PATH")]
    pub html: Option<String>,
}

/// What a launch is for: `run`'s report or `check`'s findings.
#[derive(Clone, Copy)]
pub enum Output<'a> {
    /// `gpumemsim run`: the report (text or JSON), dumps, a baseline comparison.
    Run(&'a RunArgs),
    /// `gpumemsim check`: only the findings.
    Check {
        /// `--json`.
        json: bool,
        /// `--html PATH`.
        html: Option<&'a str>,
    },
}

impl<'a> Output<'a> {
    /// `--json`.
    pub fn json(self) -> bool {
        match self {
            Output::Run(a) => a.json,
            Output::Check { json, .. } => json,
        }
    }

    /// `--html PATH`.
    pub fn html(self) -> Option<&'a str> {
        match self {
            Output::Run(a) => a.html.as_deref(),
            Output::Check { html, .. } => html,
        }
    }

    /// Ends a launch whose output has been printed: the error of a run that stopped on
    /// standard error and exit status 1; otherwise 0, except that `check` exits 1 when it
    /// found something (notes do not count).
    pub fn finish(self, error: Option<String>, device: &Device) -> ExitCode {
        if let Some(e) = error {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
        match self {
            Output::Check { .. }
                if device
                    .events()
                    .iter()
                    .any(|e| !gpumemsim::check::is_note(e.kind)) =>
            {
                ExitCode::from(1)
            }
            _ => ExitCode::SUCCESS,
        }
    }
    /// Reports a launch that has run: `check`'s findings, or `run`'s report as `report`
    /// writes it; then the HTML report when `--html` asks; returns the exit status
    /// ([`Output::finish`]).
    pub fn report(
        self,
        ran: &Ran,
        texts: &mut SourceTexts,
        report: impl FnOnce(&RunArgs, &mut SourceTexts) -> Result<(), String>,
    ) -> Result<ExitCode, String> {
        let c = &ran.checked;
        match self {
            Output::Check { json, .. } => crate::check_text::print(json, c, texts),
            Output::Run(args) => report(args, texts)?,
        }
        if let Some(path) = self.html() {
            let source = crate::html_out::RunSource {
                title: ran.html_title,
                file: ran.file,
                error: c.error.map(String::from),
            };
            crate::html_out::write_run_report(
                path,
                source,
                (c.program, c.base),
                c.device,
                ran.banks,
                c.sources,
                texts,
            )?;
        }
        Ok(self.finish(c.error.map(String::from), c.device))
    }
}

/// A launch that has run, as every output needs it.
pub struct Ran<'a> {
    /// What ran and what it did, as `check` reports it (its title names what ran).
    pub checked: Checked<'a>,
    /// The HTML report's title.
    pub html_title: &'a str,
    /// The program's file, for the HTML report.
    pub file: &'a str,
    /// The bank model that priced the LDS accesses.
    pub banks: &'a BankModel,
}
