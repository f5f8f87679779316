//! Drawing a run's [`Timeline`] as SVG, and the table of how busy its units were.
//!
//! The picture ([`timeline_svg`]), top to bottom: a legend; a cycle axis with light grid lines
//! down the plot; one row per wave, labelled `wave N · wg G · WGP w SIMD s`, its life a light
//! band with its segments on it, coloured by kind (issue, stall, wait); a row per LDS pipe with
//! its busy periods; over the wave rows the critical path, a red outline around each of its
//! stretches and red lines joining them in order; notes (rows left out, merged marks, a
//! truncated recording). Every mark has a tooltip (`<title>`): a segment its kind, instruction
//! and cycles.
//!
//! The size is bounded whatever the run: the picture is [`TIMELINE_WIDTH`] pixels wide; at most
//! [`MAX_WAVE_ROWS`] wave rows and [`MAX_PIPE_ROWS`] pipe rows are drawn (the first ones; a
//! note counts the rest); and in each row, the stretches that start in one bucket of pixel
//! columns are merged into one mark, coloured by the kind with the most cycles in it, its
//! tooltip adding them up. Buckets are one pixel wide unless the rows are so many that
//! [`MAX_MARKS`] needs them wider.
//!
//! Marks are coloured by class (`issue`, `stall`, `wait`, `busy`, `critical`);
//! [`TIMELINE_CSS`] styles them, and the HTML page's style sheet includes it.
//! [`units_table`] and [`placement_line`] are the page's units-and-placement section.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use super::escape::escape;
use super::run::percent;
use crate::timeline::{PlacementStats, SegmentKind, Timeline, UnitBusy, UnitKind};

/// The picture's width in pixels.
pub const TIMELINE_WIDTH: u32 = 1000;
/// At most this many wave rows are drawn (the first waves, by id).
pub const MAX_WAVE_ROWS: usize = 64;
/// At most this many LDS pipe rows are drawn (the first pipes).
pub const MAX_PIPE_ROWS: usize = 32;
/// At most this many marks (segments, busy periods, merged marks) are drawn in all rows
/// together: merge buckets widen to keep under it.
pub const MAX_MARKS: usize = 40_000;
/// At most this many stretches of the critical path are outlined.
const MAX_CRITICAL: usize = 1_000;

/// The label column's width: the plot starts here.
const LEFT: f64 = 200.0;
/// The plot's width (a right margin of 20 px leaves room for the last tick's number).
const PLOT_W: f64 = 780.0;
/// The top of the first row.
const TOP: f64 = 44.0;
/// A row's height, and its bar's.
const ROW_H: f64 = 12.0;
const BAR_H: f64 = 9.0;
/// The space between the wave rows and the pipe rows.
const PIPE_GAP: f64 = 20.0;
/// A note's line height.
const NOTE_H: f64 = 15.0;

