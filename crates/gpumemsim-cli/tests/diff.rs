//! `gpumemsim diff BEFORE.json AFTER.json`: the bundled transpose, naive against swizzled
//! (the bank conflicts of the transposing line go from 992 cycles to 0), a report against
//! itself, small hand-written reports for the matching rules, and the errors.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use common::run;
use serde_json::{json, Value};

/// The workspace root: the bundled kernel's line tables name `./examples/kernels/transpose.cl`,
/// which the run reads from its working directory.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A directory of this test process's files.
fn tmp() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("diff-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `gpumemsim run --kernel KERNEL --json` (the bundled transpose) written to a temp file.
fn transpose_report(kernel: &str) -> PathBuf {
    let o = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .args(["run", "--kernel", kernel, "--json"])
        .current_dir(root())
        .output()
        .expect("spawn gpumemsim");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let path = tmp().join(format!("{kernel}.json"));
    std::fs::write(&path, &o.stdout).expect("write report");
    path
}

fn naive() -> &'static Path {
    static P: OnceLock<PathBuf> = OnceLock::new();
    P.get_or_init(|| transpose_report("transpose_naive"))
}

fn swizzled() -> &'static Path {
    static P: OnceLock<PathBuf> = OnceLock::new();
    P.get_or_init(|| transpose_report("transpose_swizzled"))
}

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).expect("read")).expect("json")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn diff(args: &[&str]) -> Output {
    let mut all = vec!["diff"];
    all.extend_from_slice(args);
    run(&all, "")
}

