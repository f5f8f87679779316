//! The HTML pages: one self-contained file each (inline CSS, inline SVG, one small inline
//! script; no network, no external files).
//!
//! The run page, read like a profiler's source view: a header of facts; an "at a glance"
//! banner naming the worst source line (most bank-conflict cycles, else most issue cycles,
//! linked) and the worst LDS access; the source view, one row per source line hottest first
//! (a button, or `#lines=file` in the address, puts them in file order) with its text, its
//! issue cycles (the bank-conflict part in red) and stall cycles as bars, and its instructions
//! folded under it (address, executions, cycles, conflicts, stalls, and for DS instructions a
//! link to the heat map), instructions with no line last; the DS heat maps, hottest first, one
//! per picture (instructions whose pictures are equal up to a rotation of the banks share
//! one, which lists them all); on a device with vector caches, each vector memory
//! instruction's coalescing picture (lanes × cache lines, [`super::coalescing_svg`]), the most
//! cache lines first, linked from its row, and under each source line its cache lines and hit
//! rates; and the table of every instruction (hottest first; click a
//! column to sort, or open the page with `#sort=KEY` or `#sort=KEY-asc`, KEY one of `pc
//! address line instruction executions cycles conflict stall latency ways`). Opening the page
//! at a line's or an instruction's anchor (`#line-F-L`, `#i-PC`) unfolds it. The findings
//! (the events grouped by kind and instructions, as `gpumemsim check` lists them) are counted
//! in the banner, listed in their own section (`#finding-N`), and marked where they happened:
//! a ⚠ and the kind on each instruction, and on each source line a ⚠ in the summary and the
//! findings' kinds and messages under it. After the heat maps, when the run recorded a
//! timeline, the timeline picture ([`super::timeline_svg`]: a row per wave, its issue, stall
//! and wait segments, the LDS pipes' busy periods, the critical path), and always the units
//! table (each kind of unit's busy cycles and utilisation) and a line on the run's placement.
//! The banks page:
//! the access's heat map and, for `--suggest`, every suggested layout's beside it.

use std::fmt::Write as _;

use super::banks::{BanksReport, LayoutPanel};
use super::coalescing::{coalescing_svg, level_legend};
use super::escape::escape;
use super::heatmap::HeatMap;
use super::run::{
    percent, DsPanel, InstructionRow, RunReport, SourceLine, VmemPanel, MAX_DS_PANELS,
    MAX_VMEM_PANELS,
};
use super::svg::{heat_colour, heat_map_svg, SvgStyle, HEAT_SCALE};
use super::timeline_svg::{placement_line, timeline_svg, units_table, TIMELINE_CSS};

const STYLE: &str = r#"
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328;
  background: #ffffff; margin: 24px 32px; }
