//! `--html PATH`: writing the HTML reports of `run` and `banks` (the pages themselves are
//! built by `gpumemsim::report`).

use gpumemsim::banks::{Access, BankModel, Suggestion};
use gpumemsim::exec::Device;
use gpumemsim::isa::asm::AsmLine;
use gpumemsim::report::{banks_page, run_page, BanksReport, InstSource, RunReport, SourceTexts};

/// What a run report says about where the run came from.
pub struct RunSource<'a> {
    /// The page title: the kernel's name, or the assembly file's.
    pub title: &'a str,
    /// The file run.
    pub file: &'a str,
    /// Why the run stopped early, if it did.
    pub error: Option<String>,
}

/// Writes the HTML report of a run to `path`: `program` and its address (a kernel's in its
/// code object, as `llvm-objdump-19` prints it; 0 for assembly). `model` must be the bank model the run used;
/// `sources` gives each instruction's source line (`gpumemsim::report::kernel_sources` or
/// `assembly_sources`), `texts` the lines' text.
pub fn write_run_report(
    path: &str,
    source: RunSource,
    program: (&[AsmLine], u64),
    device: &Device,
    model: &BankModel,
    sources: &[Option<InstSource>],
    texts: &mut SourceTexts,
) -> Result<(), String> {
    let report = RunReport::new(source.title, program.0, device, model)
        .with_base(program.1)
        .with_sources(sources, texts)
        .with_fact("program", source.file)
        .with_error(source.error);
    write(path, &run_page(&report))
}

/// Writes the HTML report of a `banks` access (and its suggested layouts) to `path`.
pub fn write_banks_report(
    path: &str,
    model: &BankModel,
    op: &str,
    access: &Access<u64>,
    suggestions: Option<&[Suggestion]>,
) -> Result<(), String> {
    let report = BanksReport::new(model, op, access, suggestions).map_err(|e| e.to_string())?;
    write(path, &banks_page(&report))
}

fn write(path: &str, html: &str) -> Result<(), String> {
    std::fs::write(path, html).map_err(|e| format!("--html {path}: {e}"))
}
