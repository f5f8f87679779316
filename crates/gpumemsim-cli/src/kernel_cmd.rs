//! `gpumemsim run KERNEL.o --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] --arg ...`: the host
//! side of running a clang-19 code object — kernel arguments in global memory, a workgroup
//! grid, the gfx11 initial register state of every wave, and the buffers read back.

use std::fmt::Write as _;
use std::process::ExitCode;

use gpumemsim::exec::{RunConfig, Schedule, TogetherBecause};
use gpumemsim::launch::{launch, ElementType, KernelArg, Launch, MAX_BLOCK, MAX_BUFFER_ELEMENTS};
use gpumemsim::loader::{CodeObject, Kernel};
use serde_json::{json, Value};

use crate::buffer_json::{json_value, summarise_with, ArgOut, BufferValues, Report};
use crate::check_text::Checked;
use crate::launch_args::{device_config, LaunchArgs};
use crate::output::{Output, Ran as Finished, RunArgs};

/// One kernel argument.
#[derive(Debug)]
enum Arg {
    /// A scalar: its type and bytes.
    Scalar(ElementType, Vec<u8>),
    /// A buffer: element type, initial bytes.
    Buffer(ElementType, Vec<u8>),
    /// An OpenCL `__local` pointer argument: bytes of LDS.
    Local(u32),
    /// A null pointer (`--arg null`).
    Null,
}

