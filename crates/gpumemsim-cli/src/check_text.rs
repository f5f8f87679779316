//! The findings of `gpumemsim check` as it prints them: one JSON object, or the text (each
//! finding with its instructions and source lines, then a one-line summary).

use std::fmt::Write as _;

use gpumemsim::exec::Device;
use gpumemsim::isa::asm::AsmLine;
use gpumemsim::report::{id_ranges, InstSource, SourceTexts};
use serde_json::json;

/// A launch that has run, as `check` reports it.
pub struct Checked<'a> {
    /// What ran: `kernel `name`` or the assembly file.
    pub title: &'a str,
    /// The program.
    pub program: &'a [AsmLine],
    /// Its address as `llvm-objdump-19` prints it (a kernel's in its code object; 0 for an
    /// assembly program): instructions are named by this plus their offset.
    pub base: u64,
    /// Each instruction's source line, where known.
    pub sources: &'a [Option<InstSource>],
    /// The device after the run (its events).
    pub device: &'a Device,
    /// Why the run stopped early, if it did.
    pub error: Option<&'a str>,
}

/// Prints the findings: one JSON object with `json` (`--json`), otherwise the text (each finding, then
/// a one-line summary). The error of a run that stopped goes into the JSON as `"error"`; the
/// caller prints it on standard error.
pub fn print(json: bool, c: &Checked, texts: &mut SourceTexts) {
    if json {
        let (findings, notes) =
            gpumemsim::report::json::findings_and_notes(c.program, c.base, c.device, c.sources);
        let mut obj = json!({"findings": findings, "notes": notes});
        if let Some(e) = c.error {
            obj["error"] = json!(e);
        }
        outln!("{obj}");
    } else {
        out!("{}", render(c, texts));
    }
}

/// The text of `check`: each finding — its kind and count, waves, lanes and address, its
/// message, its instructions (llvm-objdump-19's address, text, source place and the source
/// line's text) —
/// then each note the same way (`note: KIND ×N ...`), then `TITLE: N findings (M events)` or
/// `TITLE: no findings`, with `, K notes` when there are notes.
pub fn render(c: &Checked, texts: &mut SourceTexts) -> String {
    let events = c.device.events();
    let findings = gpumemsim::check::findings(events);
    let notes = gpumemsim::check::notes(events);
    let mut s = String::new();
    for f in &findings {
        group_text(&mut s, "", f, c, texts);
    }
    for f in &notes {
        group_text(&mut s, "note: ", f, c, texts);
    }
    let noted = match notes.len() {
        0 => String::new(),
        1 => " (1 note)".to_string(),
        n => format!(" ({n} notes)"),
    };
    if findings.is_empty() {
        let _ = writeln!(s, "{}: no findings{noted}", c.title);
    } else {
        let in_findings = events
            .iter()
            .filter(|e| !gpumemsim::check::is_note(e.kind))
            .count();
        let _ = writeln!(
            s,
            "{}: {} ({}){noted}",
            c.title,
            plural(
                findings.len(),
                "1 finding",
                &format!("{} findings", findings.len())
            ),
            plural(in_findings, "1 event", &format!("{in_findings} events"))
        );
    }
    s
}

/// One finding or note (`prefix` "note: "): its head line, message and instructions.
fn group_text(
    s: &mut String,
    prefix: &str,
    f: &gpumemsim::check::Finding,
    c: &Checked,
    texts: &mut SourceTexts,
) {
    let mut head = format!("{prefix}{} ×{}", f.kind, f.count);
    if !f.waves.is_empty() {
        let _ = write!(
            head,
            "  {} {}",
            plural(f.waves.len(), "wave", "waves"),
            id_ranges(&f.waves)
        );
    }
    if !f.lanes.is_empty() {
        let _ = write!(
            head,
            "  {} {}",
            plural(f.lanes.len(), "lane", "lanes"),
            id_ranges(&f.lanes)
        );
    }
    if let Some(a) = f.address {
        let _ = write!(head, "  address {a:#x}");
    }
    let _ = writeln!(s, "{head}\n  {}", f.message);
    let rows: Vec<(String, String, String)> = f
        .pcs
        .iter()
        .filter_map(|&pc| {
            let l = c.program.get(pc)?;
            let text = l.text();
            let place = match c.sources.get(pc) {
                Some(Some(src)) if src.location.line > 0 => {
                    let loc = &src.location;
                    let name = loc.file.rsplit('/').next().unwrap_or(&loc.file);
                    let line = texts
                        .line(&loc.file, loc.line)
                        .filter(|t| !t.is_empty() && *t != text)
                        .map_or(String::new(), |t| format!("  {t}"));
                    format!("{name}:{}:{}{line}", loc.line, loc.column)
                }
                _ => String::new(),
            };
            let address = c.base.wrapping_add(i64::from(l.address as i32) as u64);
            Some((format!("{address:#x}"), text, place))
        })
        .collect();
    let (wa, wt) = rows.iter().fold((0, 0), |(a, t), r| {
        (a.max(r.0.len()), t.max(r.1.chars().count()))
    });
    for (addr, text, place) in rows {
        let line = format!("    {addr:>wa$}  {text:<wt$}  {place}");
        let _ = writeln!(s, "{}", line.trim_end());
    }
    s.push('\n');
}

/// `one` for 1, `many` otherwise.
fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}
