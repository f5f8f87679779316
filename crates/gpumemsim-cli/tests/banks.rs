//! `gpumemsim banks`, end to end.

use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .arg("banks")
        .args(args)
        .output()
        .expect("spawn gpumemsim")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let o = run(&all);
    assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", text(&o.stdout)))
}

/// Runs a failing command: exit code 2, a message on stderr (never a panic), nothing on stdout.
fn error(args: &[&str]) -> String {
    let o = run(args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error:"), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}");
    err
}

#[test]
fn published_sm80_numbers() {
    let j = json(&["--arch", "sm80", "--op", "lds.64", "--addr", "8*t"]);
    assert_eq!(
        (
            j["requests"].as_u64(),
            j["wavefronts"].as_u64(),
            j["ideal_wavefronts"].as_u64(),
            j["bank_conflicts"].as_u64()
        ),
        (Some(1), Some(2), Some(2), Some(0))
    );
    assert_eq!(j["groups"].as_array().map(Vec::len), Some(2));
    let j = json(&[
        "--arch", "sm80", "--op", "lds.128", "--addr", "64", "--active", "15,16",
    ]);
    assert_eq!(j["wavefronts"], 2);
    assert_eq!(j["groups"][0]["lanes"], serde_json::json!([15]));
    assert_eq!(j["groups"][0]["phases"], serde_json::json!([0, 1]));
}

#[test]
fn published_cdna3_numbers() {
    for (stride, conflicts) in [("4", 0), ("8", 2), ("16", 6)] {
        let addr = format!("{stride}*t");
        let j = json(&[
            "--arch",
            "cdna3",
            "--op",
            "ds_load_b32",
            "--addr",
            &addr,
            "--wave",
            "64",
        ]);
        assert_eq!(j["conflict_cycles"], conflicts, "stride {stride}");
        assert_eq!(j["ideal_cycles"], 2);
        assert!(j["groups"].is_array());
        assert!(j.get("wavefronts").is_none(), "AMD reports cycles only");
    }
    // The alias and CDNA's default wave of 64.
    let j = json(&["--arch", "cdna3", "--op", "ds_read_b32", "--addr", "16*t"]);
    assert_eq!(
        (
            j["op"].as_str(),
            j["wave"].as_u64(),
            j["conflict_cycles"].as_u64()
        ),
        (Some("ds_load_b32"), Some(64), Some(6))
    );
}

#[test]
fn published_rdna3_numbers() {
    let j = json(&["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "4*t"]);
    assert_eq!(
        (j["cycles"].as_u64(), j["wave"].as_u64()),
        (Some(1), Some(32))
    );
    let j = json(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "4*t",
        "--wave",
        "64",
    ]);
    assert_eq!(j["cycles"], 2);
}

#[test]
fn json_breakdown_names_colliding_lanes() {
    let j = json(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "t*128",
        "--active",
        "0-3",
    ]);
    assert_eq!(
        (j["cycles"].as_u64(), j["conflict_cycles"].as_u64()),
        (Some(4), Some(3))
    );
    let c = &j["groups"][0]["conflicts"][0];
    assert_eq!(c["bank"], 0);
    assert_eq!(c["lanes"], serde_json::json!([0, 1, 2, 3]));
    assert_eq!(c["words"], serde_json::json!([0, 32, 64, 96]));
    assert_eq!(c["accesses"], 4);
    assert_eq!(j["active"], "0xf");
}

#[test]
fn comma_lists_2addr_atomics_and_masks() {
    let list: Vec<String> = (0..32).map(|t| (t * 4).to_string()).collect();
    let list = list.join(",");
    let j = json(&["--arch", "rdna3", "--op", "ds_load_b32", "--addr", &list]);
    assert_eq!(j["cycles"], 1);
    let j = json(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_2addr_b32",
        "--addr",
        "t*4",
        "--addr1",
        "t*4 + 256",
    ]);
    assert_eq!(
        (j["cycles"].as_u64(), j["conflict_cycles"].as_u64()),
        (Some(2), Some(0))
    );
    assert_eq!(j["groups"][1]["addresses"], "second");
    let j = json(&["--arch", "rdna3", "--op", "ds_add_u32", "--addr", "0"]);
    assert_eq!(j["cycles"], 32);
    let j = json(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "0x80 * lane",
        "--active",
        "0xff",
    ]);
    assert_eq!(j["cycles"], 8);
    let j = json(&["--arch", "sm90", "--op", "sts.64", "--addr", "8*(t/2)"]);
    assert_eq!(j["wavefronts"], 2);
    // A shared atomic on one word serializes over the warp, as an H200 counts it (row
    // `atoms32_stride0` of crates/gpumemsim/tests/golden/sm90_shared_measured.tsv), under
    // Nsight Compute's atomic counter names.
    let j = json(&["--arch", "sm90", "--op", "atoms.32", "--addr", "0"]);
    assert_eq!(j["kind"], "atomic");
    let c = &j["counters"];
    assert_eq!(
        c["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"],
        32
    );
    assert_eq!(
        c["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"],
        31
    );
    let j = json(&["--arch", "cdna4", "--op", "ds_load_b128", "--addr", "16*t"]);
    assert_eq!(
        (j["cycles"].as_u64(), j["banks"].as_u64()),
        (Some(4), Some(64))
    );
}

