//! `gpumemsim run KERNEL.o --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] --arg ...`: the host
//! side of running a clang-19 code object — kernel arguments in global memory, a workgroup
//! grid, the gfx11 initial register state of every wave, and the buffers read back.

use std::fmt::Write as _;
use std::process::ExitCode;

use gpumemsim::exec::{RunConfig, Schedule, TogetherBecause};
use gpumemsim::launch::{launch, ElementType, KernelArg, Launch, MAX_BLOCK, MAX_BUFFER_ELEMENTS};
use gpumemsim::loader::CodeObject;
use serde_json::{json, Value};

use crate::run_cmd::RunArgs;

/// A value of type `e` read back (its little-endian bytes), as a JSON number.
fn json_value(e: ElementType, b: &[u8]) -> Value {
    let mut x = [0u8; 8];
    x[..b.len()].copy_from_slice(b);
    let u = u64::from_le_bytes(x);
    match e {
        ElementType::I32 => json!(u as u32 as i32),
        ElementType::F32 => json!(f32::from_bits(u as u32)),
        ElementType::F64 => json!(f64::from_bits(u)),
        ElementType::F16 => json!(f32::from_bits(gpumemsim::fp::valu::f16_to_f32(u as u16))),
        _ => json!(u),
    }
}

/// One kernel argument.
#[derive(Debug)]
enum Arg {
    /// A scalar: its type name and bytes.
    Scalar(&'static str, Vec<u8>),
    /// A buffer: element type, initial bytes.
    Buffer(ElementType, Vec<u8>),
}

fn parse_arg(text: &str) -> Result<Arg, String> {
    let bad = |why: &str| format!("--arg {text}: {why}");
    let (kind, rest) = text
        .split_once(':')
        .ok_or_else(|| bad("expected TYPE:VALUE or buf:TYPE[LEN]=INIT"))?;
    if kind != "buf" {
        let e = match kind {
            "u32" | "i32" | "f32" | "u64" => ElementType::from_name(kind),
            _ => None,
        }
        .ok_or_else(|| bad("scalar types are u32, i32, f32, u64"))?;
        let b = e
            .parse_value(rest)
            .ok_or_else(|| bad("value does not fit the type"))?;
        return Ok(Arg::Scalar(e.name(), b));
    }
    let (decl, init) = rest
        .split_once('=')
        .ok_or_else(|| bad("expected buf:TYPE[LEN]=INIT"))?;
    let (ty, len) = decl
        .strip_suffix(']')
        .and_then(|d| d.split_once('['))
        .ok_or_else(|| bad("expected TYPE[LEN]"))?;
    let e = ElementType::from_name(ty)
        .ok_or_else(|| bad("buffer types are u8 u16 u32 i32 u64 f16 f32 f64"))?;
    let len: usize = len
        .parse()
        .ok()
        .filter(|&n| n > 0 && n <= MAX_BUFFER_ELEMENTS)
        .ok_or_else(|| bad("LEN must be 1 to 2^26"))?;
    let n = e.bytes();
    let mut bytes = Vec::with_capacity(len * n);
    if init == "zeros" {
        bytes.resize(len * n, 0);
    } else if init == "iota" {
        for i in 0..len {
            bytes.extend(
                e.parse_value(&i.to_string())
                    .ok_or_else(|| bad("iota overflows the type"))?,
            );
        }
    } else if let Some(seed) = init.strip_prefix("rand:") {
        let mut x: u64 = seed
            .parse()
            .map_err(|_| bad("rand:SEED takes an integer"))?;
        x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        for _ in 0..len * n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            bytes.push(x as u8);
        }
    } else if let Some(path) = init.strip_prefix("file:") {
        bytes = std::fs::read(path).map_err(|e| bad(&format!("{path}: {e}")))?;
        if bytes.len() != len * n {
            return Err(bad(&format!(
                "{path} has {} bytes, not {}",
                bytes.len(),
                len * n
            )));
        }
    } else {
        let vals: Vec<&str> = init.split(',').collect();
        if vals.len() != len {
            return Err(bad(&format!(
                "{} values given for {len} elements",
                vals.len()
            )));
        }
        for v in vals {
            bytes.extend(
                e.parse_value(v)
                    .ok_or_else(|| bad(&format!("`{v}` is not a {ty}")))?,
            );
        }
    }
    Ok(Arg::Buffer(e, bytes))
}

fn parse_dims(opt: &str, text: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("{opt} {text}: expected X[,Y,Z]"));
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = p
            .trim()
            .parse()
            .ok()
            .filter(|&v| v > 0)
            .ok_or_else(|| format!("{opt} {text}: `{p}` is not a positive integer"))?;
    }
    Ok(d)
}

/// The clang-19 build (wave32, -O2) of examples/kernels/transpose.cl that `gpumemsim run`
/// runs when it is given no program.
const BUNDLED: &[u8] = include_bytes!("../../../examples/kernels/transpose.w32.o");

/// `gpumemsim run` without a program: the bundled transpose on one 32×32 float tile (its
/// arguments unless --arg gives others), `transpose_naive` unless --kernel names another.
pub fn run_bundled(args: &RunArgs) -> Result<ExitCode, String> {
    let default_args = [
        "buf:f32[1024]=iota".to_string(),
        "buf:f32[1024]=zeros".to_string(),
    ];
    let list: &[String] = if args.args.is_empty() {
        &default_args
    } else {
        &args.args
    };
    run_kernel(
        args,
        "<bundled transpose.w32.o>",
        BUNDLED,
        Some(("transpose_naive", "32", list)),
    )
}

