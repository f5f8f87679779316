//! The text report of `gpumemsim run`, made to read at a glance: a header that says what each
//! total is, the error-class events counted, the source lines hottest first with their text
//! (`--by line`, the default), the top instructions (`--top N`), the events, and the dumps.

use std::fmt::Write as _;

use clap::ValueEnum;
use gpumemsim::exec::Device;
use gpumemsim::isa::asm::AsmLine;
use gpumemsim::report::{by_function, by_line, InstSource, SourceRow, SourceTexts};
use serde_json::{Map, Value};

mod functional;

/// `--by`: what the first table groups by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum By {
    /// Source lines (the instruction table follows).
    Line,
    /// Instructions only.
    Instruction,
    /// The innermost function of each instruction's inline chain.
    Function,
}

/// What the text report shows.
pub struct TextView<'a> {
    /// The first line's subject: `kernel `k`` or the program's file.
    pub title: String,
    /// The program.
    pub program: &'a [AsmLine],
    /// Each instruction's source, if known.
    pub sources: &'a [Option<InstSource>],
    /// The address `pc` is printed relative to (a kernel's symbol value; 0 for assembly).
    pub base: u64,
    /// The device after the run.
    pub device: &'a Device,
    /// `--top` (0: all).
    pub top: usize,
    /// `--by`.
    pub by: By,
}

/// The whole text report; `texts` gives the source lines' text.
pub fn render(v: &TextView, texts: &mut SourceTexts, dumps: &Map<String, Value>) -> String {
    if v.device.functional() {
        return functional::render(v, texts, dumps);
    }
    let mut s = header(v);
    match v.by {
        By::Line => {
            let rows = by_line(v.sources, v.device.stats());
            if !rows.is_empty() {
                source_table(&mut s, "Source lines", &rows, Some(&mut *texts));
                cache_table(&mut s, v.device, "source line", &rows, Some(texts));
            }
        }
        By::Function => {
            let rows = by_function(v.sources, v.device.stats());
            source_table(&mut s, "Functions", &rows, None);
            cache_table(&mut s, v.device, "function", &rows, None);
        }
        By::Instruction => {}
    }
    instruction_table(&mut s, v);
    events(&mut s, v);
    dump_lines(&mut s, dumps);
    s
}

/// The header: what ran, the errors (the second line, so nobody misses them), then each total
/// with what it means.
fn header(v: &TextView) -> String {
    let d = v.device;
    let t = d.totals();
    let groups = d.workgroup_count().max(1);
    let lanes = d.wave_size();
    let mut s = format!(
        "{}: {} wave(s) of {lanes} lanes in {groups} workgroup(s), {} wave-instructions executed\n",
        v.title,
        d.wave_count(),
        d.steps()
    );
    if let Some(line) = error_counts(d) {
        let _ = writeln!(s, "{line}");
    }
    if let Some(p) = d.preset() {
        let wgps = d.placement().wgps;
        let s_ = if wgps == 1 { "" } else { "s" };
        let chosen = if wgps == p.wgps { "" } else { " (--wgps)" };
        let _ = writeln!(
            s,
            "  device       {} ({}): {wgps} {}{s_}{chosen} at {} MHz",
            p.product, p.name, p.unit, p.clock_mhz
        );
        if !p.caveat.is_empty() {
            let _ = writeln!(s, "  note         {}", p.caveat);
        }
        let _ = writeln!(
            s,
            "  kernel time  {:>9} cycles  {:.2} µs at {} MHz: the clock of the last wave to end (waves run side by side)",
            d.cycles(),
            p.micros(d.cycles()),
            p.clock_mhz
        );
    } else {
        let _ = writeln!(
            s,
            "  kernel time  {:>9} cycles  the clock of the last wave to end (waves run side by side)",
            d.cycles()
        );
    }
    let _ = writeln!(
        s,
        "  issue        {:>9} cycles  summed over every wave's instructions; {} of them lost to LDS bank conflicts",
        t.cycles, t.conflict_cycles
    );
    let _ = writeln!(
        s,
        "  stalls       {:>9} cycles  summed over waves: waits for memory, barriers, a busy LDS",
        t.stall_cycles
    );
    if let Some((cfg, c)) = d.vcache_totals().filter(|(_, c)| c.requests > 0) {
        let f = cfg.family;
        let shares: Vec<String> = f
            .levels()
            .map(|l| {
                let share = 100.0 * c.served_by(l) as f64 / c.requests as f64;
                format!("{} {share:.1}%", f.label(l).unwrap_or(""))
            })
            .collect();
        let _ = writeln!(
            s,
            "  vector mem   {:>9} lines   served by {}",
            c.requests,
            shares.join(", ")
        );
    }
    s
}

/// `file:line` shortened to the file's name.
fn short_place(file: &str, line: u32) -> String {
    let name = file.rsplit('/').next().unwrap_or(file);
    format!("{name}:{line}")
}