fn parse_arg(text: &str) -> Result<Arg, String> {
    let bad = |why: &str| format!("--arg {text}: {why}");
    if text == "null" {
        return Ok(Arg::Null);
    }
    let (kind, rest) = text
        .split_once(':')
        .ok_or_else(|| bad("expected TYPE:VALUE, buf:TYPE[LEN]=INIT, local:BYTES or null"))?;
    if kind == "local" {
        let n = parse_u32(rest)
            .filter(|&n| n > 0 && n <= gpumemsim::lds::MAX_ALLOCATION)
            .ok_or_else(|| bad("local:BYTES takes 1 to 65536 bytes"))?;
        return Ok(Arg::Local(n));
    }
    if kind != "buf" {
        let e = ElementType::from_name(kind).ok_or_else(|| {
            bad("scalar types are u8 u16 u32 i32 u64 i64 f16 f32 f64; buf:TYPE[LEN]=INIT is a buffer, local:BYTES local memory")
        })?;
        let b = e
            .parse_value(rest)
            .ok_or_else(|| bad("value does not fit the type"))?;
        return Ok(Arg::Scalar(e, b));
    }
    let (decl, init) = rest
        .split_once('=')
        .ok_or_else(|| bad("expected buf:TYPE[LEN]=INIT"))?;
    let (ty, len) = decl
        .strip_suffix(']')
        .and_then(|d| d.split_once('['))
        .ok_or_else(|| bad("expected TYPE[LEN]"))?;
    let e = ElementType::from_name(ty)
        .ok_or_else(|| bad("buffer types are u8 u16 u32 i32 u64 i64 f16 f32 f64"))?;
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
        bytes = e.iota(len).ok_or_else(|| bad("iota overflows the type"))?;
    } else if let Some(seed) = init.strip_prefix("rand:") {
        let seed: u64 = seed
            .parse()
            .map_err(|_| bad("rand:SEED takes an integer"))?;
        bytes = gpumemsim::xorshift::rand_bytes(seed, len * n);
    } else if let Some(path) = init.strip_prefix("file:") {
        // Read at most one byte more than the buffer needs: enough to tell a file that is
        // too long (a device such as /dev/zero never ends).
        let want = len * n;
        let mut f = std::fs::File::open(path).map_err(|e| bad(&format!("{path}: {e}")))?;
        std::io::Read::read_to_end(
            &mut std::io::Read::take(&mut f, want as u64 + 1),
            &mut bytes,
        )
        .map_err(|e| bad(&format!("{path}: {e}")))?;
        if bytes.len() != want {
            let has = if bytes.len() > want {
                format!("more than {want}")
            } else {
                bytes.len().to_string()
            };
            return Err(bad(&format!("{path} has {has} bytes, not {want}")));
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

/// A byte count in decimal or 0x-hex.
fn parse_u32(text: &str) -> Option<u32> {
    let t = text.trim();
    match t.strip_prefix("0x") {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
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
/// Its source, as its line table names it, for the report's source lines.
const BUNDLED_SOURCE: (&str, &str) = (
    "./examples/kernels/transpose.cl",
    include_str!("../../../examples/kernels/transpose.cl"),
);

/// `gpumemsim run` without a program: the bundled transpose on one 32×32 float tile (its
/// arguments unless --arg gives others), `transpose_naive` unless --kernel names another.
pub fn run_bundled(args: &LaunchArgs, out: Output) -> Result<ExitCode, String> {
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
        out,
        "<bundled transpose.w32.o>",
        BUNDLED,
        Some(("transpose_naive", "32", list)),
    )
}

/// Parses the `--arg` list and checks each scalar's type against the kernel's metadata (size,
/// float or integer) and each buffer's element type against the type its pointer names; the
/// launch checks the count and the kinds.
fn kernel_args(list: &[String], kernel: &Kernel) -> Result<Vec<Arg>, String> {
    let parsed: Vec<Arg> = list
        .iter()
        .map(|a| parse_arg(a))
        .collect::<Result<_, _>>()?;
    let Some(meta) = &kernel.metadata else {
        return Ok(parsed);
    };
    let explicit = meta.args.iter().filter(|m| !m.is_hidden());
    for (i, ((m, a), text)) in explicit.zip(&parsed).zip(list).enumerate() {
        let checked = match a {
            Arg::Scalar(e, _) => gpumemsim::launch::check_scalar_type(i, m, *e),
            Arg::Buffer(e, _) => gpumemsim::launch::check_buffer_type(i, m, *e),
            _ => Ok(()),
        };
        checked.map_err(|e| format!("--arg {text}: {e}"))?;
    }
    Ok(parsed)
}

impl Arg {
    /// The argument for the launch. A buffer's bytes move to it (the report reads the
    /// buffers back from the run, and needs only the element type here): a 16 MB buffer is
    /// not held twice.
    fn take_launch_arg(&mut self) -> KernelArg {
        match self {
            Arg::Scalar(_, b) => KernelArg::Scalar(b.clone()),
            Arg::Buffer(_, b) => KernelArg::Buffer(std::mem::take(b)),
            Arg::Local(n) => KernelArg::Local(*n),
            Arg::Null => KernelArg::Null,
        }
    }
}

/// Runs a kernel of code object `bytes` as `args` describes and reports it as `out` asks;
/// `defaults` gives the kernel, block and arguments to use where `args` names none (the
/// bundled run).
pub fn run_kernel(
    args: &LaunchArgs,
    out: Output,
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
    let kernel = obj
        .choose(kernel_name)
        .map_err(|e| format!("{file}: {e}"))?;
    if let Some(chip) = args.arch.filter(|c| c.name != kernel.target) {
        return Err(format!(
            "{file}: --arch {}: the code object is for {} (a code object runs on the chip it was \
             built for; leave out --arch)",
            chip.name, kernel.target
        ));
    }
    let d = kernel.descriptor;
    let wave_size = if d.wave32() { 32 } else { 64 };
    if args.wave64 && wave_size == 32 {
        return Err(format!(
            "{file}: kernel `{}` was built for wave32",
            kernel.display_name()
        ));
    }
    let grid = parse_dims("--grid", &args.grid)?;
    let block = parse_dims("--block", block_text)?;
    if block.iter().map(|&b| b as u64).product::<u64>() > MAX_BLOCK as u64 {
        return Err(format!(
            "--block {block_text}: at most {MAX_BLOCK} work-items per workgroup"
        ));
    }
    // The kernel's chip's bank model and timing (unless chosen), which the report gives.
    let mut config = gpumemsim::launch::on_chip(&device_config(args)?, kernel);
    crate::launch_args::apply_device(args, kernel.target, &mut config)?;
    let mut kernel_args = kernel_args(arg_list, kernel).map_err(|e| format!("{file}: {e}"))?;
    let symbols =
        crate::symbols::parse_symbols(&args.symbols, kernel).map_err(|e| format!("{file}: {e}"))?;
    let total_waves = grid.iter().map(|&g| u64::from(g)).product::<u64>()
        * u64::from(block.iter().product::<u32>().div_ceil(wave_size));
    let bar = crate::progress::ProgressBar::start(total_waves, out.json());
    let done = launch(&Launch {
        grid,
        block,
        args: kernel_args.iter_mut().map(Arg::take_launch_arg).collect(),
        dynamic_lds: args.dynamic_lds,
        sample: args.sample,
        symbols: symbols
            .iter()
            .map(|s| (s.name.clone(), s.bytes.clone()))
            .collect(),
        config: RunConfig {
            record_samples: out.html().is_some(),
            record_timeline: out.html().is_some(),
            progress: bar.counters(),
            ..config.clone()
        },
        ..Launch::new(kernel)
    })
    .map_err(|e| format!("{file}: {e}"))?;
    bar.finish();
    let (lines, run) = (&done.program, &done.run);
    let dev = &run.device;
    let name = kernel.display_name();
    let sources = gpumemsim::report::kernel_sources(kernel, lines);
    let error = run.result.as_ref().err().map(|e| {
        format!(
            "{file}: {}",
            gpumemsim::report::kernel_error(e, kernel, lines, &sources)
        )
    });
    let mut texts = gpumemsim::report::SourceTexts::near(std::path::Path::new(file));
    if defaults.is_some() {
        texts.insert(BUNDLED_SOURCE.0, BUNDLED_SOURCE.1);
    }
    let finished = Finished {
        checked: Checked {
            title: &format!("kernel `{name}`"),
            program: lines,
            base: kernel.address,
            sources: &sources,
            device: dev,
            error: error.as_deref(),
        },
        html_title: &name,
        file,
        banks: &config.banks,
    };
    out.report(&finished, &mut texts, |run_args, texts| {
        let ran = Ran {
            kernel,
            kernel_args: &kernel_args,
            done: &done,
            config: &config,
            grid,
            block,
            sources: &sources,
            error: error.as_deref(),
            symbols: &symbols,
        };
        report_kernel(run_args, &ran, texts)
    })
}

/// A kernel that has run, for `run`'s report.
struct Ran<'a> {
    kernel: &'a Kernel,
    kernel_args: &'a [Arg],
    done: &'a gpumemsim::launch::Launched,
    config: &'a RunConfig,
    grid: [u32; 3],
    block: [u32; 3],
    sources: &'a [Option<gpumemsim::report::InstSource>],
    error: Option<&'a str>,
    symbols: &'a [crate::symbols::SymbolSetting],
}

/// `run`'s report of a kernel: one JSON object (`--json`) or the text report; the buffers to
/// `--out-dir`.
fn report_kernel(
    args: &RunArgs,
    ran: &Ran,
    texts: &mut gpumemsim::report::SourceTexts,
) -> Result<(), String> {
    let (kernel, done, sources) = (ran.kernel, ran.done, ran.sources);
    let (lines, run) = (&done.program, &done.run);
    let dev = &run.device;
    let arg_values = args_json(kernel, ran.kernel_args, done, args.out_dir.as_deref())?;
    let arg_values = &arg_values;
    let name = kernel.display_name();
    let resources = gpumemsim::occupancy::Resources::of_kernel(kernel)
        .with_dynamic_lds(done.lds_bytes - kernel.descriptor.group_segment_fixed_size)
        .with_workgroup_size(ran.block.iter().product());
    let occupancy = gpumemsim::occupancy::occupancy(&resources, &kernel.chip().limits);
    let mut obj = json!({
        "kernel": name,
        "target": kernel.target,
        "symbol": kernel.name,
        "events": gpumemsim::report::json::events(lines, kernel.address, dev, sources),
        "instructions": gpumemsim::report::json::instructions(lines, kernel.address, dev, sources),
        "lines": gpumemsim::report::json::lines(lines, kernel.address, dev, sources, texts),
        "calls": gpumemsim::report::json::calls(lines, kernel.address, dev, sources, Some(kernel)),
        "cycles": dev.cycles(),
        "totals": gpumemsim::report::json::totals(dev),
        "timing": gpumemsim::report::json::timing(ran.config),
        "device": gpumemsim::report::json::device(dev),
        "placement": gpumemsim::report::json::placement(dev),
        "units": gpumemsim::report::json::units(dev),
        "vcache": gpumemsim::report::json::vcache(dev),
        "delay_alu": gpumemsim::report::json::delay_alu(lines, kernel.address, dev),
        "steps": dev.steps(),
        "grid": ran.grid,
        "block": ran.block,
        "wave_size": done.wave_size,
        "lds_bytes": done.lds_bytes,
        "resources": gpumemsim::report::json::resources(&resources, &occupancy),
        "counters": gpumemsim::report::json::counters(lines, dev),
        "schedule": schedule_json(&run.schedule, &run.together_because),
    });
    // Written from the bytes (buffer_json): a buffer's values can be millions of elements.
    obj["args"] = Value::Null;
    obj["symbols"] = crate::symbols::symbols_json(&done.symbols, ran.symbols);
    obj["printf"] = json!(done.printf);
    if let Some((k, total)) = done.sampled {
        obj["sampled"] = json!({"workgroups": k, "of": total});
    }
    if let Some(e) = ran.error {
        obj["error"] = json!(e);
    }
    if dev.functional() {
        gpumemsim::report::json::functional_view(&mut obj);
    }
    let baseline = crate::run_report::baseline_diff(args, &mut obj)?;
    if args.json {
        let report = Report {
            obj: obj.as_object().expect("the report is an object"),
            args: arg_values,
        };
        write_json(&report);
    } else {
        let view = crate::run_text::TextView {
            title: format!("kernel `{name}`"),
            program: lines,
            sources,
            base: kernel.address,
            device: dev,
            top: args.top,
            by: args.by,
        };
        let mut s = crate::run_text::render(&view, texts, &serde_json::Map::new());
        let at = s.find("\n\n").unwrap_or(s.len());
        s.insert_str(at, &format!("\n{}", resources_text(&resources, &occupancy)));
        if let Some((k, total)) = done.sampled {
            s.insert_str(
                at,
                &format!(
                    "\n  sampled      {k} of {total} workgroups: the figures per line and instruction are scaled to the grid (× {:.2}); the kernel time, events and buffers are the sample's",
                    total as f64 / f64::from(k)
                ),
            );
        }
        if args.counters {
            s.push_str(&crate::run_report::counters_text(lines, dev));
        }
        let calls = crate::run_text::calls_text(lines, dev, sources, kernel);
        if !calls.is_empty() {
            let _ = writeln!(s, "\ncalls:");
            s.push_str(&calls);
        }
        if !done.printf.is_empty() {
            let _ = writeln!(s, "\nprintf ({} calls):", done.printf.len());
            for p in &done.printf {
                s.push_str(p);
                if !p.ends_with('\n') {
                    s.push('\n');
                }
            }
        }
        if !done.symbols.is_empty() {
            let _ = writeln!(s, "\nsymbols:");
            s.push_str(&crate::symbols::symbols_text(&done.symbols, ran.symbols));
        }
        let _ = writeln!(s, "\nargs:");
        for (i, a) in arg_values.iter().enumerate() {
            let _ = writeln!(s, "  {i} {}", arg_text(a, args.full));
        }
        s.push_str(&baseline);
        out!("{s}");
    }
    Ok(())
}

/// The header line of resources and occupancy.
fn resources_text(
    r: &gpumemsim::occupancy::Resources,
    o: &gpumemsim::occupancy::Occupancy,
) -> String {
    let agprs = match r.agprs {
        0 => String::new(),
        n => format!(", {n} AGPRs"),
    };
    format!(
        "  resources    {} VGPRs{agprs}, {} SGPRs, {} bytes of LDS ({} static + {} dynamic), {} bytes of scratch per lane: {} waves per SIMD (limited by {})",
        r.vgprs,
        r.sgprs,
        r.lds_bytes(),
        r.static_lds_bytes,
        r.dynamic_lds_bytes,
        r.scratch_bytes_per_lane,
        o.waves_per_simd,
        o.limited_by.name()
    )
}

/// One argument of the text report: `` `out` buffer i32 at 0x100000000: 4 values ... ``.
fn arg_text(a: &ArgOut, full: bool) -> String {
    let f = |k: &str| a.fields.get(k).unwrap_or(&Value::Null);
    let name = f("name")
        .as_str()
        .map_or(String::new(), |n| format!("`{n}` "));
    if let Some(v) = &a.values {
        return format!(
            "{name}buffer {} at {:#x}: {}",
            f("type").as_str().unwrap_or(""),
            f("address").as_u64().unwrap_or(0),
            summarise_with(v.len(), full, |i| v.get(i), || v.extremes())
        );
    }
    match f("kind").as_str() {
        Some("local") => format!(
            "{name}local memory: {} bytes at LDS offset {}",
            f("size"),
            f("offset")
        ),
        Some("null") => format!("{name}null pointer"),
        _ => format!(
            "{name}{} {}",
            f("type").as_str().unwrap_or(""),
            crate::run_text::value_text(f("value"))
        ),
    }
}

/// Writes `report` and a newline to standard output, without building its text first.
fn write_json(report: &Report) {
    use std::io::Write as _;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // A closed pipe is not an error of the run (as with `outln!`).
    let _ = crate::buffer_json::write_compact(&mut out, report).map(|()| writeln!(out));
    let _ = out.flush();
}

/// `--json`'s `"args"`: one entry per kernel argument, in order (a value's type and value, a
/// buffer's address and final values, a local argument's LDS offset and size), each with its
/// name where the metadata has one. Buffers also go to `out_dir` when asked.
fn args_json<'a>(
    kernel: &Kernel,
    kernel_args: &[Arg],
    done: &'a gpumemsim::launch::Launched,
    out_dir: Option<&str>,
) -> Result<Vec<ArgOut<'a>>, String> {
    let names: Vec<Option<String>> = match &kernel.metadata {
        Some(m) => m
            .args
            .iter()
            .filter(|a| !a.is_hidden())
            .map(|a| a.name.clone())
            .collect(),
        None => Vec::new(),
    };
    let mut out = Vec::new();
    for (i, a) in kernel_args.iter().enumerate() {
        let at = done.addresses[i];
        let mut fields = serde_json::Map::new();
        let mut put = |k: &str, v: Value| fields.insert(k.into(), v);
        let values = match a {
            Arg::Scalar(e, b) => {
                put("kind", json!("value"));
                put("type", json!(e.name()));
                put("value", json_value(*e, b));
                None
            }
            Arg::Local(n) => {
                put("kind", json!("local"));
                put("offset", json!(at));
                put("size", json!(n));
                None
            }
            Arg::Null => {
                put("kind", json!("null"));
                None
            }
            Arg::Buffer(e, _) => {
                let raw = &done.buffers[i];
                if let Some(dir) = out_dir {
                    let p = std::path::Path::new(dir).join(format!("arg{i}.{}.bin", e.name()));
                    std::fs::create_dir_all(dir).map_err(|err| format!("{dir}: {err}"))?;
                    std::fs::write(&p, raw).map_err(|err| format!("{}: {err}", p.display()))?;
                }
                put("kind", json!("buffer"));
                put("type", json!(e.name()));
                put("address", json!(at));
                // Written from the bytes in its place (buffer_json::ArgOut).
                put("values", Value::Null);
                Some(BufferValues { elem: *e, raw })
            }
        };
        if let Some(Some(n)) = names.get(i) {
            put("name", json!(n));
        }
        out.push(ArgOut { fields, values });
    }
    Ok(out)
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