/// Runs a kernel of code object `bytes` as `args` describes; `defaults` gives the kernel,
/// block and arguments to use where `args` names none (the bundled run).
pub fn run_kernel(
    args: &RunArgs,
    file: &str,
    bytes: &[u8],
    defaults: Option<(&str, &str, &[String])>,
) -> Result<ExitCode, String> {
    let obj = CodeObject::parse(bytes).map_err(|e| format!("{file}: {e}"))?;
    let kernel_name = args.kernel.as_deref().or(defaults.map(|d| d.0));
    let block_text = args
        .block
        .as_deref()
        .or(defaults.map(|d| d.1))
        .unwrap_or("64");
    let arg_list: &[String] = defaults.map_or(&args.args, |d| d.2);
    let kernel = match kernel_name {
        Some(n) => obj.kernel(n).map_err(|e| format!("{file}: {e}"))?,
        None if obj.kernels.len() == 1 => &obj.kernels[0],
        None => {
            let names: Vec<&str> = obj.kernels.iter().map(|k| k.name.as_str()).collect();
            return Err(format!(
                "{file}: choose a kernel with --kernel ({})",
                names.join(", ")
            ));
        }
    };
    let d = kernel.descriptor;
    let wave_size = if d.wave32() { 32 } else { 64 };
    if args.wave64 && wave_size == 32 {
        return Err(format!(
            "{file}: kernel `{}` was built for wave32",
            kernel.name
        ));
    }
    let grid = parse_dims("--grid", &args.grid)?;
    let block = parse_dims("--block", block_text)?;
    if block.iter().map(|&b| b as u64).product::<u64>() > MAX_BLOCK as u64 {
        return Err(format!(
            "--block {block_text}: at most {MAX_BLOCK} work-items per workgroup"
        ));
    }
    let config = crate::run_cmd::device_config(args)?;
    let kernel_args: Vec<Arg> = arg_list
        .iter()
        .map(|a| parse_arg(a))
        .collect::<Result<_, _>>()?;
    let total_waves = grid.iter().map(|&g| u64::from(g)).product::<u64>()
        * u64::from(block.iter().product::<u32>().div_ceil(wave_size));
    let bar = crate::progress::ProgressBar::start(total_waves, args.json);
    let done = launch(&Launch {
        grid,
        block,
        args: kernel_args
            .iter()
            .map(|a| match a {
                Arg::Scalar(_, b) => KernelArg::Scalar(b.clone()),
                Arg::Buffer(_, b) => KernelArg::Buffer(b.clone()),
            })
            .collect(),
        config: RunConfig {
            record_ds: args.html.is_some(),
            progress: bar.counters(),
            ..config.clone()
        },
        ..Launch::new(kernel)
    })
    .map_err(|e| format!("{file}: {e}"))?;
    bar.finish();
    let (lines, run) = (&done.program, &done.run);
    let result = &run.result;
    let dev = &run.device;
    let mut arg_values = Vec::new();
    for a in &kernel_args {
        match a {
            Arg::Scalar(t, b) => arg_values.push(
                json!({"type": t, "value": ElementType::from_name(t).map_or(json!(null), |e| json_value(e, b))}),
            ),
            Arg::Buffer(e, _) => {
                let i = arg_values.len();
                let (addr, raw) = (done.addresses[i], &done.buffers[i]);
                let n = e.bytes();
                if let Some(dir) = &args.out_dir {
                    let p = std::path::Path::new(dir).join(format!(
                        "arg{}.{}.bin",
                        arg_values.len(),
                        e.name()
                    ));
                    std::fs::create_dir_all(dir).map_err(|err| format!("{dir}: {err}"))?;
                    std::fs::write(&p, raw).map_err(|err| format!("{}: {err}", p.display()))?;
                }
                let values: Vec<Value> = raw.chunks(n).map(|c| json_value(*e, c)).collect();
                arg_values.push(json!({"type": e.name(), "address": addr, "values": values}));
            }
        }
    }
    let error = result.as_ref().err().map(|e| format!("{file}: {e}"));
    let events: Vec<Value> = dev
        .events
        .iter()
        .map(|e| json!({"kind": e.kind, "wave": e.wave, "pc": e.pc, "cycle": e.cycle, "message": e.message}))
        .collect();
    if args.json {
        let mut obj = json!({
            "kernel": kernel.name,
            "args": arg_values,
            "events": events,
            "instructions": crate::run_cmd::instructions_json(lines, dev),
            "cycles": dev.cycles(),
            "totals": crate::run_cmd::totals_json(dev),
            "timing": crate::run_cmd::timing_json(&config),
            "steps": dev.steps,
            "grid": grid,
            "block": block,
            "wave_size": done.wave_size,
            "schedule": schedule_json(&run.schedule, &run.together_because),
        });
        if let Some(e) = &error {
            obj["error"] = json!(e);
        }
        outln!("{obj}");
    } else {
        let mut s = crate::run_cmd::summary(lines, dev, &serde_json::Map::new());
        for (i, a) in arg_values.iter().enumerate() {
            let _ = writeln!(s, "\narg {i}: {a}");
        }
        out!("{s}");
    }
    if let Some(path) = &args.html {
        let source = crate::html_out::RunSource {
            title: &kernel.name,
            file,
            error: error.clone(),
        };
        crate::html_out::write_run_report(path, source, lines, dev, &config.banks)?;
    }
    if let Some(e) = error {
        eprintln!("error: {e}");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// How the grid ran, for `--json`: `{"workgroups": "apart", "threads": N}` or
/// `{"workgroups": "together", "reason": ...}`.
pub fn schedule_json(schedule: &Schedule, because: &TogetherBecause) -> Value {
    match schedule {
        Schedule::Apart { threads } => json!({"workgroups": "apart", "threads": threads}),
        Schedule::Together => json!({
            "workgroups": "together",
            "reason": because.to_string(),
        }),
    }
}
