//! `--html`: the HTML reports of `run` and `banks`, checked as text against the same run's
//! `--json` (the browser's view of them is in tests/browser.rs): the source view (lines and
//! the instructions under them), the heat maps (each picture once), the instruction table.

mod common;

use std::path::PathBuf;

use common::run;
use serde_json::Value;

/// A fresh path for an output file of test `name`.
fn out_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("html_report");
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join(name)
}

fn run_ok(args: &[&str]) -> String {
    let o = run(args, "");
    assert!(
        o.status.success(),
        "gpumemsim {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("utf-8")
}

/// Writes the report of `gpumemsim run ARGS --html` and returns it with the `--json` of the
/// same run.
fn run_report(name: &str, args: &[&str]) -> (String, Value) {
    let path = out_path(name);
    let p = path.to_str().expect("a UTF-8 path");
    let mut with_html = vec!["run"];
    with_html.extend_from_slice(args);
    with_html.extend_from_slice(&["--html", p]);
    run_ok(&with_html);
    let mut with_json = vec!["run"];
    with_json.extend_from_slice(args);
    with_json.push("--json");
    let json: Value = serde_json::from_str(&run_ok(&with_json)).expect("json");
    (std::fs::read_to_string(&path).expect("the report"), json)
}

/// The instruction table's rows in page order: (pc, the row's cells' data-v values).
fn table_rows(html: &str) -> Vec<(u64, Vec<String>)> {
    let body = html
        .split("id=\"instr\"")
        .nth(1)
        .expect("the instruction table")
        .split("<tbody>")
        .nth(1)
        .and_then(|s| s.split("</tbody>").next())
        .expect("a table body");
    body.split("<tr data-pc=\"")
        .skip(1)
        .map(|row| {
            let pc = row
                .split('"')
                .next()
                .and_then(|s| s.parse().ok())
                .expect("a pc");
            let cells = row
                .split("data-v=\"")
                .skip(1)
                .map(|c| c.split('"').next().unwrap_or("").to_string())
                .collect();
            (pc, cells)
        })
        .collect()
}

fn stat(ins: &Value, key: &str) -> u64 {
    ins[key].as_u64().expect("a statistic")
}

/// The page loads nothing: no scripts, styles, images or fonts from files or the network.
fn assert_self_contained(html: &str) {
    for needle in [
        "http:", "https:", "src=", "<link", "@import", "url(", "file:",
    ] {
        assert!(!html.contains(needle), "the page contains `{needle}`");
    }
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
}

#[test]
fn the_naive_transpose_report_shows_the_32_way_column_conflict_first() {
    let (html, json) = run_report("naive.html", &[]);
    assert_self_contained(&html);
    let ins = json["instructions"].as_array().expect("instructions");
    // Every instruction is in the table with the run's own statistics, its address and its
    // source line.
    let rows = table_rows(&html);
    assert_eq!(rows.len(), ins.len());
    for (pc, cells) in &rows {
        let i = &ins[*pc as usize];
        let numbers: Vec<u64> = [0, 1, 2, 3, 4, 5, 6, 7]
            .iter()
            .map(|&k| cells[k].parse().expect("a number"))
            .collect();
        let want = [
            *pc,
            stat(i, "address"),
            i["source"]["line"].as_u64().unwrap_or(0),
            stat(i, "executions"),
            stat(i, "cycles"),
            stat(i, "conflict_cycles"),
            stat(i, "stall_cycles"),
            stat(i, "latency_cycles"),
        ];
        assert_eq!(numbers, want, "pc {pc}");
    }
    // Hottest first: by cycles, then conflict cycles, then stall cycles, then pc.
    let key = |pc: u64| {
        let i = &ins[pc as usize];
        (
            std::cmp::Reverse(stat(i, "cycles")),
            std::cmp::Reverse(stat(i, "conflict_cycles")),
            std::cmp::Reverse(stat(i, "stall_cycles")),
            pc,
        )
    };
    let order: Vec<u64> = rows.iter().map(|r| r.0).collect();
    let mut sorted = order.clone();
    sorted.sort_by_key(|&pc| key(pc));
    assert_eq!(order, sorted);
    // The hottest is a column read of the tile: ds_load_2addr_b32, 32 lanes on one bank in
    // each of its two passes: 64 cycles, 62 of them conflicts, a 32-way conflict.
    let top = &ins[order[0] as usize];
    assert!(top["text"]
        .as_str()
        .expect("text")
        .starts_with("ds_load_2addr_b32"));
    assert_eq!(
        (stat(top, "cycles"), stat(top, "conflict_cycles")),
        (64, 62)
    );
    assert_eq!(rows[0].1[8], "32", "the worst-conflict column");
    // The glance line and the first heat map name it.
    let glance = html
        .split("id=\"glance\"")
        .nth(1)
        .and_then(|g| g.split("</p>").next())
        .expect("a glance line");
    assert!(glance.contains("32-way conflict"), "{glance}");
    let conflicts: u64 = ins.iter().map(|i| stat(i, "conflict_cycles")).sum();
    assert_eq!(conflicts, 16 * 62);
    assert!(glance.contains(&format!("Bank conflicts cost {conflicts} of")));
    let first_panel = html
        .split("<div class=\"panel")
        .nth(1)
        .expect("a heat map panel");
    assert!(first_panel.starts_with(&format!(" hot\" id=\"ds-{}\"", order[0])));
    assert!(first_panel.contains("data-ways=\"32\""));
    // Its two passes each fill one bank row with the hottest colour: 32 lane cells + the
    // passes cell per pass.
    assert_eq!(first_panel.matches("fill=\"#800026\"").count(), 2 * 33);
    // The 16 column reads share the pattern; the 16 row writes share another, conflict-free.
    assert!(first_panel.contains("Same pattern: 15 more instruction(s)"));
    assert_eq!(html.matches("\" id=\"ds-").count(), 2);
    // Its 32 row loads and 32 row stores (one cache line each, every lane on it) share one
    // coalescing picture.
    assert_eq!(html.matches("<div class=\"panel\" id=\"vm-").count(), 1);
}

#[test]
fn padded_and_swizzled_transposes_are_conflict_free() {
    for kernel in ["transpose_padded", "transpose_swizzled"] {
        let (html, json) = run_report(&format!("{kernel}.html"), &["--kernel", kernel]);
        assert_self_contained(&html);
        let conflicts: u64 = json["instructions"]
            .as_array()
            .expect("instructions")
            .iter()
            .map(|i| stat(i, "conflict_cycles"))
            .sum();
        assert_eq!(conflicts, 0, "{kernel}");
        assert!(
            html.contains("Every LDS access is conflict-free"),
            "{kernel}"
        );
        assert!(!html.contains("-way conflict"), "{kernel}");
        assert!(!html.contains("#800026\"><title>"), "{kernel}");
    }
}

#[test]
fn assembly_runs_get_heat_maps_too() {
    let example = format!(
        "{}/../../examples/lds-reduction.s",
        env!("CARGO_MANIFEST_DIR")
    );
    let args = [example.as_str(), "--set", "v1=lane*4", "--set", "v2=lane+1"];
    let (html, json) = run_report("lds-reduction.html", &args);
    assert_self_contained(&html);
    let ds: Vec<&Value> = json["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        // LDS bank accesses (the permutes use the crossbar, not the banks).
        .filter(|i| {
            i["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("ds_") && !t.contains("permute"))
        })
        .filter(|i| stat(i, "executions") > 0)
        .collect();
    assert!(!ds.is_empty());
    // Every executed DS instruction is drawn, alone or in the panel of the picture it shares,
    // and its row in the source view links to that panel.
    for i in ds {
        let pc = stat(i, "pc");
        let panel = heat_map_of(&html, pc).unwrap_or_else(|| panic!("pc {pc} has no heat map"));
        assert!(
            panel == pc || panel_text(&html, panel).contains(&format!("href=\"#i-{pc}\"")),
            "pc {pc}: panel {panel} does not list it"
        );
    }
    // An assembly program's lines are its own lines, one instruction each, with their text.
    let program = std::fs::read_to_string(&example).expect("the example");
    let lines = json["lines"].as_array().expect("lines");
    assert_eq!(
        lines.len(),
        json["instructions"].as_array().expect("i").len()
    );
    for i in json["instructions"].as_array().expect("instructions") {
        let (pc, line) = (stat(i, "pc"), stat(i, "line"));
        let block = line_block(&html, &format!("line-0-{line}"));
        assert_eq!(line_pcs(block), vec![pc], "line {line}");
        let text = program
            .lines()
            .nth(line as usize - 1)
            .expect("the line")
            .trim();
        let escaped = text
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(
            block.contains(&format!("<code>{escaped}</code>")),
            "{block}"
        );
    }
    assert!(
        !html.contains("id=\"line-none\""),
        "every instruction has a line"
    );
}

/// The `<details>` of source line `id` (up to its end).
fn line_block<'a>(html: &'a str, id: &str) -> &'a str {
    html.split(&format!(" id=\"{id}\""))
        .nth(1)
        .and_then(|s| s.split("</details>").next())
        .unwrap_or_else(|| panic!("no line {id}"))
}

/// The instructions (pcs) listed under a source line, in page order.
fn line_pcs(block: &str) -> Vec<u64> {
    block
        .split("<tr id=\"i-")
        .skip(1)
        .map(|r| {
            r.split('"')
                .next()
                .and_then(|s| s.parse().ok())
                .expect("a pc")
        })
        .collect()
}

/// The heat map (its first pc) that instruction `pc`'s row in the source view links to.
fn heat_map_of(html: &str, pc: u64) -> Option<u64> {
    html.split(&format!("<tr id=\"i-{pc}\""))
        .nth(1)?
        .split("</tr>")
        .next()?
        .split("href=\"#ds-")
        .nth(1)?
        .split('"')
        .next()?
        .parse()
        .ok()
}

/// The heat-map panel whose first instruction is `pc`, up to its picture's end.
fn panel_text(html: &str, pc: u64) -> &str {
    html.split(&format!("id=\"ds-{pc}\""))
        .nth(1)
        .and_then(|s| s.split("</svg>").next())
        .unwrap_or_else(|| panic!("no panel ds-{pc}"))
}

/// The pictures of the page's heat maps, without what differs between equal pictures (the
/// element's id, the tooltips, which name addresses).
fn pictures(html: &str) -> Vec<String> {
    html.split("<svg ")
        .skip(1)
        .filter(|s| !s.starts_with("class=\"timeline\"") && !s.starts_with("id=\"coalescing-"))
        .map(|s| {
            let svg = s.split("</svg>").next().expect("an svg");
            let mut out = String::new();
            let mut rest = svg.split_once("role=").map_or(svg, |(_, r)| r);
            while let Some((before, after)) = rest.split_once("<title>") {
                out.push_str(before);
                rest = after.split_once("</title>").map_or("", |(_, r)| r);
            }
            out.push_str(rest);
            out
        })
        .collect()
}

#[test]
fn the_banner_links_the_worst_line_and_its_instructions_are_under_it() {
    let (html, json) = run_report("naive-source.html", &[]);
    let ins = json["instructions"].as_array().expect("instructions");
    let pc_at = |address: u64| {
        ins.iter()
            .find(|i| stat(i, "address") == address)
            .map(|i| stat(i, "pc"))
            .expect("an instruction at the address")
    };
    // The worst line: the most conflict cycles (the column read, line 8 of transpose.cl).
    let lines = json["lines"].as_array().expect("lines");
    let worst = lines
        .iter()
        .max_by_key(|l| stat(l, "conflict_cycles"))
        .expect("a line");
    assert_eq!(stat(worst, "line"), 8);
    assert_eq!(stat(worst, "conflict_cycles"), 16 * 62);
    let glance = html
        .split("id=\"glance\"")
        .nth(1)
        .and_then(|g| g.split("</p>").next())
        .expect("the banner");
    assert!(
        glance.contains("Worst line: <a href=\"#line-0-8\" id=\"worst-line\">transpose.cl:8</a>"),
        "{glance}"
    );
    assert!(glance.contains(&format!(
        "{} of its {} issue cycles are bank conflicts",
        stat(worst, "conflict_cycles"),
        stat(worst, "cycles")
    )));
    // The link's target is the line, marked the worst, first in the view (hottest first).
    let block = line_block(&html, "line-0-8");
    let view = html.split("id=\"lines\"").nth(1).expect("the source view");
    assert!(view
        .split("<details")
        .nth(1)
        .is_some_and(|d| d.starts_with(" class=\"line worst\" id=\"line-0-8\"")));
    // Its text, and its instructions under it in program order: exactly the line's.
    assert!(block.contains("tile[x * T + y];</code>"), "{block}");
    let want: Vec<u64> = worst["instructions"]
        .as_array()
        .expect("addresses")
        .iter()
        .map(|a| pc_at(a.as_u64().expect("an address")))
        .collect();
    assert_eq!(line_pcs(block), want);
    assert!(block.contains(&format!(
        "<span class=\"n\">{}</span>",
        stat(worst, "cycles")
    )));
    // Each instruction row: address, text, executions, cycles, conflicts; the column reads
    // link to their heat map.
    let first = &ins[want[0] as usize];
    let row = block
        .split(&format!("<tr id=\"i-{}\"", want[0]))
        .nth(1)
        .and_then(|r| r.split("</tr>").next())
        .expect("the row");
    assert!(
        row.contains(&format!(">{:#x}<", stat(first, "address"))),
        "{row}"
    );
    let loads: Vec<u64> = want
        .iter()
        .copied()
        .filter(|&pc| {
            ins[pc as usize]["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("ds_load"))
        })
        .collect();
    assert_eq!(loads.len(), 16);
    for &pc in &loads {
        assert_eq!(heat_map_of(&html, pc), Some(loads[0]), "pc {pc}");
    }
    // Every instruction is under exactly one line (all of this kernel's have one).
    let mut all: Vec<u64> = line_pcs(view);
    all.sort_unstable();
    assert_eq!(all, (0..ins.len() as u64).collect::<Vec<u64>>());
    assert_eq!(view.matches("<details class=\"line").count(), lines.len());
    assert!(!html.contains("id=\"line-none\""));
}

#[test]
fn instructions_without_a_line_are_the_last_group() {
    let object = format!(
        "{}/../../examples/kernels/lds_sum.w32.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let args = [
        object.as_str(),
        "--grid",
        "2",
        "--block",
        "64",
        "--arg",
        "buf:i32[128]=iota",
        "--arg",
        "buf:i32[2]=zeros",
    ];
    let (html, json) = run_report("lds_sum.html", &args);
    assert_self_contained(&html);
    let ins = json["instructions"].as_array().expect("instructions");
    let without: Vec<u64> = ins
        .iter()
        .filter(|i| i["source"]["line"].as_u64().unwrap_or(0) == 0)
        .map(|i| stat(i, "pc"))
        .collect();
    assert!(!without.is_empty(), "the kernel has code with no line");
    let view = html.split("id=\"lines\"").nth(1).expect("the source view");
    let groups: Vec<&str> = view.split("<details class=\"line").skip(1).collect();
    let lines = json["lines"].as_array().expect("lines").len();
    assert_eq!(groups.len(), lines + 1, "the lines and the no-line group");
    let last = groups[lines];
    assert!(last.starts_with(" none\" id=\"line-none\""), "{last}");
    assert!(last.contains(&format!(
        "no source line ({} instruction(s))",
        without.len()
    )));
    assert_eq!(line_pcs(line_block(&html, "line-none")), without);
}

#[test]
fn identical_heat_maps_are_drawn_once_and_pages_stay_small() {
    // (kernel, DS instructions, pictures): the naive and padded transposes' 2addr loads and
    // stores; the swizzled one's single loads and stores, whose XOR patterns pair up (x ^ c
    // and x ^ (c + 16) are the same picture rotated by 16 banks).
    for (kernel, count, panels) in [
        ("transpose_naive", 32, 2),
        ("transpose_padded", 32, 1),
        ("transpose_swizzled", 64, 16),
    ] {
        let (html, json) = run_report(&format!("{kernel}-once.html"), &["--kernel", kernel]);
        assert_self_contained(&html);
        if kernel != "transpose_swizzled" {
            assert!(html.len() < 200_000, "{kernel}: {} bytes", html.len());
        }
        // No two pictures are the same.
        let pictures = pictures(&html);
        assert_eq!(pictures.len(), panels, "{kernel}");
        for (i, a) in pictures.iter().enumerate() {
            for b in &pictures[i + 1..] {
                assert_ne!(a, b, "{kernel}: a picture drawn twice");
            }
        }
        // Every DS instruction links to the panel that draws its picture, which lists it.
        let ds: Vec<u64> = json["instructions"]
            .as_array()
            .expect("instructions")
            .iter()
            .filter(|i| i["text"].as_str().is_some_and(|t| t.starts_with("ds_")))
            .map(|i| stat(i, "pc"))
            .collect();
        assert_eq!(ds.len(), count, "{kernel}");
        for pc in ds {
            let panel = heat_map_of(&html, pc).expect("a heat map");
            assert!(
                panel == pc || panel_text(&html, panel).contains(&format!("href=\"#i-{pc}\"")),
                "{kernel}: pc {pc}"
            );
        }
    }
}

#[test]
fn wave64_heat_maps_wrap_to_fit_the_page() {
    let example = format!(
        "{}/../../examples/lds-reduction.s",
        env!("CARGO_MANIFEST_DIR")
    );
    let args = [
        example.as_str(),
        "--wave64",
        "--set",
        "v1=lane*4",
        "--set",
        "v2=lane+1",
    ];
    let (html, _) = run_report("lds-reduction-w64.html", &args);
    let widths: Vec<u64> = html
        .split("class=\"heatmap\" width=\"")
        .skip(1)
        .map(|s| {
            s.split('"')
                .next()
                .and_then(|w| w.parse().ok())
                .expect("a width")
        })
        .collect();
    assert!(!widths.is_empty());
    // Two 32-lane phases side by side at most (the 2addr load's four wrap to two rows).
    assert!(widths.iter().all(|&w| w <= 1100), "{widths:?}");
    assert!(html.contains("phase 1 · addr1"));
    assert!(html.contains("svg.heatmap { display: block; max-width: 100%; height: auto; }"));
}

#[test]
fn banks_html_puts_the_suggested_layouts_beside_the_access() {
    let path = out_path("banks.html");
    let p = path.to_str().expect("a UTF-8 path");
    let args = [
        "banks",
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "t*128",
        "--suggest",
    ];
    let text_without = run_ok(&args);
    let mut with_html = args.to_vec();
    with_html.extend_from_slice(&["--html", p]);
    // --html adds a file and leaves standard output as it was.
    assert_eq!(run_ok(&with_html), text_without);
    let html = std::fs::read_to_string(&path).expect("the page");
    assert_self_contained(&html);
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let json: Value = serde_json::from_str(&run_ok(&with_json)).expect("json");
    let suggestions = json["suggestions"].as_array().expect("suggestions");
    assert!(!suggestions.is_empty());
    assert!(html.contains("<div class=\"side\">"));
    // The access as given, then each suggestion in order, with its cost.
    let costs: Vec<u64> = html
        .split("<div class=\"panel")
        .skip(1)
        .map(|p| {
            p.split("data-cost=\"")
                .nth(1)
                .and_then(|s| s.split('"').next())
                .and_then(|s| s.parse().ok())
                .expect("a cost")
        })
        .collect();
    let mut want = vec![json["cycles"].as_u64().expect("cycles")];
    want.extend(
        suggestions
            .iter()
            .map(|s| s["cycles"].as_u64().expect("cycles")),
    );
    assert_eq!(costs, want);
    for s in suggestions {
        let layout = s["layout"].as_str().expect("layout");
        assert!(html.contains(&format!("<h3>{layout}</h3>")), "{layout}");
    }
    assert!(html.contains("id=\"layout-0\" data-cost=\"32\" data-ways=\"32\""));
}

#[test]
fn banks_html_without_suggest_draws_one_access() {
    let path = out_path("banks-one.html");
    let p = path.to_str().expect("a UTF-8 path");
    run_ok(&[
        "banks", "--arch", "sm80", "--op", "lds.64", "--addr", "t*8", "--html", p,
    ]);
    let html = std::fs::read_to_string(&path).expect("the page");
    assert_self_contained(&html);
    // A100 LDS.64 at 8·t: two half-warp wavefronts, no conflict.
    assert!(html.contains("conflict-free"));
    assert!(html.contains("2 wavefronts for an ideal of 2"));
    assert_eq!(html.matches("<svg").count(), 1);
    assert!(!html.contains("<div class=\"side\">"));
}

#[test]
fn an_unwritable_html_path_is_a_clear_error() {
    let o = run(
        &["run", "--html", "/nonexistent-dir/for/sure/report.html"],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--html /nonexistent-dir/for/sure/report.html:"),
        "{err}"
    );
}

#[test]
fn events_and_hot_spots_name_their_source_line_and_column() {
    let obj = format!(
        "{}/tests/front_door/block_sum.o",
        env!("CARGO_MANIFEST_DIR")
    );
    // `in` is 100 elements but n = 192: the load on line 9 reads outside it.
    let (html, json) = run_report(
        "oob.html",
        &[&[obj.as_str()][..], &common::BLOCK_SUM_OUT_OF_BOUNDS[..]].concat(),
    );
    let events = json["events"].as_array().expect("events");
    let section = &html[html.find("<h2 id=\"events\">").expect("an events section")..];
    assert!(
        section.contains(&format!(
            "{} event(s), {} of an error kind",
            events.len(),
            events.len()
        )),
        "{}",
        &section[..300]
    );
    let col = events[0]["source"]["column"].as_u64().expect("a column");
    let pc = events[0]["pc"].as_u64().expect("pc");
    assert!(
        section.contains(&format!(
            "<td>out_of_bounds</td><td>3</td><td class=\"mono\"><a href=\"#i-{pc}\">"
        )),
        "{}",
        &section[..600]
    );
    assert!(
        section.contains(&format!("block_sum.cl:9:{col}")),
        "{}",
        &section[..600]
    );
    // The instruction itself carries the same place in its row.
    let row = &html[html.find(&format!("<tr id=\"i-{pc}\"")).expect("its row")..];
    assert!(row[..row.find("</tr>").expect("row end")].contains(&format!("block_sum.cl:9:{col}")));
}
