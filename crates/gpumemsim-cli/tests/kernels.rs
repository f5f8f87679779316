//! `gpumemsim run KERNEL.o`: clang-19 code objects from examples/kernels run and match CPU
//! references computed here.

mod common;

use common::run;

fn kernel(name: &str) -> String {
    format!(
        "{}/../../examples/kernels/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn run_json(args: &[&str]) -> serde_json::Value {
    let o = run(args, "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("json")
}

fn values(j: &serde_json::Value, arg: usize) -> Vec<i64> {
    j["args"][arg]["values"]
        .as_array()
        .expect("buffer values")
        .iter()
        .map(|v| v.as_i64().expect("integer"))
        .collect()
}

#[test]
fn lds_sum_matches_the_cpu_in_wave32_and_wave64() {
    let input: Vec<i64> = (0..256).map(|i| (i * 37 % 101) - 50).collect();
    let list: Vec<String> = input.iter().map(|v| v.to_string()).collect();
    let arg = format!("buf:i32[256]={}", list.join(","));
    for wave in ["w32", "w64"] {
        let path = kernel(&format!("lds_sum.{wave}.o"));
        let j = run_json(&[
            "run",
            &path,
            "--grid",
            "4",
            "--block",
            "64",
            "--arg",
            &arg,
            "--arg",
            "buf:i32[4]=zeros",
            "--json",
        ]);
        let want: Vec<i64> = input.chunks(64).map(|c| c.iter().sum()).collect();
        assert_eq!(values(&j, 1), want, "{wave}");
        assert_eq!(values(&j, 0), input, "{wave}: the input is unchanged");
        assert_eq!(j["events"], serde_json::json!([]), "{wave}");
        assert_eq!(j["wave_size"], if wave == "w32" { 32 } else { 64 });
    }
}

#[test]
fn a_private_array_spills_to_scratch_and_reads_back() {
    for wave in ["w32", "w64"] {
        let j = run_json(&[
            "run",
            &kernel(&format!("private_array.{wave}.o")),
            "--block",
            "64",
            "--arg",
            "buf:i32[40]=iota",
            "--arg",
            "buf:i32[64]=zeros",
            "--arg",
            "i32:7",
            "--json",
        ]);
        let want: Vec<i64> = (0..64).map(|l| ((7 + l) % 40) * l).collect();
        assert_eq!(values(&j, 1), want, "{wave}");
        let scratch_ops = j["instructions"]
            .as_array()
            .expect("instructions")
            .iter()
            .filter(|i| {
                i["text"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("scratch_"))
            })
            .count();
        assert!(scratch_ops > 0, "{wave}: the kernel really uses scratch");
    }
}

#[test]
fn three_dimensional_ids_reach_the_kernel() {
    // One workgroup at (1, 2, 1) of a 2×3×2 grid; every work-item of a 4×4×2 block writes.
    let j = run_json(&[
        "run",
        &kernel("grid3d.w32.o"),
        "--grid",
        "2,3,2",
        "--block",
        "4,4,2",
        "--arg",
        "buf:i32[32]=zeros",
        "--json",
    ]);
    // Every workgroup writes every element; the last workgroup (1, 2, 1) runs last.
    assert_eq!(values(&j, 0), vec![1 + 100 * 2 + 10000; 32]);
    let j = run_json(&[
        "run",
        &kernel("grid3d.w64.o"),
        "--grid",
        "1",
        "--block",
        "4,4,2",
        "--arg",
        "buf:i32[32]=iota",
        "--json",
    ]);
    assert_eq!(
        values(&j, 0),
        vec![0; 32],
        "group (0,0,0) writes 0 everywhere"
    );
}

#[test]
fn kernel_errors_are_clear() {
    let o = run(&["run", &kernel("lds_sum.w32.o"), "--kernel", "nope"], "");
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no kernel `nope`"));
    let o = run(
        &["run", &kernel("lds_sum.w32.o"), "--arg", "buf:i32[4]=1,2"],
        "",
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("2 values given for 4 elements"));
    let o = run(
        &[
            "run",
            &kernel("lds_sum.w32.o"),
            "--arg",
            "u32:1",
            "--arg",
            "u64:2",
            "--arg",
            "u64:3",
        ],
        "",
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("the arguments take 24 bytes"));
    let o = run(&["run", &kernel("lds_sum.w32.o"), "--grid", "0"], "");
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a positive integer"));
}

/// Total LDS conflict cycles of a run.
fn conflict_cycles(j: &serde_json::Value) -> u64 {
    j["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        .map(|i| i["conflict_cycles"].as_u64().expect("cycles"))
        .sum()
}

#[test]
fn tile_transposes_are_correct_and_their_conflicts_order_as_expected() {
    for wave in ["w32", "w64"] {
        let mut cc = Vec::new();
        for variant in ["naive", "padded", "swizzled"] {
            let j = run_json(&[
                "run",
                &kernel(&format!("transpose.{wave}.o")),
                "--kernel",
                &format!("transpose_{variant}"),
                "--block",
                "32",
                "--arg",
                "buf:f32[1024]=iota",
                "--arg",
                "buf:f32[1024]=zeros",
                "--json",
            ]);
            let out = j["args"][1]["values"].as_array().expect("values");
            for y in 0..32 {
                for x in 0..32 {
                    assert_eq!(
                        out[y * 32 + x].as_f64(),
                        Some((x * 32 + y) as f64),
                        "{wave} {variant} ({x}, {y})"
                    );
                }
            }
            cc.push(conflict_cycles(&j));
        }
        // The naive column read is a 32-way conflict on every one of its 32 loads.
        assert!(cc[0] > cc[1] && cc[1] >= cc[2], "{wave}: {cc:?}");
        assert_eq!(cc[2], 0, "{wave}: the swizzled layout is conflict-free");
        assert_eq!(cc[0], 32 * 31, "{wave}: 31 extra cycles per column load");
    }
}

#[test]
fn run_without_a_program_runs_the_bundled_transpose() {
    let j = run_json(&["run", "--json"]);
    assert_eq!(j["kernel"], "transpose_naive");
    let out = j["args"][1]["values"].as_array().expect("values");
    assert_eq!(out[1].as_f64(), Some(32.0), "out[0][1] = in[1][0]");
    assert_eq!(conflict_cycles(&j), 32 * 31);
    let j = run_json(&["run", "--kernel", "transpose_padded", "--json"]);
    assert_eq!(conflict_cycles(&j), 0);
    let o = run(&["run"], "");
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("ds_load_2addr_b32"));
}
