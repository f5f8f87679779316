//! `gpumemsim check`: a launch's findings only — grouped by kind and instructions with their
//! counts, instructions, source lines, waves, lanes and address — the exit status (0 clean, 1
//! findings or a stopped run, 2 bad input), `--json`, `--html`, and `--lds-init` (shared with
//! `run`).

mod common;

use std::path::PathBuf;

use common::run;
use serde_json::Value;

fn object(name: &str) -> String {
    format!("{}/tests/front_door/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn lds_sum() -> String {
    format!(
        "{}/../../examples/kernels/lds_sum.w32.o",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `gpumemsim ARGS` with `stdin`: (exit code, stdout, stderr).
fn gms(args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let o = run(args, stdin);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `check ARGS --json`: (exit code, the JSON).
fn check_json(args: &[&str], stdin: &str) -> (Option<i32>, Value) {
    let mut a = vec!["check"];
    a.extend_from_slice(args);
    a.push("--json");
    let (code, out, err) = gms(&a, stdin);
    let j = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (code, j)
}

/// The lds_sum launch of the corpus: correct.
fn lds_sum_args(path: &str) -> Vec<&str> {
    vec![
        path,
        "--grid",
        "2",
        "--block",
        "64",
        "--arg",
        "buf:i32[128]=iota",
        "--arg",
        "buf:i32[2]=zeros",
    ]
}

/// block_sum with `in` shorter than `n`: out-of-bounds reads on line 9.
fn block_sum_oob(path: &str) -> Vec<&str> {
    let mut a = vec![path];
    a.extend(common::BLOCK_SUM_OUT_OF_BOUNDS);
    a
}

#[test]
fn a_correct_kernel_has_no_findings_and_exits_0() {
    let k = lds_sum();
    let mut args = vec!["check"];
    args.extend(lds_sum_args(&k));
    let (code, out, err) = gms(&args, "");
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out, "kernel `lds_sum`: no findings\n");
    let (code, j) = check_json(&lds_sum_args(&k), "");
    assert_eq!(code, Some(0));
    assert_eq!(j, serde_json::json!({"findings": [], "notes": []}));
}

#[test]
fn a_correct_assembly_program_has_no_findings() {
    let program = "v_lshlrev_b32 v1, 2, v0\nds_store_b32 v1, v0\ns_waitcnt lgkmcnt(0)\n\
                   ds_load_b32 v2, v1\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let (code, out, err) = gms(&["check", "-"], program);
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(out, "<stdin>: no findings\n");
}

#[test]
fn out_of_bounds_reads_are_one_finding_with_count_instruction_and_source() {
    let k = object("block_sum.o");
    let mut args = vec!["check"];
    args.extend(block_sum_oob(&k));
    let (code, out, err) = gms(&args, "");
    assert_eq!(code, Some(1), "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("out_of_bounds ×3  waves 3-5"), "{out}");
    assert!(
        lines[1]
            .starts_with("  lanes 4-31 (28 lanes) accessed global memory outside every allocation"),
        "{out}"
    );
    // The instruction: byte offset, text, source place and the source line's text.
    assert!(
        lines[2].starts_with("    0xa0  global_load_b32 ")
            && lines[2].contains("  block_sum.cl:9:"),
        "{out}"
    );
    assert!(
        lines[2].ends_with("partial[l] = i < n ? in[i] : 0;"),
        "{out}"
    );
    assert_eq!(
        lines.last().copied(),
        Some("kernel `block_sum`: 1 finding (3 events)")
    );
    // Nothing of run's report.
    assert!(
        !out.contains("kernel time") && !out.contains("args:"),
        "{out}"
    );
}

#[test]
fn json_findings_have_the_interfaces_keys() {
    let k = object("block_sum.o");
    let (code, j) = check_json(&block_sum_oob(&k), "");
    assert_eq!(code, Some(1));
    let obj = j.as_object().expect("an object");
    assert_eq!(obj.keys().collect::<Vec<_>>(), ["findings", "notes"]);
    let findings = j["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 1);
    let f = &findings[0];
    let mut keys: Vec<&str> = f
        .as_object()
        .expect("a finding")
        .keys()
        .map(String::as_str)
        .collect();
    keys.retain(|k| *k != "address"); // only where a memory address applies
    assert_eq!(
        keys,
        ["count", "instructions", "kind", "lanes", "message", "waves"]
    );
    assert_eq!(f["kind"], "out_of_bounds");
    assert_eq!(f["count"], 3);
    assert_eq!(f["waves"], serde_json::json!([3, 4, 5]));
    assert!(f["lanes"].is_array());
    let insts = f["instructions"].as_array().expect("instructions");
    assert_eq!(insts.len(), 1);
    let i = &insts[0];
    assert_eq!(i["address"], 0xa0);
    assert!(i["text"]
        .as_str()
        .expect("text")
        .starts_with("global_load_b32"));
    assert_eq!(i["source"]["line"], 9);
    assert!(i["source"]["file"]
        .as_str()
        .expect("file")
        .ends_with("block_sum.cl"));
    // The same run's `run --json` has the events the finding groups.
    let mut r = vec!["run"];
    r.extend(block_sum_oob(&k));
    r.push("--json");
    let (code, out, _) = gms(&r, "");
    assert_eq!(code, Some(0));
    let report: Value = serde_json::from_str(&out).expect("json");
    let events = report["events"].as_array().expect("events");
    assert_eq!(events.len(), 3);
    assert!(events.iter().all(|e| e["kind"] == "out_of_bounds"));
}

#[test]
fn a_memory_violation_in_assembly_is_a_finding() {
    // A misaligned atomic: MEMVIOL on every lane.
    let program = "v_mov_b32 v0, 2\nds_add_u32 v0, v1\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let (code, out, err) = gms(&["check", "-"], program);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.starts_with("memviol ×32  wave 0"), "{out}");
    assert!(
        out.contains("\n    0x4  ds_add_u32 v0, v1  <stdin>:2:1\n"),
        "{out}"
    );
    assert!(out.ends_with("<stdin>: 1 finding (32 events)\n"), "{out}");
    let (code, j) = check_json(&["-"], program);
    assert_eq!(code, Some(1));
    let f = &j["findings"][0];
    assert_eq!(
        (f["kind"].as_str(), f["count"].as_u64()),
        (Some("memviol"), Some(32))
    );
    assert_eq!(f["instructions"][0]["address"], 4);
    assert_eq!(f["instructions"][0]["text"], "ds_add_u32 v0, v1");
    assert_eq!(f["instructions"][0]["source"]["line"], 2);
}

#[test]
fn a_smem_read_before_its_wait_is_a_hazard_finding() {
    let program = "s_load_b32 s1, s[0:1], 0\ns_mov_b32 s2, s1\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let (code, j) = check_json(&["-", "--set", "s0=0x1000"], program);
    assert_eq!(code, Some(1));
    let f = &j["findings"][0];
    assert_eq!(f["kind"], "hazard");
    assert_eq!(f["instructions"][0]["text"], "s_mov_b32 s2, s1");
}

#[test]
fn a_run_that_stops_prints_its_findings_and_the_error_and_exits_1() {
    // The out-of-bounds launch stopped after a few instructions per wave: its findings so far
    // and the error.
    let k = object("block_sum.o");
    let mut args = block_sum_oob(&k);
    args.extend(["--max-steps", "5", "--together"]);
    let (code, j) = check_json(&args, "");
    assert_eq!(code, Some(1));
    assert!(j["findings"].is_array());
    let e = j["error"].as_str().expect("error");
    assert!(e.contains("was stopped at 0x"), "{e}");
    let mut text = vec!["check"];
    text.extend(args);
    let (code, out, err) = gms(&text, "");
    assert_eq!(code, Some(1));
    assert!(
        out.ends_with("no findings\n") || out.contains("finding"),
        "{out}"
    );
    assert!(
        err.starts_with("error: ") && err.contains("was stopped at 0x"),
        "{err}"
    );
}

#[test]
fn bad_input_exits_2() {
    for cmd in ["run", "check"] {
        let (code, _, err) = gms(&[cmd, "-", "--lds-init", "bogus"], "s_endpgm\n");
        assert_eq!(code, Some(2), "{cmd}: {err}");
        assert!(err.contains("--lds-init"), "{cmd}: {err}");
        assert!(err.contains("zero, poison or random:SEED"), "{cmd}: {err}");
        let (code, _, err) = gms(&[cmd, "-", "--lds-init", "random:"], "s_endpgm\n");
        assert_eq!(code, Some(2), "{cmd}: {err}");
    }
    // A launch mistake is bad input, as for run.
    let k = lds_sum();
    let (code, _, err) = gms(&["check", &k, "--grid", "2", "--block", "64"], "");
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = gms(&["check", "/nonexistent/k.o"], "");
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn lds_init_is_accepted_by_run_and_check() {
    let k = lds_sum();
    for v in ["zero", "poison", "random:7", "random:0x10"] {
        let mut args = lds_sum_args(&k);
        args.extend(["--lds-init", v]);
        let (code, j) = check_json(&args, "");
        assert_eq!(
            (code, &j),
            (Some(0), &serde_json::json!({"findings": [], "notes": []})),
            "{v}"
        );
        let mut r = vec!["run"];
        r.extend(args);
        r.push("--json");
        let (code, out, err) = gms(&r, "");
        assert_eq!(code, Some(0), "{v}: {err}");
        let report: Value = serde_json::from_str(&out).expect("json");
        // lds_sum writes every LDS word it reads: the sums do not depend on what LDS held.
        assert_eq!(
            report["args"][1]["values"],
            serde_json::json!([2016, 6112]),
            "{v}"
        );
    }
}

#[test]
fn check_html_marks_the_findings() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("check");
    std::fs::create_dir_all(&dir).expect("a directory");
    let path = dir.join("oob.html");
    let p = path.to_str().expect("utf-8");
    let k = object("block_sum.o");
    let mut args = vec!["check"];
    args.extend(block_sum_oob(&k));
    args.extend(["--html", p]);
    let (code, out, err) = gms(&args, "");
    assert_eq!(code, Some(1), "{out}{err}");
    let html = std::fs::read_to_string(&path).expect("the page");
    assert!(html.contains("<strong>1 finding(s)</strong></a> (out_of_bounds)"));
    assert!(html.contains("<tr id=\"finding-0\">"));
    assert!(html.contains("<span class=\"flag\">⚠ out_of_bounds</span></td><td>3</td>"));
    // Line 9 is flagged, its finding listed under it.
    let line = html
        .split("class=\"line flagged\"")
        .nth(1)
        .and_then(|s| s.split("</details>").next())
        .expect("a flagged line");
    assert!(line.contains("block_sum.cl:9"), "{line}");
    assert!(
        line.contains("⚠ out_of_bounds</a> ×3: lanes 4-31"),
        "{line}"
    );
    // run --html of the same launch marks them too.
    let run_path = dir.join("oob-run.html");
    let mut args = vec!["run"];
    args.extend(block_sum_oob(&k));
    args.extend(["--html", run_path.to_str().expect("utf-8")]);
    let (code, _, err) = gms(&args, "");
    assert_eq!(code, Some(0), "{err}");
    let html = std::fs::read_to_string(&run_path).expect("the page");
    assert!(html.contains("<tr id=\"finding-0\">"));
}

#[test]
fn the_help_lists_check_and_its_launch_options() {
    let (code, out, _) = gms(&["--help"], "");
    assert_eq!(code, Some(0));
    assert!(out.contains("check"), "{out}");
    let (code, out, _) = gms(&["check", "--help"], "");
    assert_eq!(code, Some(0));
    for opt in [
        "--grid",
        "--block",
        "--arg",
        "--kernel",
        "--lds-init",
        "--json",
        "--html",
        "--set",
        "--waves",
        "--max-steps",
    ] {
        assert!(out.contains(opt), "check --help lacks {opt}");
    }
    // Report options of run are not check's.
    for opt in ["--dump", "--top", "--baseline"] {
        assert!(!out.contains(opt), "check --help has {opt}");
    }
    let (_, out, _) = gms(&["run", "--help"], "");
    assert!(out.contains("--lds-init"));
}

/// Each wave stores its lanes' ids (v0: the lane in the workgroup) at 4 × id, then reads the
/// next lane's word: the last lane of wave 0 reads what wave 1 wrote. `BARRIER` goes between.
const NEIGHBOURS: &str = "v_lshlrev_b32 v1, 2, v0\nds_store_b32 v1, v0\ns_waitcnt lgkmcnt(0)\n\
                          BARRIER\nds_load_b32 v2, v1 offset:4\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";

#[test]
fn an_lds_race_between_waves_names_both_instructions() {
    let racy = NEIGHBOURS.replace("BARRIER\n", "");
    let (code, j) = check_json(&["-", "--waves", "2"], &racy);
    assert_eq!(code, Some(1));
    let findings = j["findings"].as_array().expect("findings");
    let race = findings
        .iter()
        .find(|f| f["kind"] == "lds_race")
        .unwrap_or_else(|| panic!("no lds_race: {j}"));
    let insts: Vec<(u64, &str)> = race["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        .map(|i| {
            (
                i["address"].as_u64().expect("address"),
                i["text"].as_str().expect("text"),
            )
        })
        .collect();
    // The later access first, then the earlier one it races with.
    assert_eq!(
        insts,
        [
            (0x10, "ds_load_b32 v2, v1 offset:4"),
            (0x4, "ds_store_b32 v1, v0")
        ]
    );
    assert_eq!(race["waves"], serde_json::json!([0, 1]));
    assert!(race["address"].is_u64(), "{race}");
    assert_eq!(race["instructions"][1]["source"]["line"], 2);
    // The text names both instructions under the finding.
    let (_, out, _) = gms(&["check", "-", "--waves", "2"], &racy);
    let block = out
        .split("\n\n")
        .find(|b| b.starts_with("lds_race"))
        .expect("the race in the text");
    assert!(
        block.contains("\n    0x10  ds_load_b32 v2, v1 offset:4  <stdin>:4:1")
            && block.contains("\n     0x4  ds_store_b32 v1, v0          <stdin>:2:1"),
        "{block}"
    );
    // With the barrier between the store and the load there is no race.
    let fenced = NEIGHBOURS.replace("BARRIER", "s_barrier");
    let (_, j) = check_json(&["-", "--waves", "2"], &fenced);
    let kinds: Vec<&str> = j["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["kind"].as_str().expect("kind"))
        .collect();
    assert!(!kinds.contains(&"lds_race"), "{j}");
}

#[test]
fn a_read_before_its_wait_is_a_missing_wait_naming_the_load() {
    let program = "v_lshlrev_b32 v1, 2, v0\nds_store_b32 v1, v0\nds_load_b32 v2, v1\n\
                   v_add_nc_u32 v3, v2, 1\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let (code, j) = check_json(&["-"], program);
    assert_eq!(code, Some(1));
    let f = &j["findings"][0];
    assert_eq!(j["findings"].as_array().map(Vec::len), Some(1), "{j}");
    assert_eq!(f["kind"], "missing_wait");
    assert_eq!(f["count"], 1);
    assert_eq!(f["instructions"][0]["address"], 0x14);
    assert_eq!(f["instructions"][1]["address"], 0xc);
    assert_eq!(f["instructions"][1]["text"], "ds_load_b32 v2, v1");
    assert_eq!(f["lanes"].as_array().map(Vec::len), Some(32));
    // run --json: the event carries the load as its other instruction, with waves and lanes.
    let (code, out, err) = gms(&["run", "-", "--json"], program);
    assert_eq!(code, Some(0), "{err}");
    let report: Value = serde_json::from_str(&out).expect("json");
    let e = &report["events"][0];
    assert_eq!(e["kind"], "missing_wait");
    assert_eq!(e["address"], 0x14, "the event's own instruction, as before");
    assert_eq!(e["pc"], 3);
    assert_eq!(
        e["instructions"],
        serde_json::json!([{"address": 0xc, "text": "ds_load_b32 v2, v1",
                            "source": {"file": "<stdin>", "line": 3, "column": 1}}])
    );
    assert!(e["waves"].is_array());
    assert_eq!(e["lanes"].as_array().map(Vec::len), Some(32));
    assert!(e.get("memory_address").is_none(), "{e}");
}

#[test]
fn lds_init_says_what_lds_holds_before_the_launch_writes_it() {
    let dump = |init: &str| -> Value {
        let (code, out, err) = gms(
            &[
                "run",
                "-",
                "--dump",
                "lds:0:8",
                "--lds-init",
                init,
                "--json",
            ],
            "s_endpgm\n",
        );
        assert_eq!(code, Some(0), "{init}: {err}");
        let j: Value = serde_json::from_str(&out).expect("json");
        j["dump"]["lds:0:8"].clone()
    };
    assert_eq!(dump("zero"), serde_json::json!([0, 0]));
    assert_eq!(
        dump("poison"),
        serde_json::json!([0xffff_ffffu32, 0xffff_ffffu32])
    );
    let random = dump("random:5");
    assert_eq!(random, dump("random:0x5"), "the same seed, the same bytes");
    assert_ne!(random, dump("random:6"));
    assert_ne!(random, dump("zero"));
}
