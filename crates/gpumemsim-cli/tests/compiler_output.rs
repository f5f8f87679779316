//! Everything a compiler emits, run as it is built: program-scope tables read PC-relative
//! (`s_getpc_b64` and relocations), `--symbol`, calls (non-inlined, recursive, through
//! function pointers) at -O2 and -O0 -g, traps and asserts with their source lines, and
//! sources by language. The objects in tests/compiler_output/ are built from the sources
//! beside them by tools/build_compiler_output.sh (the flags `gpumemsim run SRC` uses).

mod common;

use common::{numbers as values, outcome as gms};
use serde_json::Value;

fn object(name: &str) -> String {
    format!(
        "{}/tests/compiler_output/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// `run PATH ARGS --json`, which must exit `code`: the report.
fn report(path: &str, args: &[&str], code: i32) -> Value {
    let mut a = vec!["run", path];
    a.extend_from_slice(args);
    a.push("--json");
    let (got, out, err) = gms(&a);
    assert_eq!(got, Some(code), "{err}");
    serde_json::from_str(&out).expect("json")
}

fn symbol<'a>(j: &'a Value, name: &str) -> &'a Value {
    j["symbols"]
        .as_array()
        .expect("symbols")
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no symbol {name} in {}", j["symbols"]))
}

const WEIGH: [&str; 6] = [
    "--block",
    "64",
    "--arg",
    "buf:f32[64]=zeros",
    "--arg",
    "buf:f32[64]=iota",
];

/// `out[i] = in[i] * w[i & 3]` with the table `w`.
fn weighed(w: [f32; 4]) -> Vec<f64> {
    (0..64).map(|i| (i as f32 * w[i & 3]) as f64).collect()
}

#[test]
fn an_opencl_constant_table_is_read_where_the_object_holds_it() {
    for o in ["table.o", "table.O0.o"] {
        let j = report(&object(o), &WEIGH, 0);
        assert_eq!(
            values(&j["args"][0]["values"]),
            weighed([0.25, 0.5, 1.5, -2.0]),
            "{o}"
        );
        // The report lists the variables with their final values: the table as the object
        // holds it (u32 words: an ELF symbol has no type), the counter one workgroup bumped.
        let w = symbol(&j, "w");
        let bits: Vec<f64> = [0.25f32, 0.5, 1.5, -2.0]
            .iter()
            .map(|f| f.to_bits() as f64)
            .collect();
        assert_eq!(values(&w["values"]), bits, "{o}");
        assert_eq!(w["size"], 16);
        assert_eq!(values(&symbol(&j, "hits")["values"]), [1.0], "{o}");
    }
}

#[test]
fn symbols_are_set_before_the_launch_and_mistakes_are_named() {
    let path = object("table.o");
    let mut a = WEIGH.to_vec();
    a.extend(["--symbol", "w=f32:1,-1,2,0.5", "--symbol", "hits=i32:41"]);
    let j = report(&path, &a, 0);
    assert_eq!(
        values(&j["args"][0]["values"]),
        weighed([1.0, -1.0, 2.0, 0.5])
    );
    // Given a type, the variable is reported in it.
    assert_eq!(symbol(&j, "w")["type"], "f32");
    assert_eq!(values(&symbol(&j, "w")["values"]), [1.0, -1.0, 2.0, 0.5]);
    assert_eq!(values(&symbol(&j, "hits")["values"]), [42.0]);
    // zeros and a file.
    let file = std::env::temp_dir().join(format!("gms-symbol-{}.bin", std::process::id()));
    let table: Vec<u8> = [3.0f32, 0.0].iter().flat_map(|f| f.to_le_bytes()).collect();
    std::fs::write(&file, &table).expect("write");
    let from_file = format!("w=file:{}", file.display());
    for (setting, want) in [
        ("w=zeros", [0.0, 0.0, 0.0, 0.0]),
        (from_file.as_str(), [3.0, 0.0, 1.5, -2.0]),
    ] {
        let mut a = WEIGH.to_vec();
        a.extend(["--symbol", setting]);
        let j = report(&path, &a, 0);
        assert_eq!(values(&j["args"][0]["values"]), weighed(want), "{setting}");
    }
    let _ = std::fs::remove_file(&file);
    for (setting, says) in [
        (
            "nope=zeros",
            "no variable `nope` in the code object (it has: w, __oclc_ABI_version, hits)",
        ),
        (
            "w=f32:1,2,3,4,5",
            "5 values of f32 are 20 bytes; `w` has 16",
        ),
        ("w=f32:1,x", "`x` is not a f32"),
        (
            "w",
            "expected NAME=TYPE:V1,V2,..., NAME=file:PATH or NAME=zeros",
        ),
    ] {
        let mut a = vec!["run", &path];
        a.extend(WEIGH);
        a.extend(["--symbol", setting]);
        let (code, _, err) = gms(&a);
        assert_eq!(code, Some(2), "{setting}: {err}");
        assert!(err.contains(says), "{setting}: {err}");
    }
}