fn diff_ok(args: &[&str]) -> String {
    let o = diff(args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("utf-8")
}

fn diff_json(before: &Path, after: &Path) -> Value {
    serde_json::from_str(&diff_ok(&[s(before), s(after), "--json"])).expect("diff json")
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    k.sort_unstable();
    k
}

/// The report's line record for `line`.
fn report_line(r: &Value, line: i64) -> &Value {
    r["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .find(|l| l["line"] == line)
        .unwrap_or_else(|| panic!("line {line} in the report"))
}

/// The diff's line entry whose after side is line `after_line`.
fn entry_after(d: &Value, after_line: i64) -> &Value {
    d["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .find(|e| e["after"]["line"] == after_line)
        .unwrap_or_else(|| panic!("an entry for after line {after_line}: {d}"))
}

const NAIVE_LINE: &str = "for (int y = 0; y < T; y++) out[y * T + x] = tile[x * T + y];";
const SWIZZLED_LINE: &str = "for (int y = 0; y < T; y++) out[y * T + x] = tile[x * T + (y ^ x)];";

#[test]
fn the_reports_say_what_the_diff_is_checked_against() {
    let (b, a) = (read_json(naive()), read_json(swizzled()));
    assert_eq!(b["kernel"], "transpose_naive");
    assert_eq!(a["kernel"], "transpose_swizzled");
    let (lb, la) = (report_line(&b, 8), report_line(&a, 22));
    assert_eq!(lb["text"], NAIVE_LINE);
    assert_eq!(la["text"], SWIZZLED_LINE);
    assert_eq!(
        [
            &lb["cycles"],
            &lb["conflict_cycles"],
            &lb["stall_cycles"],
            &lb["executions"]
        ],
        [1089, 992, 968, 81]
    );
    assert_eq!(
        [
            &la["cycles"],
            &la["conflict_cycles"],
            &la["stall_cycles"],
            &la["executions"]
        ],
        [130, 0, 0, 130]
    );
    assert_eq!((&b["cycles"], &a["cycles"]), (&json!(1896), &json!(979)));
    assert_eq!(b["totals"]["conflict_cycles"], 992);
    assert_eq!(a["totals"]["conflict_cycles"], 0);
}

#[test]
fn naive_vs_swizzled_json_pins_the_transposing_line() {
    let (b, a) = (read_json(naive()), read_json(swizzled()));
    let d = diff_json(naive(), swizzled());
    assert_eq!(keys(&d), ["instructions", "kernel", "line_tables", "lines"]);
    assert_eq!(d["line_tables"], json!({"before": true, "after": true}));
    pins_the_kernel(&d, &b, &a);
    pins_the_transposing_line(&d, &b, &a);
    pins_the_line_pairs_and_instructions(&d, &a);
}

/// The naive → swizzled comparison's kernel: the reports' own numbers and the change.
fn pins_the_kernel(d: &serde_json::Value, b: &serde_json::Value, a: &serde_json::Value) {
    // The kernel: the reports' own numbers, and after - before.
    let k = &d["kernel"];
    assert_eq!(keys(k), ["after", "before", "delta"]);
    // The kernel's keys; occupancy where the reports have "resources".
    let mut want = vec![
        "conflict_cycles",
        "cycles",
        "executions",
        "issue_cycles",
        "latency_cycles",
        "name",
        "stall_cycles",
    ];
    if b.get("resources").is_some() {
        want.extend(["limited_by", "waves_per_simd"]);
        want.sort_unstable();
    }
    assert_eq!(keys(&k["before"]), want);
    for (side, r) in [("before", &b), ("after", &a)] {
        assert_eq!(
            k[side].get("waves_per_simd"),
            r["resources"].get("waves_per_simd"),
            "{side}"
        );
        assert_eq!(
            k[side].get("limited_by"),
            r["resources"].get("limited_by"),
            "{side}"
        );
    }
    assert_eq!(k["before"]["name"], "transpose_naive");
    assert_eq!(k["after"]["name"], "transpose_swizzled");
    for (side, r) in [("before", &b), ("after", &a)] {
        assert_eq!(k[side]["cycles"], r["cycles"], "{side}");
        assert_eq!(
            k[side]["issue_cycles"], r["totals"]["issue_cycles"],
            "{side}"
        );
        assert_eq!(
            k[side]["conflict_cycles"], r["totals"]["conflict_cycles"],
            "{side}"
        );
        assert_eq!(
            k[side]["stall_cycles"], r["totals"]["stall_cycles"],
            "{side}"
        );
        assert_eq!(
            k[side]["executions"], r["totals"]["wave_instructions"],
            "{side}"
        );
    }
    let mut want = json!({"cycles": 979 - 1896, "issue_cycles": 297 - 1181, "conflict_cycles": -992,
        "stall_cycles": 416 - 1473, "latency_cycles": 22088 - 30000, "executions": 297 - 157});
    if let (Some(x), Some(y)) = (
        b["resources"]["waves_per_simd"].as_i64(),
        a["resources"]["waves_per_simd"].as_i64(),
    ) {
        want["waves_per_simd"] = json!(y - x);
    }
    assert_eq!(k["delta"], want);
}

/// The transposing line: its keys, both sides' numbers and the change.
fn pins_the_transposing_line(d: &serde_json::Value, b: &serde_json::Value, a: &serde_json::Value) {
    // The transposing line: naive line 8 against swizzled line 22, paired as an edited line.
    let e = entry_after(d, 22);
    assert_eq!(
        keys(e),
        ["after", "before", "delta", "file", "line", "match", "text"]
    );
    assert_eq!(e["match"], "edited");
    assert_eq!(e["file"], "./examples/kernels/transpose.cl");
    assert_eq!(e["line"], 22);
    assert_eq!(e["text"], SWIZZLED_LINE);
    assert_eq!(e["before"]["line"], 8);
    assert_eq!(e["before"]["text"], NAIVE_LINE);
    assert_eq!(
        keys(&e["before"]),
        [
            "conflict_cycles",
            "cycles",
            "executions",
            "file",
            "instructions",
            "line",
            "stall_cycles",
            "text"
        ]
    );
    for k in [
        "cycles",
        "conflict_cycles",
        "stall_cycles",
        "executions",
        "instructions",
    ] {
        assert_eq!(e["before"][k], report_line(b, 8)[k], "{k}");
        assert_eq!(e["after"][k], report_line(a, 22)[k], "{k}");
    }
    assert_eq!(
        e["delta"],
        json!({"cycles": -959, "conflict_cycles": -992, "stall_cycles": -968, "executions": 49})
    );
}

/// How the lines were paired, and the instructions matched by text.
fn pins_the_line_pairs_and_instructions(d: &serde_json::Value, a: &serde_json::Value) {
    // Every line is matched: 5, 7 and 9 moved (same text), 6 and 8 edited.
    let pairs: Vec<(i64, i64, &str)> = d["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|e| {
            (
                e["before"]["line"].as_i64().expect("before"),
                e["after"]["line"].as_i64().expect("after"),
                e["match"].as_str().expect("match"),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [
            (5, 19, "moved"),
            (6, 20, "edited"),
            (7, 21, "moved"),
            (8, 22, "edited"),
            (9, 23, "moved")
        ]
    );
    for (after, want) in [(19, 0), (21, 0), (23, 0), (20, 75)] {
        assert_eq!(
            entry_after(d, after)["delta"]["cycles"],
            want,
            "line {after}"
        );
    }
    // Instructions, matched by text: the first (s_load_b128) is in both; each entry has the
    // four metrics on each side.
    let insts = d["instructions"].as_array().expect("instructions");
    assert_eq!(keys(&insts[0]), ["after", "before", "delta", "text"]);
    assert_eq!(insts[0]["text"], a["instructions"][0]["text"]);
    assert!(insts.iter().any(|i| i["before"].is_null()));
    assert!(insts.iter().any(|i| i["after"].is_null()));
    let conflicts: i64 = insts
        .iter()
        .map(|i| i["delta"]["conflict_cycles"].as_i64().expect("delta"))
        .sum();
    assert_eq!(conflicts, -992);
}

#[test]
fn naive_vs_swizzled_text_names_the_line_and_its_source() {
    let t = diff_ok(&[s(naive()), s(swizzled())]);
    let head: Vec<&str> = t.lines().take(3).collect();
    assert_eq!(
        head[0],
        "kernel `transpose_naive` → kernel `transpose_swizzled`"
    );
    assert!(
        head[1].starts_with("  kernel time  1896 → 979  -917 (-48.4%)"),
        "{t}"
    );
    assert!(
        head[2].starts_with("  conflicts     992 → 0    -992 (-100.0%)"),
        "{t}"
    );
    let better = t.find("Improvements, largest first (2 lines;").expect(&t);
    let worse = t.find("Regressions, largest first (1 line;").expect(&t);
    let line8 = t.find("  transpose.cl:8 → 22  (edited)\n").expect(&t);
    let line6 = t.find("  transpose.cl:6 → 20  (edited)\n").expect(&t);
    assert!(better < line8 && line8 < worse && worse < line6, "{t}");
    assert!(t.contains(
        "      cycles 1089 → 130 (-959)   conflicts 992 → 0 (-992)   stalls 968 → 0 (-968)   execs 81 → 130 (+49)\n"
    ), "{t}");
    assert!(
        t.contains(&format!("      - {NAIVE_LINE}\n      + {SWIZZLED_LINE}\n")),
        "{t}"
    );
    assert!(
        t.ends_with("\n2 lines cost the same before and after.\n"),
        "{t}"
    );
    // Occupancy: compared when both reports have it (the run reports' "resources").
    let (b, a) = (read_json(naive()), read_json(swizzled()));
    let occupancy = t.lines().find(|l| l.starts_with("  occupancy "));
    match (
        b["resources"]["waves_per_simd"].as_i64(),
        a["resources"]["waves_per_simd"].as_i64(),
    ) {
        (Some(x), Some(y)) => {
            let l = occupancy.expect("an occupancy line");
            assert!(l.contains(&format!(" {x} → {y} ")), "{l}");
            assert!(l.contains("waves per SIMD (limited by "), "{l}");
        }
        _ => assert_eq!(occupancy, None),
    }
}

#[test]
fn a_report_diffed_with_itself_has_zero_deltas() {
    let d = diff_json(naive(), naive());
    let zero = |v: &Value, what: &str| {
        let o = v.as_object().expect("delta object");
        assert!(!o.is_empty(), "{what}");
        for (k, x) in o {
            assert_eq!(x, 0, "{what} {k}");
        }
    };
    zero(&d["kernel"]["delta"], "kernel");
    let lines = d["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 5);
    for e in lines {
        assert_eq!(e["match"], "same");
        assert_eq!(e["before"], e["after"]);
        zero(&e["delta"], "line");
    }
    let insts = d["instructions"].as_array().expect("instructions");
    assert!(!insts.is_empty());
    for e in insts {
        zero(&e["delta"], e["text"].as_str().unwrap_or(""));
    }
    let t = diff_ok(&[s(naive()), s(naive())]);
    assert!(t.contains("  kernel time  1896 → 1896  0"), "{t}");
    assert!(
        t.contains("\nImprovements: none\n\nRegressions: none\n"),
        "{t}"
    );
    assert!(t.contains("5 lines cost the same"), "{t}");
}

#[test]
fn html_page_shows_the_summary_and_the_line() {
    let path = tmp().join("naive-swizzled.html");
    let _ = std::fs::remove_file(&path);
    let t = diff_ok(&[s(naive()), s(swizzled()), "--html", s(&path)]);
    assert!(
        t.starts_with("kernel `transpose_naive`"),
        "the text report still prints"
    );
    let h = std::fs::read_to_string(&path).expect("the page was written");
    assert!(h.starts_with("<!DOCTYPE html>"));
    assert!(h.contains("<title>gpumemsim diff: transpose_naive → transpose_swizzled</title>"));
    assert!(!h.contains("<script"), "no scripts");
    assert!(!h.contains("http"), "self-contained");
    assert!(h.contains(
        "<td class=\"text\">conflict cycles</td><td>992</td><td>0</td><td class=\"better\">-992</td>"
    ));
    // The line, escaped, before and after, with bars on one scale (line 8 is the widest).
    assert!(h.contains("transpose.cl:8 → 22 <span class=\"tag\">edited</span>"));
    assert!(h.contains("tile[x * T + (y ^ x)]"));
    assert!(h.contains("for (int y = 0; y &lt; T; y++) out[y * T + x] = tile[x * T + y];"));
    assert!(h.contains(
        "<div class=\"bar before\" style=\"width:100.0%\" title=\"before: 1089 cycles, 992 in conflicts\">"
    ));
    assert!(h.contains("<td>992 → 0</td><td class=\"better\">-992</td>"));
}

/// A source line of a hand-written report: (line, text, cycles, conflict, stall, executions).
type Row = (i64, Option<&'static str>, i64, i64, i64, i64);

/// A hand-written run report: `lines` as (line, text, cycles, conflict, stall, executions)
/// in file `k.cl` (`None`: no "lines" key), `insts` as (text, cycles, conflict, stall).
fn report(
    name: Option<&str>,
    time: i64,
    lines: Option<&[Row]>,
    insts: &[(&str, i64, i64, i64)],
) -> Value {
    let instructions: Vec<Value> = insts
        .iter()
        .enumerate()
        .map(|(i, &(text, c, k, st))| {
            json!({"address": i * 4, "text": text, "executions": 1, "cycles": c,
                   "conflict_cycles": k, "stall_cycles": st, "latency_cycles": 0})
        })
        .collect();
    let sum = |f: fn(&(&str, i64, i64, i64)) -> i64| insts.iter().map(f).sum::<i64>();
    let mut r = json!({
        "instructions": instructions,
        "cycles": time,
        "totals": {"cycles": time, "wave_instructions": insts.len(), "issue_cycles": sum(|i| i.1),
                   "conflict_cycles": sum(|i| i.2), "stall_cycles": sum(|i| i.3), "latency_cycles": 0},
    });
    if let Some(n) = name {
        r["kernel"] = json!(n);
    }
    if let Some(lines) = lines {
        r["lines"] = lines
            .iter()
            .map(|&(line, text, c, k, st, x)| {
                json!({"file": "src/k.cl", "line": line, "text": text, "cycles": c,
                       "conflict_cycles": k, "stall_cycles": st, "executions": x, "instructions": []})
            })
            .collect();
    }
    r
}

fn write(name: &str, v: &Value) -> PathBuf {
    let p = tmp().join(name);
    std::fs::write(&p, v.to_string()).expect("write");
    p
}

#[test]
fn inserted_moved_edited_and_removed_lines_are_matched() {
    let before = report(
        Some("k"),
        100,
        Some(&[
            (10, Some("a = 1;"), 5, 0, 0, 1),
            (11, Some("b = t[x];"), 40, 30, 0, 1),
            (12, Some("c = t[y];"), 20, 10, 0, 1),
            (13, Some("gone();"), 9, 0, 0, 1),
            (14, None, 3, 0, 0, 1),
        ]),
        &[("s_nop 0", 1, 0, 0)],
    );
    // A line inserted at 11 moves b down; c is edited (and moves); gone() is removed; line 14
    // (no text: its file could not be read) keeps its number; `new();` is added at the end.
    let after = report(
        Some("k"),
        90,
        Some(&[
            (10, Some("a = 1;"), 5, 0, 0, 1),
            (11, Some("inserted();"), 2, 0, 0, 1),
            (12, Some("b = t[x];"), 40, 30, 0, 1),
            (13, Some("c = t[y ^ x];"), 12, 0, 2, 1),
            (14, None, 3, 0, 0, 1),
            (20, Some("new();"), 9, 0, 0, 1),
        ]),
        &[("s_nop 0", 1, 0, 0)],
    );
    let (b, a) = (
        write("m-before.json", &before),
        write("m-after.json", &after),
    );
    let d = diff_json(&b, &a);
    let got: Vec<(Value, Value, String)> = d["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|e| {
            (
                e["before"]["line"].clone(),
                e["after"]["line"].clone(),
                e["match"].as_str().expect("match").to_string(),
            )
        })
        .collect();
    let want = [
        (json!(10), json!(10), "same"),
        (Value::Null, json!(11), "added"),
        (json!(11), json!(12), "moved"),
        (json!(12), json!(13), "edited"),
        (json!(13), Value::Null, "removed"),
        (json!(14), json!(14), "same"),
        (Value::Null, json!(20), "added"),
    ];
    let want: Vec<(Value, Value, String)> = want
        .into_iter()
        .map(|(x, y, m)| (x, y, m.to_string()))
        .collect();
    assert_eq!(got, want);
    let lines = d["lines"].as_array().expect("lines");
    // A one-sided line: its missing side is null, the delta counts it as zeros.
    assert_eq!(lines[4]["after"], Value::Null);
    assert_eq!(
        lines[4]["delta"],
        json!({"cycles": -9, "conflict_cycles": 0, "stall_cycles": 0, "executions": -1})
    );
    assert_eq!(lines[1]["delta"]["cycles"], 2);
    assert_eq!(
        lines[3]["delta"],
        json!({"cycles": -8, "conflict_cycles": -10, "stall_cycles": 2, "executions": 0})
    );
    // Ranked: improvements gone (-9), c (-8); regressions new (+9), inserted (+2).
    let t = diff_ok(&[s(&b), s(&a)]);
    let at = |x: &str| t.find(x).unwrap_or_else(|| panic!("{x:?} in\n{t}"));
    assert!(
        at("  k.cl:13  (removed)") < at("  k.cl:12 → 13  (edited)"),
        "{t}"
    );
    assert!(at("  k.cl:12 → 13  (edited)") < at("Regressions"), "{t}");
    assert!(at("Regressions") < at("  k.cl:20  (added)"), "{t}");
    assert!(at("  k.cl:20  (added)") < at("  k.cl:11  (added)"), "{t}");
    assert!(t.contains("cycles 9 → - (-9)"), "{t}");
    assert!(
        t.contains("      - c = t[y];\n      + c = t[y ^ x];\n"),
        "{t}"
    );
    assert!(
        t.contains("\n3 lines cost the same before and after.\n"),
        "{t}"
    );
    // --top 1 shows one of each list and says how many there are.
    let t1 = diff_ok(&[s(&b), s(&a), "--top", "1"]);
    assert!(
        t1.contains("(1 of 2 lines, --top 0 for all; cycles summed over waves"),
        "{t1}"
    );
    assert!(
        t1.contains("k.cl:13  (removed)") && !t1.contains("k.cl:12 → 13"),
        "{t1}"
    );
    assert!(
        t1.contains("k.cl:20  (added)") && !t1.contains("k.cl:11  (added)"),
        "{t1}"
    );
}

#[test]
fn without_line_tables_instructions_carry_the_answer() {
    let before = report(
        None,
        50,
        None,
        &[
            ("ds_load_b32 v1, v2", 10, 8, 0),
            ("s_nop 0", 1, 0, 0),
            ("ds_load_b32 v1, v2", 10, 8, 0),
            ("v_mov_b32_e32 v3, 0", 1, 0, 0),
        ],
    );
    let after = report(
        None,
        30,
        Some(&[]),
        &[
            ("v_xor_b32_e32 v2, v2, v4", 1, 0, 0),
            ("ds_load_b32 v1, v2", 2, 0, 0),
            ("s_nop 0", 1, 0, 0),
            ("ds_load_b32 v1, v2", 2, 0, 0),
        ],
    );
    let (b, a) = (
        write("i-before.json", &before),
        write("i-after.json", &after),
    );
    let d = diff_json(&b, &a);
    assert_eq!(d["lines"], json!([]));
    assert_eq!(d["line_tables"], json!({"before": false, "after": false}));
    assert_eq!(d["kernel"]["delta"]["cycles"], -20);
    assert_eq!(d["kernel"]["before"].get("name"), None);
    let insts = d["instructions"].as_array().expect("instructions");
    let texts: Vec<&str> = insts
        .iter()
        .map(|i| i["text"].as_str().expect("text"))
        .collect();
    assert_eq!(
        texts,
        [
            "v_xor_b32_e32 v2, v2, v4",
            "ds_load_b32 v1, v2",
            "s_nop 0",
            "v_mov_b32_e32 v3, 0"
        ]
    );
    // Instructions with one text are added up on each side.
    assert_eq!(
        insts[1]["before"],
        json!({"cycles": 20, "conflict_cycles": 16, "stall_cycles": 0, "executions": 2,
               "addresses": [0, 8]})
    );
    assert_eq!(insts[1]["after"]["addresses"], json!([4, 12]));
    assert_eq!(
        insts[1]["delta"],
        json!({"cycles": -16, "conflict_cycles": -16, "stall_cycles": 0, "executions": 0})
    );
    assert_eq!(insts[0]["before"], Value::Null);
    assert_eq!(insts[3]["after"], Value::Null);
    let t = diff_ok(&[s(&b), s(&a)]);
    assert!(t.starts_with("the program → the program\n"), "{t}");
    assert!(
        t.contains("By instruction (neither report has line tables)"),
        "{t}"
    );
    assert!(
        t.contains("Improvements, largest first (2 instruction texts;"),
        "{t}"
    );
    assert!(
        t.contains("  ds_load_b32 v1, v2\n      cycles 20 → 4 (-16)   conflicts 16 → 0 (-16)"),
        "{t}"
    );
    assert!(t.contains("  v_mov_b32_e32 v3, 0  (before only)\n"), "{t}");
    assert!(
        t.contains("  v_xor_b32_e32 v2, v2, v4  (after only)\n"),
        "{t}"
    );
    assert!(t.contains("1 instruction text cost the same"), "{t}");
    // The HTML page lists the changed instruction texts.
    let path = tmp().join("insts.html");
    diff_ok(&[s(&b), s(&a), "--html", s(&path)]);
    let h = std::fs::read_to_string(&path).expect("page");
    assert!(h.contains("<code>ds_load_b32 v1, v2</code>"), "{h}");
    assert!(h.contains("(3 of 4 texts changed)"), "{h}");
    assert!(!h.contains("<code>s_nop 0</code>"), "{h}");
}

#[test]
fn one_report_without_line_tables_compares_instructions() {
    let with = report(
        Some("k"),
        10,
        Some(&[(1, Some("x;"), 1, 0, 0, 1)]),
        &[("s_nop 0", 1, 0, 0)],
    );
    let without = report(Some("k"), 10, None, &[("s_nop 0", 1, 0, 0)]);
    let (b, a) = (
        write("w-before.json", &with),
        write("w-after.json", &without),
    );
    let d = diff_json(&b, &a);
    assert_eq!(d["lines"], json!([]));
    assert_eq!(d["line_tables"], json!({"before": true, "after": false}));
    let t = diff_ok(&[s(&b), s(&a)]);
    assert!(
        t.contains("By instruction (the after report has no line tables)"),
        "{t}"
    );
}

#[test]
fn occupancy_is_compared_when_both_reports_have_it() {
    let mut before = report(Some("k"), 100, None, &[("s_nop 0", 1, 0, 0)]);
    let mut after = report(Some("k"), 80, None, &[("s_nop 0", 1, 0, 0)]);
    before["resources"] = json!({"vgprs": 128, "sgprs": 16, "lds_bytes": 0,
        "scratch_bytes_per_lane": 0, "waves_per_simd": 8, "limited_by": "vgprs"});
    after["resources"] = json!({"vgprs": 64, "sgprs": 16, "lds_bytes": 0,
        "scratch_bytes_per_lane": 0, "waves_per_simd": 16, "limited_by": "waves"});
    let (b, a) = (
        write("o-before.json", &before),
        write("o-after.json", &after),
    );
    let d = diff_json(&b, &a);
    assert_eq!(d["kernel"]["before"]["waves_per_simd"], 8);
    assert_eq!(d["kernel"]["after"]["limited_by"], "waves");
    assert_eq!(d["kernel"]["delta"]["waves_per_simd"], 8);
    let t = diff_ok(&[s(&b), s(&a)]);
    assert!(
        t.contains(
            "  occupancy      8 → 16  +8 (+100.0%)  waves per SIMD (limited by vgprs → waves)\n"
        ),
        "{t}"
    );
    let path = tmp().join("occupancy.html");
    diff_ok(&[s(&b), s(&a), "--html", s(&path)]);
    let h = std::fs::read_to_string(&path).expect("page");
    assert!(h.contains("<td class=\"text\">occupancy (waves per SIMD)</td><td>8</td><td>16</td><td class=\"better\">+8</td>"), "{h}");
    // Only one side knows its occupancy: none is compared.
    let plain = write(
        "o-plain.json",
        &report(Some("k"), 80, None, &[("s_nop 0", 1, 0, 0)]),
    );
    let d = diff_json(&b, &plain);
    assert_eq!(d["kernel"]["before"]["waves_per_simd"], 8);
    assert_eq!(d["kernel"]["delta"].get("waves_per_simd"), None);
    let t = diff_ok(&[s(&b), s(&plain)]);
    assert!(!t.contains("occupancy"), "{t}");
}

#[test]
fn errors_name_the_file() {
    let dir = tmp();
    let missing = dir.join("no-such-report.json");
    let o = diff(&[s(&missing), s(naive())]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with(&format!("error: {}: ", missing.display())),
        "{err}"
    );

    let text = dir.join("not-json.json");
    std::fs::write(&text, "kernel time 1713\n").expect("write");
    let o = diff(&[s(naive()), s(&text)]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with(&format!("error: {}: not JSON: ", text.display())),
        "{err}"
    );

    let other = dir.join("banks.json");
    std::fs::write(&other, r#"{"cycles": 4, "conflict_cycles": 3}"#).expect("write");
    let o = diff(&[s(&other), s(naive())]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with(&format!(
            "error: {}: not a gpumemsim run report (it has no \"instructions\" list)",
            other.display()
        )),
        "{err}"
    );

    let o = diff(&["-", "-"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot both be standard input"));

    let o = diff(&[s(naive())]);
    assert_eq!(o.status.code(), Some(2), "AFTER is required");
}

#[test]
fn standard_input_is_a_report_too() {
    let text = std::fs::read_to_string(swizzled()).expect("read");
    let o = run(&["diff", s(naive()), "-", "--json"], &text);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let d: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(d["kernel"]["after"]["name"], "transpose_swizzled");
    assert_eq!(d["kernel"]["delta"]["conflict_cycles"], -992);
}

/// The (before line, after line, match) of each line entry.
fn matches(d: &Value) -> Vec<(Value, Value, String)> {
    d["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|e| {
            (
                e["before"]["line"].clone(),
                e["after"]["line"].clone(),
                e["match"].as_str().expect("match").to_string(),
            )
        })
        .collect()
}

fn triples(want: &[(Option<i64>, Option<i64>, &str)]) -> Vec<(Value, Value, String)> {
    want.iter()
        .map(|&(b, a, m)| (json!(b), json!(a), m.to_string()))
        .collect()
}

#[test]
fn rewritten_split_and_reordered_lines_are_matched_like_a_diff() {
    let one = |lines: &[Row], name: &str| {
        write(
            name,
            &report(Some("k"), 10, Some(lines), &[("s_nop 0", 1, 0, 0)]),
        )
    };
    // A rewritten block: two lines each side, at other line numbers: paired in order.
    let b = one(
        &[
            (10, Some("a;"), 1, 0, 0, 1),
            (11, Some("x;"), 5, 0, 0, 1),
            (13, Some("z;"), 5, 0, 0, 1),
        ],
        "p-before.json",
    );
    let a = one(
        &[
            (10, Some("a;"), 1, 0, 0, 1),
            (12, Some("x2;"), 4, 0, 0, 1),
            (15, Some("z2;"), 6, 0, 0, 1),
        ],
        "p-after.json",
    );
    assert_eq!(
        matches(&diff_json(&b, &a)),
        triples(&[
            (Some(10), Some(10), "same"),
            (Some(11), Some(12), "edited"),
            (Some(13), Some(15), "edited")
        ])
    );
    // One line became two: nothing to pair them by, so one removed and two added.
    let a = one(
        &[
            (10, Some("a;"), 1, 0, 0, 1),
            (12, Some("p;"), 4, 0, 0, 1),
            (13, Some("q;"), 6, 0, 0, 1),
        ],
        "q-after.json",
    );
    let b = one(
        &[(10, Some("a;"), 1, 0, 0, 1), (11, Some("x;"), 5, 0, 0, 1)],
        "q-before.json",
    );
    assert_eq!(
        matches(&diff_json(&b, &a)),
        triples(&[
            (Some(10), Some(10), "same"),
            (Some(11), None, "removed"),
            (None, Some(12), "added"),
            (None, Some(13), "added")
        ])
    );
    // A line moved from the top to the bottom: the two lines it passed are the ones matched.
    let b = one(
        &[
            (1, Some("a;"), 1, 0, 0, 1),
            (2, Some("b;"), 1, 0, 0, 1),
            (3, Some("c;"), 1, 0, 0, 1),
        ],
        "r-before.json",
    );
    let a = one(
        &[
            (1, Some("b;"), 1, 0, 0, 1),
            (2, Some("c;"), 1, 0, 0, 1),
            (3, Some("a;"), 1, 0, 0, 1),
        ],
        "r-after.json",
    );
    assert_eq!(
        matches(&diff_json(&b, &a)),
        triples(&[
            (Some(1), None, "removed"),
            (Some(2), Some(1), "moved"),
            (Some(3), Some(2), "moved"),
            (None, Some(3), "added")
        ])
    );
    // Two lines moved above two others: the longest run of unchanged lines (a, b) is kept.
    let lines = |texts: &[&'static str]| -> Vec<Row> {
        texts
            .iter()
            .enumerate()
            .map(|(i, &t)| (i as i64 + 1, Some(t), 1, 0, 0, 1))
            .collect()
    };
    let b = one(&lines(&["a;", "b;", "c;", "d;"]), "s-before.json");
    let a = one(&lines(&["d;", "c;", "a;", "b;"]), "s-after.json");
    assert_eq!(
        matches(&diff_json(&b, &a)),
        triples(&[
            (None, Some(1), "added"),
            (None, Some(2), "added"),
            (Some(1), Some(3), "moved"),
            (Some(2), Some(4), "moved"),
            (Some(3), None, "removed"),
            (Some(4), None, "removed")
        ])
    );
}

#[test]
fn files_pair_by_path_then_by_file_name_then_by_shared_lines() {
    let mut b = report(
        Some("k"),
        10,
        Some(&[(3, Some("x;"), 4, 0, 0, 1)]),
        &[("s_nop 0", 1, 0, 0)],
    );
    let mut a = b.clone();
    b["lines"][0]["file"] = json!("/home/me/old-checkout/k.cl");
    a["lines"][0]["file"] = json!("./k.cl");
    a["lines"][0]["cycles"] = json!(1);
    let (bp, ap) = (write("f-before.json", &b), write("f-after.json", &a));
    let d = diff_json(&bp, &ap);
    assert_eq!(matches(&d), triples(&[(Some(3), Some(3), "same")]));
    assert_eq!(d["lines"][0]["file"], "./k.cl");
    assert_eq!(
        d["lines"][0]["before"]["file"],
        "/home/me/old-checkout/k.cl"
    );
    assert_eq!(d["lines"][0]["delta"]["cycles"], -3);
    // Another file name: paired by the lines the files share (a fix in a second file)...
    a["lines"][0]["file"] = json!("./other.cl");
    let ap = write("g-after.json", &a);
    assert_eq!(
        matches(&diff_json(&bp, &ap)),
        triples(&[(Some(3), Some(3), "same")])
    );
    // ...and when they share none, nothing matches.
    a["lines"][0]["text"] = json!("y;");
    let ap = write("h-after.json", &a);
    assert_eq!(
        matches(&diff_json(&bp, &ap)),
        triples(&[(Some(3), None, "removed"), (None, Some(3), "added")])
    );
}

/// `report` with every line in file `file`.
fn in_file(mut r: Value, file: &str) -> Value {
    for l in r["lines"].as_array_mut().expect("lines") {
        l["file"] = json!(file);
    }
    r
}

/// The fix in a second file (bad.cl against good.cl, the usual workflow): the files pair by
/// the lines they share, so the fix reads as one edited line, not as every line removed and
/// added; `--map` pairs a line whose text changed beyond what the matching can see.
#[test]
fn a_fix_in_another_file_pairs_by_shared_lines_and_by_map() {
    let rows: [Row; 3] = [
        (1, Some("int x = id();"), 5, 0, 0, 1),
        (2, Some("v = t[x * 32 + y];"), 40, 30, 0, 1),
        (3, Some("out[x] = v;"), 9, 0, 0, 1),
    ];
    let fixed: [Row; 4] = [
        (1, Some("// padded"), 0, 0, 0, 0),
        (2, Some("int x = id();"), 5, 0, 0, 1),
        (3, Some("v = t[x * 33 + y];"), 10, 0, 0, 1),
        (4, Some("out[x] = v;"), 9, 0, 0, 1),
    ];
    let b = write(
        "bad.json",
        &in_file(report(Some("k"), 100, Some(&rows), &[]), "src/bad.cl"),
    );
    let a = write(
        "good.json",
        &in_file(report(Some("k"), 60, Some(&fixed), &[]), "src/good.cl"),
    );
    let d = diff_json(&b, &a);
    let want = [
        (Value::Null, json!(1), "added"),
        (json!(1), json!(2), "moved"),
        (json!(2), json!(3), "edited"),
        (json!(3), json!(4), "moved"),
    ];
    let want: Vec<_> = want
        .into_iter()
        .map(|(x, y, m)| (x, y, m.to_string()))
        .collect();
    assert_eq!(matches(&d), want);
    // --map: the comment is what line 2 became (a made-up pairing the matching would not
    // make), so the edited line is left unpaired.
    let o = diff(&[s(&b), s(&a), "--json", "--map", "bad.cl:2=good.cl:1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let d: Value = serde_json::from_slice(&o.stdout).expect("json");
    let got = matches(&d);
    assert!(
        got.contains(&(json!(2), json!(1), "mapped".to_string())),
        "{got:?}"
    );
    assert!(
        got.contains(&(Value::Null, json!(3), "added".to_string())),
        "{got:?}"
    );
    // Two files per side with the same line numbers: a map needs its files named.
    let two = |r: Value, second: &str| {
        let mut r = r;
        let extra: Vec<Value> = r["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .map(|l| {
                let mut l = l.clone();
                l["file"] = json!(second);
                l
            })
            .collect();
        r["lines"].as_array_mut().expect("lines").extend(extra);
        r
    };
    let b2 = write("bad2.json", &two(read_json(&b), "src/util.cl"));
    let a2 = write("good2.json", &two(read_json(&a), "src/util.cl"));
    let o = diff(&[s(&b2), s(&a2), "--map", "2=1"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--map 2=1: these line numbers are in more than one pair of files"),
        "{err}"
    );
    assert!(diff(&[s(&b2), s(&a2), "--map", "bad.cl:2=good.cl:1"])
        .status
        .success());
    for (bad_map, message) in [
        ("9=1", "--map 9=1: no such pair of lines"),
        ("bad.cl=2", "--map bad.cl=2: expected OLD=NEW"),
    ] {
        let o = diff(&[s(&b), s(&a), "--map", bad_map]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(message), "{err}");
    }
}

/// `--fail-on-regression[=PERCENT]`: exit 1 when the kernel time or a line's conflict cycles
/// grew beyond PERCENT (any growth by default; from zero, any growth), naming each on
/// standard error; 0 for an improvement.
#[test]
fn fail_on_regression_gates_on_time_and_conflict_cycles() {
    let rows = |conflict: i64| -> [Row; 2] {
        [
            (1, Some("a();"), 10, 0, 0, 1),
            (2, Some("b = t[x];"), 40, conflict, 0, 1),
        ]
    };
    let b = write(
        "g-before.json",
        &report(Some("k"), 100, Some(&rows(30)), &[]),
    );
    let slower = write(
        "g-slower.json",
        &report(Some("k"), 104, Some(&rows(30)), &[]),
    );
    let worse = write(
        "g-worse.json",
        &report(Some("k"), 100, Some(&rows(33)), &[]),
    );
    let better = write("g-better.json", &report(Some("k"), 90, Some(&rows(0)), &[]));
    let gate = |after: &Path, threshold: Option<&str>| {
        let mut a = vec![s(&b), s(after)];
        let flag = threshold.map(|t| format!("--fail-on-regression={t}"));
        a.push(flag.as_deref().unwrap_or("--fail-on-regression"));
        let o = diff(&a);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, err) = gate(&slower, None);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("regression: kernel time 100 → 104 (+4.0%) cycles"),
        "{err}"
    );
    assert_eq!(gate(&slower, Some("5")).0, Some(0), "4% is within 5%");
    let (code, err) = gate(&worse, Some("5"));
    assert_eq!(code, Some(1));
    assert!(
        err.contains("regression: k.cl:2 conflict cycles 30 → 33 (+10.0%)  b = t[x];"),
        "{err}"
    );
    assert_eq!(gate(&better, None), (Some(0), String::new()));
    let o = diff(&[s(&b), s(&better), "--fail-on-regression=-1"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The gate also fails when the after run stopped (its figures end where it stopped), checks
/// the kernel's conflict cycles when the reports have no line tables, and `diff` refuses to
/// compare a sampled report with an unsampled one.
#[test]
fn the_gate_sees_a_stopped_run_and_reports_without_lines() {
    let b = write(
        "n-before.json",
        &report(Some("k"), 100, None, &[("ds_load_b32 v1, v2", 10, 2, 0)]),
    );
    let mut stopped = report(Some("k"), 50, None, &[("ds_load_b32 v1, v2", 5, 1, 0)]);
    stopped["error"] = json!("k.o: wave 0 was stopped at the step limit");
    let stopped = write("n-stopped.json", &stopped);
    let worse = write(
        "n-worse.json",
        &report(Some("k"), 100, None, &[("ds_load_b32 v1, v2", 10, 4, 0)]),
    );
    for (after, want) in [
        (
            &stopped,
            "regression: the after run stopped: k.o: wave 0 was stopped",
        ),
        (
            &worse,
            "regression: kernel conflict cycles 2 → 4 (+100.0%) (the reports have no line tables)",
        ),
    ] {
        let o = diff(&[s(&b), s(after), "--fail-on-regression"]);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{err}");
    }
    let mut sampled = report(Some("k"), 100, None, &[("ds_load_b32 v1, v2", 10, 2, 0)]);
    sampled["sampled"] = json!({"workgroups": 64, "of": 512});
    let sampled = write("n-sampled.json", &sampled);
    let o = diff(&[s(&b), s(&sampled)]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("before is not sampled and after is sampled (64 of 512 workgroups)"),
        "{err}"
    );
}