#[test]
fn text_output_has_counters_table_and_picture() {
    let o = run(&["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "t*128"]);
    let out = text(&o.stdout);
    assert!(o.status.success());
    assert!(
        out.contains("cycles 32   ideal_cycles 1   conflict_cycles 31"),
        "{out}"
    );
    assert!(
        out.contains("bank  0! abcdefghijklmnopqrstuvwxyzABCDEF  32 passes"),
        "{out}"
    );
    let o = run(&["--arch", "sm80", "--op", "lds.32", "--addr", "12"]);
    let out = text(&o.stdout);
    assert!(
        out.contains("requests 1   wavefronts 1   ideal_wavefronts 1   bank_conflicts 0"),
        "{out}"
    );
    assert!(
        out.contains("bank  3  aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
        "broadcast: {out}"
    );
}

#[test]
fn suggest_fixes_the_tile_column_read() {
    let o = run(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "t*128",
        "--suggest",
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(out.contains("pad 4 B after every 128 B"), "{out}");
    assert!(out.contains("addr ^ (((addr >> 7) & 31) << 2)"), "{out}");
    let j = json(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "t*128",
        "--suggest",
    ]);
    let s = j["suggestions"].as_array().expect("suggestions");
    assert!(!s.is_empty());
    assert_eq!(s[0]["conflict_cycles"], 0);
    assert_eq!(s[0]["cycles"], 1);
    let costs: Vec<u64> = s
        .iter()
        .map(|x| x["cycles"].as_u64().expect("the test input is valid"))
        .collect();
    assert!(
        costs.windows(2).all(|w| w[0] <= w[1]),
        "cheapest first: {costs:?}"
    );
    // The suggested expression, applied to the addresses, gives what it promised.
    let expr = s[0]["expression"]
        .as_str()
        .expect("the test input is valid")
        .replace("addr", "(t*128)");
    let j2 = json(&["--arch", "rdna3", "--op", "ds_load_b32", "--addr", &expr]);
    assert_eq!(j2["cycles"], 1);
    // Nothing to fix.
    let o = run(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "t*4",
        "--suggest",
    ]);
    assert!(text(&o.stdout).contains("already conflict-free"));
    // NVIDIA: 128-bit rows of a 32×32 float tile read by column, 4 floats per lane.
    let j = json(&[
        "--arch",
        "sm80",
        "--op",
        "lds.128",
        "--addr",
        "t*128",
        "--suggest",
    ]);
    assert!(j["bank_conflicts"].as_u64() > Some(0));
    assert_eq!(j["suggestions"][0]["bank_conflicts"], 0);
}

#[test]
fn errors_are_clear_and_exit_2() {
    address_errors();
    instruction_and_arch_errors();
    lane_option_errors();
}

/// Errors in `--addr`: the place of a bad expression, values, division by zero, negative
/// and wrapping addresses, nesting.
fn address_errors() {
    let e = error(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "t * * 2",
    ]);
    assert!(e.contains("column 5"), "{e}");
    assert!(e.contains("\n      ^"), "caret under column 5: {e}");
    let e = error(&["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "4*q"]);
    assert!(e.contains("`q`") && e.contains("column 3"), "{e}");
    let e = error(&["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "1,2,3"]);
    assert!(e.contains("3 values") && e.contains("32 lanes"), "{e}");
    let e = error(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "t/(3-t)",
    ]);
    assert!(
        e.contains("division by zero") && e.contains("lane 3"),
        "{e}"
    );
    let list: Vec<String> = (0..32)
        .map(|t| {
            if t == 5 {
                "2+".to_string()
            } else {
                t.to_string()
            }
        })
        .collect();
    let list = list.join(",");
    let e = error(&["--arch", "rdna3", "--op", "ds_load_b32", "--addr", &list]);
    let col = list.find("2+").expect("the test input is valid") + 3; // 1-based column just after the `+`
    assert!(e.contains(&format!("column {col}")), "{e}");
    assert!(
        error(&["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "-4"]).contains("negative")
    );
    let deep = format!("{}t{}", "(".repeat(5000), ")".repeat(5000));
    assert!(
        error(&["--arch", "rdna3", "--op", "ds_load_b32", "--addr", &deep])
            .contains("nested too deeply")
    );

    // Arithmetic wraps (lane 2 overflows to a negative address).
    let e = error(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b128",
        "--addr",
        "0x7fffffffffffff00 + t*128",
    ]);
    assert!(e.contains("lane 2") && e.contains("negative"), "{e}");
}

/// Errors in `--op`, `--arch` and `--wave`: instructions that are not LDS accesses, an
/// instruction of the other vendor, a wave size the architecture lacks.
fn instruction_and_arch_errors() {
    assert!(
        error(&["--arch", "rdna3", "--op", "ds_swizzle_b32", "--addr", "t"])
            .contains("without touching LDS memory")
    );
    assert!(
        error(&["--arch", "rdna3", "--op", "buffer_load_b32", "--addr", "t"])
            .contains("not a DS instruction")
    );
    assert!(
        error(&["--arch", "rdna3", "--op", "ds_bogus", "--addr", "t"])
            .contains("unknown instruction")
    );
    assert!(error(&["--arch", "rdna3", "--op", "lds.64", "--addr", "t"]).contains("NVIDIA"));
    assert!(error(&["--arch", "sm80", "--op", "ds_load_b32", "--addr", "t"]).contains("lds.32"));
    assert!(
        error(&["--arch", "sm80", "--op", "lds.64", "--addr", "4*t"])
            .contains("not a multiple of 8")
    );
    assert!(
        error(&["--arch", "sm80", "--op", "lds.32", "--addr", "4*t", "--wave", "64"])
            .contains("32 lanes only")
    );
    assert!(error(&[
        "--arch",
        "cdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "4*t",
        "--wave",
        "32"
    ])
    .contains("64 lanes only"));
    assert!(
        error(&["--arch", "gfx9", "--op", "ds_load_b32", "--addr", "t"])
            .contains("possible values")
    );
}

/// Errors in `--addr1` and `--active`.
fn lane_option_errors() {
    assert!(error(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_2addr_b32",
        "--addr",
        "t*4"
    ])
    .contains("--addr1"));
    assert!(error(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "t*4",
        "--addr1",
        "t"
    ])
    .contains("2addr"));
    assert!(error(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "t*4",
        "--active",
        "0-40"
    ])
    .contains("lane 40"));
    assert!(error(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "t*4",
        "--active",
        "7-2"
    ])
    .contains("backwards"));
    assert!(error(&[
        "--arch",
        "rdna3",
        "--op",
        "ds_load_b32",
        "--addr",
        "t*4",
        "--active",
        "x"
    ])
    .contains("not a lane number"));
}

#[test]
fn huge_and_misaligned_addresses_never_panic() {
    for args in [
        &[
            "--arch",
            "sm80",
            "--op",
            "lds.128",
            "--addr",
            "0x7ffffffffffffff0",
            "--suggest",
        ][..],
        &[
            "--arch",
            "cdna4",
            "--op",
            "ds_load_b64",
            "--addr",
            "0x7fffffffffffffff",
            "--suggest",
        ],
        &[
            "--arch",
            "rdna3",
            "--op",
            "ds_store_b96",
            "--addr",
            "t*12+1",
            "--suggest",
        ],
        &[
            "--arch",
            "rdna3",
            "--op",
            "ds_load_2addr_b64",
            "--addr",
            "0x7ffffffffffffffe - t",
            "--addr1",
            "t*3",
            "--suggest",
        ],
    ] {
        let o = run(args);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        let mut with_json = args.to_vec();
        with_json.push("--json");
        let o = run(&with_json);
        assert!(
            serde_json::from_slice::<Value>(&o.stdout).is_ok(),
            "{args:?}"
        );
    }
}
