//! `--html`: the HTML reports of `run` and `banks`, checked as text against the same run's
//! `--json` (the browser's view of them is in tests/browser.rs).

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

/// The report's table rows in page order: (pc, the row's cells' data-v values).
fn table_rows(html: &str) -> Vec<(u64, Vec<String>)> {
    let body = html
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
    // Every instruction is in the table with the run's own statistics.
    let rows = table_rows(&html);
    assert_eq!(rows.len(), ins.len());
    for (pc, cells) in &rows {
        let i = &ins[*pc as usize];
        let numbers: Vec<u64> = [0, 1, 3, 4, 5, 6, 7]
            .iter()
            .map(|&k| cells[k].parse().expect("a number"))
            .collect();
        let want = [
            *pc,
            stat(i, "line"),
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
    let glance = html.split("id=\"glance\"").nth(1).expect("a glance line");
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
    assert_eq!(html.matches("<div class=\"panel").count(), 2);
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
    // Every executed DS instruction is drawn, alone or with the pattern it shares.
    for i in ds {
        let pc = stat(i, "pc");
        let drawn = html.contains(&format!("id=\"ds-{pc}\""))
            || html.split("Same pattern: ").skip(1).any(|s| {
                s.split("</p>").next().is_some_and(|l| {
                    l.split(|c: char| !c.is_ascii_digit())
                        .any(|n| n == pc.to_string())
                })
            });
        assert!(drawn, "pc {pc} has no heat map");
    }
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