/// The timeline's and the units table's styles, for the page's `<style>` block.
pub const TIMELINE_CSS: &str = r#"
svg.timeline { display: block; max-width: 100%; height: auto; }
svg.timeline text { font-size: 10px; fill: #57606a; }
svg.timeline text.note { font-size: 11px; }
svg.timeline text.truncated { fill: #b00020; font-weight: 600; }
svg.timeline .issue { fill: #41ab5d; }
svg.timeline .stall { fill: #d4a72c; }
svg.timeline .wait { fill: #afb8c1; }
svg.timeline .busy { fill: #8250df; }
svg.timeline .life { fill: #f6f8fa; }
svg.timeline line.grid { stroke: #eaeef2; }
svg.timeline .critical { fill: none; stroke: #b00020; stroke-width: 1.5; }
svg.timeline path.critical { stroke-width: 1; }
svg.timeline rect { shape-rendering: crispEdges; }
table.units td.ubar { width: 12em; }
"#;

/// What a mark shows: a wave segment's kind, or an LDS pipe's busy period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Issue,
    Stall,
    Wait,
    Busy,
}

impl Mark {
    const ALL: [Mark; 4] = [Mark::Issue, Mark::Stall, Mark::Wait, Mark::Busy];

    /// Its CSS class, also its name in tooltips.
    fn class(self) -> &'static str {
        match self {
            Mark::Issue => "issue",
            Mark::Stall => "stall",
            Mark::Wait => "wait",
            Mark::Busy => "busy",
        }
    }

    fn of(kind: SegmentKind) -> Mark {
        match kind {
            SegmentKind::Issue => Mark::Issue,
            SegmentKind::Stall => Mark::Stall,
            SegmentKind::Wait => Mark::Wait,
        }
    }
}

/// One stretch of a row: a segment (`id` its pc) or a busy period (`id` its wave).
#[derive(Clone, Copy, Debug)]
struct Stretch {
    mark: Mark,
    start: u64,
    end: u64,
    id: u64,
}

impl Stretch {
    fn cycles(&self) -> u64 {
        self.end.saturating_sub(self.start)
    }

    fn title(&self) -> String {
        let cycles = format!("cycles {}..{} ({})", self.start, self.end, self.cycles());
        match self.mark {
            Mark::Busy => format!("LDS busy · wave {} · {cycles}", self.id),
            m => format!("{} · pc {} · {cycles}", m.class(), self.id),
        }
    }
}

/// One row of the picture.
struct Row {
    label: String,
    /// A wave's life, `start..end` (`None`: it did not end).
    life: Option<(u64, Option<u64>)>,
    /// Its stretches, by start.
    stretches: Vec<Stretch>,
}

/// Cycles to pixels, and the merge buckets' width.
struct Scale {
    /// Cycles across the plot.
    span: u64,
    /// Bucket width in pixels.
    bucket: u32,
}

impl Scale {
    fn dx(&self, c: u64) -> f64 {
        c as f64 * PLOT_W / self.span as f64
    }

    fn x(&self, c: u64) -> f64 {
        LEFT + self.dx(c)
    }

    fn bucket_of(&self, c: u64) -> u64 {
        (self.dx(c) / f64::from(self.bucket)).floor() as u64
    }
}

/// The narrowest bucket (whole pixels) that keeps `rows` rows within [`MAX_MARKS`]: a row
/// draws at most one mark per bucket.
fn bucket_px(rows: usize) -> u32 {
    let max = PLOT_W as u32;
    (1..=max)
        .find(|&b| rows * ((PLOT_W / f64::from(b)).ceil() as usize + 1) <= MAX_MARKS)
        .unwrap_or(max)
}

/// A number for an attribute: at most two decimals, no trailing zeros.
fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// The wave rows, by wave id (waves the timeline's segments name but its `waves` does not
/// list come last, labelled by id only): the first [`MAX_WAVE_ROWS`], each wave's row index,
/// and how many were left out.
fn wave_rows(t: &Timeline) -> (Vec<Row>, HashMap<u32, usize>, usize) {
    let mut lives: Vec<_> = t.waves.clone();
    lives.sort_by_key(|w| w.wave);
    lives.dedup_by_key(|w| w.wave);
    let known: BTreeSet<u32> = lives.iter().map(|w| w.wave).collect();
    let extra: BTreeSet<u32> = t
        .segments
        .iter()
        .map(|s| s.wave)
        .filter(|w| !known.contains(w))
        .collect();
    let mut rows: Vec<(u32, Row)> = lives
        .iter()
        .map(|w| {
            let label = format!(
                "wave {} · wg {} · WGP {} SIMD {}",
                w.wave, w.workgroup, w.wgp, w.simd
            );
            let life = Some((w.start, w.end));
            (w.wave, Row::new(label, life))
        })
        .collect();
    rows.extend(
        extra
            .into_iter()
            .map(|w| (w, Row::new(format!("wave {w}"), None))),
    );
    let left_out = rows.len().saturating_sub(MAX_WAVE_ROWS);
    rows.truncate(MAX_WAVE_ROWS);
    let index: HashMap<u32, usize> = rows.iter().enumerate().map(|(i, r)| (r.0, i)).collect();
    let mut rows: Vec<Row> = rows.into_iter().map(|r| r.1).collect();
    for s in &t.segments {
        if let Some(&i) = index.get(&s.wave) {
            rows[i].stretches.push(Stretch {
                mark: Mark::of(s.kind),
                start: s.start,
                end: s.end,
                id: s.pc as u64,
            });
        }
    }
    (rows, index, left_out)
}

/// The LDS pipe rows, by pipe: the first [`MAX_PIPE_ROWS`], and how many were left out.
fn pipe_rows(t: &Timeline) -> (Vec<Row>, usize) {
    let pipes: BTreeSet<u32> = t.lds_busy.iter().map(|b| b.pipe).collect();
    let left_out = pipes.len().saturating_sub(MAX_PIPE_ROWS);
    let shown: Vec<u32> = pipes.into_iter().take(MAX_PIPE_ROWS).collect();
    let mut rows: Vec<Row> = shown
        .iter()
        .map(|p| Row::new(format!("LDS pipe {p}"), None))
        .collect();
    for b in &t.lds_busy {
        if let Ok(i) = shown.binary_search(&b.pipe) {
            rows[i].stretches.push(Stretch {
                mark: Mark::Busy,
                start: b.start,
                end: b.end,
                id: u64::from(b.wave),
            });
        }
    }
    (rows, left_out)
}

impl Row {
    fn new(label: String, life: Option<(u64, Option<u64>)>) -> Row {
        Row {
            label,
            life,
            stretches: Vec::new(),
        }
    }
}

/// Cycles across the plot: the run's, or more if anything recorded ends later (at least 1).
fn span(t: &Timeline, cycles: u64) -> u64 {
    let ends = t
        .segments
        .iter()
        .map(|s| s.end)
        .chain(t.lds_busy.iter().map(|b| b.end))
        .chain(t.waves.iter().map(|w| w.end.unwrap_or(w.start)))
        .chain(t.critical.iter().map(|c| c.2));
    ends.fold(cycles, u64::max).max(1)
}

/// A run's [`Timeline`] as an `<svg>` element (no XML prolog: it is meant to be inlined in
/// HTML, styled by [`TIMELINE_CSS`]), `cycles` the run's length. The element has its natural
/// size in `width` and `height` and a `viewBox`, so CSS can scale it down to fit.
pub fn timeline_svg(t: &Timeline, cycles: u64) -> String {
    let (mut waves, index, waves_out) = wave_rows(t);
    let (mut pipes, pipes_out) = pipe_rows(t);
    for r in waves.iter_mut().chain(pipes.iter_mut()) {
        r.stretches.sort_by_key(|s| (s.start, s.end));
    }
    let scale = Scale {
        span: span(t, cycles),
        bucket: bucket_px(waves.len() + pipes.len()),
    };
    let waves_bottom = TOP + waves.len() as f64 * ROW_H;
    let pipes_top = waves_bottom + PIPE_GAP;
    let bottom = if pipes.is_empty() {
        waves_bottom
    } else {
        pipes_top + pipes.len() as f64 * ROW_H
    };
    let mut body = String::new();
    axis(&mut body, &scale, bottom);
    let mut merged = 0;
    for (i, r) in waves.iter().enumerate() {
        merged += draw_row(&mut body, &scale, TOP + i as f64 * ROW_H, r);
    }
    if !pipes.is_empty() {
        let _ = write!(
            body,
            r#"<text x="{}" y="{}" text-anchor="end" font-weight="600">LDS pipes</text>"#,
            num(LEFT - 6.0),
            num(pipes_top - 5.0)
        );
    }
    for (i, r) in pipes.iter().enumerate() {
        merged += draw_row(&mut body, &scale, pipes_top + i as f64 * ROW_H, r);
    }
    let critical = critical_path(&mut body, &scale, t, &index);
    let mut notes: Vec<(String, bool)> = Vec::new();
    if t.truncated {
        notes.push((
            format!(
                "Truncated: the run recorded its first {} segments and LDS busy periods; \
                 later ones are missing.",
                Timeline::MAX_SEGMENTS
            ),
            true,
        ));
    }
    if t.segments.is_empty() && t.lds_busy.is_empty() {
        notes.push(("No segments were recorded.".to_string(), false));
    }
    for (out, total, what, max) in [
        (waves_out, index.len() + waves_out, "wave", MAX_WAVE_ROWS),
        (
            pipes_out,
            pipes.len() + pipes_out,
            "LDS pipe",
            MAX_PIPE_ROWS,
        ),
    ] {
        if out > 0 {
            notes.push((
                format!("{out} more {what}(s) left out: the first {max} of {total} are drawn."),
                false,
            ));
        }
    }
    notes.extend(critical.notes().into_iter().map(|n| (n, false)));
    if merged > 0 {
        notes.push((
            format!(
                "{merged} mark(s) merge stretches that start < {} px apart, coloured by the \
                 kind with the most cycles (hover for the breakdown).",
                scale.bucket
            ),
            false,
        ));
    }
    let height = bottom + 8.0 + notes.len() as f64 * NOTE_H;
    for (i, (n, bad)) in notes.iter().enumerate() {
        let _ = write!(
            body,
            r#"<text class="note{}" x="4" y="{}">{}</text>"#,
            if *bad { " truncated" } else { "" },
            num(bottom + 8.0 + (i + 1) as f64 * NOTE_H - 4.0),
            escape(n)
        );
    }
    let mut s = header(t, cycles, height);
    legend(&mut s);
    s.push_str(&body);
    s.push_str("</svg>");
    s
}

/// The `<svg>` start tag and its title (the accessible summary).
fn header(t: &Timeline, cycles: u64, height: f64) -> String {
    let mut sums = [0u64; 3];
    for s in &t.segments {
        sums[Mark::of(s.kind) as usize] += s.end.saturating_sub(s.start);
    }
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="timeline" width="{TIMELINE_WIDTH}" height="{h}" viewBox="0 0 {TIMELINE_WIDTH} {h}" role="img" font-family="system-ui, sans-serif">"#,
        h = num(height)
    );
    let _ = write!(
        s,
        "<title>{}</title>",
        escape(&format!(
            "Timeline of {} wave(s) over {cycles} cycles: issue {}, stall {}, wait {} cycles \
             in all; the critical path has {} stretch(es).",
            t.waves.len(),
            sums[0],
            sums[1],
            sums[2],
            t.critical.len()
        ))
    );
    s
}

/// The legend along the top: a swatch and a name for each kind of mark.
fn legend(s: &mut String) {
    let items = [
        ("issue key", "issue"),
        (
            "stall key",
            "stall: ready, held back (dependency, busy unit)",
        ),
        ("wait key", "wait: s_waitcnt, barrier, GWS"),
        ("busy key", "LDS pipe busy"),
        ("critical key", "critical path"),
    ];
    let mut x = LEFT;
    s.push_str(r#"<g class="legend">"#);
    for (class, label) in items {
        let _ = write!(
            s,
            r#"<rect class="{class}" x="{}" y="6" width="12" height="{BAR_H}"/><text x="{}" y="14">{}</text>"#,
            num(x),
            num(x + 16.0),
            escape(label)
        );
        x += 16.0 + 5.0 * label.chars().count() as f64 + 14.0;
    }
    s.push_str("</g>");
}

/// A step between axis ticks: 1, 2 or 5 times a power of ten, about eight ticks across.
fn tick_step(span: u64) -> u64 {
    let raw = (span / 8).max(1);
    let mut p = 1u64;
    while p.saturating_mul(10) <= raw {
        p *= 10;
    }
    [1, 2, 5, 10]
        .into_iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10 * p)
}

/// The cycle axis: a number over each tick, a grid line down to `bottom`.
fn axis(s: &mut String, scale: &Scale, bottom: f64) {
    let step = tick_step(scale.span);
    s.push_str(r#"<g class="axis">"#);
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" text-anchor="end">cycle</text>"#,
        num(LEFT - 6.0),
        num(TOP - 8.0)
    );
    let mut c = 0;
    while c <= scale.span {
        let x = num(scale.x(c));
        let _ = write!(
            s,
            r#"<line class="grid" x1="{x}" x2="{x}" y1="{}" y2="{}"/><text x="{x}" y="{}" text-anchor="middle">{c}</text>"#,
            num(TOP - 4.0),
            num(bottom),
            num(TOP - 8.0)
        );
        c += step;
    }
    s.push_str("</g>");
}

/// One row at `y` (its top): its label, its life band, and its stretches, those that start in
/// one bucket merged into one mark. Returns how many merged marks it drew.
fn draw_row(s: &mut String, scale: &Scale, y: f64, row: &Row) -> usize {
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
        num(LEFT - 6.0),
        num(y + BAR_H),
        escape(&row.label)
    );
    let bar_y = y + (ROW_H - BAR_H) / 2.0;
    if let Some((start, end)) = row.life {
        let title = match end {
            Some(e) => format!("{}: cycles {start}..{e}", row.label),
            None => format!("{}: from cycle {start}, did not end", row.label),
        };
        let end = end.unwrap_or(scale.span);
        rect(s, scale, "life", (start, end), bar_y, &title);
    }
    let mut merged = 0;
    let all = &row.stretches;
    let mut i = 0;
    while i < all.len() {
        let bucket = scale.bucket_of(all[i].start);
        let n = all[i..]
            .iter()
            .take_while(|x| scale.bucket_of(x.start) == bucket)
            .count();
        let group = &all[i..i + n];
        if let [one] = group {
            rect(
                s,
                scale,
                one.mark.class(),
                (one.start, one.end),
                bar_y,
                &one.title(),
            );
        } else {
            merged += 1;
            merged_mark(s, scale, bar_y, group);
        }
        i += n;
    }
    merged
}

/// One mark for several stretches (by start): from the first's start to the latest end,
/// coloured by the kind with the most cycles, its tooltip their count, cycles by kind and the
/// longest.
fn merged_mark(s: &mut String, scale: &Scale, y: f64, group: &[Stretch]) {
    let mut cycles = [0u64; 4];
    for x in group {
        cycles[x.mark as usize] += x.cycles();
    }
    let mut top = Mark::Issue;
    for m in Mark::ALL {
        if cycles[m as usize] > cycles[top as usize] {
            top = m;
        }
    }
    let start = group[0].start;
    let end = group.iter().map(|x| x.end).max().unwrap_or(start);
    let longest = group
        .iter()
        .reduce(|a, b| if b.cycles() > a.cycles() { b } else { a })
        .expect("a merged mark has stretches");
    let what = if top == Mark::Busy {
        "busy periods"
    } else {
        "segments"
    };
    let by_kind: Vec<String> = Mark::ALL
        .iter()
        .filter(|m| cycles[**m as usize] > 0)
        .map(|m| format!("{} {}", m.class(), cycles[*m as usize]))
        .collect();
    let title = format!(
        "{} {what} starting < {} px apart, merged: cycles {start}..{end} · {} cycles · \
         longest: {}",
        group.len(),
        scale.bucket,
        by_kind.join(", "),
        longest.title()
    );
    let class = format!("{} merged", top.class());
    rect(s, scale, &class, (start, end), y, &title);
}

/// A bar over cycles `start..end` at `y` (at least a pixel wide), with a tooltip.
fn rect(s: &mut String, scale: &Scale, class: &str, (start, end): (u64, u64), y: f64, title: &str) {
    let x = scale.x(start);
    let w = (scale.x(end) - x).max(1.0);
    let _ = write!(
        s,
        r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{BAR_H}"><title>{}</title></rect>"#,
        num(x),
        num(y),
        num(w),
        escape(title)
    );
}

/// What drawing the critical path left out.
struct Critical {
    /// Stretches on waves not drawn.
    hidden: usize,
    /// Stretches past [`MAX_CRITICAL`].
    over: usize,
}

impl Critical {
    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.hidden > 0 {
            notes.push(format!(
                "The critical path also passes through {} stretch(es) of waves not drawn.",
                self.hidden
            ));
        }
        if self.over > 0 {
            notes.push(format!(
                "The critical path's first {MAX_CRITICAL} stretches are outlined; {} more are not.",
                self.over
            ));
        }
        notes
    }
}

/// The critical path over the wave rows: an outline around each stretch (consecutive
/// stretches of one wave that touch are one) and a line from each stretch's end to the next
/// one's start on another row.
fn critical_path(
    s: &mut String,
    scale: &Scale,
    t: &Timeline,
    index: &HashMap<u32, usize>,
) -> Critical {
    let mut joined: Vec<(u32, u64, u64)> = Vec::new();
    for &(w, start, end) in &t.critical {
        match joined.last_mut() {
            Some(last) if last.0 == w && start <= last.2 => last.2 = last.2.max(end),
            _ => joined.push((w, start, end)),
        }
    }
    let shown: Vec<(u32, usize, u64, u64)> = joined
        .iter()
        .filter_map(|&(w, a, b)| index.get(&w).map(|&r| (w, r, a, b)))
        .collect();
    let info = Critical {
        hidden: joined.len() - shown.len(),
        over: shown.len().saturating_sub(MAX_CRITICAL),
    };
    if shown.is_empty() {
        return info;
    }
    let shown = &shown[..shown.len().min(MAX_CRITICAL)];
    s.push_str(r#"<g class="critical-path">"#);
    let mid = |r: usize| num(TOP + r as f64 * ROW_H + ROW_H / 2.0);
    let links: Vec<String> = shown
        .windows(2)
        .filter(|p| p[0].1 != p[1].1)
        .map(|p| {
            let (from, to) = (p[0], p[1]);
            format!(
                "M{},{}L{},{}",
                num(scale.x(from.3)),
                mid(from.1),
                num(scale.x(to.2)),
                mid(to.1)
            )
        })
        .collect();
    if !links.is_empty() {
        let _ = write!(s, r#"<path class="critical" d="{}"/>"#, links.concat());
    }
    for &(wave, r, a, b) in shown {
        let x = scale.x(a);
        let _ = write!(
            s,
            r#"<rect class="critical" x="{}" y="{}" width="{}" height="{}"><title>{}</title></rect>"#,
            num(x),
            num(TOP + r as f64 * ROW_H + 0.5),
            num((scale.x(b) - x).max(1.0)),
            num(ROW_H - 1.0),
            escape(&format!("critical path: wave {wave}, cycles {a}..{b}"))
        );
    }
    s.push_str("</g>");
    info
}

/// A unit's name in the table, and what it is.
fn unit_label(kind: UnitKind) -> (&'static str, &'static str) {
    match kind {
        UnitKind::Lds => (
            "LDS",
            "the LDS pipe: one per WGP (WGP mode) or per CU (CU mode)",
        ),
        UnitKind::Valu => ("VALU", "a SIMD's vector ALU: one per SIMD"),
        UnitKind::Trans => (
            "TRANS",
            "a SIMD's transcendental unit (v_exp, v_rcp, ...): one per SIMD",
        ),
        UnitKind::Salu => (
            "SALU",
            "a SIMD's scalar ALU and program control: one per SIMD",
        ),
        UnitKind::Vmem => (
            "VMEM",
            "vector memory requests: one texture-addressing unit per CU",
        ),
        UnitKind::Smem => (
            "SMEM",
            "scalar memory through the scalar cache: one per WGP",
        ),
        UnitKind::Gds => ("GDS/GWS", "the device's GDS/GWS unit: one"),
    }
}

/// The units table: for each kind of unit its instances, busy cycles (all instances) and
/// utilisation — busy cycles over `cycles` × instances, as a percentage and a bar (empty
/// where there are no instances or no cycles).
pub fn units_table(u: &UnitBusy, cycles: u64) -> String {
    let mut s = String::from(
        "<table class=\"insts units\" id=\"units-table\"><tr><th class=\"text\">unit</th>\
         <th>instances</th><th>busy cycles</th><th>utilisation</th><th></th></tr>\n",
    );
    for kind in UnitKind::ALL {
        let (name, what) = unit_label(kind);
        let (busy, n) = (u.busy(kind), u.instances(kind));
        let whole = cycles.saturating_mul(u64::from(n));
        let (pct, bar) = if whole == 0 {
            (String::new(), String::new())
        } else {
            let p = percent(busy, whole);
            (
                format!("{p:.1}%"),
                format!(
                    "<span class=\"hbar\"><i style=\"--w:{:.1}%\"></i></span>",
                    p.min(100.0)
                ),
            )
        };
        let _ = writeln!(
            s,
            "<tr data-unit=\"{}\"><td class=\"text\" title=\"{}\">{}</td><td>{n}</td>\
             <td>{busy}</td><td>{pct}</td><td class=\"ubar\">{bar}</td></tr>",
            kind.name(),
            escape(what),
            escape(name)
        );
    }
    s.push_str("</table>\n");
    s
}

/// One line on where the run placed its work: WGPs, the occupancy limit, and the most waves
/// and workgroups resident at once.
pub fn placement_line(p: &PlacementStats) -> String {
    format!(
        "<p class=\"note\" id=\"placement\">Placement: {} WGP(s); an occupancy limit of {} \
         wave(s) per SIMD; at most {} wave(s) resident on one SIMD and {} workgroup(s) on the \
         device at once.</p>\n",
        p.wgps, p.waves_per_simd, p.max_resident_waves_per_simd, p.max_resident_workgroups
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::{PipeBusy, Segment, WaveLife};

    fn seg(wave: u32, kind: SegmentKind, start: u64, end: u64, pc: usize) -> Segment {
        Segment {
            wave,
            kind,
            start,
            end,
            pc,
        }
    }

    fn life(wave: u32, workgroup: u32, simd: u32, start: u64, end: Option<u64>) -> WaveLife {
        WaveLife {
            wave,
            workgroup,
            wgp: 0,
            simd,
            start,
            end,
            started_by: None,
        }
    }

    /// Two waves over 1000 cycles: wave 0 issues, stalls on the LDS, issues, waits at the
    /// barrier; wave 1 issues, waits, issues. Wave 1 arrives at the barrier last: the critical
    /// path runs through it, then wave 0.
    fn two_waves() -> Timeline {
        use SegmentKind::{Issue, Stall, Wait};
        Timeline {
            waves: vec![life(0, 0, 0, 0, Some(1000)), life(1, 0, 1, 0, Some(900))],
            segments: vec![
                seg(0, Issue, 0, 100, 0),
                seg(1, Issue, 0, 50, 0),
                seg(0, Stall, 100, 300, 1),
                seg(1, Wait, 50, 500, 1),
                seg(0, Issue, 300, 400, 1),
                seg(0, Wait, 400, 600, 2),
                seg(1, Issue, 500, 600, 2),
                seg(0, Issue, 600, 1000, 3),
            ],
            lds_busy: vec![PipeBusy {
                pipe: 0,
                start: 100,
                end: 300,
                wave: 1,
            }],
            truncated: false,
            critical: vec![(1, 0, 600), (0, 600, 1000)],
        }
    }

    /// The `<rect>` elements of class exactly `class`, each as its text up to `</rect>`.
    fn rects<'a>(svg: &'a str, class: &str) -> Vec<&'a str> {
        let open = format!("<rect class=\"{class}\"");
        svg.split(&open)
            .skip(1)
            .map(|r| r.split("</rect>").next().expect("a closed rect"))
            .collect()
    }

    fn attr(element: &str, name: &str) -> f64 {
        element
            .split(&format!(" {name}=\""))
            .nth(1)
            .and_then(|s| s.split('"').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {element}"))
    }

    /// Every `<` opens a tag and every `&` an entity: the text is escaped.
    fn assert_well_formed(svg: &str) {
        for (i, _) in svg.match_indices('<') {
            let tag = &svg[i + 1..];
            let name = tag.trim_start_matches('/');
            assert!(
                name.starts_with(|c: char| c.is_ascii_alphabetic()),
                "a stray < at {i}: {}",
                &svg[i..(i + 40).min(svg.len())]
            );
            let end = tag.find('>').expect("a closed tag");
            assert!(!tag[..end].contains('<'), "a < inside a tag at {i}");
        }
        for (i, _) in svg.match_indices('&') {
            let rest = &svg[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                    .iter()
                    .any(|e| rest.starts_with(e)),
                "a stray & at {i}"
            );
        }
    }

    #[test]
    fn each_segment_is_one_rect_of_its_kind_with_its_tooltip() {
        let svg = timeline_svg(&two_waves(), 1000);
        assert!(svg.starts_with("<svg class=\"timeline\" width=\"1000\""));
        assert_eq!(rects(&svg, "issue").len(), 5);
        assert_eq!(rects(&svg, "stall").len(), 1);
        assert_eq!(rects(&svg, "wait").len(), 2);
        assert_eq!(rects(&svg, "busy").len(), 1);
        assert!(!svg.contains(" merged\""));
        let stall = rects(&svg, "stall")[0];
        assert!(stall.contains("<title>stall · pc 1 · cycles 100..300 (200)</title>"));
        assert!(rects(&svg, "wait")
            .iter()
            .any(|r| r.contains("<title>wait · pc 2 · cycles 400..600 (200)</title>")));
        assert!(rects(&svg, "busy")[0].contains("<title>LDS busy · wave 1 · cycles 100..300"));
        // The rows, labelled; the pipe row below them.
        assert!(svg.contains(">wave 0 · wg 0 · WGP 0 SIMD 0</text>"));
        assert!(svg.contains(">wave 1 · wg 0 · WGP 0 SIMD 1</text>"));
        assert!(svg.contains(">LDS pipe 0</text>"));
        assert_eq!(rects(&svg, "life").len(), 2);
        // The legend names the kinds.
        for key in [
            "issue key",
            "stall key",
            "wait key",
            "busy key",
            "critical key",
        ] {
            assert!(svg.contains(&format!("<rect class=\"{key}\"")), "{key}");
        }
        assert!(!svg.contains("Truncated"));
        assert_well_formed(&svg);
    }

    #[test]
    fn x_is_proportional_to_cycles() {
        let svg = timeline_svg(&two_waves(), 1000);
        // 780 px for 1000 cycles from x = 200: the stall at 100..300 is at 278, 156 wide.
        let stall = rects(&svg, "stall")[0];
        assert_eq!((attr(stall, "x"), attr(stall, "width")), (278.0, 156.0));
        // Wave 0's last issue, 600..1000, on row 0; wave 1's wait on row 1, one row lower.
        let last = rects(&svg, "issue")
            .into_iter()
            .find(|r| r.contains("cycles 600..1000"))
            .expect("the last issue");
        assert_eq!((attr(last, "x"), attr(last, "width")), (668.0, 312.0));
        let wait1 = rects(&svg, "wait")
            .into_iter()
            .find(|r| r.contains("cycles 50..500"))
            .expect("wave 1's wait");
        assert_eq!(attr(wait1, "y") - attr(last, "y"), ROW_H);
        // Twice the run's cycles: half the widths.
        let wide = timeline_svg(&two_waves(), 2000);
        let stall = rects(&wide, "stall")[0];
        assert_eq!((attr(stall, "x"), attr(stall, "width")), (239.0, 78.0));
        // Axis ticks every 200 cycles, numbered.
        assert!(svg.contains("<text x=\"356\" y=\"36\" text-anchor=\"middle\">200</text>"));
        assert!(svg.contains("text-anchor=\"middle\">1000</text>"));
    }

    #[test]
    fn the_critical_path_outlines_its_stretches_on_their_rows() {
        let svg = timeline_svg(&two_waves(), 1000);
        let crit = rects(&svg, "critical");
        assert_eq!(crit.len(), 2);
        assert!(crit[0].contains("<title>critical path: wave 1, cycles 0..600</title>"));
        assert_eq!(attr(crit[0], "y"), TOP + ROW_H + 0.5);
        assert_eq!((attr(crit[0], "x"), attr(crit[0], "width")), (200.0, 468.0));
        assert_eq!(attr(crit[1], "y"), TOP + 0.5);
        // A line from wave 1's stretch's end to wave 0's start, a row up.
        assert!(svg.contains("<path class=\"critical\" d=\"M668,62L668,50\"/>"));
        // Drawn over the segments.
        assert!(svg.find("<path").expect("a line") > svg.rfind("class=\"busy\"").expect("busy"));
    }

    #[test]
    fn many_tiny_segments_are_merged_into_a_bounded_number_of_marks() {
        // 100,000 one-cycle segments on one wave, 100,000 cycles: about 128 per pixel.
        let kinds = [SegmentKind::Issue, SegmentKind::Stall, SegmentKind::Stall];
        let t = Timeline {
            waves: vec![life(0, 0, 0, 0, Some(100_000))],
            segments: (0..100_000u64)
                .map(|c| seg(0, kinds[c as usize % 3], c, c + 1, c as usize % 7))
                .collect(),
            ..Timeline::default()
        };
        let svg = timeline_svg(&t, 100_000);
        let marks = svg.matches("<rect class=\"").count();
        assert!(marks <= PLOT_W as usize + 1 + 10, "{marks} rects");
        assert!(svg.len() < 400_000, "{} bytes", svg.len());
        // Stall has twice issue's cycles: the merged marks are stalls, and say what they hold.
        let merged = rects(&svg, "stall merged");
        assert!(merged.len() >= 700, "{}", merged.len());
        assert!(rects(&svg, "issue").is_empty());
        assert!(merged[0].contains("segments starting &lt; 1 px apart, merged: cycles 0..129"));
        assert!(merged[0].contains("issue 43, stall 86 cycles"));
        assert!(svg.contains("mark(s) merge stretches that start &lt; 1 px apart"));
        assert_well_formed(&svg);

        // Spread over 100 waves and 40 pipes: 64 + 32 rows, buckets widen, still bounded.
        let t = Timeline {
            waves: (0..100).map(|w| life(w, w / 4, w % 4, 0, None)).collect(),
            segments: (0..100_000u64)
                .map(|c| seg((c % 100) as u32, SegmentKind::Issue, c, c + 1, 0))
                .collect(),
            lds_busy: (0..100_000u64)
                .map(|c| PipeBusy {
                    pipe: (c % 40) as u32,
                    start: c,
                    end: c + 1,
                    wave: 0,
                })
                .collect(),
            truncated: false,
            critical: Vec::new(),
        };
        let svg = timeline_svg(&t, 100_000);
        let marks = svg.matches("<rect ").count();
        assert!(marks <= MAX_MARKS + 200, "{marks} rects");
        assert!(bucket_px(96) > 1);
        assert_well_formed(&svg);
    }

    #[test]
    fn past_64_waves_the_rest_are_left_out_with_a_note() {
        let t = Timeline {
            waves: (0..100).map(|w| life(w, w, 0, 0, Some(10))).collect(),
            segments: (0..100)
                .map(|w| seg(w, SegmentKind::Issue, 0, 10, 0))
                .collect(),
            critical: vec![(3, 0, 10), (90, 0, 10)],
            truncated: true,
            ..Timeline::default()
        };
        let svg = timeline_svg(&t, 10);
        assert_eq!(rects(&svg, "issue").len(), MAX_WAVE_ROWS);
        assert!(svg.contains(">wave 63 · wg 63"));
        assert!(!svg.contains(">wave 64 · "));
        assert!(svg.contains("36 more wave(s) left out: the first 64 of 100 are drawn."));
        assert!(svg.contains("passes through 1 stretch(es) of waves not drawn"));
        assert_eq!(rects(&svg, "critical").len(), 1);
        assert!(svg.contains("<text class=\"note truncated\""));
        assert!(svg.contains("Truncated: the run recorded its first 200000 segments"));
        // The height fits the 64 rows and the three notes.
        let height = attr(&svg, "height");
        assert_eq!(height, TOP + 64.0 * ROW_H + 8.0 + 3.0 * NOTE_H);
    }

    #[test]
    fn text_is_escaped() {
        let mut t = two_waves();
        // Two stretches in one pixel: a merged mark, whose tooltip says "<".
        t.segments.push(seg(1, SegmentKind::Issue, 950, 951, 9));
        t.segments.push(seg(1, SegmentKind::Wait, 951, 952, 9));
        let svg = timeline_svg(&t, 1000);
        assert!(svg.contains("2 segments starting &lt; 1 px apart"));
        assert!(!svg.contains("starting < 1"));
        assert_well_formed(&svg);
        // An empty timeline is a picture that says so.
        let empty = timeline_svg(&Timeline::default(), 0);
        assert!(empty.contains("No segments were recorded."));
        assert_well_formed(&empty);
    }

    #[test]
    fn the_units_table_computes_utilisation() {
        let mut u = UnitBusy {
            busy_cycles: [0; 7],
            instances: [2, 4, 4, 4, 1, 1, 0],
        };
        u.add(UnitKind::Lds, 50);
        u.add(UnitKind::Valu, 400);
        let html = units_table(&u, 100);
        let row = |unit: &str| -> String {
            html.split(&format!("<tr data-unit=\"{unit}\">"))
                .nth(1)
                .and_then(|r| r.split("</tr>").next())
                .expect("a row")
                .to_string()
        };
        // 50 busy cycles of 100 × 2 pipes.
        assert!(row("lds").contains("<td>2</td><td>50</td><td>25.0%</td>"));
        assert!(row("lds").contains("--w:25.0%"));
        assert!(row("valu").contains("<td>4</td><td>400</td><td>100.0%</td>"));
        assert!(row("salu").contains("<td>0</td><td>0.0%</td>"));
        // No instances: no utilisation.
        assert!(row("gds").contains("<td>0</td><td>0</td><td></td><td class=\"ubar\"></td>"));
        assert_eq!(html.matches("<tr data-unit=").count(), 7);
        let p = placement_line(&PlacementStats {
            wgps: 4,
            waves_per_simd: 16,
            max_resident_waves_per_simd: 3,
            max_resident_workgroups: 7,
        });
        assert!(p.contains("4 WGP(s); an occupancy limit of 16 wave(s) per SIMD; at most 3"));
        assert!(p.contains("and 7 workgroup(s) on the device"));
    }

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(tick_step(1000), 200);
        assert_eq!(tick_step(10), 1);
        assert_eq!(tick_step(1), 1);
        assert_eq!(tick_step(100_000), 20_000);
        assert_eq!(tick_step(7_300), 1_000);
        assert_eq!(bucket_px(2), 1);
    }
}
