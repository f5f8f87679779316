//! The front door: code objects as people build them (OpenCL and HIP linked with AMD's device
//! libraries, offload bundles), dynamic LDS of both kinds, launches checked against the
//! kernel's metadata, and the error each mistake gets. The objects in tests/front_door/ are
//! built from the sources beside them by tools/build_apps.sh.

mod common;

use common::outcome as gms;

fn object(name: &str) -> String {
    format!("{}/tests/front_door/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = gms(args);
    assert_eq!(code, Some(0), "{err}");
    serde_json::from_str(&out).expect("json")
}

fn ints(v: &serde_json::Value) -> Vec<i64> {
    v["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|x| x.as_i64().expect("an integer"))
        .collect()
}

/// block_sum(global const int *in, global int *out, local int *partial, local double
/// *scaled, int n) with a 12-byte static `__local int where[3]`.
fn block_sum<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "run",
        "--grid",
        "3",
        "--block",
        "64",
        "--arg",
        "buf:i32[192]=iota",
        "--arg",
        "buf:i32[12]=zeros",
    ];
    a.extend_from_slice(extra);
    a
}

#[test]
fn local_pointer_arguments_get_lds_after_the_static_lds_at_their_alignment() {
    let path = object("block_sum.o");
    let mut args = block_sum(&[
        "--arg",
        "local:256",
        "--arg",
        "local:512",
        "--arg",
        "i32:192",
    ]);
    args.insert(1, &path);
    args.push("--json");
    let j = json(&args);
    // Static LDS (12 bytes) at 0; `partial` (int, align 4) at 12; `scaled` (double, align 8)
    // at 12 + 256 = 268 rounded up to 272. The kernel reports the pointers it was given.
    let out = ints(&j["args"][1]);
    for g in 0..3 {
        let sum: i64 = (64 * g..64 * g + 64).sum();
        assert_eq!(
            out[4 * g as usize..4 * g as usize + 4],
            [sum, sum, 12, 272],
            "{out:?}"
        );
    }
    let a = &j["args"];
    assert_eq!(
        a.as_array().map(Vec::len),
        Some(5),
        "one entry per argument"
    );
    assert_eq!(
        (
            a[2]["kind"].as_str(),
            a[2]["offset"].as_u64(),
            a[2]["size"].as_u64()
        ),
        (Some("local"), Some(12), Some(256))
    );
    assert_eq!(
        (a[3]["name"].as_str(), a[3]["offset"].as_u64()),
        (Some("scaled"), Some(272))
    );
    assert_eq!(
        (a[4]["kind"].as_str(), a[4]["value"].as_i64()),
        (Some("value"), Some(192))
    );
    assert_eq!(j["lds_bytes"].as_u64(), Some(272 + 512));
}

#[test]
fn argument_mistakes_name_the_argument_and_fail_before_the_run() {
    let path = object("block_sum.o");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--arg", "local:256", "--arg", "local:512"],
            "kernel `block_sum` takes 5 arguments, 4 given: argument 4 `n` (int) is missing (--arg i32:VALUE)",
        ),
        (
            &["--arg", "local:256", "--arg", "local:512", "--arg", "i32:1", "--arg", "i32:2"],
            "kernel `block_sum` takes 5 arguments, 6 given: argument 5 (a value of 4 bytes) is extra",
        ),
        (
            &["--arg", "local:256", "--arg", "local:512", "--arg", "f32:192"],
            "--arg f32:192: argument 4 `n` (int) takes --arg i32:VALUE; given a f32 value",
        ),
        (
            &["--arg", "local:256", "--arg", "local:512", "--arg", "u64:192"],
            "--arg u64:192: argument 4 `n` (int) takes --arg i32:VALUE; given a u64 value",
        ),
        (
            &["--arg", "buf:i32[4]=zeros", "--arg", "local:512", "--arg", "i32:192"],
            "argument 2 `partial` (int*) takes --arg local:BYTES; given a buffer of 16 bytes",
        ),
        (
            &["--arg", "local:40000", "--arg", "local:30000", "--arg", "i32:192"],
            "kernel `block_sum` needs 70016 bytes of LDS per workgroup (12 static + 70004 dynamic); a workgroup may have at most 65536",
        ),
    ];
    for (extra, want) in cases {
        let mut args = block_sum(extra);
        args.insert(1, &path);
        let (code, out, err) = gms(&args);
        assert_eq!(code, Some(2), "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}:\n{err}");
        assert!(out.is_empty(), "nothing runs: {out}");
    }
}

