//! `gpumemsim run` on examples/apps: OpenCL C and HIP kernels built against AMD's device
//! libraries by tools/build_apps.sh (relocatable objects, offload bundles and linked
//! `.hsaco`s, wave32 and wave64) and for gfx942 by tools/build_gfx942.sh ([`GFX942`]), each
//! run through the CLI and compared, whole buffer by whole buffer, with a CPU reference
//! computed here. Inputs come from a small xorshift and go to
//! the CLI as comma lists; sums are of integers or of dyadic floats small enough that every
//! summation order gives the same, exact, result.

mod common;

use common::run;
use gpumemsim::xorshift::XorShift;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// An application kernel's gfx942 build, as [`app`] names it.
macro_rules! gfx942 {
    ($name:literal) => {
        concat!("../../gfx942/build/apps/", $name)
    };
}

fn app(name: &str) -> String {
    format!(
        "{}/../../examples/apps/build/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A fresh, empty folder for one test's `--out-dir`.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("apps-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch folder");
    dir
}

fn run_json(args: &[&str]) -> Value {
    let o = run(args, "");
    assert!(
        o.status.success(),
        "gpumemsim {}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("json")
}

/// Runs KERNEL of examples/apps/build/FILE on GRID workgroups of BLOCK work-items with ARGS
/// (each one `--arg`) and EXTRA options, and checks that the run reported no event.
fn launch(
    file: &str,
    kernel: &str,
    grid: &str,
    block: &str,
    args: &[String],
    extra: &[&str],
) -> Value {
    let path = app(file);
    let mut argv = vec![
        "run",
        path.as_str(),
        "--kernel",
        kernel,
        "--grid",
        grid,
        "--block",
        block,
    ];
    argv.extend_from_slice(extra);
    for a in args {
        argv.push("--arg");
        argv.push(a);
    }
    argv.push("--json");
    let j = run_json(&argv);
    assert_eq!(j["events"], json!([]), "{file} {kernel}: events");
    j
}

/// A buffer argument's final values as integers.
fn ints(j: &Value, arg: usize) -> Vec<i64> {
    j["args"][arg]["values"]
        .as_array()
        .expect("buffer values")
        .iter()
        .map(|v| v.as_i64().expect("an integer"))
        .collect()
}

/// A float buffer argument's final values.
fn floats(j: &Value, arg: usize) -> Vec<f32> {
    j["args"][arg]["values"]
        .as_array()
        .expect("buffer values")
        .iter()
        .map(|v| v.as_f64().expect("a number") as f32)
        .collect()
}

fn list<T: ToString>(v: &[T]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// `buf:TYPE[LEN]=v0,v1,...`
fn buf<T: ToString>(ty: &str, v: &[T]) -> String {
    format!("buf:{ty}[{}]={}", v.len(), list(v))
}

/// Reproducible inputs: the seeded xorshift of `rand:` buffers.
struct Rng(XorShift);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(XorShift::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// An integer in lo..=hi.
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    fn ints(&mut self, n: usize, lo: i64, hi: i64) -> Vec<i64> {
        (0..n).map(|_| self.int(lo, hi)).collect()
    }
}

/// The little-endian bytes of `--out-dir`'s file for argument ARG of type TYPE.
fn out_file(dir: &Path, arg: usize, ty: &str) -> Vec<u8> {
    let p = dir.join(format!("arg{arg}.{ty}.bin"));
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn le_i32(v: &[i64]) -> Vec<u8> {
    v.iter().flat_map(|&x| (x as i32).to_le_bytes()).collect()
}

fn le_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The names of the files in DIR.
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read the out dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A `local:` argument's entry: its LDS offset, after checking its kind and size.
fn local_offset(j: &Value, arg: usize, size: u64) -> u64 {
    let a = &j["args"][arg];
    assert_eq!(a["kind"], "local", "arg {arg}: {a}");
    assert_eq!(a["size"].as_u64(), Some(size), "arg {arg}: {a}");
    a["offset"].as_u64().expect("a local offset")
}

// ---------------------------------------------------------------------------------------------
// OpenCL C

#[test]
fn gemm_tiled_16x16_matches_the_cpu_in_wave32_and_wave64() {
    let (m, n, k) = (32, 48, 32);
    let mut rng = Rng::new(1);
    let a: Vec<f32> = rng.ints(m * k, -4, 4).iter().map(|&x| x as f32).collect();
    let b: Vec<f32> = rng.ints(k * n, -4, 4).iter().map(|&x| x as f32).collect();
    let mut want = vec![0.0f32; m * n];
    for r in 0..m {
        for c in 0..n {
            want[r * n + c] = (0..k).map(|t| a[r * k + t] * b[t * n + c]).sum();
        }
    }
    for (file, wave) in [
        ("gemm_tiled.o", 32),
        ("gemm_tiled.w64.o", 64),
        (gfx942!("gemm_tiled.o"), 64),
    ] {
        let j = launch(
            file,
            "gemm_tiled_16x16",
            "3,2",
            "16,16",
            &[
                buf("f32", &a),
                buf("f32", &b),
                format!("buf:f32[{}]=zeros", m * n),
                format!("i32:{m}"),
                format!("i32:{n}"),
                format!("i32:{k}"),
            ],
            &[],
        );
        assert_eq!(j["wave_size"], wave, "{file}");
        assert_eq!(floats(&j, 2), want, "{file}");
        assert_eq!(floats(&j, 0), a, "{file}: A is unchanged");
    }
}

#[test]
fn histogram_with_a_local_argument_matches_the_cpu_in_wave32_and_wave64() {
    let n = 2000;
    let data = Rng::new(2).ints(n, 0, 255);
    let (groups, block) = (4, 128);
    let mut hist = vec![0i64; 64];
    let mut per_group = vec![vec![0i64; 64]; groups];
    for (i, &d) in data.iter().enumerate() {
        hist[(d >> 2) as usize] += 1;
        per_group[i / block % groups][(d >> 2) as usize] += 1;
    }
    let max_bin = per_group
        .iter()
        .map(|g| *g.iter().max().unwrap())
        .max()
        .unwrap();
    for (file, wave) in [
        ("histogram_local.o", 32),
        ("histogram_local.w64.o", 64),
        (gfx942!("histogram_local.o"), 64),
    ] {
        let j = launch(
            file,
            "histogram_local_bins",
            "4",
            "128",
            &[
                buf("u8", &data),
                format!("u32:{n}"),
                "buf:u32[64]=zeros".into(),
                "buf:u32[1]=zeros".into(),
                "local:256".into(),
            ],
            &[],
        );
        assert_eq!(j["wave_size"], wave, "{file}");
        assert_eq!(ints(&j, 2), hist, "{file}: the histogram");
        assert_eq!(
            ints(&j, 3),
            vec![max_bin],
            "{file}: the fullest bin of a workgroup"
        );
        // The bins come after the kernel's static LDS (its 4-byte group_max).
        let offset = local_offset(&j, 4, 256);
        assert!(
            offset >= 4 && offset.is_multiple_of(4),
            "{file}: bins at {offset}"
        );
        assert!(offset + 256 <= 65536, "{file}");
    }
}

#[test]
fn two_pass_reduction_with_two_local_arguments_runs_as_two_launches() {
    let n = 3000;
    let input: Vec<f32> = Rng::new(3)
        .ints(n, -256, 256)
        .iter()
        .map(|&x| x as f32 / 4.0)
        .collect();
    let (groups, block) = (8, 128);
    let mut part_sum = vec![0.0f32; groups];
    let mut part_count = vec![0i64; groups];
    for (i, &x) in input.iter().enumerate() {
        part_sum[i / block % groups] += x;
        part_count[i / block % groups] += (x > 0.0) as i64;
    }
    let total: f32 = input.iter().sum();
    let positives = input.iter().filter(|&&x| x > 0.0).count() as i64;
    for (file, wave) in [
        ("reduce_two_pass.o", "w32"),
        ("reduce_two_pass.w64.o", "w64"),
        (gfx942!("reduce_two_pass.o"), "gfx942"),
    ] {
        let dir = scratch_dir(&format!("reduce-{wave}"));
        let dir_arg = dir.to_str().expect("a UTF-8 path");
        let j = launch(
            file,
            "reduce_sum_count_partial",
            "8",
            "128",
            &[
                buf("f32", &input),
                format!("u32:{n}"),
                "buf:f32[8]=zeros".into(),
                "buf:i32[8]=zeros".into(),
                "local:512".into(),
                "local:512".into(),
            ],
            &["--out-dir", dir_arg],
        );
        assert_eq!(floats(&j, 2), part_sum, "{wave}: partial sums");
        assert_eq!(ints(&j, 3), part_count, "{wave}: partial counts");
        // No static LDS: the float array starts at 0, the int array after it.
        assert_eq!(local_offset(&j, 4, 512), 0, "{wave}");
        let second = local_offset(&j, 5, 512);
        assert!(
            second >= 512 && second.is_multiple_of(4),
            "{wave}: scount at {second}"
        );
        // --out-dir holds the buffers, and only the buffers.
        assert_eq!(
            files_in(&dir),
            ["arg0.f32.bin", "arg2.f32.bin", "arg3.i32.bin"],
            "{wave}"
        );
        assert_eq!(out_file(&dir, 0, "f32"), le_f32(&input), "{wave}");
        assert_eq!(out_file(&dir, 2, "f32"), le_f32(&part_sum), "{wave}");
        assert_eq!(out_file(&dir, 3, "i32"), le_i32(&part_count), "{wave}");

        // Pass 2 reads pass 1's partials back from its files.
        let j = launch(
            file,
            "reduce_sum_count_final",
            "1",
            "64",
            &[
                format!("buf:f32[8]=file:{}", dir.join("arg2.f32.bin").display()),
                format!("buf:i32[8]=file:{}", dir.join("arg3.i32.bin").display()),
                "u32:8".into(),
                "buf:f32[1]=zeros".into(),
                "buf:i32[1]=zeros".into(),
            ],
            &[],
        );
        assert_eq!(floats(&j, 0), part_sum, "{wave}: pass 2's input");
        assert_eq!(floats(&j, 3), vec![total], "{wave}: the sum");
        assert_eq!(ints(&j, 4), vec![positives], "{wave}: the count");
    }
}

#[test]
fn laplace5_tiled_matches_the_cpu_on_a_ragged_2d_grid() {
    let (w, h) = (44usize, 30usize);
    let input = Rng::new(4).ints(w * h, -100, 100);
    let at = |x: i64, y: i64| {
        let x = x.clamp(0, w as i64 - 1) as usize;
        let y = y.clamp(0, h as i64 - 1) as usize;
        input[y * w + x]
    };
    let mut want = Vec::new();
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            want.push(4 * at(x, y) - at(x, y - 1) - at(x, y + 1) - at(x - 1, y) - at(x + 1, y));
        }
    }
    for file in ["stencil_laplace.o", gfx942!("stencil_laplace.o")] {
        let j = launch(
            file,
            "laplace5_tiled",
            "3,2",
            "16,16",
            &[
                buf("i32", &input),
                format!("buf:i32[{}]=zeros", w * h),
                format!("i32:{w}"),
                format!("i32:{h}"),
            ],
            &[],
        );
        assert_eq!(ints(&j, 1), want, "{file}");
    }
}

#[test]
fn bitonic_sort_local_sorts_each_workgroup_slice_in_wave32_and_wave64() {
    let keys = Rng::new(5).ints(1024, -500, 500);
    let mut want = keys.clone();
    for c in want.chunks_mut(256) {
        c.sort();
    }
    assert_ne!(keys, want);
    for file in [
        "bitonic_sort_local.o",
        "bitonic_sort_local.w64.o",
        gfx942!("bitonic_sort_local.o"),
    ] {
        let j = launch(
            file,
            "bitonic_sort_local",
            "4",
            "128",
            &[buf("i32", &keys)],
            &[],
        );
        assert_eq!(ints(&j, 0), want, "{file}");
    }
}

/// A random CSR matrix of ROWS × COLS with 0..=60 entries a row (row 3 empty), its values
/// multiples of 1/4 and x's of 1/2, and y = A·x (exact: every partial sum is a multiple of
/// 1/8 below 2^10).
struct Csr {
    row_ptr: Vec<i64>,
    col_idx: Vec<i64>,
    vals: Vec<f32>,
    x: Vec<f32>,
    y: Vec<f32>,
}

fn csr(rows: usize, cols: usize) -> Csr {
    let mut rng = Rng::new(6);
    let mut row_ptr = vec![0i64];
    let (mut col_idx, mut vals) = (Vec::new(), Vec::new());
    for r in 0..rows {
        let len = if r == 3 { 0 } else { rng.int(0, 60) };
        for _ in 0..len {
            col_idx.push(rng.int(0, cols as i64 - 1));
            vals.push(rng.int(-8, 8) as f32 / 4.0);
        }
        row_ptr.push(col_idx.len() as i64);
    }
    let x: Vec<f32> = rng
        .ints(cols, -8, 8)
        .iter()
        .map(|&v| v as f32 / 2.0)
        .collect();
    let y = (0..rows)
        .map(|r| {
            (row_ptr[r] as usize..row_ptr[r + 1] as usize)
                .map(|k| vals[k] * x[col_idx[k] as usize])
                .sum()
        })
        .collect();
    Csr {
        row_ptr,
        col_idx,
        vals,
        x,
        y,
    }
}

#[test]
fn spmv_csr_scalar_and_vector_match_the_cpu() {
    let rows = 90;
    let m = csr(rows, 128);
    let args = |extra: Option<&str>| {
        let mut a = vec![
            format!("u32:{rows}"),
            buf("i32", &m.row_ptr),
            buf("i32", &m.col_idx),
            buf("f32", &m.vals),
            buf("f32", &m.x),
            format!("buf:f32[{rows}]=zeros"),
        ];
        a.extend(extra.map(String::from));
        a
    };
    for file in ["spmv_csr.o", gfx942!("spmv_csr.o")] {
        // One row per work-item: 128 work-items for 90 rows.
        let j = launch(file, "spmv_csr_scalar", "2", "64", &args(None), &[]);
        assert_eq!(floats(&j, 5), m.y, "{file}: scalar");
        // 32 work-items per row, 8 rows per workgroup: 96 row slots for 90 rows.
        let j = launch(
            file,
            "spmv_csr_vector",
            "12",
            "256",
            &args(Some("local:1024")),
            &[],
        );
        assert_eq!(floats(&j, 5), m.y, "{file}: vector");
        assert_eq!(local_offset(&j, 6, 1024), 0, "{file}");
    }
}

#[test]
fn compact_select_positive_keeps_every_positive_once() {
    let n = 1000;
    let mut input = Rng::new(7).ints(n, -50, 50);
    // Workgroup 2 (elements 512..768) finds nothing.
    for v in &mut input[512..768] {
        *v = -v.abs();
    }
    let mut positives: Vec<i64> = input.iter().copied().filter(|&v| v > 0).collect();
    positives.sort();
    let count = positives.len();
    for file in ["compact_select.o", gfx942!("compact_select.o")] {
        let j = launch(
            file,
            "compact_select_positive",
            "4",
            "256",
            &[
                buf("i32", &input),
                format!("u32:{n}"),
                format!("buf:i32[{n}]=zeros"),
                "buf:i32[3]=zeros".into(),
            ],
            &[],
        );
        assert_eq!(
            ints(&j, 3),
            vec![count as i64, positives.iter().sum(), 3],
            "{file}: count, sum, workgroups that found any"
        );
        let out = ints(&j, 2);
        let mut got = out[..count].to_vec();
        got.sort();
        assert_eq!(got, positives, "{file}: the selected values, in any order");
        assert!(
            out[count..].iter().all(|&v| v == 0),
            "{file}: nothing past them"
        );
    }
}

#[test]
fn kernel_arguments_are_checked_against_the_metadata() {
    let path = app("histogram_local.o");
    let good = [
        "buf:u8[16]=iota",
        "u32:16",
        "buf:u32[64]=zeros",
        "buf:u32[1]=zeros",
        "local:256",
    ];
    let attempt = |args: &[&str]| {
        let mut argv = vec!["run", path.as_str(), "--grid", "1", "--block", "64"];
        for a in args {
            argv.push("--arg");
            argv.push(a);
        }
        argv.push("--json");
        run(&argv, "")
    };
    let o = attempt(&good);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let missing = &good[..4];
    let extra = [&good[..], &["u32:1"]].concat();
    let buffer_for_local = [&good[..4], &["buf:u32[64]=zeros"]].concat();
    let local_for_buffer = [&["local:16"][..], &good[1..]].concat();
    let wide_scalar = [&good[..1], &["u64:16"], &good[2..]].concat();
    for (what, args) in [
        ("a missing argument", missing.to_vec()),
        ("an extra argument", extra),
        ("a buffer for a __local pointer", buffer_for_local),
        ("a local size for a global pointer", local_for_buffer),
        ("an 8-byte value for a 4-byte one", wide_scalar),
    ] {
        let o = attempt(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{what}: accepted");
        assert!(!err.trim().is_empty(), "{what}: no message");
        assert!(!err.contains("panicked"), "{what}: {err}");
    }
    // The same for a HIP kernel (no argument names in its metadata).
    let o = run(
        &[
            "run",
            &app("histogram256.o"),
            "--kernel",
            "histogram256_block",
            "--arg",
            "buf:u8[16]=iota",
            "--arg",
            "i32:16",
        ],
        "",
    );
    assert!(!o.status.success(), "a missing HIP argument: accepted");
    assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
}

// ---------------------------------------------------------------------------------------------
// HIP

#[test]
fn hip_transpose_tiled_padded_matches_the_cpu_on_a_ragged_2d_grid() {
    let (w, h) = (80usize, 48usize);
    let mut want = vec![0.0f32; w * h];
    for y in 0..h {
        for x in 0..w {
            want[x * h + y] = (y * w + x) as f32;
        }
    }
    for file in ["transpose_padded.o", gfx942!("transpose_padded.o")] {
        let j = launch(
            file,
            "transpose_tiled_padded",
            "3,2",
            "32,8",
            &[
                buf("f32", &vec![-1.0f32; w * h]),
                format!("buf:f32[{}]=iota", w * h),
                format!("i32:{w}"),
                format!("i32:{h}"),
            ],
            &[],
        );
        assert_eq!(floats(&j, 0), want, "{file}");
    }
}

#[test]
fn hip_wave_shuffle_sum_matches_the_cpu() {
    let n = 1000;
    let input = Rng::new(8).ints(n, -1000, 1000);
    let sum = |lo: usize, len: usize| -> i64 { input[lo..(lo + len).min(n)].iter().sum() };
    let block_sum: Vec<i64> = (0..8).map(|b| sum(b * 128, 128)).collect();
    // warpSize: 32 on gfx1100 (HIP builds are wave32), 64 on gfx942 (its __shfl reaches every
    // lane of the wave: ds_bpermute_b32 over 64 lanes).
    for (file, wave) in [("wave_reduce.o", 32), (gfx942!("wave_reduce.o"), 64)] {
        let wave_sum: Vec<i64> = (0..n).map(|i| sum(i / wave * wave, wave)).collect();
        let j = launch(
            file,
            "wave_shuffle_sum",
            "8",
            "128",
            &[
                buf("i32", &input),
                format!("buf:i32[{n}]=zeros"),
                "buf:i32[8]=zeros".into(),
                "buf:i32[1]=zeros".into(),
                format!("i32:{n}"),
            ],
            &[],
        );
        assert_eq!(j["wave_size"], wave, "{file}");
        assert_eq!(
            ints(&j, 1),
            wave_sum,
            "{file}: each element gets its wave's sum"
        );
        assert_eq!(ints(&j, 2), block_sum, "{file}: block sums");
        assert_eq!(ints(&j, 3), vec![sum(0, n)], "{file}: the total");
    }
}

#[test]
fn hip_blocked_scan_runs_as_two_launches_from_the_bundle_and_the_hsaco() {
    let n = 1000;
    let input = Rng::new(9).ints(n, -100, 100);
    let mut per_block = Vec::new();
    let mut block_sums = Vec::new();
    for c in input.chunks(128) {
        let mut s = 0;
        for &x in c {
            s += x;
            per_block.push(s);
        }
        block_sums.push(s);
    }
    let mut scan = Vec::new();
    let mut s = 0;
    for &x in &input {
        s += x;
        scan.push(s);
    }
    for file in [
        "scan_blocked.o",
        "scan_blocked.hsaco",
        gfx942!("scan_blocked.o"),
    ] {
        let dir = scratch_dir(&format!("scan-{}", file.replace('/', "_")));
        let dir_arg = dir.to_str().expect("a UTF-8 path");
        let j = launch(
            file,
            "scan_block_inclusive",
            "8",
            "128",
            &[
                buf("i32", &input),
                format!("buf:i32[{n}]=zeros"),
                "buf:i32[8]=zeros".into(),
                format!("i32:{n}"),
            ],
            &["--dynamic-lds", "512", "--out-dir", dir_arg],
        );
        assert_eq!(ints(&j, 1), per_block, "{file}: pass 1 scans each block");
        assert_eq!(ints(&j, 2), block_sums, "{file}: and writes its total");
        assert_eq!(out_file(&dir, 1, "i32"), le_i32(&per_block), "{file}");
        assert_eq!(out_file(&dir, 2, "i32"), le_i32(&block_sums), "{file}");

        let j = launch(
            file,
            "scan_add_block_offsets",
            "8",
            "128",
            &[
                format!("buf:i32[{n}]=file:{}", dir.join("arg1.i32.bin").display()),
                format!("buf:i32[8]=file:{}", dir.join("arg2.i32.bin").display()),
                format!("i32:{n}"),
            ],
            &[],
        );
        assert_eq!(ints(&j, 0), scan, "{file}: the whole inclusive scan");
        assert_eq!(ints(&j, 1), block_sums, "{file}: block sums unchanged");
    }
}

/// Without `--dynamic-lds` the extern __shared__ array of scan_block_inclusive has no room:
/// its accesses fall outside the workgroup's LDS allocation, and the run says so.
#[test]
fn hip_extern_shared_without_dynamic_lds_is_reported() {
    let path = app("scan_blocked.o");
    let mut argv = vec![
        "run",
        path.as_str(),
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
        "--json",
    ];
    let j = run_json(&argv);
    let events = j["events"].as_array().expect("events");
    assert!(!events.is_empty(), "no event");
    assert!(
        events.iter().all(|e| e["kind"] == "lds_out_of_range"),
        "{events:?}"
    );
    argv.extend(["--dynamic-lds", "512"]);
    let j = run_json(&argv);
    assert_eq!(j["events"], json!([]));
    let want: Vec<i64> = (0..256)
        .map(|i| (i % 128) * (i % 128 + 1) / 2 + i / 128 * 128 * (i % 128 + 1))
        .collect();
    assert_eq!(ints(&j, 1), want);
}

#[test]
fn hip_histogram256_runs_from_the_bundle_by_name_and_from_the_hsaco_by_mangled_name() {
    let n = 3000;
    let data = Rng::new(10).ints(n, 0, 255);
    let mut want = vec![0i64; 256];
    for &d in &data {
        want[d as usize] += 1;
    }
    for (file, kernel) in [
        ("histogram256.o", "histogram256_block"),
        ("histogram256.hsaco", "_Z18histogram256_blockPKhiPj"),
        (gfx942!("histogram256.o"), "histogram256_block"),
    ] {
        let j = launch(
            file,
            kernel,
            "6",
            "128",
            &[
                buf("u8", &data),
                format!("i32:{n}"),
                "buf:u32[256]=zeros".into(),
            ],
            &[],
        );
        assert_eq!(ints(&j, 2), want, "{file} {kernel}");
    }
}

#[test]
fn hip_conv1d_with_static_and_dynamic_lds_matches_the_cpu() {
    let n = 300;
    let mut rng = Rng::new(11);
    let input = rng.ints(n, -50, 50);
    for radius in [3usize, 8] {
        let taps = rng.ints(2 * radius + 1, -3, 3);
        let want: Vec<i64> = (0..n as i64)
            .map(|i| {
                (0..taps.len() as i64)
                    .map(|k| {
                        let src = i + k - radius as i64;
                        let x = if (0..n as i64).contains(&src) {
                            input[src as usize]
                        } else {
                            0
                        };
                        taps[k as usize] * x
                    })
                    .sum()
            })
            .collect();
        let lds = (4 * (64 + 2 * radius)).to_string();
        for file in ["conv1d_dynamic.o", gfx942!("conv1d_dynamic.o")] {
            let j = launch(
                file,
                "conv1d_halo_dynamic",
                "5",
                "64",
                &[
                    buf("i32", &input),
                    buf("i32", &taps),
                    buf("i32", &vec![-7777; n]),
                    format!("i32:{n}"),
                    format!("i32:{radius}"),
                ],
                &["--dynamic-lds", lds.as_str()],
            );
            assert_eq!(ints(&j, 2), want, "{file}: radius {radius}");
        }
    }
}

#[test]
fn hip_warp_bitonic_sort_sorts_each_run_of_a_wave() {
    let keys = Rng::new(12).ints(512, -100, 100);
    // warpSize: 32 on gfx1100, 64 on gfx942.
    for (file, wave) in [("warp_bitonic.o", 32), (gfx942!("warp_bitonic.o"), 64)] {
        let mut want = keys.clone();
        for c in want.chunks_mut(wave) {
            c.sort();
        }
        let j = launch(
            file,
            "warp_bitonic_sort",
            "4",
            "128",
            &[buf("i32", &keys)],
            &[],
        );
        assert_eq!(ints(&j, 0), want, "{file}");
    }
}

#[test]
fn hip_heat3d_7point_matches_the_cpu_on_a_3d_grid() {
    let (nx, ny, nz) = (14usize, 8usize, 7usize);
    let input: Vec<f32> = Rng::new(13)
        .ints(nx * ny * nz, -64, 64)
        .iter()
        .map(|&x| x as f32)
        .collect();
    let at = |x: usize, y: usize, z: usize| input[(z * ny + y) * nx + x];
    let mut want = Vec::new();
    for z in 0..nz {
        for y in 0..ny {
            for x in 0..nx {
                let c = at(x, y, z);
                if x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1 {
                    want.push(c);
                    continue;
                }
                let d = |a: f32, b: f32| 0.125 * (a - 2.0 * c + b);
                want.push(
                    c + d(at(x + 1, y, z), at(x - 1, y, z))
                        + d(at(x, y + 1, z), at(x, y - 1, z))
                        + d(at(x, y, z + 1), at(x, y, z - 1)),
                );
            }
        }
    }
    for file in ["heat3d.o", gfx942!("heat3d.o")] {
        let j = launch(
            file,
            "heat3d_7point",
            "2,2,2",
            "8,4,4",
            &[
                buf("f32", &input),
                buf("f32", &vec![-1000.0f32; nx * ny * nz]),
                format!("i32:{nx}"),
                format!("i32:{ny}"),
                format!("i32:{nz}"),
            ],
            &[],
        );
        assert_eq!(floats(&j, 1), want, "{file}");
    }
}
