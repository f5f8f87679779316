//! Triton's output runs: kernels compiled by Triton 3.9 (its bundled LLVM, newer than
//! clang-19: words with unused operand fields set, true16 halves, buffer loads, WMMA) for
//! gfx1100 by tools/build_triton.py, committed in tests/triton/ with their launch shapes,
//! against references computed here: a vector add, a softmax, a layer norm and a `tl.dot`
//! matmul (fp16 in, fp32 out, through LDS and WMMA).

mod common;

use common::run;
use serde_json::Value;

fn object(name: &str) -> String {
    format!("{}/tests/triton/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The launch shape tools/build_triton.py wrote: (work-items per workgroup, dynamic LDS).
fn shape(name: &str) -> (u64, u64) {
    let text = std::fs::read_to_string(object(&format!("{name}.json"))).expect("shape");
    let j: Value = serde_json::from_str(&text).expect("json");
    let block =
        j["num_warps"].as_u64().expect("num_warps") * j["warp_size"].as_u64().expect("warp");
    (block, j["shared"].as_u64().expect("shared"))
}

/// A temporary file holding `bytes`, for `buf:TYPE[N]=file:PATH` ([`launch`] removes it).
fn file(tag: &str, bytes: &[u8]) -> String {
    let p = std::env::temp_dir().join(format!("gms-triton-{}-{tag}.bin", std::process::id()));
    std::fs::write(&p, bytes).expect("write");
    p.display().to_string()
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Runs Triton kernel `name` on `grid` workgroups with `args` (Triton's two trailing scratch
/// pointers added: null, as Triton's launcher passes them when the kernel needs no scratch),
/// exit status 0: the report.
fn launch(name: &str, grid: &str, args: &[String]) -> Value {
    let (block, lds) = shape(name);
    let path = object(&format!("{name}.hsaco"));
    let (block, lds) = (block.to_string(), lds.to_string());
    let mut a: Vec<&str> = vec!["run", &path, "--grid", grid, "--block", &block];
    a.extend(["--dynamic-lds", &lds, "--json"]);
    for x in args {
        a.extend(["--arg", x]);
    }
    a.extend(["--arg", "null", "--arg", "null"]);
    let o = run(&a, "");
    // The inputs [`file`] wrote are read: nothing is left in the temporary directory.
    for x in args {
        if let Some(p) = x.split("=file:").nth(1) {
            std::fs::remove_file(p).expect("the input file is there to remove");
        }
    }
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("json")
}

fn values(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("values")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn max_error(got: &[f64], want: &[f64]) -> f64 {
    assert_eq!(got.len(), want.len());
    got.iter()
        .zip(want)
        .map(|(g, w)| (g - w).abs())
        .fold(0.0, f64::max)
}

#[test]
fn vector_add() {
    let x: Vec<f32> = (0..1000).map(|i| i as f32 * 0.5).collect();
    let y: Vec<f32> = (0..1000).map(|i| 3.0 - i as f32).collect();
    let j = launch(
        "vector_add",
        "4",
        &[
            format!("buf:f32[1000]=file:{}", file("x", &f32s(&x))),
            format!("buf:f32[1000]=file:{}", file("y", &f32s(&y))),
            "buf:f32[1000]=zeros".into(),
            "i32:1000".into(),
        ],
    );
    let want: Vec<f64> = x.iter().zip(&y).map(|(a, b)| f64::from(a + b)).collect();
    assert_eq!(values(&j["args"][2]["values"]), want);
    // The scratch pointers are null: reported as such, nothing allocated for them.
    for a in &j["args"].as_array().expect("args")[4..] {
        assert_eq!(a["kind"], "null", "{a}");
        assert!(a.get("address").is_none(), "{a}");
    }
}

/// `check` notes the masked lanes of Triton's buffer operations (offset 0x80000000 against a
/// V# of 0x7ffffffe records: loads give 0, stores are dropped, as Triton means them) without
/// failing: 1000 elements on 1024 work-items leave 24 lanes of the last wave masked.
#[test]
fn masked_buffer_lanes_are_notes_not_findings() {
    let path = object("vector_add.hsaco");
    let (block, lds) = shape("vector_add");
    let (block, lds) = (block.to_string(), lds.to_string());
    let mut a: Vec<&str> = vec!["check", &path, "--grid", "4", "--block", &block];
    a.extend(["--dynamic-lds", &lds, "--json"]);
    for x in [
        "buf:f32[1000]=iota",
        "buf:f32[1000]=iota",
        "buf:f32[1000]=zeros",
    ] {
        a.extend(["--arg", x]);
    }
    a.extend(["--arg", "i32:1000", "--arg", "null", "--arg", "null"]);
    let o = run(&a, "");
    let j: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(o.status.code(), Some(0), "{j}");
    assert_eq!(j["findings"], serde_json::json!([]));
    let notes = j["notes"].as_array().expect("notes");
    assert!(!notes.is_empty());
    for n in notes {
        assert_eq!(n["kind"], "buffer_out_of_range", "{n}");
        assert_eq!(n["waves"], serde_json::json!([15]), "{n}");
    }
    // The text says so too, and still exits 0.
    a.retain(|x| *x != "--json");
    let o = run(&a, "");
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("note: buffer_out_of_range"), "{text}");
    assert!(
        text.contains(&format!("no findings ({} notes)", notes.len())),
        "{text}"
    );
}

/// 4 rows of 100 values (the kernel's block is 128: masked lanes).
fn rows() -> Vec<f32> {
    (0..400)
        .map(|i| ((i * 37) % 101) as f32 / 10.0 - 5.0)
        .collect()
}

#[test]
fn softmax() {
    let x = rows();
    let j = launch(
        "softmax",
        "4",
        &[
            "buf:f32[400]=zeros".into(),
            format!("buf:f32[400]=file:{}", file("sm", &f32s(&x))),
            "i32:100".into(),
        ],
    );
    let mut want = Vec::new();
    for r in x.chunks(100) {
        let max = r.iter().fold(f64::MIN, |m, &v| m.max(f64::from(v)));
        let e: Vec<f64> = r.iter().map(|&v| (f64::from(v) - max).exp()).collect();
        let sum: f64 = e.iter().sum();
        want.extend(e.iter().map(|v| v / sum));
    }
    let err = max_error(&values(&j["args"][0]["values"]), &want);
    assert!(err < 1e-6, "max error {err}");
}

#[test]
fn layer_norm() {
    let x = rows();
    let w: Vec<f32> = (0..100).map(|i| 1.0 + 0.01 * i as f32).collect();
    let b: Vec<f32> = (0..100).map(|i| 0.5 - 0.02 * i as f32).collect();
    let j = launch(
        "layer_norm",
        "4",
        &[
            "buf:f32[400]=zeros".into(),
            format!("buf:f32[400]=file:{}", file("ln", &f32s(&x))),
            format!("buf:f32[100]=file:{}", file("ln_w", &f32s(&w))),
            format!("buf:f32[100]=file:{}", file("ln_b", &f32s(&b))),
            "i32:100".into(),
            "f32:0.00001".into(),
        ],
    );
    let mut want = Vec::new();
    for r in x.chunks(100) {
        let mean = r.iter().map(|&v| f64::from(v)).sum::<f64>() / 100.0;
        let var = r
            .iter()
            .map(|&v| (f64::from(v) - mean).powi(2))
            .sum::<f64>()
            / 100.0;
        for (c, &v) in r.iter().enumerate() {
            let n = (f64::from(v) - mean) / (var + 1e-5).sqrt();
            want.push(n * f64::from(w[c]) + f64::from(b[c]));
        }
    }
    let err = max_error(&values(&j["args"][0]["values"]), &want);
    assert!(err < 1e-5, "max error {err}");
}

/// An f16's bits for a value that f16 holds exactly (eighths up to ±6 here).
fn f16_bits(v: f32) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let b = v.to_bits();
    let sign = (b >> 16) & 0x8000;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    (sign | (exp as u32) << 10 | (b >> 13) & 0x3ff) as u16
}

/// `tl.dot` of two 64×64 fp16 matrices into fp32 (one 64×64 tile, 4 waves, K in two steps
/// of 32): exact here (the products and sums of eighths fit f32).
#[test]
fn matmul_with_tl_dot() {
    let n = 64;
    let a: Vec<f32> = (0..n * n)
        .map(|i| ((i * 7) % 13) as f32 / 8.0 - 0.75)
        .collect();
    let b: Vec<f32> = (0..n * n)
        .map(|i| ((i * 5) % 11) as f32 / 8.0 - 0.625)
        .collect();
    let half =
        |m: &[f32]| -> Vec<u8> { m.iter().flat_map(|&v| f16_bits(v).to_le_bytes()).collect() };
    let j = launch(
        "matmul",
        "1,1",
        &[
            format!("buf:f16[4096]=file:{}", file("mm_a", &half(&a))),
            format!("buf:f16[4096]=file:{}", file("mm_b", &half(&b))),
            "buf:f32[4096]=zeros".into(),
            "i32:64".into(),
            "i32:64".into(),
            "i32:64".into(),
        ],
    );
    let mut want = vec![0.0f64; n * n];
    for r in 0..n {
        for c in 0..n {
            want[r * n + c] = (0..n)
                .map(|k| f64::from(a[r * n + k]) * f64::from(b[k * n + c]))
                .sum();
        }
    }
    assert_eq!(values(&j["args"][2]["values"]), want);
    // The tile goes through LDS: the report counts its DS instructions.
    let ds = j["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        .filter(|i| {
            i["text"].as_str().is_some_and(|t| t.starts_with("ds_"))
                && i["executions"].as_u64() > Some(0)
        })
        .count();
    assert!(ds > 0);
}

/// The objects hold words llvm-mc-19 (and our disassembler) refuse and the hardware runs:
/// VOP3 words with an unused source field set (such as src2 = 0x80). The executor decodes them as the hardware does; the strict decoder still refuses.
#[test]
fn the_objects_need_the_hardware_decoder() {
    use gpumemsim::isa::Instruction;
    let mut lenient = 0;
    for name in ["vector_add", "softmax", "layer_norm", "matmul"] {
        let bytes = std::fs::read(object(&format!("{name}.hsaco"))).expect("object");
        let obj = gpumemsim::loader::CodeObject::parse(&bytes).expect("a code object");
        let code = &obj.kernels[0].code;
        let mut at = 0;
        while at < code.len() {
            let (_, size) = Instruction::decode_hw(&code[at..]).expect("every word decodes");
            if Instruction::decode(&code[at..]).is_err() {
                lenient += 1;
            }
            at += size;
        }
    }
    // Six in the objects Triton 3.9 built (tools/build_triton.py).
    assert!(lenient > 0, "no word needs decode_hw");
}