#[test]
fn a_device_library_call_that_was_not_linked_is_named() {
    let (code, _, err) = gms(&["run", &object("block_sum.unlinked.o"), "--block", "64"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("kernel `block_sum` calls `get_local_id(unsigned int)` (`_Z12get_local_idj`)"),
        "{err}"
    );
    assert!(
        err.contains("`barrier(unsigned int)` (`_Z7barrierj`)"),
        "{err}"
    );
    assert!(
        err.contains("device-library function that was not linked"),
        "{err}"
    );
    assert!(err.contains("gpumemsim run FILE.cl"), "{err}");
}

#[test]
fn an_offload_bundle_runs_its_gfx1100_entry_under_its_demangled_name() {
    for name in ["reverse_block", "_Z13reverse_blockPiS_"] {
        let j = json(&[
            "run",
            &object("reverse_block.o"),
            "--kernel",
            name,
            "--grid",
            "2",
            "--block",
            "64",
            "--arg",
            "buf:i32[128]=iota",
            "--arg",
            "buf:i32[1]=zeros",
            "--dynamic-lds",
            "256",
            "--json",
        ]);
        assert_eq!(j["kernel"].as_str(), Some("reverse_block"));
        assert_eq!(j["symbol"].as_str(), Some("_Z13reverse_blockPiS_"));
        let want: Vec<i64> = (0..2)
            .flat_map(|g| (0..64).rev().map(move |i| 64 * g + i))
            .collect();
        assert_eq!(ints(&j["args"][0]), want);
        assert_eq!(ints(&j["args"][1]), [128]);
        assert_eq!(j["events"].as_array().map(Vec::len), Some(0));
        // 4 bytes of static LDS, then the 256 dynamic ones.
        assert_eq!(j["lds_bytes"].as_u64(), Some(260));
    }
}

#[test]
fn dynamic_lds_missing_or_too_large() {
    let base = [
        "run",
        &object("reverse_block.o"),
        "--grid",
        "2",
        "--block",
        "64",
        "--arg",
        "buf:i32[128]=iota",
        "--arg",
        "buf:i32[1]=zeros",
    ];
    // Without --dynamic-lds the slice is outside the allocation: an error-class event,
    // counted on the summary's first lines; the run itself completed, so it exits 0.
    let (code, out, err) = gms(&base);
    assert_eq!(code, Some(0), "{err}");
    let second = out.lines().nth(1).unwrap_or("");
    assert!(
        second.starts_with("errors: ") && second.contains("lds_out_of_range"),
        "{out}"
    );
    let mut big = base.to_vec();
    big.extend(["--dynamic-lds", "65536"]);
    let (code, _, err) = gms(&big);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("kernel `reverse_block` needs 65540 bytes of LDS per workgroup (4 static + 65536 dynamic)"),
        "{err}"
    );
}

#[test]
fn a_bundle_without_gfx1100_lists_its_targets() {
    let (code, _, err) = gms(&["run", &object("reverse_block.gfx1030.o")]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("the offload bundle has no code object for gfx1100, gfx942 (it has: host-x86_64-unknown-linux--, hipv4-amdgcn-amd-amdhsa--gfx1030)"),
        "{err}"
    );
}

#[test]
fn accesses_outside_every_buffer_are_out_of_bounds_events() {
    // n = 192 but `in` has 100 elements: lanes past element 99 read outside it.
    let path = object("block_sum.o");
    let mut args = vec!["run", &path];
    args.extend(common::BLOCK_SUM_OUT_OF_BOUNDS);
    let (code, out, err) = gms(&args);
    assert_eq!(code, Some(0), "{err}");
    let second = out.lines().nth(1).unwrap_or("");
    assert_eq!(
        second, "errors: 3 out_of_bounds (see the events below)",
        "{out}"
    );
    args.push("--json");
    let j = json(&args);
    let events = j["events"].as_array().expect("events");
    let first = events[0]["message"].as_str().expect("message");
    // Wave 3 is the second wave of workgroup 1: items 96..127, of which 100.. are outside.
    assert_eq!(events[0]["kind"].as_str(), Some("out_of_bounds"));
    assert_eq!(events[0]["wave"].as_u64(), Some(3));
    assert!(
        first.starts_with("lanes 4-31 (28 lanes) accessed global memory outside every allocation: lane 4 at 0x100000190, 0 bytes past the end of arg 0 `in` (int*) (400 bytes at 0x100000000); the reads give 0"),
        "{first}"
    );
    // Reads outside give 0: the sums cover elements 0..99 only.
    let out = ints(&j["args"][1]);
    let sums: Vec<i64> = (0..3).map(|g| out[4 * g]).collect();
    assert_eq!(sums, [(0..64).sum::<i64>(), (64..100).sum(), 0]);
}