fn source_table(
    s: &mut String,
    what: &str,
    rows: &[SourceRow],
    mut texts: Option<&mut SourceTexts>,
) {
    let _ = writeln!(
        s,
        "\n{what}, hottest first (cycles summed over waves; conflict% = issue cycles lost to bank conflicts)"
    );
    let _ = writeln!(
        s,
        "   cycles  conflict    stall  conflict%  insts    execs  {}",
        if texts.is_some() { "line" } else { "function" }
    );
    for r in rows {
        let place = row_place(r, texts.as_deref_mut());
        let _ = writeln!(
            s,
            "{:>9} {:>9} {:>8} {:>9.1}% {:>6} {:>8}  {}",
            r.stats.cycles,
            r.stats.conflict_cycles,
            r.stats.stall_cycles,
            r.conflict_rate(),
            r.instructions.len(),
            r.stats.executions,
            place.trim_end()
        );
    }
}

/// The place of a row: its function, or its `file:line` and the line's text.
fn row_place(r: &SourceRow, texts: Option<&mut SourceTexts>) -> String {
    match &r.function {
        Some(f) => f.clone(),
        None => {
            let text = texts
                .and_then(|t| t.line(&r.file, r.line))
                .unwrap_or("")
                .to_string();
            format!("{:<22} {text}", short_place(&r.file, r.line))
        }
    }
}

/// The vector caches per row, when any row's instructions requested cache lines: the lines
/// requested and the bytes they hold, and each cache level's hit rate (lines it served over
/// lines looked up there; `-` where none was), the rows with the most lines first
/// (docs/timing.md#vector-caches).
fn cache_table(
    s: &mut String,
    d: &Device,
    what: &str,
    rows: &[SourceRow],
    mut texts: Option<&mut SourceTexts>,
) {
    use gpumemsim::vcache::{Level, LINE_BYTES};
    let mut cached: Vec<&SourceRow> = rows.iter().filter(|r| r.stats.lines.requests > 0).collect();
    let Some(f) = d.vcache_family().filter(|_| !cached.is_empty()) else {
        return;
    };
    cached.sort_by_key(|r| std::cmp::Reverse(r.stats.lines.requests));
    let _ = writeln!(
        s,
        "\nVector memory by {what}, most cache lines first (lines of {LINE_BYTES} B requested; hit% = lines a level served of those looked up there)"
    );
    // A column per cache level (`IC`: the Infinity Cache), then the lines memory served.
    let caches: Vec<Level> = f.levels().filter(|&l| l != Level::Vram).collect();
    let short = |l: Level| match l {
        Level::Mall => "IC",
        l => f.label(l).unwrap_or(""),
    };
    let mut head = String::from("    lines      bytes");
    for &l in &caches {
        let _ = write!(head, " {:>9}", format!("{} hit%", short(l)));
    }
    let memory = format!("from {}", f.label(Level::Vram).unwrap_or(""));
    let _ = writeln!(s, "{head} {memory:>10}  {what}");
    for r in cached {
        let c = &r.stats.lines;
        let mut row = format!("{:>9} {:>10}", c.requests, c.requests * LINE_BYTES);
        for &l in &caches {
            let rate = c
                .hit_rate(l)
                .map_or("-".to_string(), |h| format!("{:.1}", 100.0 * h));
            let _ = write!(row, " {rate:>9}");
        }
        let _ = writeln!(
            s,
            "{row} {:>10}  {}",
            c.served_by(Level::Vram),
            row_place(r, texts.as_deref_mut()).trim_end()
        );
    }
}

/// Instruction `pc`'s address (as llvm-objdump-19 prints it) and `file:line:column`
/// (empty without line tables), for the instruction tables.
fn instruction_place(v: &TextView, pc: usize) -> (String, String) {
    let l = &v.program[pc];
    let address = format!("{:#x}", v.base.wrapping_add(l.address as i32 as i64 as u64));
    let place = v.sources[pc].as_ref().map_or(String::new(), |src| {
        let l = &src.location;
        format!("{}:{}", short_place(&l.file, l.line), l.column)
    });
    (address, place)
}

/// How many instructions the table shows (`--top`, 0: all), after its heading, which says
/// how they are `ordered`.
fn top_heading(s: &mut String, v: &TextView, ordered: &str) -> usize {
    let all = v.program.len();
    let shown = match v.top {
        0 => all,
        n => n.min(all),
    };
    let _ = writeln!(
        s,
        "\nTop {shown} of {all} instructions, {ordered} (--top N; --top 0 for all)"
    );
    shown
}

