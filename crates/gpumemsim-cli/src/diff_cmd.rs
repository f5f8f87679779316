//! `gpumemsim diff BEFORE.json AFTER.json`: what a change did to a kernel, from two reports of
//! `gpumemsim run ... --json` — the kernel's totals and time, then each source line (or, without
//! line tables, each instruction) before and after, the improvements and the regressions
//! largest first. docs/diff.md describes the matching and the JSON.
//!
//! [`compare`] builds the comparison (a JSON value), [`render_text`] and [`render_html`] show
//! it; `run ... --baseline` can call them directly.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::process::ExitCode;

use clap::Args;
use gpumemsim::report::escape;
use serde_json::{json, Map, Value};

/// Options of `gpumemsim diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The report before the change (`gpumemsim run ... --json > before.json`), or `-` for
    /// standard input.
    pub before: String,
    /// The report after the change, or `-` for standard input.
    pub after: String,
    /// Print the comparison as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write an HTML page of the comparison to PATH (one self-contained file).
    #[arg(long, value_name = "PATH")]
    pub html: Option<String>,
    /// The text report: the N largest improvements and the N largest regressions (0: all).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,
    /// Match a before line with an after line whose text changed (repeatable):
    /// `[FILE:]LINE=[FILE:]LINE`, e.g. `bad.cl:8=good.cl:9` or `8=9`.
    #[arg(long = "map", value_name = "OLD=NEW")]
    pub maps: Vec<String>,
    /// Exit with status 1 when the kernel's time, or any line's bank-conflict cycles, grew by
    /// more than PERCENT (default 0: any growth); the regressions are named on standard error.
    #[arg(long, value_name = "PERCENT", num_args = 0..=1, default_missing_value = "0")]
    pub fail_on_regression: Option<f64>,
}

/// A `--map`: a before line and the after line it is.
#[derive(Clone, Debug, PartialEq)]
pub struct LineMap {
    /// The before side: (file, when given; line).
    pub before: (Option<String>, i64),
    /// The after side.
    pub after: (Option<String>, i64),
}

impl LineMap {
    /// Parses `[FILE:]LINE=[FILE:]LINE`.
    pub fn parse(text: &str) -> Result<LineMap, String> {
        let bad = || {
            format!("--map {text}: expected OLD=NEW, each [FILE:]LINE (e.g. bad.cl:8=good.cl:9)")
        };
        let side = |s: &str| -> Result<(Option<String>, i64), String> {
            let (file, line) = match s.rsplit_once(':') {
                Some((f, l)) => (Some(f.to_string()), l),
                None => (None, s),
            };
            let line: i64 = line.trim().parse().map_err(|_| bad())?;
            if line < 1 || file.as_deref() == Some("") {
                return Err(bad());
            }
            Ok((file, line))
        };
        let (b, a) = text.split_once('=').ok_or_else(bad)?;
        Ok(LineMap {
            before: side(b)?,
            after: side(a)?,
        })
    }

    /// Whether this map's `side` names line `l` (of file `file`).
    fn names(side: &(Option<String>, i64), l: &Line) -> bool {
        side.1 == l.line
            && side
                .0
                .as_deref()
                .is_none_or(|f| f == l.file || f == base_name(l.file))
    }
}