#[test]
fn the_step_limit_is_per_wave() {
    // Every wave of lds_sum runs the same few dozen instructions: 64 workgroups run many
    // more in all than the limit of 200, and none is stopped.
    let kernel = format!(
        "{}/../../examples/kernels/lds_sum.w32.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let grid = [
        "run",
        &kernel,
        "--grid",
        "64",
        "--block",
        "64",
        "--arg",
        "buf:i32[4096]=iota",
        "--arg",
        "buf:i32[64]=zeros",
        "--json",
    ];
    let mut limited = grid.to_vec();
    limited.extend(["--max-steps", "200"]);
    let j = json(&limited);
    assert!(
        j["steps"].as_u64().expect("steps") > 200 * 2,
        "{}",
        j["steps"]
    );
    assert_eq!(ints(&j["args"][1])[63], (4032..4096).sum::<i64>());
    // A limit below one wave's count stops that wave, and names it, and the instruction it
    // stopped at by llvm-objdump-19's address (the sixth: 0x1c) and its source line.
    let mut tight = grid.to_vec();
    tight.extend(["--max-steps", "5", "--together"]);
    let (code, out, _) = gms(&tight);
    assert_eq!(code, Some(1));
    let j: serde_json::Value = serde_json::from_str(&out).expect("json");
    let e = j["error"].as_str().expect("error");
    assert!(
        e.contains(
            "wave 0 (workgroup 0) was stopped at 0x1c (lds_sum.cl:6:15) after 5 instructions"
        ),
        "{e}"
    );
}

/// `run PATH ARGS --json`: the exit code, and the JSON or the error text.
fn run_from(path: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let mut a = vec!["run", path];
    a.extend_from_slice(args);
    a.push("--json");
    gms(&a)
}

#[test]
fn sources_are_compiled_with_the_device_libraries_or_the_missing_tools_are_named() {
    let block_sum = [
        "--grid",
        "3",
        "--block",
        "64",
        "--arg",
        "buf:i32[192]=iota",
        "--arg",
        "buf:i32[12]=zeros",
        "--arg",
        "local:256",
        "--arg",
        "local:512",
        "--arg",
        "i32:192",
    ];
    let reverse = [
        "--kernel",
        "reverse_block",
        "--grid",
        "2",
        "--block",
        "64",
        "--arg",
        "buf:i32[128]=iota",
        "--arg",
        "buf:i32[1]=zeros",
        "--dynamic-lds",
        "256",
    ];
    let src = object("block_sum.cl");
    let mut no_clang = vec!["--clang", "/nonexistent/clang-19"];
    no_clang.extend(block_sum);
    let (code, _, err) = run_from(&src, &no_clang);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("/nonexistent/clang-19 was not found: gpumemsim compiles"),
        "{err}"
    );
    assert!(err.contains("Debian packages clang-19 and lld-19"), "{err}");
    // With clang-19 and the device libraries installed (.ci/run installs them, and under CI
    // the build is required), each source runs as its committed build does; without them the
    // message names what to install.
    for (source, built, args) in [
        ("block_sum.cl", "block_sum.o", &block_sum[..]),
        ("reverse_block.hip", "reverse_block.o", &reverse[..]),
    ] {
        let (code, out, err) = run_from(&object(source), args);
        if code == Some(0) {
            let j: serde_json::Value = serde_json::from_str(&out).expect("json");
            let (_, want, _) = run_from(&object(built), args);
            let want: serde_json::Value = serde_json::from_str(&want).expect("json");
            assert_eq!(j["args"], want["args"], "{source}");
            assert_eq!(j["kernel"], want["kernel"], "{source}");
            assert_eq!(j["lds_bytes"], want["lds_bytes"], "{source}");
        } else {
            assert!(
                std::env::var_os("CI").is_none(),
                "under CI clang-19 and the device libraries must be installed: {err}"
            );
            assert_eq!(code, Some(2), "{err}");
            assert!(
                [
                    "apt-get install rocm-device-libs",
                    "Debian packages clang-19 and lld-19",
                    "libamdhip64-dev"
                ]
                .iter()
                .any(|m| err.contains(m)),
                "{err}"
            );
            eprintln!("note: {source} was not compiled here: {err}");
        }
    }
}

