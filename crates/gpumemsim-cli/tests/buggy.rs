//! The buggy corpus (examples/buggy/, built by tools/build_apps.sh): each kernel has one bug
//! of the kind its header names, and `gpumemsim check` must report that kind at the right
//! source lines and exit 1. The correct corpora (examples/apps, examples/kernels, the
//! examples' assembly) are checked clean by apps.rs, kernels.rs and cli.rs.

mod common;

use common::run;
use serde_json::Value;

fn buggy(name: &str) -> String {
    format!("{}/../../examples/buggy/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `gpumemsim check FILE ARGS --json`: the findings; the exit status must be 1.
fn findings(file: &str, args: &[&str]) -> Vec<Value> {
    let path = buggy(file);
    let mut argv = vec!["check", path.as_str(), "--json"];
    argv.extend_from_slice(args);
    let o = run(&argv, "");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{file}: {out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let j: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    j["findings"].as_array().expect("findings").clone()
}

/// The (file, line) of each instruction of finding `f`.
fn lines(f: &Value) -> Vec<(String, u64)> {
    f["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        .map(|i| {
            let s = &i["source"];
            let file = s["file"].as_str().unwrap_or("?");
            let base = file.rsplit('/').next().unwrap_or(file).to_string();
            (base, s["line"].as_u64().unwrap_or(0))
        })
        .collect()
}

fn of_kind<'a>(all: &'a [Value], kind: &str) -> Vec<&'a Value> {
    all.iter().filter(|f| f["kind"] == kind).collect()
}

#[test]
fn a_reduction_without_its_barrier_races_between_the_store_and_the_read() {
    let all = findings(
        "build/reduce_no_barrier.o",
        &[
            "--grid",
            "2",
            "--block",
            "64",
            "--arg",
            "buf:i32[128]=iota",
            "--arg",
            "buf:i32[2]=zeros",
        ],
    );
    let races = of_kind(&all, "lds_race");
    assert_eq!(races.len(), 1, "{all:?}");
    let f = races[0];
    // The read of the first reduction step, then the store it races with.
    let file = "reduce_no_barrier.cl".to_string();
    assert_eq!(lines(f), [(file.clone(), 13), (file, 9)]);
    assert!(f["message"]
        .as_str()
        .expect("message")
        .starts_with("read-after-write"));
    assert_eq!(f["count"], 2, "one per workgroup");
    assert!(
        all.iter().all(|f| f["kind"] == "lds_race"),
        "nothing else: {all:?}"
    );
}

#[test]
fn bins_never_cleared_are_uninitialised_reads_at_the_atomic() {
    let all = findings(
        "build/histogram_uninit.o",
        &[
            "--grid",
            "2",
            "--block",
            "64",
            "--arg",
            "buf:u8[256]=iota",
            "--arg",
            "u32:256",
            "--arg",
            "buf:u32[64]=zeros",
        ],
    );
    let reads = of_kind(&all, "uninitialized_lds_read");
    assert!(!reads.is_empty(), "{all:?}");
    let file = "histogram_uninit.hip".to_string();
    // First the atomics into bins nothing cleared (an atomic computes with what it reads);
    // then the global atomics adding bins this workgroup's bytes never reached (never
    // written at all), each naming the load of the bin.
    assert_eq!(lines(reads[0]), [(file.clone(), 15)]);
    assert!(reads[1..]
        .iter()
        .all(|f| lines(f) == [(file.clone(), 18), (file.clone(), 18)]));
    assert_eq!(reads.len(), 2, "{all:?}");
    assert!(of_kind(&all, "lds_race").is_empty(), "atomics do not race");
}

#[test]
fn a_plain_store_from_every_workgroup_to_one_slot_is_a_global_race() {
    let all = findings(
        "build/last_block_flag.o",
        &[
            "--grid",
            "4",
            "--block",
            "64",
            "--arg",
            "buf:f32[256]=iota",
            "--arg",
            "buf:f32[4]=zeros",
            "--arg",
            "buf:u32[1]=zeros",
        ],
    );
    let races = of_kind(&all, "global_race");
    assert!(!races.is_empty(), "{all:?}");
    assert_eq!(lines(races[0])[0], ("last_block_flag.cl".to_string(), 17));
    assert!(
        all.iter().all(|f| f["kind"] == "global_race"),
        "the partial sums are separate bytes: {all:?}"
    );
}

#[test]
fn waves_at_two_different_barrier_calls_diverge() {
    let all = findings(
        "build/split_barrier.o",
        &[
            "--grid",
            "2",
            "--block",
            "64",
            "--arg",
            "buf:i32[64]=iota",
            "--arg",
            "buf:i32[128]=zeros",
        ],
    );
    let div = of_kind(&all, "barrier_divergence");
    assert_eq!(div.len(), 1, "{all:?}");
    let mut got: Vec<u64> = lines(div[0]).iter().map(|l| l.1).collect();
    got.sort_unstable();
    assert_eq!(got, [11, 14], "both barrier() calls");
}

#[test]
fn a_store_index_that_drops_a_factor_collides_lanes() {
    let all = findings(
        "build/transpose_collide.o",
        &[
            "--grid",
            "2,2",
            "--block",
            "16,16",
            "--arg",
            "buf:f32[1024]=iota",
            "--arg",
            "buf:f32[1024]=zeros",
            "--arg",
            "u32:32",
        ],
    );
    let c = of_kind(&all, "lane_collision");
    assert_eq!(c.len(), 1, "{all:?}");
    assert_eq!(lines(c[0])[0], ("transpose_collide.cl".to_string(), 9));
    // The words nothing wrote are read and stored to the output: a copy, not a use
    // (docs/check.md: uninitialised values are reported where they are used).
    assert!(
        of_kind(&all, "uninitialized_lds_read").is_empty(),
        "{all:?}"
    );
}

#[test]
fn an_add_before_the_wait_for_its_load_is_a_missing_wait() {
    let all = findings("missing_wait.s", &[]);
    assert_eq!(all.len(), 1, "{all:?}");
    let f = &all[0];
    assert_eq!(f["kind"], "missing_wait");
    let file = "missing_wait.s".to_string();
    assert_eq!(lines(f), [(file.clone(), 11), (file, 10)]);
    assert!(f["message"]
        .as_str()
        .expect("message")
        .contains("s_waitcnt lgkmcnt(0)"));
}
