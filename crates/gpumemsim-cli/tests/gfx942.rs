//! gfx942 (CDNA3) code objects from clang-19 (`tools/build_gfx942.sh`, committed in
//! examples/gfx942/build/) run through `gpumemsim run --json`, each compared with a CPU
//! reference computed here: matrix-core tiles (MFMA, with the accumulator in AGPRs), 64 KiB
//! of dynamic LDS under float atomics, `ds_write_b128`/`ds_read_b128`, a scalar store, a
//! kernel that spills to scratch, a DPP wave scan with GFX9's `row_bcast` controls, and the address-space document's three experiments (seed
//! spec 003), whose printf output is the document's.
//! (The application kernels' gfx942 builds run in apps.rs, next to their gfx1100 builds.)

mod common;

use common::run;
use gpumemsim::xorshift::XorShift;
use serde_json::{json, Value};

fn object(name: &str) -> String {
    format!(
        "{}/../../examples/gfx942/build/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Runs examples/gfx942/build/FILE with ARGS (`--json` added) and checks that it succeeded,
/// ran as gfx942 wave64 and reported no event.
fn launch(file: &str, args: &[&str]) -> Value {
    let j = launch_racing(file, args);
    assert_eq!(j["events"], json!([]), "{file}: events");
    j
}

/// [`launch`] of a kernel that races on global memory on purpose: its only events are
/// `global_race`s (and their same-value notes).
fn launch_racing(file: &str, args: &[&str]) -> Value {
    let path = object(file);
    let mut argv = vec!["run", path.as_str()];
    argv.extend_from_slice(args);
    argv.push("--json");
    let o = run(&argv, "");
    assert!(
        o.status.success(),
        "gpumemsim {}\n{}",
        argv.join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
    let j: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(j["target"], "gfx942", "{file}");
    assert_eq!(j["wave_size"], 64, "{file}");
    let events = j["events"].as_array().expect("events");
    assert!(
        events.iter().all(|e| e["kind"]
            .as_str()
            .is_some_and(|k| k.starts_with("global_race"))),
        "{file}: {events:?}"
    );
    j
}

/// The report's instruction texts, in its order.
fn texts(j: &Value) -> Vec<&str> {
    j["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        .filter_map(|i| i["text"].as_str())
        .collect()
}

fn values(j: &Value, arg: usize) -> Vec<f64> {
    j["args"][arg]["values"]
        .as_array()
        .expect("buffer values")
        .iter()
        .map(|v| v.as_f64().expect("a number"))
        .collect()
}

fn list<T: ToString>(v: &[T]) -> String {
    v.iter().map(T::to_string).collect::<Vec<_>>().join(",")
}

/// `n` integers in `lo..=hi` from seed `seed`.
fn ints(seed: u64, n: usize, lo: i64, hi: i64) -> Vec<i64> {
    let mut x = XorShift::new(seed);
    (0..n)
        .map(|_| lo + (x.next_u64() % (hi - lo + 1) as u64) as i64)
        .collect()
}

/// C + A·B for row-major A (m×k), B (k×n), C (m×n), in f64 (exact for the tests' integers).
fn mat_mul_add(a: &[i64], b: &[i64], c: &[i64], m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut d = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let dot: i64 = (0..k).map(|t| a[i * k + t] * b[t * n + j]).sum();
            d[i * n + j] = (dot + c[i * n + j]) as f64;
        }
    }
    d
}

#[test]
fn an_mfma_f16_tile_matches_the_cpu() {
    let (a, b, c) = (
        ints(1, 256, -8, 8),
        ints(2, 256, -8, 8),
        ints(3, 256, -100, 100),
    );
    let j = launch(
        "mfma_tile.o",
        &[
            "--kernel",
            "mfma_f16_16x16x16",
            "--grid",
            "1",
            "--block",
            "64",
            "--arg",
            &format!("buf:f16[256]={}", list(&a)),
            "--arg",
            &format!("buf:f16[256]={}", list(&b)),
            "--arg",
            &format!("buf:f32[256]={}", list(&c)),
            "--arg",
            "buf:f32[256]=zeros",
        ],
    );
    assert_eq!(values(&j, 3), mat_mul_add(&a, &b, &c, 16, 16, 16));
    let text = texts(&j);
    assert!(
        text.contains(&"v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]"),
        "{text:?}"
    );
}

#[test]
fn mfma_f32_accumulating_in_agprs_matches_the_cpu() {
    let (a, b, c) = (
        ints(4, 256, -20, 20),
        ints(5, 256, -20, 20),
        ints(6, 1024, -1000, 1000),
    );
    let j = launch(
        "mfma_tile.o",
        &[
            "--kernel",
            "mfma_f32_32x32x8",
            "--grid",
            "1",
            "--block",
            "64",
            "--arg",
            &format!("buf:f32[256]={}", list(&a)),
            "--arg",
            &format!("buf:f32[256]={}", list(&b)),
            "--arg",
            &format!("buf:f32[1024]={}", list(&c)),
            "--arg",
            "buf:f32[1024]=zeros",
        ],
    );
    assert_eq!(values(&j, 3), mat_mul_add(&a, &b, &c, 32, 8, 32));
    // The accumulator lives in AGPRs: the listing says so.
    let agpr = texts(&j)
        .into_iter()
        .any(|t| t.starts_with("v_mfma_f32_32x32x2_f32 a[0:15]"));
    assert!(agpr);
}

#[test]
fn float_atomics_into_64_kib_of_dynamic_lds_match_the_cpu() {
    const BINS: usize = 16384;
    let (groups, block, n) = (3usize, 256usize, 700usize);
    // Multiples of 1/4: every order of addition gives the same, exact, sum.
    let input: Vec<f64> = ints(7, n, -400, 400)
        .iter()
        .map(|&x| x as f64 / 4.0)
        .collect();
    let mut bins = vec![0.0f64; BINS];
    let mut top = 0i64;
    for g in 0..groups {
        let mut table = vec![0.0f64; BINS];
        for t in 0..block {
            let i = g * block + t;
            if i < n {
                table[(i * 37) % BINS] += input[i];
                table[BINS - 1 - t % 8] += input[i];
            }
        }
        for (b, v) in table.iter().enumerate() {
            if *v != 0.0 {
                bins[b] += v;
                top = top.max((v * 4.0) as i64);
            }
        }
    }
    let j = launch(
        "lds_atomics.o",
        &[
            "--kernel",
            "bins_64k",
            "--grid",
            &groups.to_string(),
            "--block",
            &block.to_string(),
            "--dynamic-lds",
            "65536",
            "--arg",
            &format!("buf:f32[{n}]={}", list(&input)),
            "--arg",
            &format!("buf:f32[{BINS}]=zeros"),
            "--arg",
            "buf:i32[1]=zeros",
            "--arg",
            &format!("i32:{n}"),
        ],
    );
    assert_eq!(j["resources"]["lds_bytes"], 65536);
    assert_eq!(values(&j, 1), bins);
    assert_eq!(values(&j, 2), [top as f64]);
}

#[test]
fn float4_through_lds_with_b128_accesses_matches_the_cpu() {
    let input: Vec<i64> = ints(8, 2048, -1000, 1000);
    let mut want = vec![0.0; 2048];
    for blk in 0..2 {
        for t in 0..256 {
            let src = blk * 256 + (255 - t);
            for e in 0..4 {
                want[(blk * 256 + t) * 4 + e] = input[src * 4 + (3 - e)] as f64;
            }
        }
    }
    let j = launch(
        "lds_atomics.o",
        &[
            "--kernel",
            "reverse_float4",
            "--grid",
            "2",
            "--block",
            "256",
            "--arg",
            &format!("buf:f32[2048]={}", list(&input)),
            "--arg",
            "buf:f32[2048]=zeros",
        ],
    );
    assert_eq!(values(&j, 1), want);
    let texts = texts(&j);
    for op in ["ds_write_b128", "ds_read_b128"] {
        assert!(texts.iter().any(|t| t.starts_with(op)), "{op}: {texts:?}");
    }
    // MI300X's vector caches (docs/timing.md#vector-caches): named as CDNA3 names them, no
    // shader-array L1; 2 × 256 lanes × 16 B read and written, 64 lines each way, all cold.
    let v = &j["vcache"];
    assert_eq!(v["levels"]["l0"]["name"], "vL1D", "{v}");
    assert_eq!(v["levels"]["l0"]["bytes"], 32 * 1024);
    assert_eq!(v["levels"]["l2"]["bytes"], 4 << 20);
    assert_eq!(v["levels"]["infinity_cache"]["bytes"], 256 << 20);
    assert!(v["levels"].get("l1").is_none() && v["served_by"].get("l1").is_none());
    assert_eq!(
        (v["lines"].as_u64(), v["write_lines"].as_u64()),
        (Some(128), Some(64))
    );
    assert_eq!(v["served_by"]["vram"], 128, "{v}");
    let c = &j["counters"];
    assert_eq!(c["TCP_TOTAL_CACHE_ACCESSES_sum"], 128, "{c}");
    assert_eq!(c["TCC_REQ_sum"], 128);
    assert_eq!(c["TCC_MISS_sum"], 128);
    assert!(c.get("GL2C_REQ_sum").is_none());
}

#[test]
fn double_atomics_in_lds_and_memory_match_the_cpu() {
    // Multiples of 1/8: every order of addition gives the same, exact, sum.
    let x: Vec<f64> = ints(11, 900, -8000, 8000)
        .iter()
        .map(|&v| v as f64 / 8.0)
        .collect();
    let j = launch(
        "lds_atomics.o",
        &[
            "--kernel",
            "f64_sums",
            "--grid",
            "4",
            "--block",
            "256",
            "--arg",
            &format!("buf:f64[900]={}", list(&x)),
            "--arg",
            "buf:f64[1]=zeros",
            "--arg",
            "buf:f64[1]=1e9",
            "--arg",
            "buf:f64[1]=-1e9",
            "--arg",
            "i32:900",
        ],
    );
    let min = x.iter().copied().fold(f64::INFINITY, f64::min);
    let max = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(values(&j, 1), [x.iter().sum::<f64>()]);
    assert_eq!((values(&j, 2), values(&j, 3)), (vec![min], vec![max]));
    let texts = texts(&j);
    for op in ["ds_add_f64", "global_atomic_add_f64"] {
        assert!(texts.iter().any(|t| t.starts_with(op)), "{op}: {texts:?}");
    }
}

#[test]
fn a_dynamic_index_in_vgpr_index_mode_matches_the_cpu() {
    let idx = ints(12, 256, 0, 63);
    let x: Vec<f64> = ints(13, 256, -100, 100)
        .iter()
        .map(|&v| v as f64 / 2.0)
        .collect();
    let want: Vec<f64> = (0..256)
        .map(|i| {
            let j = (idx[i / 128] & 15) as usize;
            let k = (idx[i] & 15) as usize;
            let vk = if k == j { 100.0 } else { x[i] + k as f64 };
            vk + 100.0
        })
        .collect();
    let j = launch(
        "dynamic_index.o",
        &[
            "--grid",
            "2",
            "--block",
            "128",
            "--arg",
            &format!("buf:i32[256]={}", list(&idx)),
            "--arg",
            &format!("buf:f32[256]={}", list(&x)),
            "--arg",
            "buf:f32[256]=zeros",
        ],
    );
    assert_eq!(values(&j, 2), want);
    let on = texts(&j)
        .into_iter()
        .any(|t| t.starts_with("s_set_gpr_idx_on"));
    assert!(on, "the kernel uses VGPR index mode");
}

#[test]
fn a_scalar_store_reaches_memory_and_every_lane_reads_it() {
    let j = launch(
        "scalar_store.o",
        &[
            "--grid",
            "1",
            "--block",
            "128",
            "--arg",
            "buf:i32[2]=-1,-1",
            "--arg",
            "buf:i32[128]=zeros",
            "--arg",
            "i32:7000",
        ],
    );
    assert_eq!(values(&j, 0), [-1.0, 7000.0]);
    let seen: Vec<f64> = (0..128).map(|t| (7000 + t) as f64).collect();
    assert_eq!(values(&j, 1), seen);
}

#[test]
fn a_kernel_that_spills_to_scratch_matches_the_cpu() {
    const N: usize = 96;
    let input = ints(9, 256, -1000, 1000);
    let (groups, block, rounds) = (2usize, 64usize, 5i32);
    let mut want = Vec::new();
    for t in 0..groups * block {
        let mut acc: Vec<i32> = (0..N).map(|i| input[(t + i) % 256] as i32).collect();
        for r in 0..rounds {
            // In place, in order: acc[95] reads the new acc[0], as the kernel's loop does.
            for i in 0..N {
                acc[i] = acc[i]
                    .wrapping_mul(3)
                    .wrapping_add(acc[(i + 1) % N])
                    .wrapping_add(r);
            }
        }
        let s = (0..N).fold(0i32, |s, i| s ^ acc[i].wrapping_add(i as i32));
        want.push(s as f64);
    }
    let j = launch(
        "spill.o",
        &[
            "--grid",
            &groups.to_string(),
            "--block",
            &block.to_string(),
            "--arg",
            &format!("buf:i32[256]={}", list(&input)),
            "--arg",
            &format!("buf:i32[{}]=zeros", groups * block),
            "--arg",
            &format!("i32:{rounds}"),
        ],
    );
    assert!(j["resources"]["scratch_bytes_per_lane"].as_u64() > Some(0));
    assert_eq!(values(&j, 1), want);
}

#[test]
fn a_dpp_wave_scan_with_gfx9_row_broadcasts_matches_the_cpu() {
    let input = ints(10, 256, -1000, 1000);
    let mut want = Vec::new();
    for wave in input.chunks(64) {
        let mut s = 0;
        for &x in wave {
            s += x;
            want.push(s as f64);
        }
    }
    let j = launch(
        "dpp_scan.o",
        &[
            "--grid",
            "4",
            "--block",
            "64",
            "--arg",
            &format!("buf:i32[256]={}", list(&input)),
            "--arg",
            "buf:i32[256]=zeros",
        ],
    );
    assert_eq!(values(&j, 1), want);
    let bcast = texts(&j)
        .into_iter()
        .filter(|t| t.contains("row_bcast:15") || t.contains("row_bcast:31"))
        .count();
    assert_eq!(bcast, 2);
}

#[test]
fn a_debug_build_reaches_its_stack_through_flat_addresses() {
    // Compiled here at -O0 (clang-19 and the device libraries, which CI installs).
    let src = format!(
        "{}/../../examples/gfx942/flat_stack.hip",
        env!("CARGO_MANIFEST_DIR")
    );
    let idx = ints(14, 64, 0, 63);
    let want: Vec<f64> = (0..64)
        .map(|t| {
            let mut a: Vec<i64> = (0..8).map(|k| t * 10 + k).collect();
            a[(idx[t as usize] & 7) as usize] += 1000;
            let sum: i64 = (0..8).map(|k| a[k] * (k as i64 + 1)).sum();
            (sum + a[((idx[t as usize] >> 3) & 7) as usize]) as f64
        })
        .collect();
    let argv = [
        "run",
        src.as_str(),
        "--arch",
        "gfx942",
        "--cflags",
        "-O0",
        "--block",
        "64",
        "--arg",
        "buf:i32[64]=zeros",
        "--arg",
        &format!("buf:i32[64]={}", list(&idx)),
        "--json",
    ];
    let o = run(&argv, "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(j["events"], json!([]));
    assert_eq!(values(&j, 0), want);
}

fn printf(j: &Value) -> String {
    j["printf"]
        .as_array()
        .expect("printf")
        .iter()
        .map(|s| s.as_str().expect("a string"))
        .collect()
}

#[test]
fn the_documents_aperture_experiment_prints_the_documents_apertures() {
    let j = launch(
        "apertures.o",
        &["--grid", "1", "--block", "64", "--arg", "buf:i32[4]=zeros"],
    );
    let out = printf(&j);
    assert!(
        out.starts_with(
            "private base 0x2000000000000 limit 0x20000ffffffff\n\
             share base 0x1000000000000 limit 0x10000ffffffff\n\
             private_var addr 0x20000"
        ),
        "{out}"
    );
    let global = j["args"][0]["address"].as_u64().expect("address");
    assert!(
        out.contains(&format!("global_var addr {global:#x}\n")),
        "{out}"
    );
}

#[test]
fn the_documents_private_variable_is_in_the_private_aperture() {
    let j = launch(
        "private_var.o",
        &[
            "--grid",
            "1",
            "--block",
            "64",
            "--arg",
            "buf:i32[4]=zeros",
            "--arg",
            "buf:i32[1]=zeros",
        ],
    );
    let out = printf(&j);
    assert!(
        out.starts_with("private base 2000000000000 limit 20000ffffffff flat scratch "),
        "{out}"
    );
    let at = out
        .split("&A is 0x")
        .nth(1)
        .and_then(|s| u64::from_str_radix(s.trim(), 16).ok())
        .expect("&A printed");
    assert!(
        (0x2_0000_0000_0000..=0x2_0000_ffff_ffff).contains(&at),
        "{at:#x}"
    );
    // isPrivate(&A) through a flat address: 1.
    assert_eq!(values(&j, 1), [1.0]);
}

#[test]
fn the_documents_waves_are_64_times_the_scratch_size_apart() {
    // As the document wrote it, every work-item reads out[0..10) and writes it back with no
    // barrier: waves of the workgroup race on those bytes (global_race), which the
    // experiment does not care about.
    let j = launch_racing(
        "flat_scratch.o",
        &[
            "--grid",
            "1",
            "--block",
            "640",
            "--arg",
            "buf:i32[1000]=zeros",
            "--arg",
            "buf:i32[1000]=zeros",
        ],
    );
    let per_lane = j["resources"]["scratch_bytes_per_lane"]
        .as_u64()
        .expect("scratch");
    let mut base = vec![None; 10];
    for line in printf(&j).lines() {
        if let Some(rest) = line.strip_prefix("wave ") {
            let (w, v) = rest.split_once(" flat_scrach is 0x").expect("the format");
            let w: usize = w.parse().expect("a wave");
            base[w] = Some(u64::from_str_radix(v, 16).expect("hex"));
        }
    }
    let base: Vec<u64> = base
        .into_iter()
        .map(|b| b.expect("every wave printed"))
        .collect();
    for w in 1..10 {
        assert_eq!(base[w] - base[w - 1], 64 * per_lane, "wave {w}");
    }
    // Every lane of every wave printed y (its foo call).
    assert_eq!(printf(&j).matches("y is 0\n").count(), 640);
}

/// `--arch` names a chip: a code object runs on its own (another `--arch` is an error naming
/// both), a bank preset that is no chip points at `--banks`, an unknown chip lists the chips.
#[test]
fn arch_names_the_chip_and_says_so_when_it_cannot() {
    let mfma = object("mfma_tile.o");
    for (args, want) in [
        (
            vec![
                "run",
                mfma.as_str(),
                "--arch",
                "gfx1100",
                "--kernel",
                "mfma_f16_16x16x16",
            ],
            "--arch gfx1100: the code object is for gfx942",
        ),
        (
            vec!["run", mfma.as_str(), "--arch", "cdna4"],
            "`cdna4` is a bank preset, not a chip gpumemsim runs: use --banks cdna4",
        ),
        (
            vec!["run", mfma.as_str(), "--arch", "gfx90a"],
            "not a chip gpumemsim runs (it runs gfx1100, gfx942)",
        ),
    ] {
        let o = run(&args, "");
        assert!(!o.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // `--arch cdna3` names gfx942, as `--arch gfx942` does.
    let j = launch(
        "scalar_store.o",
        &[
            "--arch",
            "cdna3",
            "--block",
            "64",
            "--arg",
            "buf:i32[2]=zeros",
            "--arg",
            "buf:i32[64]=zeros",
            "--arg",
            "i32:5",
        ],
    );
    assert_eq!(values(&j, 0), [0.0, 5.0]);
}

#[test]
fn asm_reads_gfx942_and_disasm_reads_its_bytes_back() {
    // The bundled example (examples/gfx942/memory-ops.s), assembled; its encodings, fed to
    // `disasm --arch gfx942`, print the same texts.
    let o = run(&["asm", "--arch", "gfx942"], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let (mut texts, mut bytes) = (Vec::new(), Vec::new());
    for line in out.lines() {
        let (text, enc) = line.split_once(" ; encoding: ").expect("an encoding");
        texts.push(text.trim().to_string());
        bytes.push(enc.trim_matches(|c| c == '[' || c == ']').to_string());
    }
    assert!(texts.len() >= 20, "{out}");
    assert!(
        texts.contains(&"s_store_dword s2, s[0:1], 0x8 glc".to_string()),
        "{out}"
    );
    assert!(
        texts.contains(&"v_mfma_f32_16x16x16_f16 a[0:3], v[2:3], v[4:5], a[0:3]".to_string()),
        "{out}"
    );
    let d = run(&["disasm", "--arch", "gfx942"], &bytes.join("\n"));
    assert!(d.status.success(), "{}", String::from_utf8_lossy(&d.stderr));
    let back: Vec<String> = String::from_utf8_lossy(&d.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty() && l != ".text")
        .collect();
    // (A branch prints its target as written when assembled, as an offset when decoded.)
    let strip = |t: &String| t.split(' ').next().unwrap_or_default().to_string();
    assert_eq!(back.len(), texts.len(), "{back:?}");
    for (a, b) in texts.iter().zip(&back) {
        if a.starts_with("s_cbranch") {
            assert_eq!(strip(a), strip(b));
        } else {
            assert_eq!(a, b);
        }
    }
}

#[test]
fn asm_for_gfx942_refuses_what_gfx942_lacks_with_file_line_and_column() {
    // gfx942 has no `null` and no gfx11 names; its VOP3 takes no literal.
    let src =
        "s_mov_b32 s0, s1\ns_add_u32 s0, null, 1\nv_mul_lo_u32 v0, v1, 0x100\nds_load_b32 v1, v2\n";
    let o = run(&["asm", "--arch", "gfx942", "-"], src);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    for want in [
        "<stdin>:2:15: error: 'null' operand is not supported on this GPU",
        "<stdin>:3:22: error: literal operands are not supported",
        "<stdin>:4:1: error: instruction not supported on this GPU",
    ] {
        assert!(err.contains(want), "{want}\n{err}");
    }
    assert!(String::from_utf8_lossy(&o.stdout).contains("s_mov_b32 s0, s1"));
}

/// A gfx942 assembly run's report: `program` (`-` reads `stdin`; else a file of
/// examples/gfx942/asm), with `extra` options and one `--dump` per `dumps` entry. It must have
/// run as gfx942 wave64 without an error.
fn run_asm(program: &str, stdin: &str, extra: &[&str], dumps: &[&str]) -> Value {
    let path = match program {
        "-" => "-".to_string(),
        file => format!(
            "{}/../../examples/gfx942/asm/{file}",
            env!("CARGO_MANIFEST_DIR")
        ),
    };
    let mut argv = vec!["run", path.as_str(), "--arch", "gfx942", "--json"];
    argv.extend_from_slice(extra);
    for d in dumps {
        argv.extend(["--dump", d]);
    }
    let o = run(&argv, stdin);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(
        (&j["target"], &j["wave_size"]),
        (&json!("gfx942"), &json!(64))
    );
    assert_eq!(j["error"], Value::Null);
    j
}

/// Dump `name` of report `j` as words: wave 0's lanes of a register, or the words of memory.
fn dumped(j: &Value, name: &str) -> Vec<u32> {
    let d = j["dump"][name]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: {}", j["dump"]));
    let words = match d.first().and_then(Value::as_array) {
        Some(wave0) => wave0,
        None => d,
    };
    words
        .iter()
        .map(|v| v.as_u64().expect("a number") as u32)
        .collect()
}

#[test]
fn a_gfx942_assembly_program_runs_in_wave64_with_its_agprs_after_its_vgprs() {
    // AGPRs follow the highest VGPR the program names (v5 here: a0 is v8), so writing a0
    // leaves v0-v7 alone; the DPP broadcast and the SDWA select are GFX9's.
    let src = "\
v_mov_b32 v5, 7
v_mov_b32 v0, 0
v_accvgpr_write_b32 a0, v5
v_accvgpr_read_b32 v1, a0
v_mbcnt_lo_u32_b32 v2, -1, 0
v_mbcnt_hi_u32_b32 v2, -1, v2
v_mov_b32_dpp v3, v2 row_bcast:15 row_mask:0xa
v_mov_b32_sdwa v4, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0
s_endpgm
";
    let j = run_asm("-", src, &[], &["v0", "v1", "v3", "v4"]);
    assert!(dumped(&j, "v0").iter().all(|&v| v == 0), "a0 is not v0");
    assert!(dumped(&j, "v1").iter().all(|&v| v == 7));
    // row_bcast:15: lane 15 of each row to the next row's lanes (rows 1 and 3 by row_mask).
    let v3 = dumped(&j, "v3");
    assert_eq!((v3[16], v3[31], v3[48]), (15, 15, 47));
    let v4 = dumped(&j, "v4");
    assert_eq!((v4[3], v4[40]), (3 << 16, 40 << 16));
}

#[test]
fn multi_block_broadcast_f64_and_fp8_matrix_forms_match_their_layouts() {
    // examples/gfx942/asm/mfma_forms.s builds its inputs from the lane number l.
    let regs: Vec<String> = (20..24).chain(32..60).map(|r| format!("v{r}")).collect();
    let names: Vec<&str> = regs.iter().map(String::as_str).collect();
    let j = run_asm("mfma_forms.s", "", &[], &names);
    let lanes = |r: u32| dumped(&j, &format!("v{r}"));
    let f = |x: u32| f32::from_bits(x) as f64;
    // 4x4x4_16b: 16 blocks of A[i][k] = i + k times B[k][j] = b%4 + k; register i holds
    // row i, lane 4b + j.
    for i in 0..4u32 {
        for (l, &v) in lanes(20 + i).iter().enumerate() {
            let b = l as u32 / 4;
            let want: u32 = (0..4).map(|k| (i + k) * (b % 4 + k)).sum();
            assert_eq!(f(v), want as f64, "row {i} lane {l}");
        }
    }
    // cbsz:2 abid:1: every block multiplies block 1's A (1 + k) by ones: 10 everywhere
    // (its own A would give 4b + 6).
    for r in 32..48 {
        assert!(lanes(r).iter().all(|&v| f(v) == 10.0), "v{r}");
    }
    // f64 16x16x4, neg:[1,0,0], C = 1.0: D[i][j] = 1 − Σ (16k + i)(16k + j); pair p holds
    // row 4p + l/16, column l%16.
    for p in 0..4u32 {
        let (lo, hi) = (lanes(48 + 2 * p), lanes(49 + 2 * p));
        for l in 0..64u32 {
            let (i, jj) = (4 * p + l / 16, l % 16);
            let want = 1.0
                - (0..4)
                    .map(|k| ((16 * k + i) * (16 * k + jj)) as f64)
                    .sum::<f64>();
            let got = f64::from_bits(lo[l as usize] as u64 | (hi[l as usize] as u64) << 32);
            assert_eq!(got, want, "pair {p} lane {l}");
        }
    }
    // fp8 16x16x32: A is 1.0 for k < 16 and 2.0 above; B's bytes 0-3 are 1.0 and 4-7 2.0,
    // so each run of 8 terms gives 12·A: two runs of A = 1 and two of A = 2 give 72.
    for r in 56..60 {
        assert!(lanes(r).iter().all(|&v| f(v) == 72.0), "v{r}");
    }
}

#[test]
fn packed_16_bit_float_atomics_add_each_half() {
    // 64 lanes add (1.0, 1.0) in f16 to LDS and to memory, and (1.0, 1.0) in bf16 returning
    // the old values: 64.0 in each half; the returning lanes see 0, 1.0, 2.0, ... per half.
    let src = "\
v_mov_b32 v1, 0
v_mov_b32 v2, 0x3c003c00
v_mov_b32 v6, 0x3f803f80
ds_write_b32 v1, v1
s_waitcnt lgkmcnt(0)
ds_pk_add_f16 v1, v2
v_mov_b32 v4, 0x1000
v_mov_b32 v5, 0
global_atomic_pk_add_f16 v[4:5], v2, off
global_atomic_pk_add_bf16 v7, v[4:5], v6, off offset:4 sc0
s_waitcnt vmcnt(0) lgkmcnt(0)
s_endpgm
";
    let dumps = ["lds:0:4", "mem:0x1000:0x1008", "v7"];
    let j = run_asm("-", src, &["--mem", "0x1000=0,0"], &dumps);
    assert_eq!(dumped(&j, "lds:0:4"), [0x5400_5400], "64.0 as f16, twice");
    assert_eq!(
        dumped(&j, "mem:0x1000:0x1008"),
        [0x5400_5400, 0x4280_4280],
        "64.0 as f16, as bf16"
    );
    let old = dumped(&j, "v7");
    assert_eq!((old[0], old[1], old[2]), (0, 0x3f80_3f80, 0x4000_4000));
}

#[test]
fn agprs_past_v255_hold_their_values_through_moves_and_matrix_products() {
    let j = run_asm(
        "agprs_past_v255.s",
        "",
        &[],
        &["v2", "v3", "v6", "v7", "v100"],
    );
    assert!(
        dumped(&j, "v2").iter().all(|&v| v == 5),
        "a100 written from v1, moved to a102, read back"
    );
    assert!(
        dumped(&j, "v3").iter().all(|&v| v == 7),
        "a101 written from a constant"
    );
    assert!(
        dumped(&j, "v100").iter().all(|&v| v == 0),
        "a100 is not v100"
    );
    // Two 16x16x4 f32 products of ones and twos accumulated in a[60:63]: 8 + 8.
    for r in ["v6", "v7"] {
        assert!(
            dumped(&j, r).iter().all(|&v| f32::from_bits(v) == 16.0),
            "{r}"
        );
    }
}

#[test]
fn typed_buffer_accesses_convert_through_gfx9_formats() {
    // tbuffer's format:[16, FLOAT] reads an f16 as f32; buffer_load_format_xy takes the V#'s
    // formats (word 3: NUM_FORMAT FLOAT in bits 14:12, DATA_FORMAT 32 in bits 18:15), one
    // component, so y reads 0.
    let src = "\
s_mov_b32 s0, 0x1000
s_mov_b32 s1, 0
s_mov_b32 s2, 64
s_mov_b32 s3, 0x27000
tbuffer_load_format_x v2, off, s[0:3], 0 format:[BUF_DATA_FORMAT_16,BUF_NUM_FORMAT_FLOAT]
buffer_load_format_xy v[4:5], off, s[0:3], 0
s_waitcnt vmcnt(0)
s_endpgm
";
    let j = run_asm(
        "-",
        src,
        &["--mem", "0x1000=0x40003c00"],
        &["v2", "v4", "v5"],
    );
    assert_eq!(j["events"], json!([]));
    assert_eq!(f32::from_bits(dumped(&j, "v2")[0]), 1.0);
    assert_eq!(dumped(&j, "v4")[0], 0x4000_3c00);
    assert_eq!(dumped(&j, "v5")[0], 0);
}

#[test]
fn a_sparse_matrix_product_places_a_by_its_index_set() {
    // examples/gfx942/asm/smfmac.s: every lane holds A's values 1, 2, 3, 4 at places 0, 1
    // (group 0) and 2, 3 (group 1) of its 8-term window (index set 1 = 0xe4), B[k][j] = k,
    // C = 0.5: each window from k0 gives 1·k0 + 2·(k0+1) + 3·(k0+6) + 4·(k0+7) = 10·k0 + 48,
    // and k0 = 0, 8, 16, 24 sum to 672, plus C.
    let regs = ["v20", "v21", "v22", "v23"];
    let j = run_asm("smfmac.s", "", &[], &regs);
    for r in regs {
        let lanes = dumped(&j, r);
        assert!(
            lanes.iter().all(|&v| f32::from_bits(v) == 672.5),
            "{r}: {lanes:?}"
        );
    }
}