/// `gpumemsim diff`.
pub fn diff(args: &DiffArgs) -> Result<ExitCode, String> {
    if args.before == "-" && args.after == "-" {
        return Err("BEFORE and AFTER cannot both be standard input (`-`)".into());
    }
    if let Some(p) = args.fail_on_regression {
        if !(p.is_finite() && p >= 0.0) {
            return Err(format!("--fail-on-regression {p}: a percentage, 0 or more"));
        }
    }
    let maps: Vec<LineMap> = args
        .maps
        .iter()
        .map(|m| LineMap::parse(m))
        .collect::<Result<_, _>>()?;
    let before = read_report(&args.before)?;
    let after = read_report(&args.after)?;
    let d = compare_mapped(&before, &after, &maps)?;
    if args.json {
        outln!("{d}");
    } else {
        out!("{}", render_text(&d, args.top));
    }
    if let Some(path) = &args.html {
        std::fs::write(path, render_html(&d)).map_err(|e| format!("--html {path}: {e}"))?;
    }
    if let Some(percent) = args.fail_on_regression {
        let found = crate::diff_gate::regressions(&d, percent);
        if !found.is_empty() {
            for r in &found {
                eprintln!("regression: {r}");
            }
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads a report: the file's JSON, checked to be a run report.
pub fn read_report(path: &str) -> Result<Value, String> {
    let (name, text) = crate::input::read_input(path)?;
    let v = crate::diff_read::slim_report(&text).map_err(|e| format!("{name}: {e}"))?;
    drop(text);
    check_report(&v).map_err(|e| format!("{name}: {e}"))?;
    Ok(v)
}

/// Whether `v` looks like the JSON of `gpumemsim run`.
fn check_report(v: &Value) -> Result<(), String> {
    if v.get("instructions").is_some_and(Value::is_array) {
        Ok(())
    } else {
        Err(
            "not a gpumemsim run report (it has no \"instructions\" list); \
             write one with `gpumemsim run ... --json > FILE`"
                .into(),
        )
    }
}

/// The metrics compared for lines and instructions (`executions` counts wave-instructions).
const METRICS: [&str; 4] = ["cycles", "conflict_cycles", "stall_cycles", "executions"];

/// The kernel-level metrics: `cycles` is the kernel time, `issue_cycles` the instructions'
/// cycles summed over waves (as `"totals"` of the run report).
const KERNEL_METRICS: [&str; 7] = [
    "cycles",
    "issue_cycles",
    "conflict_cycles",
    "stall_cycles",
    "latency_cycles",
    "executions",
    "waves_per_simd",
];

/// A JSON number as an integer (0 when absent).
fn num(v: &Value) -> i64 {
    v.as_i64()
        .or_else(|| v.as_u64().map(|u| u as i64))
        .or_else(|| v.as_f64().map(|f| f.round() as i64))
        .unwrap_or(0)
}

/// `after - before` for each of `keys` that both sides have; a missing side (null: the line or
/// instruction is on the other side only) counts as zeros.
fn delta(before: &Value, after: &Value, keys: &[&str]) -> Value {
    let get = |side: &Value, k: &str| {
        if side.is_null() {
            Some(0)
        } else {
            side.get(k).map(num)
        }
    };
    let mut d = Map::new();
    for &k in keys {
        if let (Some(b), Some(a)) = (get(before, k), get(after, k)) {
            d.insert(k.to_string(), json!(a - b));
        }
    }
    Value::Object(d)
}

/// Compares two run reports (the JSON of `gpumemsim run ... --json`): the kernel, each source
/// line and each instruction text, before, after and `after - before`. See docs/diff.md for
/// the shape. Errors name the side (`before` or `after`) that is not a run report.
pub fn compare(before: &Value, after: &Value) -> Result<Value, String> {
    compare_mapped(before, after, &[])
}

/// [`compare`], with lines paired by hand (`--map`) before the matching.
pub fn compare_mapped(before: &Value, after: &Value, maps: &[LineMap]) -> Result<Value, String> {
    check_report(before).map_err(|e| format!("before: {e}"))?;
    check_report(after).map_err(|e| format!("after: {e}"))?;
    let sampling = |r: &Value| match r.get("sampled") {
        Some(s) => format!("sampled ({} of {} workgroups)", s["workgroups"], s["of"]),
        None => "not sampled".to_string(),
    };
    if before.get("sampled") != after.get("sampled") {
        return Err(format!(
            "before is {} and after is {}: a sample's kernel time is the sample's while its \
             other figures are scaled to the grid, so only runs sampled alike compare",
            sampling(before),
            sampling(after)
        ));
    }
    let (kb, ka) = (kernel_side(before), kernel_side(after));
    let kd = delta(&kb, &ka, &KERNEL_METRICS);
    let has_lines = |r: &Value| r["lines"].as_array().is_some_and(|l| !l.is_empty());
    let (lb, la) = (has_lines(before), has_lines(after));
    let lines = if lb && la {
        compare_lines(before, after, maps)?
    } else {
        Vec::new()
    };
    Ok(json!({
        "kernel": {"before": kb, "after": ka, "delta": kd},
        "line_tables": {"before": lb, "after": la},
        "lines": lines,
        "instructions": compare_instructions(before, after),
    }))
}

/// One report's kernel-level numbers.
fn kernel_side(r: &Value) -> Value {
    let mut o = Map::new();
    if let Some(name) = r["kernel"].as_str() {
        o.insert("name".into(), json!(name));
    }
    let t = &r["totals"];
    let insts = r["instructions"].as_array().map_or(&[][..], Vec::as_slice);
    // Older reports without "totals": the instructions summed.
    let total = |key: &str, inst_key: &str| -> Value {
        if t.get(key).is_some() {
            json!(num(&t[key]))
        } else {
            json!(insts.iter().map(|i| num(&i[inst_key])).sum::<i64>())
        }
    };
    let time = if r.get("cycles").is_some() {
        json!(num(&r["cycles"]))
    } else {
        json!(num(&t["cycles"]))
    };
    o.insert("cycles".into(), time);
    o.insert("issue_cycles".into(), total("issue_cycles", "cycles"));
    o.insert(
        "conflict_cycles".into(),
        total("conflict_cycles", "conflict_cycles"),
    );
    o.insert("stall_cycles".into(), total("stall_cycles", "stall_cycles"));
    o.insert(
        "latency_cycles".into(),
        total("latency_cycles", "latency_cycles"),
    );
    o.insert(
        "executions".into(),
        total("wave_instructions", "executions"),
    );
    let res = &r["resources"];
    if res.get("waves_per_simd").is_some() {
        o.insert("waves_per_simd".into(), json!(num(&res["waves_per_simd"])));
        if let Some(l) = res["limited_by"].as_str() {
            o.insert("limited_by".into(), json!(l));
        }
    }
    if let Some(e) = r["error"].as_str() {
        o.insert("error".into(), json!(e));
    }
    Value::Object(o)
}

/// One source line of a report.
struct Line<'a> {
    file: &'a str,
    line: i64,
    /// The trimmed source text, when the report has it.
    text: Option<&'a str>,
    rec: &'a Value,
}

impl Line<'_> {
    /// The record shown as this side of a comparison: the report's line record.
    fn side(&self) -> Value {
        let mut o = Map::new();
        o.insert("file".into(), json!(self.file));
        o.insert("line".into(), json!(self.line));
        o.insert("text".into(), json!(self.text));
        for k in METRICS {
            o.insert(k.into(), json!(num(&self.rec[k])));
        }
        o.insert(
            "instructions".into(),
            self.rec
                .get("instructions")
                .cloned()
                .unwrap_or_else(|| json!([])),
        );
        Value::Object(o)
    }
}

/// The same line: equal texts where both are known (and not blank), else equal line numbers.
fn same_line(b: &Line, a: &Line) -> bool {
    match (b.text, a.text) {
        (Some(x), Some(y)) if !x.is_empty() && !y.is_empty() => x == y,
        _ => b.line == a.line,
    }
}

/// A report's source lines, by file path (sorted), each file's lines in line order.
fn lines_by_file(r: &Value) -> Vec<(&str, Vec<Line<'_>>)> {
    let mut files: Vec<(&str, Vec<Line>)> = Vec::new();
    for rec in r["lines"].as_array().map_or(&[][..], Vec::as_slice) {
        let file = rec["file"].as_str().unwrap_or("");
        let l = Line {
            file,
            line: num(&rec["line"]),
            text: rec["text"].as_str().map(str::trim),
            rec,
        };
        match files.iter_mut().find(|(f, _)| *f == file) {
            Some((_, v)) => v.push(l),
            None => files.push((file, vec![l])),
        }
    }
    files.sort_by(|x, y| x.0.cmp(y.0));
    for (_, v) in &mut files {
        v.sort_by_key(|l| l.line);
    }
    files
}

/// A file path's last component.
fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// How two lines were matched.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Match {
    /// The same text at the same line number (or the same line number where a text is unknown).
    Same,
    /// The same text at another line number.
    Moved,
    /// A changed line: the same line number, or the same place between matched lines.
    Edited,
    /// Only before.
    Removed,
    /// Only after.
    Added,
    /// Paired by hand (`--map`).
    Mapped,
}

