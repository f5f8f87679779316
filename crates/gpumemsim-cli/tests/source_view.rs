//! The report by source line: the text view (header, source lines with their text, the top
//! instructions, buffers summarised), `--top`, `--by`, `--full`, and the JSON records that
//! carry each instruction's and event's source line and inline chain.

mod common;

use common::run;

fn stdout(args: &[&str]) -> String {
    let o = run(args, "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(args)).expect("json")
}

fn repo(path: &str) -> String {
    format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_default_run_fits_on_a_screen_and_names_its_totals_and_its_worst_line() {
    let out = stdout(&["run"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() < 50, "{} lines:\n{out}", lines.len());
    assert!(
        lines[0].starts_with("kernel `transpose_naive`: 1 wave(s) of 32 lanes"),
        "{out}"
    );
    // The device it stands for, then kernel time in cycles and microseconds at its clock.
    assert_eq!(
        lines[1], "  device       AMD Radeon RX 7900 XTX (rx7900xtx): 48 WGPs at 2500 MHz",
        "{out}"
    );
    assert!(
        lines[2].contains("kernel time")
            && lines[2].contains("1896 cycles")
            && lines[2].contains("0.76 µs at 2500 MHz"),
        "{out}"
    );
    assert!(
        lines[3].contains("issue")
            && lines[3].contains("1181 cycles")
            && lines[3].contains("992 of them lost to LDS bank conflicts"),
        "{out}"
    );
    // The hottest source line is the column read, with its 992 conflict cycles and its text.
    let table = lines
        .iter()
        .position(|l| l.starts_with("Source lines"))
        .expect("the line table");
    let first: Vec<&str> = lines[table + 2].split_whitespace().collect();
    assert_eq!(
        first[..7],
        ["1089", "992", "968", "91.1%", "81", "81", "transpose.cl:8"],
        "{out}"
    );
    assert!(
        lines[table + 2].ends_with("out[y * T + x] = tile[x * T + y];"),
        "{out}"
    );
    assert!(out.contains("Top 15 of 157 instructions"), "{out}");
    assert!(
        out.contains("1024 values, min 0.0, max 1023.0: [0.0, 32.0, 64.0, 96.0, …, 991.0, 1023.0]"),
        "{out}"
    );
}

/// The rows of the instruction table.
fn instruction_rows(out: &str) -> Vec<&str> {
    out.lines()
        .skip_while(|l| !l.starts_with("Top "))
        .skip(2)
        .take_while(|l| !l.is_empty())
        .collect()
}

#[test]
fn top_by_and_full_shape_the_text() {
    let three = stdout(&["run", "--top", "3"]);
    let rows = instruction_rows(&three);
    assert_eq!(rows.len(), 3, "{three}");
    assert!(three.contains("Top 3 of 157 instructions"));
    // Hottest first: the column loads, 64 cycles each (62 of them conflicts), at objdump's
    // addresses, on the line and column of `tile[x * T + y]`.
    let first: Vec<&str> = rows[0].split_whitespace().collect();
    assert_eq!(
        first[..6],
        ["0x200", "1", "64", "62", "0", "transpose.cl:8:50"],
        "{three}"
    );
    assert_eq!(instruction_rows(&stdout(&["run", "--top", "0"])).len(), 157);
    let by_instruction = stdout(&["run", "--by", "instruction"]);
    assert!(!by_instruction.contains("Source lines"), "{by_instruction}");
    assert!(by_instruction.contains("Top 15 of 157"));
    let by_function = stdout(&["run", "--by", "function"]);
    assert!(
        by_function.contains("\nFunctions, hottest first"),
        "{by_function}"
    );
    assert!(
        by_function
            .lines()
            .any(|l| l.trim_end().ends_with("transpose_naive") && l.contains(" 992 ")),
        "{by_function}"
    );
    let full = stdout(&["run", "--full"]);
    let out_values = full
        .lines()
        .find(|l| l.trim_start().starts_with("1 buffer f32"))
        .expect("arg 1");
    assert_eq!(
        out_values.matches(", ").count(),
        1023,
        "every value of the 1024"
    );
}

#[test]
fn json_instructions_and_events_carry_their_source_line() {
    let j = json(&["run", "--json"]);
    let inst = &j["instructions"][0];
    assert_eq!(
        inst["source"]["file"].as_str(),
        Some("./examples/kernels/transpose.cl")
    );
    assert!(inst["source"]["line"].as_u64().is_some_and(|l| l > 0));
    let lines = j["lines"].as_array().expect("lines");
    assert_eq!(
        (
            lines[0]["line"].as_u64(),
            lines[0]["conflict_cycles"].as_u64()
        ),
        (Some(8), Some(992))
    );
    assert_eq!(lines[0]["instructions"].as_array().map(Vec::len), Some(81));
    assert!(lines[0]["text"]
        .as_str()
        .is_some_and(|t| t.contains("tile[x * T + y]")));
    // The line records add up to the instructions that have a line.
    let with_line: u64 = j["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        .filter(|i| i.get("source").is_some())
        .map(|i| i["cycles"].as_u64().expect("cycles"))
        .sum();
    let by_line: u64 = lines
        .iter()
        .map(|l| l["cycles"].as_u64().expect("cycles"))
        .sum();
    assert_eq!(with_line, by_line);
    // HIP: inline chains through the HIP headers, innermost first, the kernel's line last.
    let j = json(&[
        "run",
        &repo("examples/apps/build/scan_blocked.o"),
        "--kernel",
        "scan_block_inclusive",
        "--grid",
        "2",
        "--block",
        "128",
        "--arg",
        "buf:i32[256]=iota",
        "--arg",
        "buf:i32[256]=zeros",
        "--arg",
        "buf:i32[2]=zeros",
        "--arg",
        "i32:256",
        "--dynamic-lds",
        "512",
        "--json",
    ]);
    let chained = j["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        .find(|i| i["inlined"].as_array().is_some_and(|c| c.len() >= 2))
        .expect("an inlined instruction");
    let chain = chained["inlined"].as_array().expect("chain");
    assert!(
        chain[0]["source"]["file"]
            .as_str()
            .is_some_and(|f| f.contains("hip/amd_detail/")),
        "{chain:?}"
    );
    let last = chain.last().expect("outermost");
    assert_eq!(
        last["function"].as_str(),
        Some("scan_block_inclusive(int const*, int*, int*, int)")
    );
    assert_eq!(
        last["source"], chained["source"],
        "attributed to the kernel's own line"
    );
    // Events name their instruction's address and source line.
    let path = repo("crates/gpumemsim-cli/tests/front_door/block_sum.o");
    let mut args = vec!["run", path.as_str()];
    args.extend(common::BLOCK_SUM_OUT_OF_BOUNDS);
    args.push("--json");
    let j = json(&args);
    let e = &j["events"][0];
    assert_eq!(e["kind"].as_str(), Some("out_of_bounds"));
    assert_eq!(
        (e["source"]["file"].as_str(), e["source"]["line"].as_u64()),
        (
            Some("./crates/gpumemsim-cli/tests/front_door/block_sum.cl"),
            Some(9)
        ),
        "`partial[l] = i < n ? in[i] : 0;`"
    );
    assert!(e["address"].as_u64().is_some());
}

#[test]
fn resources_and_counters_are_reported_under_their_names() {
    let j = json(&["run", "--json"]);
    let r = &j["resources"];
    // The bundled transpose: clang-19's remark says 38 VGPRs, 4 SGPRs, 4096 bytes of LDS;
    // 16 one-wave workgroups fit a CU's 64 KiB, 8 waves on each of its 2 SIMDs.
    assert_eq!(
        (
            r["vgprs"].as_u64(),
            r["sgprs"].as_u64(),
            r["lds_bytes"].as_u64()
        ),
        (Some(38), Some(4), Some(4096))
    );
    assert_eq!(r["scratch_bytes_per_lane"].as_u64(), Some(0));
    assert_eq!(
        (r["waves_per_simd"].as_u64(), r["limited_by"].as_str()),
        (Some(8), Some("lds"))
    );
    let c = &j["counters"];
    assert_eq!(c["SQ_WAVES"].as_u64(), Some(1));
    assert_eq!(c["SQ_INSTS"].as_u64(), Some(157));
    assert_eq!(
        c["SQ_INSTS_LDS"].as_u64(),
        Some(32),
        "16 stores and 16 loads, 2 addresses each"
    );
    assert_eq!(c["SQ_LDS_BANK_CONFLICT"].as_u64(), Some(992));
    assert_eq!(c["GRBM_GUI_ACTIVE"], j["cycles"]);
    assert!(
        c.get("TCP_TOTAL_CACHE_ACCESSES_sum").is_none(),
        "no counter the simulator lacks"
    );
    // Dynamic LDS enters the resources: 256 + 512 bytes beside block_sum's 12 static ones.
    let j = json(&[
        "run",
        &repo("crates/gpumemsim-cli/tests/front_door/block_sum.o"),
        "--grid",
        "1",
        "--block",
        "64",
        "--arg",
        "buf:i32[64]=iota",
        "--arg",
        "buf:i32[4]=zeros",
        "--arg",
        "local:256",
        "--arg",
        "local:512",
        "--arg",
        "i32:64",
        "--json",
    ]);
    let r = &j["resources"];
    assert_eq!(
        (r["lds_bytes"].as_u64(), r["dynamic_lds_bytes"].as_u64()),
        (Some(784), Some(772))
    );
    let text = stdout(&["run", "--counters"]);
    assert!(
        text.lines().any(|l| l
            .split_whitespace()
            .take(2)
            .eq(["SQ_LDS_BANK_CONFLICT", "992"])),
        "{text}"
    );
    // The vector caches' line, then the resources.
    assert!(
        text.lines()
            .nth(5)
            .is_some_and(|l| l.starts_with("  vector mem          64 lines   served by L0 0.0%")),
        "{text}"
    );
    assert!(
        text.lines()
            .nth(6)
            .is_some_and(|l| l.contains("8 waves per SIMD (limited by lds)")),
        "{text}"
    );
    // Per source line: the tile load (line 6) and the store (line 8) each request 32 lines
    // from VRAM; the store starts at the L2, so its L0 and L1 hit rates are `-`.
    let table: Vec<Vec<&str>> = text
        .lines()
        .skip_while(|l| !l.starts_with("Vector memory by source line, most cache lines first"))
        .skip(2)
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().take(8).collect())
        .collect();
    assert_eq!(
        table,
        [
            ["32", "4096", "-", "-", "0.0", "0.0", "32", "transpose.cl:8"],
            [
                "32",
                "4096",
                "0.0",
                "0.0",
                "0.0",
                "0.0",
                "32",
                "transpose.cl:6"
            ],
        ],
        "{text}"
    );
    for c in ["TCP_REQ_sum", "GL2C_MISS_sum"] {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().take(2).eq([c, "64"])),
            "{c}: {text}"
        );
    }
    // NVIDIA: Nsight Compute's names on `banks`.
    let b = json(&[
        "banks", "--arch", "sm80", "--op", "sts.32", "--addr", "64*t", "--json",
    ]);
    let c = &b["counters"];
    assert_eq!(
        c["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"],
        b["wavefronts"]
    );
    assert_eq!(
        c["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"],
        b["bank_conflicts"]
    );
    assert!(b["bank_conflicts"].as_u64().is_some_and(|n| n > 0));
}

#[test]
fn a_baseline_report_is_compared_with_the_run() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("baseline");
    std::fs::create_dir_all(&dir).expect("dir");
    let before = dir.join("naive.json");
    std::fs::write(&before, stdout(&["run", "--json"])).expect("write");
    let before = before.to_str().expect("utf-8");
    let text = stdout(&[
        "run",
        "--kernel",
        "transpose_swizzled",
        "--baseline",
        before,
    ]);
    let tail = &text[text.find("(--baseline):").expect("the comparison")..];
    assert!(
        tail.contains("conflicts     992 → 0    -992 (-100.0%)"),
        "{tail}"
    );
    assert!(tail.contains("transpose.cl:8 → 22"), "{tail}");
    let j = json(&[
        "run",
        "--kernel",
        "transpose_swizzled",
        "--baseline",
        before,
        "--json",
    ]);
    assert_eq!(
        j["diff"]["kernel"]["delta"]["conflict_cycles"].as_i64(),
        Some(-992)
    );
    assert_eq!(
        j["diff"]["kernel"]["after"]["conflict_cycles"],
        j["totals"]["conflict_cycles"]
    );
    let o = run(&["run", "--baseline", "/nonexistent/before.json"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty(), "nothing ran");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--baseline /nonexistent/before.json"));
}

/// The default run's two memory lines (transpose.cl:6 loads a row a step, :8 stores one): each
/// moves 32 cache lines of 128 bytes, all from VRAM on a cold cache; the loads look each line
/// up in L0 first, the stores start at L2.
#[test]
fn each_source_line_says_what_its_vector_memory_touched_and_where_it_came_from() {
    let j: serde_json::Value = serde_json::from_str(&stdout(&["run", "--json"])).expect("json");
    let line = |n: u64| {
        j["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .find(|l| l["line"] == n)
            .expect("the line")
            .clone()
    };
    for (n, writes) in [(6, 0), (8, 32)] {
        let v = &line(n)["vcache"];
        assert_eq!(
            (&v["lines"], &v["write_lines"], &v["bytes"]),
            (
                &serde_json::json!(32),
                &serde_json::json!(writes),
                &serde_json::json!(4096)
            ),
            "{v}"
        );
        assert_eq!(v["served_by"]["vram"], 32, "{v}");
        assert_eq!(v["hit_rate"]["l2"], 0.0, "{v}");
        let l0 = &v["hit_rate"]["l0"];
        assert_eq!(l0.is_null(), writes > 0, "stores never look in L0: {v}");
    }
    assert!(
        line(5).get("vcache").is_none(),
        "no vector memory on line 5"
    );
    assert_eq!(j["vcache"]["lines"], 64);
}
