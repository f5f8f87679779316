//! Hostile inputs (issue 23, "never silently wrong"): values past a limit are errors that
//! name the option, the value and the limit, before any work; guest behaviour gives the
//! hardware's answer and a named event.

mod common;

use common::run;
use std::path::{Path, PathBuf};
use std::process::Output;

const EXIT: &str = "s_endpgm\n";

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `gpumemsim run - ARGS --json` on `prog` and expects success.
fn ok(args: &[&str], prog: &str) -> serde_json::Value {
    let mut all = vec!["run", "-", "--json"];
    all.extend_from_slice(args);
    let o = run(&all, prog);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    json(&o)
}

/// Runs `gpumemsim run - ARGS` on `prog`, expects a usage error (exit status 2, nothing on
/// standard output: no work done) and returns the message.
fn refused(args: &[&str], prog: &str) -> String {
    let mut all = vec!["run", "-"];
    all.extend_from_slice(args);
    let o = run(&all, prog);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?} was accepted: {e}");
    assert!(o.stdout.is_empty(), "{args:?} did work before the error");
    assert!(!e.contains("panicked"), "{args:?}: {e}");
    e
}

fn assert_names(e: &str, words: &[&str]) {
    for w in words {
        assert!(e.contains(w), "`{w}` not in: {e}");
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hostile-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d.join(name)
}

// 1
#[test]
fn a_program_read_from_a_pipe_path_runs_once() {
    let o = run(
        &["run", "/dev/stdin", "--json"],
        "v_mov_b32 v0, 1\ns_endpgm\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&o)["steps"], 2);
}

// 2
#[test]
fn a_descriptor_lds_size_near_2_pow_32_is_an_error_before_the_run() {
    let mut obj = std::fs::read(repo().join("examples/kernels/const_buffer.w32.o")).expect("obj");
    // The 64-byte descriptor const_buffer.kd: group 0, private 0, kernarg 32, zero padding.
    let u32_at = |b: &[u8], i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
    let at: Vec<usize> = (0..obj.len() - 64)
        .step_by(4)
        .filter(|&i| {
            (u32_at(&obj, i), u32_at(&obj, i + 4), u32_at(&obj, i + 8)) == (0, 0, 32)
                && obj[i + 12..i + 16] == [0; 4]
                && obj[i + 24..i + 44] == [0; 20]
        })
        .collect();
    assert_eq!(at.len(), 1, "the descriptor");
    for size in [0xffff_fffdu32, 0xffff_fffe, 0xffff_ffff] {
        obj[at[0]..at[0] + 4].copy_from_slice(&size.to_le_bytes());
        let path = tmp(&format!("lds-{size:x}.o"));
        std::fs::write(&path, &obj).expect("write");
        let o = run(
            &[
                "run",
                path.to_str().unwrap(),
                "--arg",
                "buf:u32[4]=zeros",
                "--arg",
                "u32:4",
                "--arg",
                "buf:u32[4]=zeros",
                "--arg",
                "buf:u32[4]=zeros",
            ],
            "",
        );
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{e}");
        assert!(o.stdout.is_empty());
        assert_names(
            &e,
            &["group_segment_fixed_size", &size.to_string(), "65536"],
        );
    }
}

// 3
#[test]
fn a_timing_value_past_2_pow_32_is_an_error() {
    let e = refused(&["--timing", "lds_latency=18446744073709551615"], EXIT);
    assert_names(
        &e,
        &[
            "--timing",
            "lds_latency",
            "18446744073709551615",
            "4294967296",
        ],
    );
    ok(&["--timing", "lds_latency=4294967296"], EXIT);
}

// 4
#[test]
fn a_typed_buffer_access_past_offset_2_pow_32_is_out_of_range() {
    // V#: base 0x1000, num_records 0xffffffff, raw (oob_select 3), format 32_UINT.
    let prog = "s_mov_b32 s4, 0x1000\ns_mov_b32 s5, 0\ns_mov_b32 s6, -1\n\
                s_mov_b32 s7, 0x30014000\n\
                v_mov_b32 v1, 0xfffffffd\nbuffer_load_format_x v2, v1, s[4:7], 0 offen\n\
                v_mov_b32 v1, 0xfffffffc\nbuffer_load_format_x v3, v1, s[4:7], 0 offen\n\
                v_mov_b32 v1, 0xfffffffc\nbuffer_load_b64 v[4:5], v1, s[4:7], 0 offen\n\
                s_waitcnt vmcnt(0)\ns_endpgm\n";
    let j = ok(
        &[
            "--mem",
            "0x1000=7,8",
            "--dump",
            "v2",
            "--dump",
            "v3",
            "--dump",
            "v5",
        ],
        prog,
    );
    for r in ["v2", "v3", "v5"] {
        assert_eq!(j["dump"][r][0][0], 0, "{r} read memory: {}", j["dump"][r]);
    }
}

// 5
#[test]
fn threads_past_the_cap_are_an_error() {
    let e = refused(&["--threads", "4096"], EXIT);
    assert_names(&e, &["--threads", "4096", "256"]);
    let e = refused(&["--threads", "18446744073709551615"], EXIT);
    assert_names(&e, &["--threads"]);
    ok(&["--threads", "256", "--workgroups", "4"], EXIT);
}

// 6
#[test]
fn mem_words_past_2_pow_48_are_an_error() {
    let e = refused(&["--mem", "0xfffffffffffc=1,2,3"], EXIT);
    assert_names(&e, &["--mem", "0xfffffffffffc", "48-bit"]);
    ok(&["--mem", "0xfffffffffffc=1"], EXIT);
}

// 7
#[test]
fn a_dump_past_2_pow_48_is_an_error() {
    let e = refused(
        &["--dump", "mem:0xffff000000000010:0xffff000000000020"],
        EXIT,
    );
    assert_names(&e, &["--dump", "mem:0xffff000000000010", "48-bit"]);
}

// 8
#[test]
fn scratch_past_2_pow_48_or_the_lane_limit_is_an_error() {
    let e = refused(
        &[
            "--scratch-base",
            "0xfffffffff000",
            "--scratch-size",
            "256",
            "--waves",
            "2",
        ],
        EXIT,
    );
    assert_names(&e, &["--scratch-base", "0xfffffffff000", "48-bit"]);
    let e = refused(&["--scratch-size", "4294967295"], EXIT);
    assert_names(&e, &["--scratch-size", "4294967295", "262136"]);
    let e = refused(&["--scratch-size", "131072", "--wave64"], EXIT);
    assert_names(&e, &["--scratch-size", "131068", "wave64"]);
    ok(&["--scratch-size", "131068", "--wave64"], EXIT);
}

// 9
#[test]
fn register_and_counter_values_wider_than_their_field_are_errors() {
    let e = refused(&["--set", "s5=0x1ffffffff"], EXIT);
    assert_names(&e, &["--set", "s5", "32-bit"]);
    let e = refused(&["--set", "exec=0xffffffffffff"], EXIT);
    assert_names(&e, &["--set", "exec", "32-bit", "wave32"]);
    let e = refused(&["--gws-init", "63=99999999999"], EXIT);
    assert_names(&e, &["--gws-init", "99999999999", "12 bits"]);
    let e = refused(&["--ordered-ring", "3=99999999999"], EXIT);
    assert_names(&e, &["--ordered-ring", "99999999999", "32 bits"]);
    // What fits is taken: negative values in two's complement, all of a wave64 EXEC.
    let j = ok(
        &[
            "--set",
            "s5=-1",
            "--set",
            "exec=0xffffffffffffffff",
            "--wave64",
            "--dump",
            "s5",
            "--dump",
            "exec",
            "--gws-init",
            "63=4095",
        ],
        EXIT,
    );
    assert_eq!(j["dump"]["s5"][0], 0xffff_ffffu64);
    assert_eq!(j["dump"]["exec"][0], u64::MAX);
}

// 10
#[test]
fn non_finite_floats_are_shown_faithfully_and_too_large_literals_refused() {
    let mut bytes = vec![0u8; 4096];
    for (i, bits) in [0x7fc0_0001u32, 0x7f80_0000, 0xff80_0000, 0x3f80_0000]
        .iter()
        .enumerate()
    {
        bytes[4 * i..4 * i + 4].copy_from_slice(&bits.to_le_bytes());
    }
    let path = tmp("nonfinite.f32.bin");
    std::fs::write(&path, &bytes).expect("write");
    let input = format!("buf:f32[1024]=file:{}", path.display());
    let o = run(
        &[
            "run",
            "--arg",
            &input,
            "--arg",
            "buf:f32[1024]=zeros",
            "--json",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let j = json(&o);
    let v = &j["args"][0]["values"];
    assert_eq!(v[0], serde_json::json!({"nan": "0x7fc00001"}));
    assert_eq!(v[1], "Infinity");
    assert_eq!(v[2], "-Infinity");
    assert_eq!(v[3], 1.0);
    let o = run(
        &[
            "run",
            "--arg",
            &input,
            "--arg",
            "buf:f32[1024]=zeros",
            "--full",
        ],
        "",
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("[NaN(0x7fc00001), Infinity, -Infinity, 1.0,"),
        "{text}"
    );
    assert!(!text.contains("null"), "{text}");
    let o = run(&["run", "--arg", "buf:f32[2]=1e40,0"], "");
    assert_eq!(o.status.code(), Some(2));
    assert_names(&stderr(&o), &["--arg", "1e40", "f32"]);
}

// 13
#[test]
fn an_endless_input_is_read_only_as_far_as_needed() {
    let o = run(
        &[
            "run",
            "--arg",
            "buf:f32[4]=file:/dev/zero",
            "--arg",
            "buf:f32[4]=zeros",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert_names(&stderr(&o), &["/dev/zero", "more than 16 bytes"]);
    let o = run(&["asm", "/dev/zero"], "");
    assert_eq!(o.status.code(), Some(2));
    assert_names(&stderr(&o), &["/dev/zero", "64 MiB"]);
}

// 14
#[test]
fn gws_range_overflow_is_reported_with_checked_arithmetic() {
    let e = refused(
        &["--gws-base", "4294967295", "--gws-size", "4294967295"],
        EXIT,
    );
    assert_names(&e, &["4294967295..8589934590", "64 resources"]);
}

#[test]
fn numeric_options_take_hex() {
    let j = ok(
        &[
            "--scratch-size",
            "0x100",
            "--waves",
            "0x2",
            "--lds-size",
            "0x1000",
        ],
        EXIT,
    );
    assert_eq!(j["waves"], 2);
}

#[test]
fn lds_and_gds_dumps_stay_inside_their_allocation_and_words() {
    let e = refused(&["--lds-size", "1024", "--dump", "lds:0:2048"], EXIT);
    assert_names(&e, &["--dump", "lds:0:2048", "1024"]);
    let e = refused(&["--dump", "gds:4096:4104"], EXIT);
    assert_names(&e, &["--dump", "gds:4096:4104", "4096"]);
    let e = refused(&["--dump", "lds:1:6"], EXIT);
    assert_names(&e, &["--dump", "lds:1:6", "multiple of 4"]);
    ok(&["--lds-size", "1024", "--dump", "lds:1020:1024"], EXIT);
}

#[test]
fn an_unwritable_html_path_fails_before_the_run() {
    let e = refused(&["--html", "/nonexistent-dir/report.html"], EXIT);
    assert_names(&e, &["--html", "/nonexistent-dir/report.html"]);
}

#[test]
fn a_wave_running_off_the_end_of_the_program_is_an_event() {
    let j = ok(&[], "v_mov_b32 v0, 1\n");
    let events = j["events"].as_array().expect("events");
    assert!(
        events.iter().any(|e| e["kind"] == "no_endpgm"),
        "{events:?}"
    );
    let j = ok(&[], EXIT);
    assert!(j["events"].as_array().expect("events").is_empty());
}

#[test]
fn a_label_defined_twice_is_an_error_as_llvm_mc_says() {
    // llvm-mc-19: "<stdin>:3:1: error: symbol 'L0' is already defined"; the run assembles
    // nothing and exits 1, and the branch would otherwise have gone to the second L0.
    let program = "L0:\n  s_nop 0\nL0:\n  s_branch L0\n  s_endpgm\n";
    for cmd in ["asm", "run"] {
        let o = run(&[cmd, "-"], program);
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("<stdin>:3:1: error: symbol 'L0' is already defined"),
            "{cmd}: {err}"
        );
    }
}

#[test]
fn a_gws_semaphore_released_by_2_pow_32_minus_1_wraps_in_its_12_bits() {
    // Found by the exec fuzz target: the counter's sum overflowed the host's u32 (a panic in
    // debug builds) before it was masked to the hardware's 12 bits.
    let o = run(
        &["run", "-", "--json"],
        "v_mov_b32 v4, -1\nds_gws_sema_br v4 offset:0 gds\nds_gws_sema_br v4 offset:0 gds\ns_endpgm\n",
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn grids_past_a_dispatch_or_the_32_bit_ids_are_refused_by_what_they_pass() {
    let kernel = repo().join("examples/apps/build/transpose_padded.o");
    let kernel = kernel.to_str().expect("a UTF-8 path");
    let launch = |grid: &str| {
        let args = [
            "run",
            kernel,
            "--kernel",
            "transpose_tiled_padded",
            "--grid",
            grid,
            "--block",
            "32,8",
            "--arg",
            "buf:f32[16]=zeros",
            "--arg",
            "buf:f32[16]=iota",
            "--arg",
            "i32:4",
            "--arg",
            "i32:4",
        ];
        let o = run(&args, "");
        assert_eq!(o.status.code(), Some(2), "--grid {grid} was accepted");
        assert!(
            o.stdout.is_empty(),
            "--grid {grid} did work before the error"
        );
        stderr(&o)
    };
    // The dispatch packet's grid size is 32 bits per dimension: 2^27 × 32 = 2^32 work-items.
    assert_names(
        &launch("134217728"),
        &["4294967296 work-items in x", "2^32 − 1 per dimension"],
    );
    // Workgroup ids are 32 bits: 65,536 × 65,536 workgroups (each dimension fits).
    assert_names(
        &launch("65536,65536"),
        &["4294967296 workgroups", "at most 2^32 − 1"],
    );
    // Wave ids are 32 bits: 2^30 workgroups of 8 waves.
    assert_names(
        &launch("65536,16384"),
        &["1073741824 workgroups of 8 waves", "at most 2^32 waves"],
    );
}