impl Match {
    fn name(self) -> &'static str {
        match self {
            Match::Same => "same",
            Match::Moved => "moved",
            Match::Edited => "edited",
            Match::Removed => "removed",
            Match::Added => "added",
            Match::Mapped => "mapped",
        }
    }
}

/// The longest common subsequence of `b` and `a` under [`same_line`], as index pairs. Big
/// inputs (over 4 million cells) fall back to pairing equal line numbers.
fn anchors(b: &[Line], a: &[Line]) -> Vec<(usize, usize)> {
    let (n, m) = (b.len(), a.len());
    if n.saturating_mul(m) > 4_000_000 {
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < n && j < m {
            match b[i].line.cmp(&a[j].line) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    if same_line(&b[i], &a[j]) {
                        out.push((i, j));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        return out;
    }
    let w = m + 1;
    let mut dp = vec![0u32; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            dp[i * w + j] = if same_line(&b[i], &a[j]) {
                dp[(i + 1) * w + j + 1] + 1
            } else {
                dp[(i + 1) * w + j].max(dp[i * w + j + 1])
            };
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if same_line(&b[i], &a[j]) {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if dp[(i + 1) * w + j] >= dp[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Aligns one file's lines around the pairs `forced` (`--map`, increasing on both sides):
/// each stretch between two of them is aligned by [`align`], and they are `mapped`.
fn align_mapped(
    b: &[Line],
    a: &[Line],
    forced: &[(usize, usize)],
) -> Vec<(Option<usize>, Option<usize>, Match)> {
    let mut out = Vec::new();
    let (mut pi, mut pj) = (0, 0);
    let ends = forced.iter().copied().chain([(b.len(), a.len())]);
    for (fi, fj) in ends {
        for (i, j, m) in align(&b[pi..fi], &a[pj..fj]) {
            out.push((i.map(|i| i + pi), j.map(|j| j + pj), m));
        }
        if fi < b.len() {
            out.push((Some(fi), Some(fj), Match::Mapped));
        }
        (pi, pj) = (fi + 1, fj + 1);
    }
    out
}

/// Aligns one file's lines: matched lines (anchors) in order, and between two of them the
/// changed lines, paired by line number — shifted as the anchor before the gap shifts, else
/// as the one after it, else unshifted — then in order when both sides have as many left.
fn align(b: &[Line], a: &[Line]) -> Vec<(Option<usize>, Option<usize>, Match)> {
    let mut out = Vec::new();
    let mut marks = anchors(b, a);
    marks.push((b.len(), a.len()));
    let (mut pi, mut pj) = (0, 0);
    let mut prev_shift: Option<i64> = None;
    for (ai, aj) in marks {
        let next_shift = (ai < b.len()).then(|| a[aj].line - b[ai].line);
        // The gap b[pi..ai], a[pj..aj].
        let mut pair_of_b: Vec<Option<usize>> = vec![None; ai - pi];
        let mut taken = vec![false; aj - pj];
        let mut shifts: Vec<i64> = Vec::new();
        for sh in [prev_shift, next_shift, Some(0)].into_iter().flatten() {
            if !shifts.contains(&sh) {
                shifts.push(sh);
            }
        }
        for sh in shifts {
            for (k, bl) in b[pi..ai].iter().enumerate() {
                if pair_of_b[k].is_some() {
                    continue;
                }
                if let Some(x) = (pj..aj).find(|&x| !taken[x - pj] && a[x].line == bl.line + sh) {
                    pair_of_b[k] = Some(x);
                    taken[x - pj] = true;
                }
            }
        }
        let free_b: Vec<usize> = (0..ai - pi).filter(|&k| pair_of_b[k].is_none()).collect();
        let free_a: Vec<usize> = (pj..aj).filter(|&x| !taken[x - pj]).collect();
        if free_b.len() == free_a.len() {
            for (&k, &x) in free_b.iter().zip(&free_a) {
                pair_of_b[k] = Some(x);
                taken[x - pj] = true;
            }
        }
        for (k, p) in pair_of_b.iter().enumerate() {
            match p {
                Some(x) => out.push((Some(pi + k), Some(*x), Match::Edited)),
                None => out.push((Some(pi + k), None, Match::Removed)),
            }
        }
        for x in pj..aj {
            if !taken[x - pj] {
                out.push((None, Some(x), Match::Added));
            }
        }
        if ai < b.len() {
            let m = if b[ai].line == a[aj].line {
                Match::Same
            } else {
                Match::Moved
            };
            out.push((Some(ai), Some(aj), m));
        }
        (pi, pj) = (ai + 1, aj + 1);
        prev_shift = next_shift;
    }
    out
}

/// The line comparison: files paired by path, else by file name, else as a `--map` pairs
/// them, else by the source texts they share (`bad.cl` against `good.cl`); each pair's lines
/// aligned around the `--map` pairs.
fn compare_lines(before: &Value, after: &Value, maps: &[LineMap]) -> Result<Vec<Value>, String> {
    let bf = lines_by_file(before);
    let af = lines_by_file(after);
    let pair = pair_files(&bf, &af, maps);
    let mut used = vec![false; af.len()];
    for j in pair.iter().flatten() {
        used[*j] = true;
    }
    let mut out = Vec::new();
    let none: Vec<Line> = Vec::new();
    let mut emit = |b: &[Line], a: &[Line], forced: &[(usize, usize)]| {
        for (i, j, m) in align_mapped(b, a, forced) {
            let (bs, as_) = (i.map(|i| &b[i]), j.map(|j| &a[j]));
            let (bv, av) = (
                bs.map_or(Value::Null, Line::side),
                as_.map_or(Value::Null, Line::side),
            );
            let shown = as_.or(bs).expect("one side");
            out.push(json!({
                "file": shown.file,
                "line": shown.line,
                "text": shown.text,
                "match": m.name(),
                "delta": delta(&bv, &av, &METRICS),
                "before": bv,
                "after": av,
            }));
        }
    };
    let mut mapped = vec![false; maps.len()];
    for (i, (_, bl)) in bf.iter().enumerate() {
        let al = pair[i].map_or(&none, |j| &af[j].1);
        let forced = forced_pairs(bl, al, maps, &mut mapped)?;
        emit(bl, al, &forced);
    }
    for (j, (_, al)) in af.iter().enumerate() {
        if !used[j] {
            emit(&none, al, &[]);
        }
    }
    if let Some(k) = mapped.iter().position(|m| !m) {
        let m = &maps[k];
        let side = |s: &(Option<String>, i64)| match &s.0 {
            Some(f) => format!("{f}:{}", s.1),
            None => s.1.to_string(),
        };
        return Err(format!(
            "--map {}={}: no such pair of lines (the before report must have line {} and the \
             after report line {}, in files that are compared with each other)",
            side(&m.before),
            side(&m.after),
            side(&m.before),
            side(&m.after)
        ));
    }
    Ok(out)
}

/// For each before file, the after file it is compared with.
fn pair_files(
    bf: &[(&str, Vec<Line>)],
    af: &[(&str, Vec<Line>)],
    maps: &[LineMap],
) -> Vec<Option<usize>> {
    let mut pair: Vec<Option<usize>> = vec![None; bf.len()];
    let mut used = vec![false; af.len()];
    for (i, (f, _)) in bf.iter().enumerate() {
        if let Some(j) = af.iter().position(|(g, _)| g == f) {
            pair[i] = Some(j);
            used[j] = true;
        }
    }
    type Rule<'r> = &'r dyn Fn(usize, usize) -> usize;
    let same_name = |i: usize, j: usize| usize::from(base_name(af[j].0) == base_name(bf[i].0));
    let by_map = |i: usize, j: usize| {
        usize::from(maps.iter().any(|m| {
            bf[i].1.iter().any(|l| LineMap::names(&m.before, l))
                && af[j].1.iter().any(|l| LineMap::names(&m.after, l))
                && (m.before.0.is_some() || m.after.0.is_some())
        }))
    };
    let shared_text = |i: usize, j: usize| {
        let texts: std::collections::HashSet<&str> = af[j]
            .1
            .iter()
            .filter_map(|l| l.text.filter(|t| !t.is_empty()))
            .collect();
        bf[i]
            .1
            .iter()
            .filter(|l| l.text.is_some_and(|t| !t.is_empty() && texts.contains(t)))
            .count()
    };
    // Each rule pairs a before file with the one unused after file that scores best, when
    // that best is unique and above zero.
    let rules: [Rule; 3] = [&same_name, &by_map, &shared_text];
    for rule in rules {
        for (i, paired) in pair.iter_mut().enumerate() {
            if paired.is_some() {
                continue;
            }
            let scores: Vec<(usize, usize)> = (0..af.len())
                .filter(|&j| !used[j])
                .map(|j| (rule(i, j), j))
                .filter(|&(s, _)| s > 0)
                .collect();
            let best = scores.iter().map(|s| s.0).max().unwrap_or(0);
            let top: Vec<usize> = scores.iter().filter(|s| s.0 == best).map(|s| s.1).collect();
            if let [j] = top[..] {
                *paired = Some(j);
                used[j] = true;
            }
        }
    }
    pair
}

/// The `--map` pairs that fall in this pair of files, as indices into `b` and `a` (marking
/// them in `mapped`); they must increase on both sides.
fn forced_pairs(
    b: &[Line],
    a: &[Line],
    maps: &[LineMap],
    mapped: &mut [bool],
) -> Result<Vec<(usize, usize)>, String> {
    let mut out = Vec::new();
    for (k, m) in maps.iter().enumerate() {
        let i = b.iter().position(|l| LineMap::names(&m.before, l));
        let j = a.iter().position(|l| LineMap::names(&m.after, l));
        if let (Some(i), Some(j)) = (i, j) {
            if mapped[k] {
                // A map without file names that fits a second pair of files.
                return Err(format!(
                    "--map {}={}: these line numbers are in more than one pair of files: name \
                     the files (FILE:LINE=FILE:LINE)",
                    m.before.1, m.after.1
                ));
            }
            out.push((i, j));
            mapped[k] = true;
        }
    }
    out.sort_unstable();
    if out.windows(2).any(|w| w[1].1 <= w[0].1 || w[1].0 == w[0].0) {
        return Err(
            "--map: the pairs must keep the lines' order on both sides (and name each \
                    line once)"
                .into(),
        );
    }
    Ok(out)
}

/// The instruction comparison: instructions with the same text added up on each side, in the
/// after program's order, then the texts only the before program has.
fn compare_instructions(before: &Value, after: &Value) -> Vec<Value> {
    fn sum(r: &Value) -> (Vec<String>, HashMap<String, Value>) {
        let mut order = Vec::new();
        let mut by: HashMap<String, Value> = HashMap::new();
        for i in r["instructions"].as_array().map_or(&[][..], Vec::as_slice) {
            let text = i["text"].as_str().unwrap_or("").to_string();
            let e = by.entry(text.clone()).or_insert_with(|| {
                order.push(text);
                json!({"cycles": 0, "conflict_cycles": 0, "stall_cycles": 0, "executions": 0,
                       "addresses": []})
            });
            for k in METRICS {
                e[k] = json!(num(&e[k]) + num(&i[k]));
            }
            if let (Some(list), Some(a)) = (e["addresses"].as_array_mut(), i.get("address")) {
                list.push(a.clone());
            }
        }
        (order, by)
    }
    let (border, mut bby) = sum(before);
    let (aorder, mut aby) = sum(after);
    let mut texts = aorder;
    texts.extend(border.into_iter().filter(|t| !aby.contains_key(t)));
    texts
        .into_iter()
        .map(|t| {
            let bv = bby.remove(&t).unwrap_or(Value::Null);
            let av = aby.remove(&t).unwrap_or(Value::Null);
            json!({"text": t, "delta": delta(&bv, &av, &METRICS), "before": bv, "after": av})
        })
        .collect()
}

/// An entry's ranking key: its deltas of cycles, conflict cycles and stall cycles.
fn rank_key(e: &Value) -> (i64, i64, i64) {
    let d = &e["delta"];
    (
        num(&d["cycles"]),
        num(&d["conflict_cycles"]),
        num(&d["stall_cycles"]),
    )
}

/// The improvements (deltas below zero, cycles then conflicts then stalls) and the
/// regressions (above zero), each largest first.
fn ranked(entries: &[Value]) -> (Vec<&Value>, Vec<&Value>) {
    let mut better: Vec<&Value> = entries.iter().filter(|e| rank_key(e) < (0, 0, 0)).collect();
    let mut worse: Vec<&Value> = entries.iter().filter(|e| rank_key(e) > (0, 0, 0)).collect();
    better.sort_by_key(|e| rank_key(e));
    worse.sort_by_key(|e| std::cmp::Reverse(rank_key(e)));
    (better, worse)
}

/// `+12`, `-3`, `0`.
fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// `-943 (-55.0%)`, `+5` (from zero), `0`.
fn change(before: i64, after: i64) -> String {
    let d = after - before;
    if d == 0 || before == 0 {
        signed(d)
    } else {
        format!("{} ({:+.1}%)", signed(d), d as f64 * 100.0 / before as f64)
    }
}

/// `1 line`, `3 lines`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// `kernel `k`` or `the program` (assembly reports have no kernel name).
fn subject(side: &Value) -> String {
    side["name"]
        .as_str()
        .map_or("the program".into(), |n| format!("kernel `{n}`"))
}

/// The text report of a comparison from [`compare`]: a header (the kernels, kernel time,
/// conflict and stall cycles before → after, occupancy when both reports have it), then the
/// `top` largest improvements and regressions (0: all) by source line, or by instruction when
/// the reports have no line tables.
pub fn render_text(diff: &Value, top: usize) -> String {
    let k = &diff["kernel"];
    let (b, a) = (&k["before"], &k["after"]);
    let mut s = format!("{} → {}\n", subject(b), subject(a));
    kernel_text(&mut s, b, a);
    for (side, v) in [("before", b), ("after", a)] {
        if let Some(e) = v["error"].as_str() {
            let _ = writeln!(s, "  note: the {side} run stopped early: {e}");
        }
    }
    let (entries, by_line) = text_entries(&mut s, diff);
    let (better, worse) = ranked(entries);
    let what = if by_line { "line" } else { "instruction text" };
    for (title, list) in [("Improvements", better), ("Regressions", worse)] {
        ranked_text(&mut s, title, &list, what, top, by_line);
    }
    let same = entries.iter().filter(|e| rank_key(e) == (0, 0, 0)).count();
    if same > 0 {
        let _ = writeln!(s, "\n{} cost the same before and after.", count(same, what));
    }
    s
}

/// One kernel row of the text report: name, before, after, what it counts.
type KernelRow<'a> = (&'a str, i64, i64, String);

/// The kernel rows of the text report: kernel time, conflict, stall and issue cycles, and
/// occupancy when both reports have it, before → after with the change, in aligned columns.
fn kernel_text(s: &mut String, b: &Value, a: &Value) {
    let mut rows: Vec<KernelRow> = vec![
        (
            "kernel time",
            num(&b["cycles"]),
            num(&a["cycles"]),
            "cycles: the clock of the last wave to end".into(),
        ),
        (
            "conflicts",
            num(&b["conflict_cycles"]),
            num(&a["conflict_cycles"]),
            "cycles lost to LDS bank conflicts (summed over waves)".into(),
        ),
        (
            "stalls",
            num(&b["stall_cycles"]),
            num(&a["stall_cycles"]),
            "cycles waiting for memory, barriers, a busy LDS (summed over waves)".into(),
        ),
        (
            "issue",
            num(&b["issue_cycles"]),
            num(&a["issue_cycles"]),
            "cycles of every wave's instructions (summed over waves)".into(),
        ),
    ];
    if b.get("waves_per_simd").is_some() && a.get("waves_per_simd").is_some() {
        let limit = |v: &Value| v["limited_by"].as_str().unwrap_or("?").to_string();
        let why = if limit(b) == limit(a) {
            format!("limited by {}", limit(a))
        } else {
            format!("limited by {} → {}", limit(b), limit(a))
        };
        rows.push((
            "occupancy",
            num(&b["waves_per_simd"]),
            num(&a["waves_per_simd"]),
            format!("waves per SIMD ({why})"),
        ));
    }
    let width = |f: &dyn Fn(&KernelRow) -> usize| rows.iter().map(f).max().unwrap_or(1);
    let wb = width(&|r| r.1.to_string().len());
    let wa = width(&|r| r.2.to_string().len());
    let wc = width(&|r| change(r.1, r.2).len());
    for (name, x, y, what) in rows {
        let _ = writeln!(
            s,
            "  {name:<12} {x:>wb$} → {y:<wa$}  {:<wc$}  {what}",
            change(x, y)
        );
    }
}

/// The entries the text report ranks: the source lines, or (saying why) the instructions when
/// the reports have no line tables; and whether they are lines.
fn text_entries<'a>(s: &mut String, diff: &'a Value) -> (&'a [Value], bool) {
    let lines = diff["lines"].as_array().map_or(&[][..], Vec::as_slice);
    if !lines.is_empty() {
        return (lines, true);
    }
    let why = match (
        diff["line_tables"]["before"].as_bool(),
        diff["line_tables"]["after"].as_bool(),
    ) {
        (Some(true), _) => "the after report has no line tables",
        (_, Some(true)) => "the before report has no line tables",
        _ => "neither report has line tables",
    };
    let _ = writeln!(
        s,
        "\nBy instruction ({why}); instructions with the same text are added up."
    );
    (
        diff["instructions"]
            .as_array()
            .map_or(&[][..], Vec::as_slice),
        false,
    )
}

/// One ranked section of the text report (`title`: improvements or regressions): its `top`
/// entries (0: all), each a line or an instruction text (`what`).
fn ranked_text(
    s: &mut String,
    title: &str,
    list: &[&Value],
    what: &str,
    top: usize,
    by_line: bool,
) {
    let shown = if top == 0 {
        list.len()
    } else {
        top.min(list.len())
    };
    if list.is_empty() {
        let _ = writeln!(s, "\n{title}: none");
        return;
    }
    let how_many = if shown < list.len() {
        format!("{shown} of {}, --top 0 for all", count(list.len(), what))
    } else {
        count(list.len(), what)
    };
    let _ = writeln!(
        s,
        "\n{title}, largest first ({how_many}; cycles summed over waves, before → after):"
    );
    for e in &list[..shown] {
        if by_line {
            line_entry(s, e);
        } else {
            instruction_entry(s, e);
        }
    }
}

/// `cycles 1089 → 130 (-959)   conflicts 992 → 0 (-992) ...` for one entry.
fn costs_line(e: &Value) -> String {
    let names = ["cycles", "conflicts", "stalls", "execs"];
    let parts: Vec<String> = METRICS
        .iter()
        .zip(names)
        .map(|(k, n)| {
            format!(
                "{n} {} → {} ({})",
                side_num(&e["before"], k),
                side_num(&e["after"], k),
                signed(num(&e["delta"][k]))
            )
        })
        .collect();
    parts.join("   ")
}

fn line_entry(s: &mut String, e: &Value) {
    let (b, a) = (&e["before"], &e["after"]);
    let m = e["match"].as_str().unwrap_or("");
    let head = match (b.is_null(), a.is_null()) {
        (false, false) if place(b) == place(a) => place(a),
        (false, false) => {
            if base_name(b["file"].as_str().unwrap_or(""))
                == base_name(a["file"].as_str().unwrap_or(""))
            {
                format!("{} → {}", place(b), num(&a["line"]))
            } else {
                format!("{} → {}", place(b), place(a))
            }
        }
        (false, true) => place(b),
        _ => place(a),
    };
    let tag = if m == "same" {
        String::new()
    } else {
        format!("  ({m})")
    };
    let _ = writeln!(s, "  {head}{tag}");
    let _ = writeln!(s, "      {}", costs_line(e));
    match (line_text(b), line_text(a)) {
        (Some(x), Some(y)) if x != y => {
            let _ = writeln!(s, "      - {x}");
            let _ = writeln!(s, "      + {y}");
        }
        (x, y) => {
            if let Some(t) = y.or(x) {
                let _ = writeln!(s, "      {t}");
            }
        }
    }
}

fn instruction_entry(s: &mut String, e: &Value) {
    let count = |v: &Value| v["addresses"].as_array().map_or(0, Vec::len);
    let (b, a) = (&e["before"], &e["after"]);
    let tag = match (b.is_null(), a.is_null()) {
        (true, _) => "  (after only)".to_string(),
        (_, true) => "  (before only)".to_string(),
        _ if count(b) != count(a) => format!("  ({} → {} instructions)", count(b), count(a)),
        _ => String::new(),
    };
    let _ = writeln!(s, "  {}{tag}", e["text"].as_str().unwrap_or(""));
    let _ = writeln!(s, "      {}", costs_line(e));
}

const STYLE: &str = r#"
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328;
  background: #ffffff; margin: 24px 32px; }
h1 { font-size: 22px; margin: 0 0 6px; }
h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
table { border-collapse: collapse; }
th { background: #f6f8fa; text-align: right; padding: 5px 8px; border-bottom: 1px solid #d0d7de;
  white-space: nowrap; font-weight: 600; }
td { text-align: right; padding: 4px 8px; border-bottom: 1px solid #eaeef2; white-space: nowrap;
  font-variant-numeric: tabular-nums; vertical-align: top; }
th.text, td.text { text-align: left; }
td.src { text-align: left; white-space: pre-wrap; }
.better { color: #1a7f37; font-weight: 600; }
.worse { color: #cf222e; font-weight: 600; }
.tag { color: #57606a; font-size: 12px; }
.del { color: #82071e; } .ins { color: #116329; }
.bars { width: 260px; min-width: 260px; text-align: left; }
.bar { height: 9px; margin: 2px 0; border-radius: 2px; position: relative; min-width: 1px; }
.bar.before { background: #afb8c1; } .bar.after { background: #54aeff; }
.bar .conf { position: absolute; right: 0; top: 0; bottom: 0; background: #e31a1c; border-radius: 2px; }
.legend { color: #57606a; margin: 6px 0 12px; }
.legend span.sw { display: inline-block; width: 14px; height: 10px; margin: 0 4px 0 12px; border-radius: 2px; }
.error { background: #fff1f0; border: 1px solid #e31a1c; padding: 8px 12px; border-radius: 6px; }
"#;

/// The class that colours a delta: lower is better for cycles, higher for occupancy.
fn delta_class(d: i64, higher_is_better: bool) -> &'static str {
    match (d.signum(), higher_is_better) {
        (0, _) => "",
        (1, false) | (-1, true) => "worse",
        _ => "better",
    }
}

fn delta_cell(d: i64, higher_is_better: bool) -> String {
    match delta_class(d, higher_is_better) {
        "" => format!("<td>{}</td>", signed(d)),
        class => format!("<td class=\"{class}\">{}</td>", signed(d)),
    }
}

/// One bar: `cycles` wide on a scale of `max`, its conflict cycles in red at the end.
fn bar(class: &str, side: &Value, max: i64) -> String {
    if side.is_null() {
        return format!("<div class=\"bar {class}\" style=\"width:0\"></div>");
    }
    let (c, k) = (num(&side["cycles"]), num(&side["conflict_cycles"]));
    let w = if max > 0 {
        c as f64 * 100.0 / max as f64
    } else {
        0.0
    };
    let kw = if c > 0 {
        k as f64 * 100.0 / c as f64
    } else {
        0.0
    };
    format!(
        "<div class=\"bar {class}\" style=\"width:{w:.1}%\" title=\"{class}: {c} cycles, {k} in conflicts\">\
         <span class=\"conf\" style=\"width:{kw:.1}%\"></span></div>"
    )
}

/// `before → after` cell text; `-` for a missing side.
fn pair_text(e: &Value, k: &str) -> String {
    format!(
        "{} → {}",
        side_num(&e["before"], k),
        side_num(&e["after"], k)
    )
}

/// The HTML page of a comparison from [`compare`]: the kernel summary, then every source line
/// (or, without line tables, every instruction text whose cost changed) with before/after bars.
pub fn render_html(diff: &Value) -> String {
    let k = &diff["kernel"];
    let (b, a) = (&k["before"], &k["after"]);
    let name = |v: &Value| v["name"].as_str().unwrap_or("the program").to_string();
    let title = format!("{} → {}", name(b), name(a));
    let mut h = String::new();
    let _ = writeln!(h, "<h1>gpumemsim diff: {}</h1>", escape(&title));
    for (side, v) in [("before", b), ("after", a)] {
        if let Some(e) = v["error"].as_str() {
            let _ = writeln!(
                h,
                "<p class=\"error\">The {side} run stopped early: {}</p>",
                escape(e)
            );
        }
    }
    kernel_html(&mut h, b, a);
    entries_html(&mut h, diff);
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"generator\" content=\"gpumemsim\">\n<title>gpumemsim diff: {}</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n{h}</body>\n</html>\n",
        escape(&title)
    );
    page
}

/// The page's kernel table: each total before and after, its change and percentage.
fn kernel_html(h: &mut String, b: &Value, a: &Value) {
    h.push_str("<h2>Kernel</h2>\n<table>\n<tr><th class=\"text\"></th><th>before</th><th>after</th><th>change</th><th>%</th></tr>\n");
    let rows: [(&str, &str, bool); 7] = [
        ("kernel time (cycles)", "cycles", false),
        ("issue cycles", "issue_cycles", false),
        ("conflict cycles", "conflict_cycles", false),
        ("stall cycles", "stall_cycles", false),
        ("latency cycles", "latency_cycles", false),
        ("wave-instructions", "executions", false),
        ("occupancy (waves per SIMD)", "waves_per_simd", true),
    ];
    for (name, key, higher) in rows {
        if b.get(key).is_none() || a.get(key).is_none() {
            continue;
        }
        let (x, y) = (num(&b[key]), num(&a[key]));
        let pct = if x != 0 {
            format!("{:+.1}%", (y - x) as f64 * 100.0 / x as f64)
        } else {
            String::new()
        };
        let _ = writeln!(
            h,
            "<tr><td class=\"text\">{name}</td><td>{x}</td><td>{y}</td>{}<td>{pct}</td></tr>",
            delta_cell(y - x, higher)
        );
    }
    h.push_str("</table>\n");
}

/// The page's table of source lines (or, without line tables, of the instruction texts whose
/// cost changed, largest change first), with its heading and legends.
fn entries_html(h: &mut String, diff: &Value) {
    let lines = diff["lines"].as_array().map_or(&[][..], Vec::as_slice);
    let insts = diff["instructions"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    let (entries, by_line): (Vec<&Value>, bool) = if lines.is_empty() {
        let mut changed: Vec<&Value> = insts.iter().filter(|e| rank_key(e) != (0, 0, 0)).collect();
        changed.sort_by_key(|e| std::cmp::Reverse(num(&e["delta"]["cycles"]).abs()));
        (changed, false)
    } else {
        (lines.iter().collect(), true)
    };
    let max = entries
        .iter()
        .flat_map(|e| [num(&e["before"]["cycles"]), num(&e["after"]["cycles"])])
        .max()
        .unwrap_or(0);
    if by_line {
        h.push_str("<h2>Source lines</h2>\n");
    } else {
        let _ = writeln!(
            h,
            "<h2>Instructions whose cost changed</h2>\n<p class=\"legend\">The reports have no line \
             tables: instructions with the same text are added up ({} of {} texts changed).</p>",
            entries.len(),
            insts.len()
        );
    }
    h.push_str(
        "<p class=\"legend\">Bars: cycles summed over waves, all on one scale:\
         <span class=\"sw\" style=\"background:#afb8c1\"></span>before\
         <span class=\"sw\" style=\"background:#54aeff\"></span>after\
         <span class=\"sw\" style=\"background:#e31a1c\"></span>of which bank conflicts</p>\n",
    );
    if by_line {
        h.push_str(
            "<p class=\"legend\">Lines are matched by text: <em>moved</em> — the same text at \
             another line; <em>edited</em> — a changed line, paired by its line number or its place \
             between matched lines; <em>removed</em>/<em>added</em> — on one side only.</p>\n",
        );
    }
    let _ = writeln!(
        h,
        "<table>\n<tr><th class=\"text\">{}</th><th class=\"text\">source</th><th class=\"text\">cycles</th>\
         <th>cycles</th><th>Δ</th><th>conflict cycles</th><th>Δ</th><th>stall cycles</th><th>Δ</th>\
         <th>executions</th></tr>",
        if by_line { "line" } else { "instruction" }
    );
    for e in entries {
        let (place, src) = if by_line {
            line_cells(e)
        } else {
            instruction_cells(e)
        };
        entry_row(h, e, &place, &src, max);
    }
    h.push_str("</table>\n");
}

/// A source line's first two cells: its place (with how it was matched) and its text (both
/// texts when it was edited).
fn line_cells(e: &Value) -> (String, String) {
    let (eb, ea) = (&e["before"], &e["after"]);
    let mut p = match (eb.is_null(), ea.is_null()) {
        (false, false) if place(eb) != place(ea) => {
            format!("{} → {}", place(eb), num(&ea["line"]))
        }
        (false, true) => place(eb),
        _ => place(ea),
    };
    p = escape(&p);
    let m = e["match"].as_str().unwrap_or("");
    if m != "same" {
        let _ = write!(p, " <span class=\"tag\">{}</span>", escape(m));
    }
    let src = match (line_text(eb), line_text(ea)) {
        (Some(x), Some(y)) if x != y => format!(
            "<code class=\"del\">- {}</code>\n<code class=\"ins\">+ {}</code>",
            escape(&x),
            escape(&y)
        ),
        (x, y) => y
            .or(x)
            .map_or(String::new(), |t| format!("<code>{}</code>", escape(&t))),
    };
    (p, src)
}

/// An instruction text's first two cells: the text (tagged when on one side only), no source.
fn instruction_cells(e: &Value) -> (String, String) {
    let tag = match (e["before"].is_null(), e["after"].is_null()) {
        (true, _) => " <span class=\"tag\">after only</span>",
        (_, true) => " <span class=\"tag\">before only</span>",
        _ => "",
    };
    (
        format!(
            "<code>{}</code>{tag}",
            escape(e["text"].as_str().unwrap_or(""))
        ),
        String::new(),
    )
}

/// One row of the page's table: `place` and `src`, the bars, then each cost before → after
/// with its change.
fn entry_row(h: &mut String, e: &Value, place: &str, src: &str, max: i64) {
    let d = &e["delta"];
    let _ = writeln!(
        h,
        "<tr><td class=\"text\">{place}</td><td class=\"src\">{src}</td><td class=\"bars\">{}{}</td>\
         <td>{}</td>{}<td>{}</td>{}<td>{}</td>{}<td>{}</td></tr>",
        bar("before", &e["before"], max),
        bar("after", &e["after"], max),
        pair_text(e, "cycles"),
        delta_cell(num(&d["cycles"]), false),
        pair_text(e, "conflict_cycles"),
        delta_cell(num(&d["conflict_cycles"]), false),
        pair_text(e, "stall_cycles"),
        delta_cell(num(&d["stall_cycles"]), false),
        pair_text(e, "executions"),
    );
}

/// `file:line` of one side of a line entry (the file's base name).
fn place(v: &Value) -> String {
    format!(
        "{}:{}",
        base_name(v["file"].as_str().unwrap_or("")),
        num(&v["line"])
    )
}

/// The text of one side of a line entry, when that side has one.
fn line_text(v: &Value) -> Option<String> {
    v["text"].as_str().map(str::to_string)
}

/// Value `k` of one side of an entry; `-` for a missing side.
fn side_num(v: &Value, k: &str) -> String {
    if v.is_null() {
        "-".to_string()
    } else {
        num(&v[k]).to_string()
    }
}