/// `scaled(i) + fib(i % 10) + (i odd ? twice : thrice)(i)`, calls.hip's `calls`.
fn calls_reference() -> Vec<f64> {
    let fibs = [1, 1, 2, 3, 5, 8, 13, 21];
    fn fib(n: i64) -> i64 {
        if n < 2 {
            n
        } else {
            fib(n - 1) + fib(n - 2)
        }
    }
    (0..64i64)
        .map(|i| {
            let f = if i & 1 == 1 { 2 * i } else { 3 * i };
            (fibs[(i & 7) as usize] * i + 1 + fib(i % 10) + f) as f64
        })
        .collect()
}

const CALLS: [&str; 8] = [
    "--kernel",
    "calls",
    "--block",
    "64",
    "--arg",
    "buf:i32[64]=zeros",
    "--arg",
    "i32:100000",
];

#[test]
fn calls_run_at_o2_and_o0_through_pointers_and_recursion() {
    for o in ["calls.o", "calls.O0.o"] {
        let j = report(&object(o), &CALLS, 0);
        assert_eq!(values(&j["args"][0]["values"]), calls_reference(), "{o}");
        assert!(
            j["events"].as_array().expect("events").is_empty(),
            "{o}: {}",
            j["events"]
        );
        // The callees' instructions are part of the program and ran, attributed to their
        // own source lines (`fib`'s body is line 11 of calls.hip).
        let fib_line = j["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .find(|l| l["line"] == 11)
            .unwrap_or_else(|| panic!("{o}: no line 11 in {}", j["lines"]));
        assert!(
            fib_line["executions"].as_u64().expect("executions") > 0,
            "{o}"
        );
        // The calls that ran: the kernel's to each function (placed before the kernel in
        // the object: lower addresses than the kernel's own), fib's to itself.
        let base = j["instructions"][0]["address"].as_i64().expect("address");
        let calls: Vec<(String, i64, i64)> = j["calls"]
            .as_array()
            .expect("calls")
            .iter()
            .map(|c| {
                let f = c["function"].as_str().unwrap_or("?").to_string();
                let from = c["from"]["address"].as_i64().expect("address");
                (f, from, c["to"]["address"].as_i64().expect("address"))
            })
            .collect();
        for f in ["scaled(int)", "fib(int)", "twice(int)", "thrice(int)"] {
            let to = calls.iter().find(|c| c.0 == f && c.1 >= base);
            assert!(to.is_some_and(|c| c.2 < base), "{o}: {f} in {calls:?}");
        }
        assert!(
            calls.iter().any(|c| c.0 == "fib(int)" && c.1 < base),
            "{o}: fib calls itself: {calls:?}"
        );
    }
}

#[test]
fn a_failed_assert_stops_the_run_at_the_callers_line() {
    let mut a = CALLS.to_vec();
    a[7] = "i32:300";
    for o in ["calls.o", "calls.O0.o"] {
        let j = report(&object(o), &a, 1);
        let traps: Vec<&Value> = j["events"]
            .as_array()
            .expect("events")
            .iter()
            .filter(|e| e["kind"] == "trap")
            .collect();
        assert_eq!(traps.len(), 1, "{o}: {}", j["events"]);
        let t = traps[0];
        // The assert's own line in the kernel, not the header's __assert_fail.
        assert_eq!(t["source"]["line"], 22, "{o}: {t}");
        assert!(
            t["source"]["file"]
                .as_str()
                .is_some_and(|f| f.ends_with("calls.hip")),
            "{o}: {t}"
        );
        // The lanes whose value reached the limit, of the wave that trapped (wave32: wave w
        // holds items 32w..32w+31).
        let w = t["wave"].as_u64().expect("wave") as usize;
        let want: Vec<f64> = calls_reference()[32 * w..32 * w + 32]
            .iter()
            .enumerate()
            .filter(|&(_, &r)| r >= 300.0)
            .map(|(l, _)| l as f64)
            .collect();
        assert_eq!(values(&t["lanes"]), want, "{o}: {t}");
        assert!(
            j["error"].as_str().is_some_and(|e| e.contains("s_trap")),
            "{o}: {}",
            j["error"]
        );
    }
}

#[test]
fn a_trap_stops_the_run_with_its_lanes_and_line() {
    let path = object("calls.o");
    let mut data = vec!["0"; 64];
    data[5] = "7";
    data[40] = "7";
    let buf = format!("buf:i32[64]={}", data.join(","));
    let a = ["--kernel", "trapper", "--block", "64", "--arg", &buf];
    let j = report(&path, &a, 1);
    let trap = j["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["kind"] == "trap")
        .expect("a trap event");
    assert_eq!(trap["source"]["line"], 29, "{trap}");
    assert_eq!(values(&trap["lanes"]), [5.0], "{trap}");
    // Without the value that traps, the kernel runs to its end.
    let a = [
        "--kernel",
        "trapper",
        "--block",
        "64",
        "--arg",
        "buf:i32[64]=zeros",
    ];
    let j = report(&path, &a, 0);
    assert_eq!(values(&j["args"][0]["values"]), vec![1.0; 64]);
}

#[test]
fn sources_are_built_by_language_and_the_object_can_be_kept() {
    let dir = std::env::temp_dir().join(format!("gms-lang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let text = std::fs::read_to_string(object("calls.hip")).expect("calls.hip");
    let (cu, txt, kept) = (
        dir.join("calls.cu"),
        dir.join("calls.txt"),
        dir.join("kept.o"),
    );
    std::fs::write(&cu, &text).expect("write");
    std::fs::write(&txt, &text).expect("write");
    let (cu, txt, kept) = (
        cu.to_str().expect("utf-8"),
        txt.to_str().expect("utf-8"),
        kept.to_str().expect("utf-8"),
    );
    // A `.cu` file is HIP; so is any file with --lang hip; --keep-object writes the build.
    let mut a = vec!["run", cu];
    a.extend(CALLS);
    a.extend(["--keep-object", kept, "--json"]);
    let (code, out, err) = gms(&a);
    if code != Some(0) {
        assert!(
            std::env::var_os("CI").is_none(),
            "under CI clang-19 and the HIP headers must be installed: {err}"
        );
        eprintln!("note: calls.cu was not compiled here: {err}");
        return;
    }
    let j: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(values(&j["args"][0]["values"]), calls_reference());
    let j = report(kept, &CALLS, 0);
    assert_eq!(values(&j["args"][0]["values"]), calls_reference());
    let mut a = vec!["--lang", "hip"];
    a.extend(CALLS);
    let j = report(txt, &a, 0);
    assert_eq!(values(&j["args"][0]["values"]), calls_reference());
    // Without --lang, a `.txt` file is assembly text, and C++ is not.
    let mut a = vec!["run", txt];
    a.extend(CALLS);
    let (code, _, err) = gms(&a);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("calls.txt:3:1: error: expected an instruction mnemonic"),
        "{err}"
    );
    // --lang asm reads a source as assembly; --keep-object needs a source.
    let (code, _, err) = gms(&["run", cu, "--lang", "asm", "--keep-object", kept]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--keep-object"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("strings")
        .iter()
        .map(|s| s.as_str().expect("a string").to_string())
        .collect()
}

/// printf.cl's line for item `i` of `t = iota`.
fn opencl_line(i: i64) -> String {
    format!(
        "item {i:2}: {:.3} ms (0x{:04x}, {}, ok)\n",
        i as f32,
        i * 37,
        i << 33
    )
}

const OPENCL_PRINTF: [&str; 6] = [
    "--block",
    "64",
    "--arg",
    "buf:f32[64]=iota",
    "--arg",
    "i32:5",
];

#[test]
fn opencl_printf_prints_through_the_printf_buffer() {
    let j = report(&object("printf.cl.o"), &OPENCL_PRINTF, 0);
    let want: Vec<String> = (0..5).map(opencl_line).collect();
    assert_eq!(strings(&j["printf"]), want);
    // The text report shows the lines.
    let mut a = vec!["run", "--full"];
    let path = object("printf.cl.o");
    a.push(&path);
    a.extend(OPENCL_PRINTF);
    let (code, out, err) = gms(&a);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("printf (5 calls):\n"), "{out}");
    assert!(out.contains(&want[3]), "{out}");
}

#[test]
fn opencl_printf_from_source_prints_as_the_committed_build() {
    let (code, out, err) = gms(&[
        &["run", &object("printf.cl")][..],
        &OPENCL_PRINTF[..],
        &["--json"],
    ]
    .concat());
    if code != Some(0) {
        assert!(
            std::env::var_os("CI").is_none(),
            "under CI clang-19, llvm-19 and the device libraries must be installed: {err}"
        );
        eprintln!("note: printf.cl was not compiled here: {err}");
        return;
    }
    let j: Value = serde_json::from_str(&out).expect("json");
    let want: Vec<String> = (0..5).map(opencl_line).collect();
    assert_eq!(strings(&j["printf"]), want);
}

/// printf.hip's line for item `i` of `t = iota`.
fn hip_line(i: i64) -> String {
    format!(
        "item {i:2}: {:.3} ms (0x{:04x}, {})\n",
        i as f32,
        i * 37,
        i << 33
    )
}

/// HIP's printf built with `-mprintf-kind=buffered` writes the printf buffer (records keyed
/// by the format's hash): every item's line, in the order the lanes reserved them — each
/// wave's lanes in order; which of the two waves reserves first is the timing model's.
#[test]
fn hip_buffered_printf_prints_through_the_printf_buffer() {
    let a = [
        "--grid",
        "1",
        "--block",
        "64",
        "--arg",
        "buf:f32[64]=iota",
        "--arg",
        "i32:40",
    ];
    let j = report(&object("printf.buffered.o"), &a, 0);
    let got = strings(&j["printf"]);
    let wave = |w: std::ops::Range<i64>| -> Vec<String> { w.map(hip_line).collect() };
    let (first, second) = (wave(0..32), wave(32..40));
    let in_wave_order = [first.clone(), second.clone()].concat() == got
        || [second.clone(), first.clone()].concat() == got;
    assert!(in_wave_order, "{got:?}");
}

/// HIP's printf goes through the hostcall buffer, which the host services while the
/// kernel runs: every item's line, each wave's lanes in order.
#[test]
fn hip_printf_is_serviced_through_the_hostcall_buffer() {
    let a = [
        "--grid",
        "2",
        "--block",
        "64",
        "--arg",
        "buf:f32[128]=iota",
        "--arg",
        "i32:70",
    ];
    let path = object("printf.hip.o");
    let j = report(&path, &a, 0);
    let got = strings(&j["printf"]);
    let mut sorted = got.clone();
    sorted.sort();
    let mut want: Vec<String> = (0..70).map(hip_line).collect();
    want.sort();
    assert_eq!(sorted, want);
    // Within a wave (32 work-items), lane order.
    let item = |s: &String| -> i64 { s[5..7].trim().parse().expect("item number") };
    for wave in 0..3 {
        let of_wave: Vec<i64> = got.iter().map(item).filter(|i| i / 32 == wave).collect();
        assert!(of_wave.windows(2).all(|w| w[0] < w[1]), "{of_wave:?}");
    }
    assert_eq!(j["schedule"]["workgroups"], "together");
    // The host's buffer is synchronised by its protocol: the checker finds nothing.
    let (code, out, err) = gms(&[&["check", &path][..], &a[..]].concat());
    assert_eq!(code, Some(0), "{out}{err}");
}

#[test]
fn a_failed_asserts_message_reaches_the_trap_event() {
    let mut a = CALLS.to_vec();
    a[7] = "i32:300";
    let j = report(&object("calls.o"), &a, 1);
    let printed = strings(&j["printf"]);
    let msg = "calls.hip:22: void calls(int *, int): Device-side assertion `r < limit' failed.\n";
    assert!(
        !printed.is_empty() && printed.iter().all(|p| p == msg),
        "{printed:?}"
    );
    let trap = j["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["kind"] == "trap")
        .expect("a trap");
    assert!(
        trap["message"]
            .as_str()
            .is_some_and(|m| m.ends_with(msg.trim_end())),
        "{trap}"
    );
}

/// The tiled transpose built at -O0 -g (every value through scratch, the device-library
/// calls not inlined) runs to the right answer, and its per-line report puts every
/// instruction of the kernel on the line llvm-addr2line-19 gives it (the outermost frame
/// with a line; tests/golden/source_lines.txt), none where it gives line 0.
#[test]
fn the_o0_transpose_runs_and_every_instruction_is_on_its_line() {
    let (w, h) = (80usize, 48usize);
    let a = [
        "--kernel",
        "transpose_tiled_padded",
        "--grid",
        "3,2",
        "--block",
        "32,8",
        "--arg",
        "buf:f32[3840]=zeros",
        "--arg",
        "buf:f32[3840]=iota",
        "--arg",
        "i32:80",
        "--arg",
        "i32:48",
    ];
    let path = object("transpose_padded.O0.o");
    let j = report(&path, &a, 0);
    let out = values(&j["args"][0]["values"]);
    for y in 0..h {
        for x in 0..w {
            assert_eq!(out[x * h + y], (y * w + x) as f64, "out[{x}][{y}]");
        }
    }
    // Each kernel instruction's line, from the golden file.
    let golden = std::fs::read_to_string(format!(
        "{}/../../tests/golden/source_lines.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the golden file");
    let mut want: Vec<(u64, u64)> = Vec::new();
    for row in golden.lines() {
        let f: Vec<&str> = row.split('\t').collect();
        if !f[0].ends_with("compiler_output/transpose_padded.O0.o") || !f[1].contains("transpose") {
            continue;
        }
        let offset = u64::from_str_radix(f[2].trim_start_matches("0x"), 16).expect("offset");
        let line = f[3]
            .split(" <- ")
            .filter_map(|fr| fr.rsplit(':').nth(1)?.parse::<u64>().ok())
            .filter(|&l| l > 0)
            .last();
        if let Some(line) = line {
            want.push((offset, line));
        }
    }
    assert!(want.len() > 500, "{} instructions", want.len());
    // The report's addresses are llvm-objdump-19's: the kernel's own (its first
    // instruction's) plus the golden's offsets.
    let base = j["instructions"][0]["address"].as_u64().expect("address");
    let mut got: Vec<(u64, u64)> = Vec::new();
    for l in j["lines"].as_array().expect("lines") {
        if !l["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("transpose_padded.hip"))
        {
            continue;
        }
        let line = l["line"].as_u64().expect("line");
        for a in l["instructions"].as_array().expect("instructions") {
            got.push((a.as_u64().expect("address") - base, line));
        }
    }
    got.sort();
    let kernel_bytes = want.iter().map(|w| w.0).max().expect("some") + 8;
    got.retain(|g| g.0 < kernel_bytes);
    want.sort();
    assert_eq!(got, want);
}

/// A `.cu` file's HIP: a `__constant__` table read through the image, a `__device__`
/// counter set with --symbol and read back, a non-inlined helper, and a printf.
#[test]
fn a_cu_kernel_with_a_constant_table_and_a_device_counter() {
    let a = [
        "--grid",
        "3",
        "--block",
        "64",
        "--arg",
        "buf:i32[150]=iota",
        "--arg",
        "buf:i32[150]=zeros",
        "--arg",
        "i32:150",
        "--arg",
        "i32:1000",
        "--symbol",
        "counter=u32:5",
    ];
    let j = report(&object("lut.o"), &a, 0);
    let want: Vec<f64> = (0..150)
        .map(|i| f64::from((i % 16) * (i % 16) + 1000))
        .collect();
    assert_eq!(values(&j["args"][1]["values"]), want);
    assert_eq!(values(&symbol(&j, "counter")["values"]), [155.0]);
    let squares: Vec<f64> = (0..16).map(|i| f64::from(i * i)).collect();
    assert_eq!(values(&symbol(&j, "lut")["values"]), squares);
    assert_eq!(strings(&j["printf"]), ["n=150 k=1000 lut[3]=9\n"]);
}

/// reverse.cl at -O2 (tools/build_compiler_output.sh): `t[63 - l]` becomes a DS address that
/// wraps past 2^32 for every lane but 0, on purpose. The result is right, and `check` notes
/// the wrap without failing; an address that wraps outside the allocation is still a finding.
#[test]
fn an_lds_address_that_wraps_on_purpose_is_a_note() {
    let k = object("reverse.o");
    let args = [
        "--grid",
        "2",
        "--block",
        "64",
        "--arg",
        "buf:i32[128]=iota",
        "--arg",
        "buf:i32[128]=zeros",
    ];
    let mut a = vec!["check", &k];
    a.extend(args);
    a.push("--json");
    let (code, out, err) = gms(&a);
    let j: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(code, Some(0), "{out}{err}");
    assert_eq!(j["findings"], serde_json::json!([]));
    let notes = j["notes"].as_array().expect("notes");
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["kind"], "lds_address_wrap");
    assert_eq!(notes[0]["instructions"][0]["source"]["line"], 11);
    let j = report(&k, &args, 0);
    let want: Vec<f64> = (0..128)
        .map(|i| f64::from((i / 64) * 64 + 63 - i % 64))
        .collect();
    assert_eq!(values(&j["args"][1]["values"]), want);
    // The run still shows the wrap, as information.
    let events = j["events"].as_array().expect("events");
    assert!(events.iter().all(|e| e["kind"] == "lds_address_wrap"));
    assert_eq!(events.len(), 4);
    // Wrapped to 0xff0, past a 256-byte allocation: out of range, a finding.
    let prog = "v_mov_b32 v1, 0xfffffff0\nds_load_b32 v3, v1 offset:4096\ns_endpgm\n";
    let o = common::run(&["check", "-", "--lds-size", "256", "--json"], prog);
    let j: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(o.status.code(), Some(1), "{j}");
    assert_eq!(j["findings"][0]["kind"], "lds_out_of_range", "{j}");
    assert_eq!(j["notes"][0]["kind"], "lds_address_wrap", "{j}");
}
