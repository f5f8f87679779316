//! `gpumemsim run`, end to end.

mod common;

use common::run;
use std::process::Output;

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stdout)))
}

#[test]
fn json_has_dumps_per_wave_events_and_instruction_statistics() {
    let prog =
        "ds_store_b32 v1, v0\ns_waitcnt lgkmcnt(0)\ns_barrier\nds_load_b32 v2, v1 offset:128\n\
                s_waitcnt lgkmcnt(0)\nv_add_nc_u32 v3, v2, 1\ns_endpgm\n";
    let o = run(
        &[
            "run",
            "-",
            "--waves",
            "2",
            "--set",
            "v1=(lane+wave*32)*4",
            "--set",
            "s3=wave+7",
            "--dump",
            "v2",
            "--dump",
            "s3",
            "--dump",
            "lds:0:16",
            "--json",
        ],
        prog,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&o);
    let v2 = j["dump"]["v2"].as_array().expect("per wave");
    assert_eq!(v2.len(), 2);
    // Lane l of wave w stores its work-item id l + 32w at word l + 32w; after the barrier it
    // loads word l + 32w + 32, which wave w + 1 stored.
    assert_eq!(
        v2[0][0], 32,
        "wave 0 lane 0 reads what wave 1 lane 0 stored"
    );
    assert_eq!(v2[1][0], 0, "wave 1 reads past the stored words");
    assert_eq!(j["dump"]["s3"], serde_json::json!([7, 8]));
    assert_eq!(j["dump"]["lds:0:16"], serde_json::json!([0, 1, 2, 3]));
    let inst = j["instructions"].as_array().expect("instructions");
    assert_eq!(inst.len(), 7);
    assert_eq!(inst[0]["text"], "ds_store_b32 v1, v0");
    assert_eq!(inst[0]["executions"], 2);
    assert!(
        inst[1]["stall_cycles"].as_u64().expect("stall") > 0,
        "the wait for the store stalls"
    );
    // Wave 1's add of what it read past the stored words is the one event: it uses LDS
    // nothing wrote.
    let events = j["events"].as_array().expect("events");
    let kinds: Vec<(&str, u64, u64)> = events
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().expect("kind"),
                e["wave"].as_u64().expect("wave"),
                e["pc"].as_u64().expect("pc"),
            )
        })
        .collect();
    assert_eq!(kinds, [("uninitialized_lds_read", 1, 5)], "{events:?}");
    assert!(j["cycles"].as_u64().expect("cycles") > 0);
    assert_eq!(j["target"], "gfx1100", "assembly is gfx1100 text");
}

#[test]
fn events_report_memviol_with_wave_and_pc() {
    let o = run(
        &["run", "-", "--set", "v1=lane*4+2", "--json"],
        "s_nop 0\nds_add_u32 v1, v0\ns_endpgm\n",
    );
    let j = json(&o);
    let e = &j["events"][0];
    assert_eq!(e["kind"], "memviol");
    assert_eq!(e["wave"], 0);
    assert_eq!(e["pc"], 1);
    assert!(e["message"]
        .as_str()
        .expect("message")
        .contains("ds_add_u32"));
}