/// The instructions, hottest first, `--top` of them.
fn instruction_table(s: &mut String, v: &TextView) {
    let stats = v.device.stats();
    let mut order: Vec<usize> = (0..v.program.len()).collect();
    order.sort_by_key(|&pc| {
        let st = &stats[pc];
        (
            std::cmp::Reverse(st.cycles),
            std::cmp::Reverse(st.conflict_cycles),
            std::cmp::Reverse(st.stall_cycles),
            pc,
        )
    });
    let shown = top_heading(s, v, "hottest first");
    let _ = writeln!(
        s,
        "{:>10}    execs   cycles  conflict    stall  {:<22} instruction",
        "address", "line:column"
    );
    for &pc in &order[..shown] {
        let (l, st) = (&v.program[pc], &stats[pc]);
        let (address, place) = instruction_place(v, pc);
        let _ = writeln!(
            s,
            "{address:>10} {:>8} {:>8} {:>9} {:>8}  {place:<22} {}",
            st.executions,
            st.cycles,
            st.conflict_cycles,
            st.stall_cycles,
            l.text()
        );
    }
    let kc = v.device.kcache_stats();
    if kc.hits + kc.misses + kc.invalidations > 0 {
        let _ = writeln!(
            s,
            "\nscalar cache: {} hits, {} misses, {} invalidations",
            kc.hits, kc.misses, kc.invalidations
        );
    }
}

fn events(s: &mut String, v: &TextView) {
    if v.device.events().is_empty() {
        return;
    }
    let _ = writeln!(s, "\nevents:");
    for e in v.device.events() {
        let at = v.program.get(e.pc).map_or(String::new(), |l| {
            let place = v.sources[e.pc].as_ref().map_or(String::new(), |src| {
                format!(
                    " ({}:{})",
                    short_place(&src.location.file, src.location.line),
                    src.location.column
                )
            });
            format!(
                "{:#x}{place}",
                v.base.wrapping_add(l.address as i32 as i64 as u64)
            )
        });
        let _ = writeln!(s, "  [{}] wave {} pc {at}: {}", e.kind, e.wave, e.message);
    }
}

fn dump_lines(s: &mut String, dumps: &Map<String, Value>) {
    for (what, v) in dumps {
        let _ = writeln!(s, "\n{what}:");
        match v {
            Value::Array(items) if ["lds:", "gds:", "mem:"].iter().any(|p| what.starts_with(p)) => {
                for (i, chunk) in items.chunks(8).enumerate() {
                    let words: Vec<String> = chunk
                        .iter()
                        .map(|x| format!("{:08x}", x.as_u64().unwrap_or(0)))
                        .collect();
                    let _ = writeln!(s, "  +{:#06x}: {}", i * 32, words.join(" "));
                }
            }
            Value::Array(waves) => {
                for (w, x) in waves.iter().enumerate() {
                    match x {
                        Value::Array(lanes) => {
                            let vals: Vec<String> = lanes
                                .iter()
                                .map(|v| v.as_u64().unwrap_or(0).to_string())
                                .collect();
                            let _ = writeln!(s, "  wave {w}: [{}]", vals.join(", "));
                        }
                        other => {
                            let _ = writeln!(s, "  wave {w}: {:#x}", other.as_u64().unwrap_or(0));
                        }
                    }
                }
            }
            other => {
                let _ = writeln!(s, "  {other}");
            }
        }
    }
}

/// One value of an argument as the text report shows it: a number as JSON writes it,
/// `Infinity` / `-Infinity`, and a NaN with its bits, `NaN(0x7fc00001)` (see
/// `kernel_cmd::json_value`).
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(o) => match o.get("nan").and_then(Value::as_str) {
            Some(bits) => format!("NaN({bits})"),
            None => v.to_string(),
        },
        _ => v.to_string(),
    }
}

/// `errors: 2 out_of_bounds, 1 memviol (see the events below)`, or `None` when the run met no
/// error-class event.
fn error_counts(wg: &Device) -> Option<String> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for e in wg.events().iter().filter(|e| e.is_error()) {
        match counts.iter_mut().find(|(k, _)| *k == e.kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((e.kind, 1)),
        }
    }
    if counts.is_empty() {
        return None;
    }
    let list: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
    Some(format!(
        "errors: {} (see the events below)",
        list.join(", ")
    ))
}

/// The text report's calls: `  line 12 (0x1810 s_swappc_b64 ...) -> fib (line 4)`, one per
/// call site and function reached.
pub fn calls_text(
    program: &[gpumemsim::isa::asm::AsmLine],
    dev: &gpumemsim::exec::Device,
    sources: &[Option<gpumemsim::report::InstSource>],
    kernel: &gpumemsim::loader::Kernel,
) -> String {
    let mut s = String::new();
    let place = |pc: usize| -> String {
        match sources.get(pc).and_then(|x| x.as_ref()) {
            Some(src) => format!("{}:{}", short_file(&src.location.file), src.location.line),
            None => format!("pc {pc}"),
        }
    };
    for &(from, to) in dev.calls() {
        let name = gpumemsim::report::function_at(program, sources, Some(kernel), to)
            .unwrap_or_else(|| format!("pc {to}"));
        let text = program.get(from).map_or(String::new(), |l| l.text());
        s.push_str(&format!(
            "  {} `{text}` -> {name} ({})\n",
            place(from),
            place(to)
        ));
    }
    s
}

/// A source file's name without its directories.
fn short_file(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
