//! `gpumemsim run --functional`: the timed run's results without cycles, in JSON and text,
//! and clear errors for what a functional run has nothing for.

mod common;

use common::outcome;
use serde_json::Value;

/// The bundled default run with `extra` options, as JSON.
fn default_json(extra: &[&str]) -> Value {
    let mut args = vec!["run", "--json"];
    args.extend_from_slice(extra);
    let (code, out, err) = outcome(&args);
    assert_eq!(code, Some(0), "{err}");
    serde_json::from_str(&out).expect("one JSON object")
}

/// Whether `v` has a key named `key` anywhere.
fn has_key(v: &Value, key: &str) -> bool {
    match v {
        Value::Object(o) => o.contains_key(key) || o.values().any(|x| has_key(x, key)),
        Value::Array(a) => a.iter().any(|x| has_key(x, key)),
        _ => false,
    }
}

#[test]
fn the_functional_report_has_the_timed_results_and_no_timing() {
    let timed = default_json(&[]);
    let functional = default_json(&["--functional"]);
    assert_eq!(functional["functional"], true);
    assert!(timed.get("functional").is_none());
    // The transposed tile, the program-scope symbol, the instruction count: the same.
    for key in ["args", "symbols", "steps", "events"] {
        assert_eq!(timed[key], functional[key], "{key}");
    }
    assert_eq!(
        functional["totals"],
        serde_json::json!({"wave_instructions": timed["totals"]["wave_instructions"]})
    );
    for key in [
        "cycles",
        "kernel_us",
        "stall_cycles",
        "latency_cycles",
        "timing",
        "units",
        "vcache",
        "delay_alu",
        "counters",
    ] {
        assert!(has_key(&timed, key), "the timed report has {key}");
        assert!(
            !has_key(&functional, key),
            "the functional report has {key}"
        );
    }
    let execs = |r: &Value| -> Vec<Value> {
        r["instructions"]
            .as_array()
            .expect("instructions")
            .iter()
            .map(|i| i["executions"].clone())
            .collect()
    };
    assert_eq!(execs(&timed), execs(&functional));
}

#[test]
fn the_functional_text_report_counts_executions_and_shows_the_buffers() {
    let (code, out, err) = outcome(&["run", "--functional"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("functional   results only (--functional)"),
        "{out}"
    );
    assert!(!out.contains("cycles  "), "{out}");
    assert!(out.contains("Source lines, most executed first"), "{out}");
    // The naive transpose's store loop (81 wave-instructions) is its most executed line.
    let first = out
        .lines()
        .skip_while(|l| !l.starts_with("   execs  insts  line"))
        .nth(1)
        .expect("a first row");
    assert!(first.trim_start().starts_with("81 "), "{first}");
    assert!(first.contains("transpose.cl:8"), "{first}");
    // The transposed tile: element 1 of the output is input element 32.
    assert!(out.contains("[0.0, 32.0, 64.0, 96.0"), "{out}");
}

#[test]
fn what_a_functional_run_has_nothing_for_is_an_error() {
    for extra in [
        &["--html", "/tmp/never-written.html"][..],
        &["--counters"][..],
        &["--baseline", "/dev/null"][..],
        &["--timing", "valu=2"][..],
        &["--banks", "cdna3"][..],
    ] {
        let mut args = vec!["run", "--functional"];
        args.extend_from_slice(extra);
        let (code, out, err) = outcome(&args);
        assert_eq!(code, Some(2), "{args:?}: {out}");
        assert!(
            err.contains("--functional runs without the timing model") && err.contains(extra[0]),
            "{args:?}: {err}"
        );
    }
    let (code, _, err) = outcome(&["check", "--functional"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--functional is for `run`"), "{err}");
}

/// A functional report is the same for any number of host threads (but for the threads the
/// schedule names), events included: three workgroups whose loads run past their buffer.
#[test]
fn the_functional_report_is_the_same_on_one_and_two_threads() {
    let report = |threads: &str| {
        let mut args = vec![
            "run",
            "tests/front_door/block_sum.o",
            "--functional",
            "--json",
        ];
        // Its launch without its `--wgps 1`: on three WGPs the workgroups run apart.
        assert_eq!(common::BLOCK_SUM_OUT_OF_BOUNDS[..2], ["--wgps", "1"]);
        args.extend_from_slice(&common::BLOCK_SUM_OUT_OF_BOUNDS[2..]);
        args.extend_from_slice(&["--wgps", "3", "--threads", threads]);
        let (code, out, err) = outcome(&args);
        assert_eq!(code, Some(0), "{err}");
        let mut v: Value = serde_json::from_str(&out).expect("one JSON object");
        let schedule = v.as_object_mut().expect("an object").remove("schedule");
        assert_eq!(schedule.expect("a schedule")["workgroups"], "apart");
        v
    };
    let one = report("1");
    assert_eq!(one["functional"], true);
    assert_eq!(common::event_kinds(&one), ["out_of_bounds"; 3]);
    assert_eq!(one, report("2"));
}