h1 { font-size: 22px; margin: 0 0 6px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
h3 { font-size: 14px; margin: 0 0 4px; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 2px 14px; margin: 8px 0 0; }
dl.facts dt { color: #57606a; } dl.facts dd { margin: 0; }
.glance { margin: 16px 0; padding: 12px 16px; border-radius: 6px; font-size: 15px; }
.glance.bad { background: #fff1f0; border: 1px solid #e31a1c; }
.glance.good { background: #effaf2; border: 1px solid #41ab5d; }
.glance strong.ways { color: #800026; font-size: 18px; }
.error { background: #fff1f0; border: 1px solid #e31a1c; padding: 8px 12px; border-radius: 6px; }
.tablebox { max-height: 360px; overflow: auto; border: 1px solid #d0d7de; border-radius: 6px; }
table.sortable { border-collapse: collapse; width: 100%; }
table.sortable th { position: sticky; top: 0; background: #f6f8fa; cursor: pointer; user-select: none;
  text-align: right; padding: 5px 8px; border-bottom: 1px solid #d0d7de; white-space: nowrap; font-weight: 600; }
table.sortable th.text, table.sortable td.text { text-align: left; }
table.sortable th.asc::after { content: " ▲"; font-size: 10px; }
table.sortable th.desc::after { content: " ▼"; font-size: 10px; }
table.sortable td { text-align: right; padding: 3px 8px; border-bottom: 1px solid #eaeef2; white-space: nowrap;
  font-variant-numeric: tabular-nums; }
table.sortable tr.conflict td.ways { color: #800026; font-weight: 700; }
td.bar { background-repeat: no-repeat; background-size: var(--w) 100%;
  background-image: linear-gradient(#ffd8d3, #ffd8d3); }
.legend { display: flex; gap: 14px; align-items: center; flex-wrap: wrap; margin: 6px 0 12px; color: #57606a; }
.legend span.sw { display: inline-block; width: 14px; height: 12px; vertical-align: -2px; margin-right: 4px;
  border-radius: 2px; }
.panel, .timeline-panel { margin: 10px 0 22px; }
.panel .meta { color: #57606a; margin: 0 0 6px; }
.panel.hot h3 .ways { color: #800026; }
.side { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
.side .panel { border: 1px solid #d0d7de; border-radius: 6px; padding: 10px; margin: 0; }
.side .panel.given { border-color: #1f2328; }
.note { color: #57606a; }
.glance a { color: inherit; }
svg.heatmap { display: block; max-width: 100%; height: auto; }
.src { border: 1px solid #d0d7de; border-radius: 6px; overflow-x: auto; }
.src .cols, .src summary { display: grid; grid-template-columns: 1em var(--place, 10em) minmax(14em, 1fr) 4.5em 8em 4.5em 4.5em 6em;
  gap: 0 8px; align-items: center; padding: 3px 8px; }
.src .cols { background: #f6f8fa; border-bottom: 1px solid #d0d7de; border-radius: 6px 6px 0 0; }
.src .cols span { font-weight: 600; }
.src .n { text-align: right; font-variant-numeric: tabular-nums; }
.src details { border-bottom: 1px solid #eaeef2; }
.src details:last-child { border-bottom: 0; }
.src summary { cursor: pointer; list-style: none; }
.src summary::-webkit-details-marker { display: none; }
.src summary::before { content: "▸"; color: #57606a; }
.src details[open] > summary::before { content: "▾"; }
.src details.worst > summary { background: #fff1f0; }
.src summary code, .src summary .mono { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.src summary .conflict { color: #b00020; font-weight: 600; }
.hbar { display: block; height: 10px; background: #eaeef2; border-radius: 2px; overflow: hidden; }
.hbar i { display: flex; justify-content: flex-end; height: 100%; width: var(--w); background: #6e7781; }
.hbar b { display: block; height: 100%; width: var(--c); background: #e31a1c; }
.hbar.stall i { background: #d4a72c; }
.order button { font: inherit; font-size: 12px; padding: 1px 8px; border: 1px solid #d0d7de; background: #f6f8fa;
  border-radius: 4px; cursor: pointer; }
.order button.on { background: #1f2328; color: #ffffff; border-color: #1f2328; }
table.insts { border-collapse: collapse; margin: 2px 0 8px 2.2em; }
table.insts th { text-align: right; font-weight: 600; color: #57606a; padding: 2px 8px; white-space: nowrap; }
table.insts td { text-align: right; padding: 1px 8px; white-space: nowrap; font-variant-numeric: tabular-nums; }
table.insts .text { text-align: left; }
table.insts tr.conflict td { color: #800026; }
table.insts tr:target td { background: #fff8c5; }
.flag { color: #9a3412; background: #fff1e5; border: 1px solid #fb8c00; border-radius: 3px; padding: 0 4px;
  font-size: 12px; white-space: nowrap; text-decoration: none; font-family: system-ui, sans-serif; }
.src details.flagged > summary { box-shadow: inset 3px 0 #fb8c00; }
ul.findings-here { list-style: none; margin: 4px 0 4px 2.2em; padding: 0; }
ul.findings-here li { margin: 2px 0; }
table.insts tr.flagged td { background: #fff8ef; }
table.findings td { vertical-align: top; }
table.findings td.text { white-space: normal; }
"#;

/// Sorts `table.sortable` by a clicked column (by a cell's `data-v`, else its text), ties in
/// program order; `#sort=KEY[-asc|-desc]` in the address sorts on load. Puts the source view
/// in file order (its buttons, or `#lines=file`) and unfolds the line or instruction an
/// address's fragment names.
const SCRIPT: &str = r#"
(function () {
  function val(cell) {
    var v = cell.getAttribute('data-v');
    return v === null ? cell.textContent : v;
  }
  function sortBy(table, th, dir) {
    var ths = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var i = ths.indexOf(th);
    var num = th.getAttribute('data-type') === 'num';
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = val(a.cells[i]), y = val(b.cells[i]);
      var c = num ? Number(x) - Number(y) : x.localeCompare(y);
      if (dir === 'desc') c = -c;
      return c !== 0 ? c : Number(a.getAttribute('data-pc')) - Number(b.getAttribute('data-pc'));
    });
    rows.forEach(function (r) { body.appendChild(r); });
    ths.forEach(function (h) { h.classList.remove('asc', 'desc'); h.removeAttribute('aria-sort'); });
    th.classList.add(dir);
    th.setAttribute('aria-sort', dir === 'asc' ? 'ascending' : 'descending');
    table.setAttribute('data-sorted', th.getAttribute('data-key') + '-' + dir);
  }
  var tables = document.querySelectorAll('table.sortable');
  Array.prototype.forEach.call(tables, function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.addEventListener('click', function () {
        var num = th.getAttribute('data-type') === 'num';
        var dir = th.classList.contains('desc') ? 'asc' : th.classList.contains('asc') ? 'desc' : (num ? 'desc' : 'asc');
        sortBy(table, th, dir);
      });
    });
    var m = /^#sort=([a-z]+)(?:-(asc|desc))?$/.exec(window.location.hash);
    if (m) {
      var th = table.querySelector('th[data-key="' + m[1] + '"]');
      if (th) sortBy(table, th, m[2] || (th.getAttribute('data-type') === 'num' ? 'desc' : 'asc'));
    }
  });
  // The source view: hottest first or in file order.
  var src = document.getElementById('lines');
  function order(by) {
    var items = Array.prototype.slice.call(src.children).filter(function (d) { return d.tagName === 'DETAILS'; });
    items.sort(function (a, b) { return Number(a.getAttribute('data-' + by)) - Number(b.getAttribute('data-' + by)); });
    items.forEach(function (d) { src.appendChild(d); });
    src.setAttribute('data-order', by);
    Array.prototype.forEach.call(document.querySelectorAll('.order button'), function (b) {
      b.classList.toggle('on', b.getAttribute('data-order') === by);
    });
  }
  if (src) {
    Array.prototype.forEach.call(document.querySelectorAll('.order button'), function (b) {
      b.addEventListener('click', function () { order(b.getAttribute('data-order')); });
    });
    if (window.location.hash === '#lines=file') order('file');
  }
  // A link to a line or an instruction unfolds it.
  function reveal() {
    var el = window.location.hash.length > 1 && document.getElementById(window.location.hash.slice(1));
    if (!el) return;
    for (var e = el; e; e = e.parentElement) if (e.tagName === 'DETAILS') e.open = true;
    el.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  reveal();
})();
"#;

fn page(title: &str, body: &str, script: bool) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"generator\" content=\"gpumemsim\">\n<title>{}</title>\n<style>{STYLE}{TIMELINE_CSS}</style>\n\
         </head>\n<body>\n{body}",
        escape(title)
    );
    if script {
        let _ = writeln!(s, "<script>{SCRIPT}</script>");
    }
    s.push_str("</body>\n</html>\n");
    s
}

fn facts(out: &mut String, facts: &[(String, String)]) {
    out.push_str("<dl class=\"facts\">");
    for (k, v) in facts {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(v));
    }
    out.push_str("</dl>\n");
}

fn legend(out: &mut String, unit: &str) {
    let _ = write!(
        out,
        "<div class=\"legend\"><span>cell = a lane touches a word in that bank; colour = {unit} \
         of passes the bank needs in that phase:</span>"
    );
    for &(_, fill, _, label) in &HEAT_SCALE {
        let _ = write!(
            out,
            "<span><span class=\"sw\" style=\"background:{fill}\"></span>{}</span>",
            escape(label)
        );
    }
    out.push_str("</div>\n");
}

fn ways_text(ways: u32) -> String {
    match ways {
        0 => "no active lanes".to_string(),
        1 => "conflict-free".to_string(),
        n => format!("{n}-way conflict"),
    }
}

/// The HTML page of a run.
pub fn run_page(r: &RunReport) -> String {
    let mut b = String::new();
    let _ = writeln!(b, "<h1>gpumemsim report: {}</h1>", escape(&r.title));
    let mut all_facts = r.facts.clone();
    all_facts.push(("bank model".to_string(), r.model.clone()));
    facts(&mut b, &all_facts);
    if let Some(e) = &r.error {
        let _ = writeln!(
            b,
            "<p class=\"error\">The run stopped early: {}</p>",
            escape(e)
        );
    }
    let view = View::new(r);
    glance(&mut b, &view);
    findings(&mut b, &view);
    events(&mut b, &view);
    source_view(&mut b, &view);
    ds_panels(&mut b, &view);
    vmem_panels(&mut b, &view);
    timeline(&mut b, r);
    units(&mut b, r);
    instruction_table(&mut b, &view);
    page(&format!("gpumemsim: {}", r.title), &b, true)
}

/// The report with its cross references: each instruction's line and drawn heat map.
struct View<'a> {
    r: &'a RunReport,
    /// Each instruction's source line (an index into `r.lines`).
    line: Vec<Option<usize>>,
    /// Each instruction's drawn heat map (an index into `r.ds`).
    panel: Vec<Option<usize>>,
    /// The findings each instruction is part of (indices into `r.findings`, ascending).
    flags: Vec<Vec<usize>>,
}

impl<'a> View<'a> {
    fn new(r: &'a RunReport) -> View<'a> {
        let n = r.instructions.len();
        let mut line = vec![None; n];
        for (i, l) in r.lines.iter().enumerate() {
            for &pc in &l.row.instructions {
                if let Some(x) = line.get_mut(pc) {
                    *x = Some(i);
                }
            }
        }
        let mut panel = vec![None; n];
        for (i, p) in r.ds.iter().enumerate().take(MAX_DS_PANELS) {
            for &pc in &p.pcs {
                if let Some(x) = panel.get_mut(pc) {
                    *x = Some(i);
                }
            }
        }
        let mut flags = vec![Vec::new(); n];
        for (i, f) in r.findings.iter().enumerate() {
            for &pc in &f.pcs {
                if let Some(x) = flags.get_mut(pc) {
                    if x.last() != Some(&i) {
                        x.push(i);
                    }
                }
            }
        }
        View {
            r,
            line,
            panel,
            flags,
        }
    }

    /// The findings instruction `pc` is part of.
    fn flags_of(&self, pc: usize) -> &[usize] {
        self.flags.get(pc).map_or(&[], Vec::as_slice)
    }

    /// The markers of instruction `pc`'s findings: a ⚠ and the kind, each linked to the
    /// finding, its message as the tooltip (empty when it has none).
    fn flag_marks(&self, pc: usize) -> String {
        self.flags_of(pc)
            .iter()
            .map(|&i| {
                let f = &self.r.findings[i];
                format!(
                    " <a class=\"flag\" href=\"#finding-{i}\" title=\"{}\">⚠ {}</a>",
                    escape(&f.message),
                    escape(f.kind)
                )
            })
            .collect()
    }

    fn line_of(&self, pc: usize) -> Option<&'a SourceLine> {
        self.line
            .get(pc)
            .copied()
            .flatten()
            .map(|i| &self.r.lines[i])
    }

    fn panel_of(&self, pc: usize) -> Option<&'a DsPanel> {
        self.panel.get(pc).copied().flatten().map(|i| &self.r.ds[i])
    }

    /// A link to instruction `pc`'s line (`name:line`), or nothing.
    fn line_link(&self, pc: usize) -> String {
        self.line_of(pc).map_or_else(String::new, |l| {
            format!("<a href=\"#{}\">{}</a>", l.anchor, escape(&l.place()))
        })
    }
}

fn glance(b: &mut String, v: &View) {
    let r = v.r;
    let (cycles, conflicts) = r.totals();
    let bad = r.worst_ds().is_some() || !r.findings.is_empty();
    let _ = write!(
        b,
        "<p class=\"glance {}\" id=\"glance\">",
        if bad { "bad" } else { "good" }
    );
    if !r.findings.is_empty() {
        let mut kinds: Vec<&str> = Vec::new();
        for f in &r.findings {
            if !kinds.contains(&f.kind) {
                kinds.push(f.kind);
            }
        }
        let _ = write!(
            b,
            "<a href=\"#findings\" id=\"glance-findings\"><strong>{} finding(s)</strong></a> \
             ({}), marked ⚠ on their lines and instructions.<br>",
            r.findings.len(),
            escape(&kinds.join(", "))
        );
    }
    if let Some(l) = r.worst_line() {
        let st = &l.row.stats;
        let text = l
            .text
            .as_deref()
            .filter(|t| !t.is_empty())
            .map_or_else(String::new, |t| format!(" <code>{}</code>", escape(t)));
        if st.conflict_cycles > 0 {
            let _ = write!(
                b,
                "Worst line: <a href=\"#{}\" id=\"worst-line\">{}</a>{text} — {} of its {} issue \
                 cycles are bank conflicts.<br>",
                l.anchor,
                escape(&l.place()),
                st.conflict_cycles,
                st.cycles
            );
        } else {
            let _ = write!(
                b,
                "Hottest line: <a href=\"#{}\" id=\"worst-line\">{}</a>{text} — {} of the \
                 program's {} issue cycles.<br>",
                l.anchor,
                escape(&l.place()),
                st.cycles,
                cycles
            );
        }
    }
    match r.worst_ds() {
        Some(p) => {
            let _ = write!(
                b,
                "Worst LDS access: <a href=\"#ds-{}\"><code>{}</code></a> (pc {}{}): \
                 <strong class=\"ways\">{}</strong> — {} of its {} cycles are bank conflicts. \
                 Bank conflicts cost {} of the program's {} issue cycles ({:.1}%).",
                p.pcs[0],
                escape(&p.text),
                p.pcs[0],
                if p.pcs.len() > 1 {
                    format!(", and {} more with the same pattern", p.pcs.len() - 1)
                } else {
                    String::new()
                },
                ways_text(p.heat.ways()),
                p.conflict_cycles,
                p.cycles,
                conflicts,
                cycles,
                percent(conflicts, cycles)
            );
        }
        None if r.ds.is_empty() => b.push_str("No LDS bank accesses were recorded."),
        None => b.push_str("Every LDS access is conflict-free."),
    }
    b.push_str("</p>\n");
}

/// `12` or, for 0, an empty string (quieter columns).
fn quiet(n: u64) -> String {
    if n == 0 {
        String::new()
    } else {
        n.to_string()
    }
}

fn source_view(b: &mut String, v: &View) {
    let r = v.r;
    let _ = writeln!(
        b,
        "<h2 id=\"source\">Source lines</h2>\n<p class=\"note\">Each source line with what its \
         instructions cost, summed over every wave: issue cycles (the bar; its red end the \
         bank-conflict cycles) and stall cycles, bars against the hottest line. Open a line for \
         its instructions. <span class=\"order\">Order: <button type=\"button\" \
         data-order=\"hot\" class=\"on\">hottest first</button> <button type=\"button\" \
         data-order=\"file\">file order</button></span></p>"
    );
    if r.lines.is_empty() {
        let _ = writeln!(
            b,
            "<p class=\"note\" id=\"lines\">The program has no source lines (build with \
             <code>-g</code>); the instructions are in the table below.</p>"
        );
        return;
    }
    let max_cycles = r
        .lines
        .iter()
        .map(|l| l.row.stats.cycles)
        .max()
        .unwrap_or(0);
    let max_stall = r
        .lines
        .iter()
        .map(|l| l.row.stats.stall_cycles)
        .max()
        .unwrap_or(0);
    let worst = r.worst_line().map(|l| l.anchor.as_str());
    // The line column fits the longest `name:line` (within reason).
    let place = r
        .lines
        .iter()
        .map(|l| l.place().chars().count())
        .max()
        .unwrap_or(0)
        .clamp(8, 40)
        + if r.findings.is_empty() { 0 } else { 2 };
    let _ = writeln!(
        b,
        "<div class=\"src\" id=\"lines\" data-order=\"hot\" style=\"--place:{}ch\">\
         <div class=\"cols\"><span></span><span>line</span><span>source</span>\
         <span class=\"n\">cycles</span><span></span><span class=\"n\">conflict</span>\
         <span class=\"n\">stall</span><span></span></div>",
        place + 2
    );
    let bar = |part: u64, whole: u64| 100.0 * part as f64 / whole.max(1) as f64;
    for (hot, l) in r.lines.iter().enumerate() {
        let st = &l.row.stats;
        let here = line_findings(v, &l.row.instructions);
        let _ = writeln!(
            b,
            "<details class=\"line{}{}\" id=\"{}\" data-hot=\"{hot}\" data-file=\"{}\"><summary>\
             <span class=\"mono\">{}{}</span><code>{}</code><span class=\"n\">{}</span>\
             <span class=\"hbar\"><i style=\"--w:{:.1}%\"><b style=\"--c:{:.1}%\"></b></i></span>\
             <span class=\"n{}\">{}</span><span class=\"n\">{}</span>\
             <span class=\"hbar stall\"><i style=\"--w:{:.1}%\"></i></span></summary>",
            if worst == Some(l.anchor.as_str()) {
                " worst"
            } else {
                ""
            },
            if here.is_empty() { "" } else { " flagged" },
            l.anchor,
            l.file_order,
            if here.is_empty() {
                String::new()
            } else {
                let kinds: Vec<&str> = here.iter().map(|&i| r.findings[i].kind).collect();
                format!(
                    "<span class=\"flag\" title=\"{}\">⚠</span> ",
                    escape(&kinds.join(", "))
                )
            },
            escape(&l.place()),
            escape(l.text.as_deref().unwrap_or("")),
            st.cycles,
            bar(st.cycles, max_cycles),
            bar(st.conflict_cycles, st.cycles),
            if st.conflict_cycles > 0 {
                " conflict"
            } else {
                ""
            },
            quiet(st.conflict_cycles),
            quiet(st.stall_cycles),
            bar(st.stall_cycles, max_stall),
        );
        findings_here(b, v, &here);
        line_caches(b, v.r.vcache_family, &st.lines);
        instruction_rows(b, v, &l.row.instructions);
        b.push_str("</details>\n");
    }
    let rest = r.unattributed();
    if !rest.is_empty() {
        let here = line_findings(v, &rest);
        let mut st = crate::exec::InstStats::default();
        for &pc in &rest {
            st.add(&r.instructions[pc].stats);
        }
        let _ = writeln!(
            b,
            "<details class=\"line none\" id=\"line-none\" data-hot=\"{0}\" data-file=\"{0}\">\
             <summary><span></span><span class=\"note\">no source line ({1} instruction(s))</span>\
             <span class=\"n\">{2}</span><span></span><span class=\"n\">{3}</span>\
             <span class=\"n\">{4}</span><span></span></summary>",
            r.lines.len(),
            rest.len(),
            st.cycles,
            quiet(st.conflict_cycles),
            quiet(st.stall_cycles)
        );
        findings_here(b, v, &here);
        instruction_rows(b, v, &rest);
        b.push_str("</details>\n");
    }
    b.push_str("</div>\n");
}

/// The instructions `pcs` of a source line, in program order.
fn instruction_rows(b: &mut String, v: &View, pcs: &[usize]) {
    b.push_str(
        "<table class=\"insts\"><tr><th>address</th><th>line:column</th><th class=\"text\">instruction</th>\
         <th>executions</th><th>cycles</th><th>conflict</th><th>stall</th><th>LDS banks</th>\
         <th>cache lines</th></tr>\n",
    );
    for &pc in pcs {
        let Some(row) = v.r.instructions.get(pc) else {
            continue;
        };
        let s = &row.stats;
        let ways = match (row.ways, v.panel_of(pc)) {
            (None, _) => String::new(),
            (Some(w), Some(p)) => format!("<a href=\"#ds-{}\">{}</a>", p.pcs[0], short_ways(w)),
            (Some(w), None) => short_ways(w),
        };
        let lines = match (s.lines.requests, v.r.vmem_panel(pc)) {
            (0, _) => String::new(),
            (n, Some(p)) => format!("<a href=\"#vm-{}\">{n}</a>", p.pcs[0]),
            (n, None) => n.to_string(),
        };
        let class = match (s.conflict_cycles > 0, v.flags_of(pc).is_empty()) {
            (true, true) => " class=\"conflict\"",
            (true, false) => " class=\"conflict flagged\"",
            (false, false) => " class=\"flagged\"",
            (false, true) => "",
        };
        let _ = writeln!(
            b,
            "<tr id=\"i-{pc}\"{class}><td class=\"mono\">{:#x}</td><td class=\"mono\">{}</td><td class=\"text mono\">{}{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{ways}</td><td>{lines}</td></tr>",
            row.address,
            escape(&place_of(row)),
            escape(&row.text),
            v.flag_marks(pc),
            s.executions,
            s.cycles,
            quiet(s.conflict_cycles),
            quiet(s.stall_cycles),
        );
    }
    b.push_str("</table>\n");
}

/// An instruction's source place, `file:line:column`, or empty.
fn place_of(row: &InstructionRow) -> String {
    row.source.as_ref().map_or(String::new(), |l| {
        let name = l.file.rsplit('/').next().unwrap_or(&l.file);
        format!("{name}:{}:{}", l.line, l.column)
    })
}

/// The findings of a source line's instructions `pcs` (indices into the report's findings,
/// ascending, each once).
fn line_findings(v: &View, pcs: &[usize]) -> Vec<usize> {
    let mut here: Vec<usize> = pcs
        .iter()
        .flat_map(|&pc| v.flags_of(pc).iter().copied())
        .collect();
    here.sort_unstable();
    here.dedup();
    here
}

/// Under a source line: each of its findings, a ⚠ with the kind (linked to the finding), the
/// count and the message.
fn findings_here(b: &mut String, v: &View, here: &[usize]) {
    if here.is_empty() {
        return;
    }
    b.push_str("<ul class=\"findings-here\">");
    for &i in here {
        let f = &v.r.findings[i];
        let _ = write!(
            b,
            "<li><a class=\"flag\" href=\"#finding-{i}\">⚠ {}</a> ×{}: {}</li>",
            escape(f.kind),
            f.count,
            escape(&f.message)
        );
    }
    b.push_str("</ul>\n");
}

/// At most this many findings are listed; the rest are counted.
const MAX_FINDINGS: usize = 200;

/// The findings, as `gpumemsim check` lists them: kind, count, instructions (linked, with
/// their source places), waves, lanes, memory address and message.
fn findings(b: &mut String, v: &View) {
    let all = &v.r.findings;
    if all.is_empty() {
        return;
    }
    let _ = writeln!(
        b,
        "<h2 id=\"findings\">Findings</h2>\n<p>{} finding(s) from {} event(s), as \
         <code>gpumemsim check</code> lists them: the events grouped by kind and instructions \
         (the instruction it happened at first, then the others it names).</p>",
        all.len(),
        v.r.events.len()
    );
    b.push_str(
        "<table class=\"insts findings\"><tr><th class=\"text\">kind</th><th>count</th>\
         <th class=\"text\">instructions</th><th class=\"text\">waves</th>\
         <th class=\"text\">lanes</th><th>address</th><th class=\"text\">what happened</th></tr>\n",
    );
    for (i, f) in all.iter().enumerate().take(MAX_FINDINGS) {
        let insts: Vec<String> = f
            .pcs
            .iter()
            .filter_map(|&pc| {
                let row = v.r.instructions.get(pc)?;
                let place = v.line_link(pc);
                Some(format!(
                    "<a href=\"#i-{pc}\">{:#x}</a> <code>{}</code>{}",
                    row.address,
                    escape(&row.text),
                    if place.is_empty() {
                        String::new()
                    } else {
                        format!(" ({place})")
                    }
                ))
            })
            .collect();
        let _ = writeln!(
            b,
            "<tr id=\"finding-{i}\"><td class=\"text\"><span class=\"flag\">⚠ {}</span></td><td>{}</td>\
             <td class=\"text\">{}</td><td class=\"text\">{}</td><td class=\"text\">{}</td>\
             <td class=\"mono\">{}</td><td class=\"text\">{}</td></tr>",
            escape(f.kind),
            f.count,
            insts.join("<br>"),
            super::id_ranges(&f.waves),
            super::id_ranges(&f.lanes),
            f.address.map_or(String::new(), |a| format!("{a:#x}")),
            escape(&f.message)
        );
    }
    b.push_str("</table>\n");
    if all.len() > MAX_FINDINGS {
        let _ = writeln!(
            b,
            "<p>… and {} more (<code>gpumemsim check --json</code> lists them all).</p>",
            all.len() - MAX_FINDINGS
        );
    }
}

/// At most this many events are listed; the rest are counted.
const MAX_EVENTS: usize = 200;

/// The run's events, each with its instruction's address and source place (linked to the
/// instruction), the error kinds counted first.
fn events(b: &mut String, v: &View) {
    let all = &v.r.events;
    if all.is_empty() {
        return;
    }
    let errors = all.iter().filter(|e| e.is_error()).count();
    let _ = writeln!(
        b,
        "<h2 id=\"events\">Events</h2>\n<p>{} event(s), {errors} of an error kind \
         (an access outside what the program may touch, a memory violation).</p>",
        all.len()
    );
    b.push_str(
        "<table class=\"insts\"><tr><th>kind</th><th>wave</th><th>address</th><th>line</th>\
         <th class=\"text\">what happened</th></tr>\n",
    );
    for e in all.iter().take(MAX_EVENTS) {
        let (address, place) = v.r.instructions.get(e.pc).map_or_else(
            || (String::new(), String::new()),
            |row| {
                (
                    format!("<a href=\"#i-{}\">{:#x}</a>", e.pc, row.address),
                    escape(&place_of(row)),
                )
            },
        );
        let _ = writeln!(
            b,
            "<tr{}><td>{}</td><td>{}</td><td class=\"mono\">{address}</td><td class=\"mono\">{place}</td>\
             <td class=\"text\">{}</td></tr>",
            if e.is_error() { " class=\"conflict\"" } else { "" },
            escape(e.kind),
            e.wave,
            escape(&e.message)
        );
    }
    b.push_str("</table>\n");
    if all.len() > MAX_EVENTS {
        let _ = writeln!(
            b,
            "<p>… and {} more (--json lists them all).</p>",
            all.len() - MAX_EVENTS
        );
    }
}

/// `32-way`, `none` (conflict-free), or empty (no active lanes).
fn short_ways(ways: u32) -> String {
    match ways {
        0 => String::new(),
        1 => "none".to_string(),
        n => format!("{n}-way"),
    }
}

fn instruction_table(b: &mut String, v: &View) {
    let r = v.r;
    let _ = writeln!(
        b,
        "<h2 id=\"instructions\">All instructions, hottest first</h2>\n<p class=\"note\">Hottest: \
         most issue cycles, then conflict cycles, then stall cycles. Click a column to sort.</p>"
    );
    let max_cycles = r
        .instructions
        .iter()
        .map(|i| i.stats.cycles)
        .max()
        .unwrap_or(0)
        .max(1);
    b.push_str(
        "<div class=\"tablebox\"><table class=\"sortable\" id=\"instr\" data-sorted=\"hot-desc\">\
         <thead><tr>",
    );
    let columns: [(&str, &str, bool); 10] = [
        ("pc", "pc", true),
        ("address", "address", true),
        ("line", "line", true),
        ("instruction", "instruction", false),
        ("executions", "executions", true),
        ("cycles", "cycles", true),
        ("conflict", "conflict cycles", true),
        ("stall", "stall cycles", true),
        ("latency", "latency cycles", true),
        ("ways", "worst conflict", true),
    ];
    for (key, label, num) in columns {
        let _ = write!(
            b,
            "<th data-key=\"{key}\" data-type=\"{}\"{}>{label}</th>",
            if num { "num" } else { "text" },
            if num { "" } else { " class=\"text\"" }
        );
    }
    b.push_str("</tr></thead>\n<tbody>\n");
    for row in r.hottest() {
        table_row(b, v, row, max_cycles);
    }
    b.push_str("</tbody></table></div>\n");
}

fn table_row(b: &mut String, v: &View, row: &InstructionRow, max_cycles: u64) {
    let s = &row.stats;
    let ways = row.ways.unwrap_or(0);
    let _ = write!(
        b,
        "<tr data-pc=\"{}\"{}>",
        row.pc,
        if ways > 1 { " class=\"conflict\"" } else { "" }
    );
    let _ = write!(b, "<td data-v=\"{0}\">{0}</td>", row.pc);
    let _ = write!(
        b,
        "<td class=\"mono\" data-v=\"{0}\">{0:#x}</td>",
        row.address
    );
    let _ = write!(
        b,
        "<td class=\"text\" data-v=\"{}\">{}</td>",
        row.source.as_ref().map_or(0, |l| l.line),
        v.line_link(row.pc)
    );
    let text = escape(&row.text);
    let linked = match v.panel_of(row.pc) {
        Some(p) => format!("<a href=\"#ds-{}\">{text}</a>", p.pcs[0]),
        None => text.clone(),
    };
    let _ = write!(
        b,
        "<td class=\"text mono\">{linked}{}</td>",
        v.flag_marks(row.pc)
    );
    let _ = write!(b, "<td data-v=\"{0}\">{0}</td>", s.executions);
    let _ = write!(
        b,
        "<td class=\"bar\" style=\"--w:{:.1}%\" data-v=\"{1}\">{1}</td>",
        100.0 * s.cycles as f64 / max_cycles as f64,
        s.cycles
    );
    for x in [s.conflict_cycles, s.stall_cycles, s.latency_cycles] {
        let _ = write!(b, "<td data-v=\"{x}\">{x}</td>");
    }
    let _ = write!(
        b,
        "<td class=\"ways\" data-v=\"{ways}\">{}</td>",
        match row.ways {
            None => String::new(),
            Some(1) => "none".to_string(),
            Some(n) => format!("{n}-way"),
        }
    );
    b.push_str("</tr>\n");
}

fn ds_panels(b: &mut String, v: &View) {
    let r = v.r;
    let _ = writeln!(
        b,
        "<h2 id=\"ds\">LDS accesses: bank × phase heat maps</h2>\n<p class=\"note\">For each DS \
         instruction, its costliest execution (ties: the first wave): rows are banks, columns \
         the lanes of each phase the LDS serves together, and after each phase the passes each \
         bank needs. Each picture is drawn once: instructions whose pictures are the same, or \
         differ only by a rotation of the banks, share it (the first one's execution is drawn). \
         The statistics add up every execution of them all.</p>"
    );
    if r.ds.is_empty() {
        let _ = writeln!(
            b,
            "<p class=\"note\">No DS instruction accessed the LDS banks{}.</p>",
            if r.instructions.iter().any(|i| i.ways.is_some()) {
                ""
            } else {
                " (or the run did not record them)"
            }
        );
        return;
    }
    legend(b, "number");
    for p in r.ds.iter().take(MAX_DS_PANELS) {
        ds_panel(b, v, p);
    }
    let rest = r.ds.iter().skip(MAX_DS_PANELS);
    not_drawn(
        b,
        rest.map(|p| format!("pc {} ({})", p.pcs[0], ways_text(p.heat.ways()))),
    );
}

/// The note listing the pictures past the most a page draws, if there are any.
fn not_drawn(b: &mut String, rest: impl Iterator<Item = String>) {
    let rest: Vec<String> = rest.collect();
    if !rest.is_empty() {
        let _ = writeln!(
            b,
            "<p class=\"note\">{} more patterns not drawn: {}</p>",
            rest.len(),
            escape(&rest.join(", "))
        );
    }
}

fn ds_panel(b: &mut String, v: &View, p: &DsPanel) {
    let ways = p.heat.ways();
    let first = p.pcs[0];
    let _ = write!(
        b,
        "<div class=\"panel{}\" id=\"ds-{first}\" data-ways=\"{ways}\">",
        if ways > 1 { " hot" } else { "" },
    );
    let address =
        v.r.instructions
            .get(first)
            .map_or(String::new(), |i| format!(" ({:#x})", i.address));
    let _ = write!(
        b,
        "<h3><code>{}</code> — pc {first}{address} — <span class=\"ways\">{}</span></h3>",
        escape(&p.text),
        ways_text(ways)
    );
    let _ = write!(
        b,
        "<p class=\"meta\">Drawn: wave {}, {} of {} ideal bank cycles. All executions: {}, {} \
         cycles, {} of them conflict cycles.",
        p.sample.wave,
        p.sample.cycles,
        p.sample.ideal_cycles,
        p.executions,
        p.cycles,
        p.conflict_cycles,
    );
    same_pattern_and_lines(b, v, &p.pcs);
    b.push_str("</p>");
    b.push_str(&heat_map_svg(
        &p.heat,
        SvgStyle::full(p.heat.banks),
        &format!("heat-{first}"),
    ));
    b.push_str("</div>\n");
}

/// A source line's vector caches, when its instructions requested cache lines: the lines and
/// their bytes, each level's hit rate, the lines VRAM served.
fn line_caches(
    b: &mut String,
    family: Option<crate::vcache::Family>,
    c: &crate::vcache::LineCounts,
) {
    use crate::vcache::{Level, LINE_BYTES};
    let Some(f) = family.filter(|_| c.requests > 0) else {
        return;
    };
    let rates: Vec<String> = f
        .levels()
        .filter(|&l| l != Level::Vram)
        .filter_map(|l| {
            let h = c.hit_rate(l)?;
            Some(format!("{} {:.1}%", f.label(l)?, 100.0 * h))
        })
        .collect();
    let _ = writeln!(
        b,
        "<p class=\"meta\">Vector memory: {} cache line(s) of {LINE_BYTES} B requested ({} \
         bytes); hit rate {}; {} line(s) from {}.</p>",
        c.requests,
        c.requests * LINE_BYTES,
        if rates.is_empty() {
            "—".to_string()
        } else {
            rates.join(", ")
        },
        c.served_by(Level::Vram),
        f.label(Level::Vram).unwrap_or("memory")
    );
}

/// The coalescing pictures, when the device has vector caches and the run recorded them.
fn vmem_panels(b: &mut String, v: &View) {
    let r = v.r;
    if r.vmem.is_empty() {
        return;
    }
    let _ = writeln!(
        b,
        "<h2 id=\"vmem\">Vector memory: lanes × cache lines (coalescing)</h2>\n<p class=\"note\">\
         For each global, scratch, flat or buffer instruction, its execution that requested the \
         most cache lines (ties: the first wave): rows are lanes, columns the {} B cache lines \
         its lanes touched, in address order — each column one request. The fewer columns, the \
         better coalesced. The statistics add up every execution.</p>",
        crate::vcache::LINE_BYTES
    );
    let family = r.vcache_family.unwrap_or(crate::vcache::Family::Rdna3);
    b.push_str(&level_legend(family));
    for p in r.vmem.iter().take(MAX_VMEM_PANELS) {
        vmem_panel(b, v, p);
    }
    let rest = r.vmem.iter().skip(MAX_VMEM_PANELS);
    not_drawn(
        b,
        rest.map(|p| format!("pc {} ({} lines)", p.pcs[0], p.sample.lines.len())),
    );
}

fn vmem_panel(b: &mut String, v: &View, p: &VmemPanel) {
    use crate::vcache::Level;
    let pc = p.pcs[0];
    let s = &p.sample;
    let address =
        v.r.instructions
            .get(pc)
            .map_or(String::new(), |i| format!(" ({:#x})", i.address));
    let lanes = s.active.count_ones();
    let _ = write!(
        b,
        "<div class=\"panel\" id=\"vm-{pc}\" data-lines=\"{}\"><h3><code>{}</code> — pc {pc}{address} \
         — {} cache line(s) for {lanes} lane(s)</h3>",
        s.lines.len(),
        escape(&p.text),
        s.lines.len(),
    );
    let family = v.r.vcache_family.unwrap_or(crate::vcache::Family::Rdna3);
    let served: Vec<String> = Level::ALL
        .iter()
        .filter_map(|&l| {
            let n = s.lines.iter().filter(|x| x.level == l).count();
            (n > 0).then(|| format!("{}: {n}", family.label(l).unwrap_or("?")))
        })
        .collect();
    let _ = write!(
        b,
        "<p class=\"meta\">Drawn: wave {}; lines served by {}. All executions: {}, {} cache \
         lines.",
        s.wave,
        if served.is_empty() {
            "none".to_string()
        } else {
            served.join(", ")
        },
        p.executions,
        p.lines.requests
    );
    same_pattern_and_lines(b, v, &p.pcs);
    b.push_str("</p>");
    b.push_str(&coalescing_svg(s, family, &format!("coalescing-{pc}")));
    b.push_str("</div>\n");
}

/// After a picture's facts: links to the other instructions sharing it (`pcs` past the
/// first) and to the source lines of them all.
fn same_pattern_and_lines(b: &mut String, v: &View, pcs: &[usize]) {
    if pcs.len() > 1 {
        let links: Vec<String> = pcs[1..]
            .iter()
            .map(|&pc| {
                let address = v.r.instructions.get(pc).map_or(0, |i| i.address);
                format!("<a href=\"#i-{pc}\">{address:#x}</a>")
            })
            .collect();
        let _ = write!(
            b,
            "<br>Same pattern: {} more instruction(s): {}.",
            links.len(),
            links.join(", ")
        );
    }
    let mut lines: Vec<&SourceLine> = Vec::new();
    for &pc in pcs {
        if let Some(l) = v.line_of(pc) {
            if !lines.iter().any(|x| x.anchor == l.anchor) {
                lines.push(l);
            }
        }
    }
    if !lines.is_empty() {
        let links: Vec<String> = lines
            .iter()
            .map(|l| format!("<a href=\"#{}\">{}</a>", l.anchor, escape(&l.place())))
            .collect();
        let _ = write!(
            b,
            "<br>{}: {}.",
            if lines.len() > 1 { "Lines" } else { "Line" },
            links.join(", ")
        );
    }
}

/// The timeline section, when the run recorded at least one segment: the picture and how to
/// read it.
fn timeline(b: &mut String, r: &RunReport) {
    let Some(t) = r.timeline.as_ref().filter(|t| !t.segments.is_empty()) else {
        return;
    };
    let _ = writeln!(
        b,
        "<h2 id=\"timeline\">Timeline</h2>\n<p class=\"note\">One row per wave (its workgroup, \
         WGP and SIMD), time left to right: issuing an instruction (green), stalled — ready but \
         held back by a dependency or a busy unit (amber), waiting by the program's choice — \
         <code>s_waitcnt</code>, <code>s_barrier</code>, GWS (grey). Below, each LDS pipe's busy \
         periods. The red outline is the critical path: the stretches that decided when the last \
         wave ended. Hover over a mark for its instruction and cycles.</p>"
    );
    b.push_str("<div class=\"timeline-panel\" id=\"timeline-picture\">");
    b.push_str(&timeline_svg(t, r.cycles));
    b.push_str("</div>\n");
}

/// The units and placement section: each kind of unit's busy cycles and utilisation, and where
/// the run placed its work.
fn units(b: &mut String, r: &RunReport) {
    let _ = writeln!(
        b,
        "<h2 id=\"units\">Units and placement</h2>\n<p class=\"note\">Busy cycles of each kind \
         of unit, all its instances together; utilisation is busy cycles over the run's {} \
         cycles × instances.</p>",
        r.cycles
    );
    b.push_str(&units_table(&r.units, r.cycles));
    b.push_str(&placement_line(&r.placement));
}

/// The HTML page of a `banks` access, with its suggested layouts side by side.
pub fn banks_page(r: &BanksReport) -> String {
    let mut b = String::new();
    let _ = writeln!(b, "<h1>gpumemsim banks: {}</h1>", escape(&r.title));
    facts(&mut b, &r.facts);
    let h = &r.access.heat;
    let ways = h.ways();
    let _ = writeln!(
        b,
        "<p class=\"glance {}\" id=\"glance\">{}: <strong class=\"ways\">{}</strong>, {} for \
         an ideal of {}.</p>",
        if ways > 1 { "bad" } else { "good" },
        escape(&r.title),
        ways_text(ways),
        h.amount(h.report.cost.cost as u64),
        h.report.cost.ideal
    );
    legend(&mut b, "number");
    match &r.suggestions {
        None => {
            let _ = writeln!(b, "<h2>Banks × phases</h2>");
            b.push_str("<div class=\"panel given\" id=\"layout-0\">");
            b.push_str(&heat_map_svg(h, SvgStyle::full(h.banks), "heat-given"));
            b.push_str("</div>\n");
        }
        Some(list) => {
            let _ = writeln!(
                b,
                "<h2>The access and the suggested layouts, side by side</h2>\n<p class=\"note\">\
                 Apply a layout's map to every address of the array; cheapest first.</p>"
            );
            if list.is_empty() {
                let _ = writeln!(
                    b,
                    "<p class=\"note\" id=\"no-suggestion\">{}</p>",
                    if h.report.cost.conflicts() == 0 {
                        "The access is already conflict-free."
                    } else {
                        "No padding or XOR swizzle found that lowers the cost."
                    }
                );
            }
            b.push_str("<div class=\"side\">");
            layout_panel(&mut b, &r.access, 0, true);
            for (i, p) in list.iter().enumerate() {
                layout_panel(&mut b, p, i + 1, false);
            }
            b.push_str("</div>\n");
        }
    }
    page(&format!("gpumemsim banks: {}", r.title), &b, false)
}

fn layout_panel(b: &mut String, p: &LayoutPanel, i: usize, given: bool) {
    let h: &HeatMap = &p.heat;
    let ways = h.ways();
    let (fill, _) = heat_colour(ways.max(1));
    let _ = write!(
        b,
        "<div class=\"panel{}\" id=\"layout-{i}\" data-cost=\"{}\" data-ways=\"{ways}\">",
        if given { " given" } else { "" },
        h.report.cost.cost
    );
    let _ = write!(
        b,
        "<h3>{}</h3><p class=\"meta\"><span class=\"sw\" style=\"display:inline-block;width:10px;\
         height:10px;background:{fill}\"></span> <span class=\"cost\">{}</span> ({})<br>{}<br>\
         memory +{:.1}%</p>",
        escape(&p.name),
        h.amount(h.report.cost.cost as u64),
        ways_text(ways),
        match &p.expression {
            Some(e) => format!("<code>{}</code>", escape(e)),
            None => "<code>addr</code>".to_string(),
        },
        100.0 * p.overhead
    );
    b.push_str(&heat_map_svg(
        h,
        SvgStyle::compact(h.banks),
        &format!("heat-layout-{i}"),
    ));
    b.push_str("</div>");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two column reads (the same picture, one bank apart) and a row write.
    const PROGRAM: &str = "\
v_lshlrev_b32 v1, 7, v0
ds_load_b32 v2, v1
ds_load_b32 v3, v1 offset:4
v_lshlrev_b32 v4, 2, v0
ds_store_b32 v4, v0
s_waitcnt lgkmcnt(0)
s_endpgm
";

    fn report() -> RunReport {
        // The column reads read LDS nothing wrote: the checks are off, as the page of a run
        // that turned them off has no findings.
        let cfg = crate::exec::RunConfig {
            record_samples: true,
            check: false,
            ..crate::exec::RunConfig::default()
        };
        report_of("k", PROGRAM, &cfg)
    }

    /// The report of assembly program `text` (file `NAME.s`, page title `name`) run under
    /// `cfg`, its lines attributed to the file.
    fn report_of(name: &str, text: &str, cfg: &crate::exec::RunConfig) -> RunReport {
        use crate::banks::BankModel;
        use crate::report::{assembly_sources, SourceTexts};
        let prog = crate::isa::asm::assemble(text);
        assert!(prog.errors.is_empty(), "{:?}", prog.errors);
        let mut d = crate::exec::Device::new(cfg, prog.lines.len()).expect("a device");
        d.run(&prog.lines, cfg).expect("the program runs");
        let file = format!("{name}.s");
        let mut texts = SourceTexts::new();
        texts.insert(&file, text);
        RunReport::new(name, &prog.lines, &d, &BankModel::rdna3())
            .with_sources(&assembly_sources(&file, &prog.lines), &mut texts)
    }

    #[test]
    fn the_source_view_folds_instructions_under_their_lines() {
        let r = report();
        // The worst line: the first column read (31 conflict cycles; the second ties, the
        // hotter-ranked first one wins).
        let worst = r.worst_line().expect("a line");
        assert_eq!((worst.row.line, worst.row.stats.conflict_cycles), (2, 31));
        assert_eq!(worst.anchor, "line-0-2");
        assert_eq!(worst.text.as_deref(), Some("ds_load_b32 v2, v1"));
        let html = run_page(&r);
        assert!(html.contains(
            "Worst line: <a href=\"#line-0-2\" id=\"worst-line\">k.s:2</a> <code>ds_load_b32 v2, v1</code>"
        ));
        // Line 2's instruction under it, at its address, linked to its heat map.
        let block = html
            .split("id=\"line-0-2\"")
            .nth(1)
            .and_then(|s| s.split("</details>").next())
            .expect("line 2");
        assert!(block.contains("<tr id=\"i-1\" class=\"conflict\"><td class=\"mono\">0x4</td>"));
        assert!(block.contains("<a href=\"#ds-1\">32-way</a>"));
        // File order: lines ascending.
        let mut by_file: Vec<(usize, u32)> =
            r.lines.iter().map(|l| (l.file_order, l.row.line)).collect();
        by_file.sort_unstable();
        let lines: Vec<u32> = by_file.iter().map(|x| x.1).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5, 6, 7]);
        assert!(r.unattributed().is_empty());
    }

    #[test]
    fn the_same_picture_is_drawn_once() {
        let r = report();
        // The two column reads share one panel; the row write has its own.
        let pcs: Vec<Vec<usize>> = r.ds.iter().map(|p| p.pcs.clone()).collect();
        assert_eq!(pcs, [vec![1, 2], vec![4]]);
        let html = run_page(&r);
        assert_eq!(html.matches("<svg").count(), 2);
        assert!(html.contains("Same pattern: 1 more instruction(s): <a href=\"#i-2\">0xc</a>."));
        let row = html.split("<tr id=\"i-2\"").nth(1).expect("pc 2's row");
        assert!(row
            .split("</tr>")
            .next()
            .is_some_and(|r| r.contains("href=\"#ds-1\"")));
    }

    #[test]
    fn findings_are_marked_on_their_instructions_and_lines() {
        // A misaligned atomic: every lane's is a memviol on line 2.
        let text = "v_mov_b32 v0, 2\nds_add_u32 v0, v1\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
        let r = report_of("m", text, &crate::exec::RunConfig::default());
        assert_eq!(r.findings.len(), 1);
        assert_eq!(
            (r.findings[0].kind, &r.findings[0].pcs[..]),
            ("memviol", &[1][..])
        );
        let html = run_page(&r);
        // The banner counts it and links to the section, which lists it.
        assert!(html.contains(
            "<a href=\"#findings\" id=\"glance-findings\"><strong>1 finding(s)</strong></a> (memviol)"
        ));
        let section = html
            .split("<h2 id=\"findings\">")
            .nth(1)
            .and_then(|s| s.split("</table>").next())
            .expect("a findings section");
        assert!(section.contains("1 finding(s) from 32 event(s)"));
        assert!(section.contains(
            "<tr id=\"finding-0\"><td class=\"text\"><span class=\"flag\">⚠ memviol</span></td><td>32</td>"
        ));
        assert!(section.contains("<a href=\"#i-1\">0x4</a> <code>ds_add_u32 v0, v1</code> (<a href=\"#line-0-2\">m.s:2</a>)"));
        // Line 2: flagged, a ⚠ in its summary, the finding under it, the instruction marked.
        let line = html
            .split("<details class=\"line flagged\" id=\"line-0-2\"")
            .nth(1)
            .and_then(|s| s.split("</details>").next())
            .expect("line 2, flagged");
        assert!(line.contains("<span class=\"flag\" title=\"memviol\">⚠</span> m.s:2"));
        assert!(line.contains(
            "<li><a class=\"flag\" href=\"#finding-0\">⚠ memviol</a> ×32: ds_add_u32: lane 0"
        ));
        assert!(line.contains("<tr id=\"i-1\" class=\"flagged\">"));
        assert!(line.contains(
            "ds_add_u32 v0, v1 <a class=\"flag\" href=\"#finding-0\" title=\"ds_add_u32: lane 0"
        ));
        // Other lines are not flagged.
        assert_eq!(html.matches("class=\"line flagged\"").count(), 1);
        assert!(!html.contains("<tr id=\"i-0\" class=\"flagged\""));
        // A clean run has no findings section and no marks.
        let clean = run_page(&report());
        assert!(!clean.contains("id=\"findings\"") && !clean.contains("class=\"flag\""));
    }

    #[test]
    fn the_timeline_is_drawn_when_recorded_and_the_units_always() {
        use crate::timeline::{Segment, SegmentKind, Timeline, UnitKind, WaveLife};
        let mut r = report();
        // Not recorded: no timeline section; the units and placement are there.
        let html = run_page(&r);
        assert!(!html.contains("id=\"timeline\"") && !html.contains("<svg class=\"timeline\""));
        assert!(html.contains("<h2 id=\"units\">Units and placement</h2>"));
        assert_eq!(html.matches("<tr data-unit=").count(), UnitKind::ALL.len());
        assert!(html.contains("<p class=\"note\" id=\"placement\">Placement: "));
        // Recorded but empty: still none.
        r.timeline = Some(Timeline::default());
        assert!(!run_page(&r).contains("id=\"timeline\""));
        // One segment: the section, after the heat maps, before the instruction table.
        r.timeline = Some(Timeline {
            waves: vec![WaveLife {
                wave: 0,
                workgroup: 0,
                wgp: 0,
                simd: 0,
                start: 0,
                end: Some(r.cycles),
                started_by: None,
            }],
            segments: vec![Segment {
                wave: 0,
                kind: SegmentKind::Issue,
                start: 0,
                end: r.cycles,
                pc: 0,
            }],
            ..Timeline::default()
        });
        let html = run_page(&r);
        let at = |needle: &str| html.find(needle).unwrap_or_else(|| panic!("no {needle}"));
        assert!(at("id=\"ds\"") < at("<h2 id=\"timeline\">Timeline</h2>"));
        assert!(at("<svg class=\"timeline\"") < at("id=\"units\""));
        assert!(at("id=\"units\"") < at("id=\"instructions\""));
        assert_eq!(html.matches("<rect class=\"issue\" ").count(), 1);
        // The page's style sheet colours the marks.
        assert!(html.contains("svg.timeline .issue { fill: #41ab5d; }"));
    }

    #[test]
    fn vector_memory_gets_a_coalescing_picture_linked_from_its_line() {
        // Line 2 loads one dword per lane 4 KiB apart (32 lines), line 3 the dwords after
        // each other (one line).
        const GLOBAL: &str = "v_lshlrev_b32 v1, 12, v0\nglobal_load_b32 v2, v1, s[0:1]\n\
                              v_lshlrev_b32 v3, 2, v0\nglobal_load_b32 v4, v3, s[0:1]\n\
                              s_waitcnt vmcnt(0)\ns_endpgm\n";
        let cfg = crate::exec::RunConfig {
            record_samples: true,
            device: Some(crate::preset::DevicePreset::named("rx7900xtx").expect("a preset")),
            ..crate::exec::RunConfig::default()
        };
        let r = report_of("g", GLOBAL, &cfg);
        let pcs: Vec<(&[usize], usize)> = r
            .vmem
            .iter()
            .map(|p| (p.pcs.as_slice(), p.sample.lines.len()))
            .collect();
        assert_eq!(pcs, [(&[1][..], 32), (&[3][..], 1)], "the most lines first");
        let html = run_page(&r);
        let at = |needle: &str| html.find(needle).unwrap_or_else(|| panic!("no {needle}"));
        assert!(at("id=\"ds\"") < at("id=\"vmem\"") && at("id=\"vmem\"") < at("id=\"units\""));
        assert!(html.contains("— 32 cache line(s) for 32 lane(s)</h3>"));
        assert!(html.contains("<svg id=\"coalescing-1\""));
        // Each of the strided load's lines holds one lane; the dense one's, all 32 (its line
        // is the strided load's first: the 31 after it, in two of the L0's sets, pushed
        // it out of the L0's 4 ways into the L1).
        assert_eq!(
            html.matches(": 1 lane(s), served by VRAM</title>").count(),
            32
        );
        assert!(html.contains("line 0x0: 32 lane(s), served by L1</title>"));
        // Its row links to it, and its line says what it requested.
        assert!(html.contains("<td><a href=\"#vm-1\">32</a></td>"));
        assert!(html.contains("Vector memory: 32 cache line(s) of 128 B requested (4096 bytes)"));
    }

    #[test]
    fn pages_load_nothing_from_outside() {
        let p = page("t", "<p>x</p>", true);
        for needle in ["http:", "https:", " src=", "url(", "@import", "<link"] {
            assert!(!p.contains(needle), "page contains {needle}");
        }
        assert!(p.starts_with("<!DOCTYPE html>"));
    }
}
