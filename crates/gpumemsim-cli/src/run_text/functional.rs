//! The text report of a functional run (`--functional`): what ran, its errors, the source
//! lines and instructions most executed first, the events and the dumps. It has no cycles:
//! the run had no timing model.

use std::fmt::Write as _;

use gpumemsim::report::{by_function, by_line, SourceRow, SourceTexts};
use serde_json::{Map, Value};

use super::{
    dump_lines, error_counts, events, instruction_place, row_place, top_heading, By, TextView,
};

/// The whole report.
pub(super) fn render(v: &TextView, texts: &mut SourceTexts, dumps: &Map<String, Value>) -> String {
    let mut s = header(v);
    let rows = match v.by {
        By::Line => Some((by_line(v.sources, v.device.stats()), "Source lines")),
        By::Function => Some((by_function(v.sources, v.device.stats()), "Functions")),
        By::Instruction => None,
    };
    if let Some((mut rows, what)) = rows.filter(|(r, _)| !r.is_empty()) {
        let texts = (v.by == By::Line).then_some(texts);
        source_table(&mut s, what, &mut rows, texts);
    }
    instruction_table(&mut s, v);
    events(&mut s, v);
    dump_lines(&mut s, dumps);
    s
}

/// What ran, its errors, and what a functional run is.
fn header(v: &TextView) -> String {
    let d = v.device;
    let mut s = format!(
        "{}: {} wave(s) of {} lanes in {} workgroup(s), {} wave-instructions executed\n",
        v.title,
        d.wave_count(),
        d.wave_size(),
        d.workgroup_count().max(1),
        d.steps()
    );
    if let Some(line) = error_counts(d) {
        let _ = writeln!(s, "{line}");
    }
    if let Some(p) = d.preset() {
        let wgps = d.placement().wgps;
        let _ = writeln!(
            s,
            "  device       {} ({}): {wgps} {}{}",
            p.product,
            p.name,
            p.unit,
            if wgps == 1 { "" } else { "s" }
        );
    }
    let _ = writeln!(
        s,
        "  functional   results only (--functional): no timing model and no checks, so no cycles (docs/functional.md)"
    );
    s
}

/// The rows, most executed first.
fn source_table(
    s: &mut String,
    what: &str,
    rows: &mut [SourceRow],
    mut texts: Option<&mut SourceTexts>,
) {
    rows.sort_by_key(|r| {
        (
            std::cmp::Reverse(r.stats.executions),
            r.instructions.first().copied(),
        )
    });
    let _ = writeln!(
        s,
        "\n{what}, most executed first (wave-instructions summed over waves)"
    );
    let _ = writeln!(
        s,
        "   execs  insts  {}",
        if texts.is_some() { "line" } else { "function" }
    );
    for r in rows.iter() {
        let place = row_place(r, texts.as_deref_mut());
        let _ = writeln!(
            s,
            "{:>8} {:>6}  {}",
            r.stats.executions,
            r.instructions.len(),
            place.trim_end()
        );
    }
}

/// The `--top` instructions, most executed first.
fn instruction_table(s: &mut String, v: &TextView) {
    let stats = v.device.stats();
    let mut order: Vec<usize> = (0..v.program.len()).collect();
    order.sort_by_key(|&pc| (std::cmp::Reverse(stats[pc].executions), pc));
    let shown = top_heading(s, v, "most executed first");
    let _ = writeln!(
        s,
        "{:>10}    execs  {:<22} instruction",
        "address", "line:column"
    );
    for &pc in &order[..shown] {
        let (address, place) = instruction_place(v, pc);
        let _ = writeln!(
            s,
            "{address:>10} {:>8}  {place:<22} {}",
            stats[pc].executions,
            v.program[pc].text()
        );
    }
}
