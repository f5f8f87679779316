//! The HTML pages: one self-contained file each (inline CSS, inline SVG, one small inline
//! script that sorts the instruction table; no network, no external files).
//!
//! The run page: a header of facts, an "at a glance" line naming the worst LDS access, the
//! instruction table (hottest first; click a column to sort, or open the page with
//! `#sort=KEY` or `#sort=KEY-asc`, KEY one of `pc line instruction executions cycles
//! conflict stall latency ways`), and the DS heat maps, hottest first. The banks page: the
//! access's heat map and, for `--suggest`, every suggested layout's beside it.

use std::fmt::Write as _;

use super::banks::{BanksReport, LayoutPanel};
use super::heatmap::HeatMap;
use super::run::{percent, DsPanel, RunReport, MAX_DS_PANELS};
use super::svg::{heat_colour, heat_map_svg, SvgStyle, HEAT_SCALE};

/// Escapes text for HTML and SVG content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

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
.panel { margin: 10px 0 22px; }
.panel .meta { color: #57606a; margin: 0 0 6px; }
.panel.hot h3 .ways { color: #800026; }
.side { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
.side .panel { border: 1px solid #d0d7de; border-radius: 6px; padding: 10px; margin: 0; }
.side .panel.given { border-color: #1f2328; }
.note { color: #57606a; }
svg.heatmap { display: block; }
"#;

/// Sorts `table.sortable` by a clicked column (numbers by `data-v`, text by its content),
/// ties in program order; `#sort=KEY[-asc|-desc]` in the address sorts on load.
const SCRIPT: &str = r#"
(function () {
  function sortBy(table, th, dir) {
    var ths = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var i = ths.indexOf(th);
    var num = th.getAttribute('data-type') === 'num';
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[i].getAttribute('data-v'), y = b.cells[i].getAttribute('data-v');
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
})();
"#;

fn page(title: &str, body: &str, script: bool) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"generator\" content=\"gpumemsim\">\n<title>{}</title>\n<style>{STYLE}</style>\n\
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
    glance(&mut b, r);
    instruction_table(&mut b, r);
    ds_panels(&mut b, r);
    page(&format!("gpumemsim: {}", r.title), &b, true)
}

fn glance(b: &mut String, r: &RunReport) {
    let (cycles, conflicts) = r.totals();
    match r.worst_ds() {
        Some(p) => {
            let _ = writeln!(
                b,
                "<p class=\"glance bad\" id=\"glance\">Worst LDS access: <code>{}</code> (pc {}{}): \
                 <strong class=\"ways\">{}</strong> — {} of its {} cycles are bank conflicts. \
                 Bank conflicts cost {} of the program's {} issue cycles ({:.1}%).</p>",
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
        None if r.ds.is_empty() => {
            let _ = writeln!(
                b,
                "<p class=\"glance good\" id=\"glance\">No LDS bank accesses were recorded.</p>"
            );
        }
        None => {
            let _ = writeln!(
                b,
                "<p class=\"glance good\" id=\"glance\">Every LDS access is conflict-free.</p>"
            );
        }
    }
}

fn instruction_table(b: &mut String, r: &RunReport) {
    let _ = writeln!(
        b,
        "<h2 id=\"instructions\">Instructions, hottest first</h2>\n<p class=\"note\">Hottest: most \
         issue cycles, then conflict cycles, then stall cycles. Click a column to sort.</p>"
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
    let columns: [(&str, &str, bool); 9] = [
        ("pc", "pc", true),
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
    let panel_of = |pc: usize| {
        r.ds.iter()
            .take(MAX_DS_PANELS)
            .find(|p| p.pcs.contains(&pc))
    };
    for row in r.hottest() {
        let s = &row.stats;
        let ways = row.ways.unwrap_or(0);
        let _ = write!(
            b,
            "<tr data-pc=\"{}\"{}>",
            row.pc,
            if ways > 1 { " class=\"conflict\"" } else { "" }
        );
        let _ = write!(b, "<td data-v=\"{0}\">{0}</td>", row.pc);
        let _ = write!(b, "<td data-v=\"{0}\">{0}</td>", row.line);
        let text = escape(&row.text);
        let linked = match panel_of(row.pc) {
            Some(p) => format!("<a href=\"#ds-{}\">{text}</a>", p.pcs[0]),
            None => text.clone(),
        };
        let _ = write!(b, "<td class=\"text mono\" data-v=\"{text}\">{linked}</td>");
        let _ = write!(b, "<td data-v=\"{0}\">{0}</td>", s.executions);
        let _ = write!(
            b,
            "<td class=\"bar\" style=\"--w:{:.1}%\" data-v=\"{1}\">{1}</td>",
            100.0 * s.cycles as f64 / max_cycles as f64,
            s.cycles
        );
        for v in [s.conflict_cycles, s.stall_cycles, s.latency_cycles] {
            let _ = write!(b, "<td data-v=\"{v}\">{v}</td>");
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
    b.push_str("</tbody></table></div>\n");
}

fn ds_panels(b: &mut String, r: &RunReport) {
    let _ = writeln!(
        b,
        "<h2 id=\"ds\">LDS accesses: bank × phase heat maps</h2>\n<p class=\"note\">For each DS \
         instruction, its costliest execution (ties: the first wave): rows are banks, columns \
         the lanes of each phase the LDS serves together, and after each phase the passes each \
         bank needs. Instructions whose pictures differ only by a rotation of the banks share \
         one. The statistics add up every execution.</p>"
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
        ds_panel(b, p);
    }
    if r.ds.len() > MAX_DS_PANELS {
        let rest: Vec<String> = r.ds[MAX_DS_PANELS..]
            .iter()
            .map(|p| format!("pc {} ({})", p.pcs[0], ways_text(p.heat.ways())))
            .collect();
        let _ = writeln!(
            b,
            "<p class=\"note\">{} more patterns not drawn: {}</p>",
            rest.len(),
            escape(&rest.join(", "))
        );
    }
}

fn ds_panel(b: &mut String, p: &DsPanel) {
    let ways = p.heat.ways();
    let _ = write!(
        b,
        "<div class=\"panel{}\" id=\"ds-{}\" data-ways=\"{ways}\">",
        if ways > 1 { " hot" } else { "" },
        p.pcs[0]
    );
    let _ = write!(
        b,
        "<h3><code>{}</code> — pc {} — <span class=\"ways\">{}</span></h3>",
        escape(&p.text),
        p.pcs[0],
        ways_text(ways)
    );
    let others = if p.pcs.len() > 1 {
        let pcs: Vec<String> = p.pcs[1..].iter().map(|pc| pc.to_string()).collect();
        format!(
            " Same pattern: {} more instruction(s), pc {}.",
            pcs.len(),
            pcs.join(", ")
        )
    } else {
        String::new()
    };
    let _ = write!(
        b,
        "<p class=\"meta\">Drawn: wave {}, {} of {} ideal bank cycles. All executions: {}, {} \
         cycles, {} of them conflict cycles.{}</p>",
        p.sample.wave,
        p.sample.cycles,
        p.sample.ideal_cycles,
        p.executions,
        p.cycles,
        p.conflict_cycles,
        escape(&others)
    );
    b.push_str(&heat_map_svg(
        &p.heat,
        SvgStyle::full(p.heat.banks),
        &format!("heat-{}", p.pcs[0]),
    ));
    b.push_str("</div>\n");
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

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
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