#[test]
fn a_compile_error_shows_clangs_diagnostics() {
    let dir = std::env::temp_dir().join(format!("gms-front-door-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("broken.cl");
    std::fs::write(
        &src,
        "__kernel void k(__global int *p) {\n    p[0] = undeclared;\n}\n",
    )
    .expect("write");
    let (code, _, err) = run_from(
        src.to_str().expect("utf-8 path"),
        &["--arg", "buf:i32[1]=zeros"],
    );
    assert_eq!(code, Some(2), "{err}");
    if err.contains("did not compile") {
        assert!(
            err.contains("broken.cl:2:12: error: use of undeclared identifier 'undeclared'"),
            "{err}"
        );
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "under CI clang-19 must be installed: {err}"
        );
        eprintln!("note: broken.cl was not compiled here: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// OpenCL's metadata names what a pointer points to: a buffer of another element type is an
/// error before the run (it would run with garbage values); `u8` passes raw bytes.
#[test]
fn a_buffer_of_another_type_than_the_pointer_names_is_an_error() {
    let k = format!(
        "{}/../../examples/kernels/transpose.w32.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let launch = |src: &str| {
        let a = [
            "run",
            &k,
            "--kernel",
            "transpose_naive",
            "--grid",
            "1",
            "--block",
            "32",
            "--arg",
            src,
            "--arg",
            "buf:f32[1024]=zeros",
        ];
        gms(&a)
    };
    let (code, out, err) = launch("buf:i32[1024]=iota");
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains(
            "--arg buf:i32[1024]=iota: argument 0 (float*) points to f32 values; given a \
             buffer of i32 (pass f32 elements, or u8 to reinterpret raw bytes)"
        ),
        "{err}"
    );
    for ok in ["buf:f32[1024]=iota", "buf:u8[4096]=zeros"] {
        let (code, _, err) = launch(ok);
        assert_eq!(code, Some(0), "{ok}: {err}");
    }
}

/// clang-19 runs within a time limit (--compile-timeout, default 120 s) and a memory limit
/// (--compile-memory, default 4096 MiB): a preprocessor bomb (10^8 statements) is stopped and
/// named, and a compiler that cannot fit its limit says which limit.
#[test]
fn the_compiler_runs_within_a_time_and_a_memory_limit() {
    let dir = std::env::temp_dir().join(format!("gms-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let bomb = dir.join("bomb.cl");
    std::fs::write(
        &bomb,
        "#define A(x) x x x x x x x x x x\n#define B(x) A(A(A(A(x))))\n#define C(x) B(B(x))\n\
         __kernel void bomb(__global int *o) { int v = 0; C(v++;) o[0] = v; }\n",
    )
    .expect("write");
    let bomb = bomb.to_str().expect("utf-8");
    let start = std::time::Instant::now();
    let (code, _, err) = gms(&[
        "run",
        bomb,
        "--compile-timeout",
        "1",
        "--arg",
        "buf:i32[1]=zeros",
    ]);
    if err.contains("was not found") {
        assert!(
            std::env::var_os("CI").is_none(),
            "under CI clang-19 must be installed: {err}"
        );
        eprintln!("note: clang-19 is not installed here: {err}");
        return;
    }
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("did not finish compiling") && err.contains("within 1 s and was stopped"),
        "{err}"
    );
    // Stopped, not run to its end (which takes minutes).
    assert!(start.elapsed() < std::time::Duration::from_secs(60));
    // The stopped build leaves nothing in the temporary directory (clang writes through a
    // temporary file of its own).
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).expect("dir");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .args(["run", bomb, "--compile-timeout", "1"])
        .args(["--arg", "buf:i32[1]=zeros"])
        .env("TMPDIR", &tmp)
        .output()
        .expect("spawn gpumemsim");
    assert_eq!(o.status.code(), Some(2));
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .expect("read")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert!(left.is_empty(), "left in the temporary directory: {left:?}");
    let (code, _, err) = gms(&[
        "run",
        bomb,
        "--compile-memory",
        "64",
        "--arg",
        "buf:i32[1]=zeros",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("clang ran with at most 64 MiB (--compile-memory MIB"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