#[test]
fn unimplemented_instructions_and_runaway_loops_stop_with_a_clear_error() {
    // An output modifier on an integer result is not modelled.
    let o = run(
        &["run", "-"],
        "s_nop 0\nv_cvt_i32_f32_e64 v1, v2 mul:2\ns_endpgm\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("line 2 (pc 1): instruction `v_cvt_i32_f32_e64` is not implemented"),
        "{err}"
    );
    let o = run(
        &["run", "-", "--max-steps", "100", "--json"],
        "top:\ns_branch top\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let j = json(&o);
    assert!(j["error"]
        .as_str()
        .expect("error")
        .contains("wave 0 (workgroup 0) was stopped at pc 0 after 100 instructions"));
}

#[test]
fn bad_options_are_explained() {
    let cases: &[(&[&str], &str)] = &[
        (&["--set", "v300=1"], "unknown register `v300`"),
        (&["--set", "v1=lane*"], "--set v1=lane*: column 9"),
        (&["--set", "s1=lane"], "unknown variable `lane`"),
        (&["--dump", "lds:8"], "expected START:END"),
        (&["--lds-size", "70000"], "at most 65536 bytes"),
        (&["--waves", "0"], "1 to 32 waves"),
    ];
    for (args, want) in cases {
        let mut all = vec!["run", "-"];
        all.extend_from_slice(args);
        let o = run(&all, "s_endpgm\n");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let o = run(&["run", "-"], "ds_load_b32 v1\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("<stdin>:1:15: error:"));
}

#[test]
fn readable_summary_lists_instructions_and_dumps() {
    let o = run(
        &["run", "-", "--wave64", "--dump", "v0", "--dump", "exec"],
        "s_endpgm\n",
    );
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("1 wave(s) of 64 lanes"), "{out}");
    assert!(out.contains("s_endpgm"), "{out}");
    assert!(out.contains("wave 0: [0, 1, 2,"), "{out}");
    assert!(out.contains("wave 0: 0xffffffffffffffff"), "{out}");
}

#[test]
fn many_workgroups_gws_and_seeds_from_the_command_line() {
    let path = format!(
        "{}/../../examples/gws-barrier.s",
        env!("CARGO_MANIFEST_DIR")
    );
    for seed in ["0", "5"] {
        let o = run(
            &[
                "run",
                &path,
                "--workgroups",
                "4",
                "--waves",
                "2",
                "--lds-size",
                "0",
                "--gws-init",
                "0=7",
                "--set",
                "m0=0x1000",
                "--set",
                "v1=wave*4",
                "--set",
                "v2=1",
                "--set",
                "v3=((wave+1)%8)*4",
                "--set",
                "v4=7",
                "--dump",
                "v5",
                "--dump",
                "s0",
                "--seed",
                seed,
                "--json",
            ],
            "",
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let j = json(&o);
        let v5 = j["dump"]["v5"].as_array().expect("waves");
        assert_eq!(v5.len(), 8);
        assert!(v5.iter().all(|w| w[0] == 1), "seed {seed}: {v5:?}");
        assert_eq!(
            j["dump"]["s0"],
            serde_json::json!([0, 0, 1, 1, 2, 2, 3, 3]),
            "s0 = workgroup id"
        );
        assert_eq!(j["workgroups"], 4);
    }
    // The same barrier armed for one wave too few deadlocks: reported, exit 1, never a hang.
    let o = run(
        &[
            "run",
            &path,
            "--workgroups",
            "2",
            "--waves",
            "2",
            "--gws-init",
            "0=5",
            "--set",
            "m0=0x1000",
            "--set",
            "v4=5",
            "--json",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    let j = json(&o);
    let err = j["error"].as_str().expect("error");
    assert!(
        err.contains("deadlock") && err.contains("wave 3 (workgroup 1) waits for GWS resource 0"),
        "{err}"
    );
}

#[test]
fn every_ds_instruction_gets_its_bank_cost_from_the_arch_preset() {
    // A column read of a 32x32 f32 tile (128-byte rows): all 32 lanes in bank 0 of 32 → 32
    // cycles, 31 of them conflict; padding rows to 132 bytes makes it conflict-free.
    let prog = "ds_load_b32 v2, v1\nds_load_b32 v3, v4\ns_waitcnt lgkmcnt(0)\ns_endpgm\n";
    let o = run(
        &[
            "run",
            "-",
            "--set",
            "v1=lane*128",
            "--set",
            "v4=lane*132",
            "--json",
        ],
        prog,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&o);
    let inst = &j["instructions"];
    assert_eq!(
        (
            inst[0]["cycles"].as_u64(),
            inst[0]["conflict_cycles"].as_u64()
        ),
        (Some(32), Some(31))
    );
    assert_eq!(
        (
            inst[1]["cycles"].as_u64(),
            inst[1]["conflict_cycles"].as_u64()
        ),
        (Some(1), Some(0))
    );
    // cdna3 runs wave64 in two 32-lane phases: stride 16 B costs 6 conflict cycles (measured).
    // `--banks` sets the bank model alone; `--arch cdna3` names the chip, whose assembly is
    // gfx942's: gfx1100's names are not.
    let o = run(
        &["run", "-", "--arch", "cdna3", "--wave64"],
        "ds_load_b32 v2, v1\ns_endpgm\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("<stdin>:1:1: error: instruction not supported on this GPU"),
        "{err}"
    );
    let o = run(
        &[
            "run",
            "-",
            "--banks",
            "cdna3",
            "--wave64",
            "--set",
            "v1=lane*16",
            "--json",
        ],
        "ds_load_b32 v2, v1\ns_endpgm\n",
    );
    let j = json(&o);
    assert_eq!(j["instructions"][0]["conflict_cycles"], 6);
    // The summary's instruction table shows the same numbers: pc, executions, cycles,
    // conflict cycles.
    let o = run(
        &["run", "-", "--set", "v1=lane*128"],
        "ds_load_b32 v2, v1\ns_endpgm\n",
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.lines().any(|l| l.contains("ds_load_b32 v2, v1")
            && l.split_whitespace().nth(2) == Some("32")
            && l.split_whitespace().nth(3) == Some("31")),
        "{out}"
    );
}

fn example_path(name: &str) -> String {
    format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn mem_preloads_words_and_dump_mem_returns_them() {
    let prog = "v_mov_b32 v1, 0\nv_mov_b32 v2, 0x99\ns_mov_b32 exec_lo, 1\n\
                global_store_b32 v1, v2, s[0:1] offset:8\ns_waitcnt_vscnt null, 0x0\ns_endpgm\n";
    let o = run(
        &[
            "run",
            "-",
            "--set",
            "s0=0x1000",
            "--set",
            "s1=0x7f00",
            "--mem",
            "0x7f0000001000=1,0x2,3",
            "--mem",
            "0x7f0000001010=4294967295",
            "--dump",
            "mem:0x7f0000001000:0x7f0000001014",
            "--json",
        ],
        prog,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&o);
    assert_eq!(
        j["dump"]["mem:0x7f0000001000:0x7f0000001014"],
        serde_json::json!([1, 2, 0x99, 0, 4294967295u32])
    );
}

#[test]
fn bad_mem_options_are_clear_errors() {
    for (arg, msg) in [
        ("0x1000", "expected ADDR=WORDS"),
        ("0x1000=1,x", "`x` is not a 32-bit word"),
        ("0x1000=0x100000000", "is not a 32-bit word"),
        ("0x1000000000000=1", "is not a 48-bit address"),
    ] {
        let o = run(&["run", "-", "--mem", arg], "s_endpgm\n");
        assert!(!o.status.success(), "{arg}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(msg), "{arg}: {err}");
    }
}

#[test]
fn stale_kcache_example_shows_the_cache_in_json() {
    let path = example_path("stale-kcache.s");
    let o = run(
        &[
            "run",
            &path,
            "--mem",
            "0x20000=1",
            "--set",
            "s0=0x20000",
            "--dump",
            "s10",
            "--dump",
            "s11",
            "--dump",
            "s12",
            "--json",
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&o);
    let s = |r: &str| j["dump"][r][0].as_u64();
    assert_eq!((s("s10"), s("s11"), s("s12")), (Some(1), Some(1), Some(42)));
    assert_eq!(j["kcache"]["misses"], 2);
    assert_eq!(j["kcache"]["hits"], 1);
    assert_eq!(j["kcache"]["invalidations"], 1);
    let insts = j["instructions"].as_array().expect("instructions");
    let first = &insts[0];
    assert_eq!(first["cache_misses"], 1);
    assert_eq!(first["latency_cycles"], 200);
    let stale = insts
        .iter()
        .find(|i| i["text"] == "s_load_b32 s11, s[0:1], 0x0")
        .expect("second load");
    assert_eq!(stale["cache_hits"], 1);
    assert_eq!(stale["latency_cycles"], 38, "a hit: kcache_hit");
    assert_eq!(j["events"], serde_json::json!([]));
}

#[test]
fn forgetting_the_wait_is_a_hazard_event() {
    let prog = "s_load_b32 s2, s[0:1], 0x0\ns_add_u32 s3, s2, 1\ns_endpgm\n";
    let o = run(
        &[
            "run", "-", "--mem", "0=5", "--dump", "s3", "--dump", "s2", "--json",
        ],
        prog,
    );
    assert!(o.status.success());
    let j = json(&o);
    assert_eq!(j["dump"]["s3"][0], 1, "old s2 (0) + 1");
    assert_eq!(j["dump"]["s2"][0], 5, "the data lands later");
    assert_eq!(j["events"][0]["kind"], "hazard");
    assert_eq!(j["events"][0]["pc"], 1);
}

#[test]
fn constant_buffer_example_zeroes_out_of_range_dwords() {
    let path = example_path("constant-buffer.s");
    let o = run(
        &[
            "run",
            &path,
            "--mem",
            "0x10000=10,11,12,13,14,15,16,17",
            "--dump",
            "s25",
            "--dump",
            "s26",
            "--dump",
            "s8",
            "--json",
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&o);
    assert_eq!(j["dump"]["s25"][0], 15);
    assert_eq!(j["dump"]["s26"][0], 0, "past num_records");
    assert_eq!(j["dump"]["s8"][0], 12);
    assert_eq!(common::event_kinds(&j), ["smem_range"]);
}

#[test]
fn scratch_swizzle_example_reproduces_the_spec_experiment() {
    let path = example_path("scratch-swizzle.s");
    let o = run(
        &[
            "run",
            &path,
            "--wave64",
            "--waves",
            "2",
            "--scratch-size",
            "4016",
            "--scratch-base",
            "0x100000",
            "--dump",
            "s4",
            "--dump",
            "mem:0x100200:0x100204",
            "--dump",
            "mem:0x100300:0x100304",
            "--dump",
            "mem:0x13ee00:0x13ee04",
            "--dump",
            "v8",
            "--json",
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j = json(&o);
    assert_eq!(j["dump"]["s4"], serde_json::json!([0x100000, 0x13ec00]));
    assert_eq!(j["dump"]["mem:0x100200:0x100204"][0], 0xdeadbeafu32);
    assert_eq!(j["dump"]["mem:0x100300:0x100304"][0], 0x12345678);
    // Wave 1, lane 0: its flat_scratch + 8 × 64.
    assert_eq!(j["dump"]["mem:0x13ee00:0x13ee04"][0], 0xdeadbeafu32);
    assert_eq!(
        j["dump"]["v8"][1][63], 0x12345678,
        "read back through SCRATCH"
    );
    assert_eq!(j["events"], serde_json::json!([]));
}

/// `--sample K` runs K workgroups spread over the grid and scales the per-line and
/// per-instruction figures to it: on lds_sum, whose workgroups all do the same work, they
/// equal the full run's; the report says it sampled; K = 0 and an assembly program are errors.
#[test]
fn a_sampled_launch_scales_its_figures_to_the_grid() {
    let k = format!(
        "{}/../../examples/kernels/lds_sum.w32.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let launch = |extra: &[&str]| {
        let mut a = vec![
            "run",
            &k,
            "--grid",
            "256",
            "--block",
            "64",
            "--arg",
            "buf:i32[16384]=iota",
            "--arg",
            "buf:i32[256]=zeros",
            "--json",
        ];
        a.extend_from_slice(extra);
        let o = run(&a, "");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        json(&o)
    };
    let full = launch(&[]);
    let sampled = launch(&["--sample", "16"]);
    assert_eq!(
        sampled["sampled"],
        serde_json::json!({"workgroups": 16, "of": 256})
    );
    assert!(full.get("sampled").is_none());
    assert_eq!(
        sampled["lines"].as_array().map(Vec::len),
        full["lines"].as_array().map(Vec::len)
    );
    for (s, f) in sampled["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .zip(full["lines"].as_array().expect("lines"))
    {
        assert_eq!(
            (&s["line"], &s["cycles"], &s["executions"]),
            (&f["line"], &f["cycles"], &f["executions"])
        );
    }
    assert_eq!(
        sampled["totals"]["issue_cycles"],
        full["totals"]["issue_cycles"]
    );
    // The buffers are the sample's: workgroup 16 (the second sampled) wrote its sum, 1 did not.
    let sums = sampled["args"][1]["values"].as_array().expect("values");
    let want = |g: i64| (64 * g..64 * g + 64).sum::<i64>();
    assert_eq!(sums[16].as_i64(), Some(want(16)));
    assert_eq!(sums[1].as_i64(), Some(0));
    let bad = run(
        &["run", &k, "--grid", "4", "--block", "64", "--sample", "0"],
        "",
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr)
        .contains("sample 0: a sample runs at least one workgroup"));
    let asm = run(&["run", "-", "--sample", "2"], "s_endpgm\n");
    assert_eq!(asm.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&asm.stderr).contains("--sample is for code objects"));
}

/// A sampled launch of more workgroups than 32-bit ids can name is refused as any such grid.
#[test]
fn a_sample_of_a_grid_past_32_bit_ids_is_refused() {
    let k = format!(
        "{}/../../examples/kernels/lds_sum.w32.o",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = run(
        &[
            "run",
            &k,
            "--grid",
            "65536,65536,2",
            "--block",
            "64",
            "--sample",
            "64",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("the simulator runs at most 2^32 − 1 (32-bit workgroup ids)"),
        "{err}"
    );
}

/// Without register dumps an assembly run makes each workgroup's waves as it starts
/// (holding only the resident ones); `--set` gives them the values it gives waves made up
/// front, and a value that does not fit its register stops the run with the option named.
#[test]
fn waves_made_as_workgroups_start_get_their_set_registers() {
    let prog = "v_mov_b32 v2, s5\nv_add_nc_u32 v3, v1, v2\nv_lshlrev_b32 v4, 2, v0\n\
                global_store_b32 v4, v3, s[0:1]\ns_endpgm\n";
    let argv = |extra: &[&'static str]| {
        let mut a = vec![
            "run",
            "-",
            "--workgroups",
            "96",
            "--waves",
            "2",
            "--set",
            "v0=wave*32+lane",
            "--set",
            "v1=lane*group",
            "--set",
            "s5=wave+7",
            "--set",
            "s0=0x10000",
            "--set",
            "s1=0",
            "--dump",
            "mem:0x10000:0x16000",
            "--json",
        ];
        a.extend_from_slice(extra);
        let o = run(&a, prog);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        json(&o)
    };
    let lazy = argv(&[]);
    // A register dump keeps every wave, each set up as it is made.
    let kept = argv(&["--dump", "s5"]);
    let mem = &lazy["dump"]["mem:0x10000:0x16000"];
    assert_eq!(mem, &kept["dump"]["mem:0x10000:0x16000"]);
    let words: Vec<u64> = mem
        .as_array()
        .expect("words")
        .iter()
        .map(|v| v.as_u64().expect("a word"))
        .collect();
    for (i, &w) in words.iter().enumerate() {
        let (wave, lane) = (i as u64 / 32, i as u64 % 32);
        assert_eq!(w, lane * (wave / 2) + wave + 7, "word {i}");
    }
    assert_eq!(kept["dump"]["s5"][191], 198);
    let o = run(
        &[
            "run",
            "-",
            "--workgroups",
            "64",
            "--set",
            "s3=group*100000000",
        ],
        prog,
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--set s3=group*100000000: 6300000000 (0x177825f00) does not fit s3"),
        "{err}"
    );
}
