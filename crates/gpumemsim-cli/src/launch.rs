//! The launch path of `gpumemsim run` and `gpumemsim check`: what the program is (the bundled
//! kernel, an assembly program, a code object, or a source compiled first), and the run of an
//! assembly program (code objects go to [`crate::kernel_cmd`]).

use std::process::ExitCode;

use gpumemsim::exec::{Device, RunConfig};
use gpumemsim::expr::Expr;
use gpumemsim::isa::asm::assemble_in;
use gpumemsim::isa::Wave;

use crate::check_text::Checked;
use crate::input::{read_input_bytes, MAX_PROGRAM_INPUT, MAX_TEXT_INPUT};
use crate::launch_args::{device_config, parse_pair, parse_target, parse_u64, LaunchArgs, Target};
use crate::output::{Output, Ran};
use crate::run_report::{dump_value, report_assembly, AssemblyReport};
use serde_json::Map;

/// Runs what `args` names — the bundled kernel, an assembly program, a code object, or a
/// source compiled first — and reports it as `out` asks.
pub fn launch(args: &LaunchArgs, out: Output) -> Result<ExitCode, String> {
    // An HTML report that cannot be written is an error before any work.
    if let Some(path) = out.html() {
        check_writable(path)?;
    }
    let Some(program) = &args.program else {
        return crate::kernel_cmd::run_bundled(args, out);
    };
    if let Some(bytes) = compile_source(args, program)? {
        return crate::kernel_cmd::run_kernel(args, out, program, &bytes, None);
    }
    // Read the input once (a pipe cannot be read twice), then tell a code object from text.
    let (name, bytes) = read_input_bytes(program, MAX_PROGRAM_INPUT)?;
    if bytes.starts_with(b"\x7fELF") || bytes.starts_with(b"__CLANG_OFFLOAD_BUNDLE__") {
        return crate::kernel_cmd::run_kernel(args, out, &name, &bytes, None);
    }
    let text = assembly_text(&name, bytes)?;
    run_assembly(args, out, &name, &text)
}

/// A source program (by --lang or its extension: `.cl`, `.hip`, `.cu`, `.cpp`, ...) compiled to a code object with clang-19; `None` for any
/// other program.
fn compile_source(args: &LaunchArgs, program: &str) -> Result<Option<Vec<u8>>, String> {
    let path = std::path::Path::new(program);
    use gpumemsim::loader::source::Language;
    let lang = match args.lang.as_deref() {
        Some("asm") => None,
        Some(name) => Language::from_name(name),
        None if program == "-" => None,
        None => Language::of_path(path),
    };
    let Some(lang) = lang else {
        if args.keep_object.is_some() {
            return Err(format!(
                "--keep-object: {program} is not a source that gpumemsim compiles (give --lang opencl|hip for a source without a source extension)"
            ));
        }
        return Ok(None);
    };
    if program == "-" {
        return Err("--lang: a source is compiled from a file, not from standard input".into());
    }
    let build = gpumemsim::loader::source::SourceBuild {
        clang: args.clang.as_ref().map(Into::into),
        device_libs: args.device_libs.as_ref().map(Into::into),
        wave64: args.wave64,
        target: args.arch,
        cflags: args
            .cflags
            .as_deref()
            .map(|f| f.split_whitespace().map(String::from).collect())
            .unwrap_or_default(),
        opencl_library: None,
        timeout: Some(std::time::Duration::from_secs(args.compile_timeout)),
        memory_mib: Some(args.compile_memory),
    };
    let bytes = gpumemsim::loader::source::compile(path, lang, &build)?;
    if let Some(keep) = &args.keep_object {
        std::fs::write(keep, &bytes).map_err(|e| format!("--keep-object {keep}: {e}"))?;
    }
    Ok(Some(bytes))
}

/// The input `name` as assembly text: at most [`MAX_TEXT_INPUT`] bytes of UTF-8.
fn assembly_text(name: &str, bytes: Vec<u8>) -> Result<String, String> {
    if bytes.len() as u64 > MAX_TEXT_INPUT {
        return Err(format!(
            "{name}: assembly text is larger than {} MiB, the most gpumemsim assembles",
            MAX_TEXT_INPUT >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|_| {
        format!("{name}: neither assembly text (it is not UTF-8) nor a code object (no ELF or offload-bundle header)")
    })
}

/// Assembles `text` (file `name`), runs it on a device the launch options describe and
/// reports it as `out` asks. Assembly errors are printed with their places, exit status 1.
fn run_assembly(
    args: &LaunchArgs,
    out: Output,
    name: &str,
    text: &str,
) -> Result<ExitCode, String> {
    if args.sample.is_some() {
        return Err(
            "--sample is for code objects: an assembly program runs the --workgroups given".into(),
        );
    }
    // `--arch gfx942`: gfx942 text (wave64), lowered to what the executor runs.
    let chip = args.arch.unwrap_or(&gpumemsim::target::GFX1100);
    let mut prog = assemble_in(chip.isa, text, Wave::W32);
    // Data directives among the instructions run as the words they hold.
    match prog.executable_lines_with(|b| chip.decode(b)) {
        Ok(lines) => prog.lines = lines,
        Err(e) => prog.errors.push(e),
    }
    let accum_offset = chip.lower_assembly(&mut prog.lines);
    if !prog.errors.is_empty() {
        for e in &prog.errors {
            eprintln!("{name}:{}:{}: error: {}", e.line, e.col, e.msg);
        }
        return Ok(ExitCode::from(1));
    }
    let bar = crate::progress::ProgressBar::start(
        u64::from(args.waves) * u64::from(args.workgroups),
        out.json(),
    );
    let mut device = device_config(args)?;
    if chip.isa != gpumemsim::isa::Isa::Gfx11 {
        // (CDNA runs wave64 only.)
        device = gpumemsim::launch::for_chip(&device, chip);
        device.wave_size = chip.default_wave_size;
        device.accum_offset = accum_offset;
    }
    crate::launch_args::apply_device(args, chip.name, &mut device)?;
    // Waves are made as their workgroups start and released when they end, so memory follows
    // the resident workgroups; but a dump of registers or LDS reads every wave (or workgroup
    // 0's LDS) after the run, and then every wave is kept.
    let keep_waves = match out {
        Output::Run(r) => r
            .dumps
            .iter()
            .any(|d| !d.starts_with("mem:") && !d.starts_with("gds:")),
        _ => false,
    };
    let cfg = RunConfig {
        record_samples: out.html().is_some(),
        record_timeline: out.html().is_some(),
        progress: bar.counters(),
        release_finished: !keep_waves,
        ..device
    };
    check_scratch(args, &cfg)?;
    let sets = std::sync::Arc::new(parse_sets(&args.sets)?);
    // The first wave a --set fails on, for waves set up as they start (reported after the run).
    let failed: std::sync::Arc<std::sync::Mutex<Option<String>>> = Default::default();
    let init: gpumemsim::exec::WaveInit = {
        let (sets, failed) = (sets.clone(), failed.clone());
        std::sync::Arc::new(move |group, w| {
            if let Err(e) = set_wave(&sets, group, w) {
                failed.lock().expect("not poisoned").get_or_insert(e);
            }
        })
    };
    check_sets(&sets, &cfg)?;
    let mut wg = Device::with_init(&cfg, &prog.lines, init).map_err(|e| e.to_string())?;
    if let Some(e) = failed.lock().expect("not poisoned").take() {
        // Waves made up front were set up already.
        return Err(e);
    }
    prepare_device(args, &mut wg)?;
    // Check dump requests before running, so a typo does not waste a run.
    if let Output::Run(r) = out {
        for d in &r.dumps {
            dump_value(d, &wg)?;
        }
    }
    let result = wg.run(&prog.lines, &cfg);
    bar.finish();
    if let Some(e) = failed.lock().expect("not poisoned").take() {
        return Err(e);
    }
    let sources = gpumemsim::report::assembly_sources(name, &prog.lines);
    let mut texts = gpumemsim::report::SourceTexts::new();
    if name == "<stdin>" {
        texts.insert(name, text);
    }
    let error = result.as_ref().err().map(|e| format!("{name}: {e}"));
    let ran = Ran {
        checked: Checked {
            title: name,
            program: &prog.lines,
            base: 0,
            sources: &sources,
            device: &wg,
            error: error.as_deref(),
        },
        html_title: name,
        file: name,
        banks: &cfg.banks,
    };
    out.report(&ran, &mut texts, |run, texts| {
        let mut dumps = Map::new();
        for d in &run.dumps {
            dumps.insert(d.clone(), dump_value(d, &wg)?);
        }
        let report = AssemblyReport {
            config: &cfg,
            name,
            program: &prog.lines,
            device: &wg,
            sources: &sources,
        };
        report_assembly(run, &report, texts, dumps, error.as_deref())
    })
}

/// Sets up the device before an assembly run as the launch options say: `--mem` words of
/// global memory and `--gws-init` counters (`--set` registers are set as each wave is made).
fn prepare_device(args: &LaunchArgs, wg: &mut Device) -> Result<(), String> {
    for m in &args.mems {
        let (addr, words) = parse_mem(m)?;
        wg.memory_mut().write_words(addr, &words);
    }
    for g in &args.gws_init {
        let (rid, v) = parse_pair("--gws-init", g)?;
        if rid >= 64 {
            return Err(format!("--gws-init {g}: resource ids are 0-63"));
        }
        if v > GWS_COUNTER_MAX {
            return Err(format!(
                "--gws-init {g}: {v} does not fit a GWS counter, which has 12 bits (at most {GWS_COUNTER_MAX})"
            ));
        }
        wg.gws_mut().resources[rid as usize].counter = v as u32;
    }
    Ok(())
}

/// `--html PATH`: checks before the run that PATH can be written (a file there is left as it
/// is; one that is created for the check is removed again).
fn check_writable(path: &str) -> Result<(), String> {
    let p = std::path::Path::new(path);
    let existed = p.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(p)
        .map_err(|e| format!("--html {path}: cannot write the report there: {e}"))?;
    if !existed {
        let _ = std::fs::remove_file(p);
    }
    Ok(())
}

/// `--scratch-size` and `--scratch-base` against gfx1100's limit per lane and the 48-bit
/// address space (the library checks them too; this names the options).
fn check_scratch(args: &LaunchArgs, cfg: &RunConfig) -> Result<(), String> {
    let max = gpumemsim::exec::max_scratch_per_lane(cfg.wave_size);
    if cfg.scratch_size > max {
        return Err(format!(
            "--scratch-size {}: at most {max} bytes per lane in wave{} (gfx1100's \
             COMPUTE_TMPRING_SIZE.WAVESIZE allows {} bytes of scratch per wave)",
            args.scratch_size,
            cfg.wave_size,
            gpumemsim::exec::MAX_WAVE_SCRATCH_BYTES
        ));
    }
    let limit = 1u64 << gpumemsim::addr::ADDRESS_BITS;
    let waves = u64::from(cfg.waves) * u64::from(cfg.workgroups);
    let bytes = waves * u64::from(cfg.wave_size) * u64::from(cfg.scratch_size);
    let end = cfg.scratch_base.checked_add(bytes);
    if end.is_none_or(|e| e > limit) || cfg.scratch_base >= limit {
        return Err(format!(
            "--scratch-base {:#x}: the grid's scratch ({waves} waves × {} lanes × {} bytes = {bytes:#x} bytes) runs past the 48-bit address space ({limit:#x})",
            cfg.scratch_base, cfg.wave_size, cfg.scratch_size
        ));
    }
    Ok(())
}

/// One `--set REG=VALUE`: its text, the register and the value's expression.
pub(crate) struct RegSet {
    text: String,
    target: Target,
    value: Expr,
}

/// Parses `--set REG=VALUE` options (the expressions checked, not yet evaluated).
pub(crate) fn parse_sets(sets: &[String]) -> Result<Vec<RegSet>, String> {
    sets.iter()
        .map(|s| {
            let Some((reg, value)) = s.split_once('=') else {
                return Err(format!("--set {s}: expected REG=VALUE"));
            };
            let target = parse_target(reg.trim())?;
            let vars: &[&str] = match target {
                Target::Vgpr(_) => &["lane", "wave", "group"],
                _ => &["wave", "group"],
            };
            let value = Expr::parse(value, vars)
                .map_err(|e| format!("--set {s}: column {}: {}", e.col + reg.len() + 1, e.msg))?;
            Ok(RegSet {
                text: s.clone(),
                target,
                value,
            })
        })
        .collect()
}

/// `--set` values that do not fit their registers, found before the run: each set evaluated
/// for the first and the last wave of the grid (a value past a register's width for a wave
/// in between is reported after the run).
fn check_sets(sets: &[RegSet], cfg: &RunConfig) -> Result<(), String> {
    let last_group = cfg.workgroups.saturating_sub(1);
    let waves = u64::from(cfg.waves) * u64::from(cfg.workgroups);
    for (group, id) in [(0, 0), (last_group, waves.saturating_sub(1))] {
        let mut w = gpumemsim::wave::Wave::new(id as u32, cfg.wave_size);
        set_wave(sets, group, &mut w)?;
    }
    Ok(())
}

/// Sets wave `w` (of workgroup `group`) as `sets` say; an error names the `--set` whose value
/// does not fit its register.
pub(crate) fn set_wave(
    sets: &[RegSet],
    group: u32,
    w: &mut gpumemsim::wave::Wave,
) -> Result<(), String> {
    let size = w.size;
    for set in sets {
        let s = &set.text;
        let reg = s.split_once('=').map_or(s.as_str(), |(r, _)| r).trim();
        let wave_id = w.id as i64;
        let lanes = if matches!(set.target, Target::Vgpr(_)) {
            size
        } else {
            1
        };
        for lane in 0..lanes {
            let v = set
                .value
                .eval(&|n| match n {
                    "lane" => Some(lane as i64),
                    "wave" => Some(wave_id),
                    "group" => Some(i64::from(group)),
                    _ => None,
                })
                .map_err(|e| format!("--set {s}: {}", e.msg))?;
            // A value must fit the register: unsigned, or negative in two's complement.
            let bits = if matches!(set.target, Target::Exec) {
                size
            } else {
                32
            };
            if bits < 64 && !(-(1i64 << (bits - 1))..1i64 << bits).contains(&v) {
                let wave = if matches!(set.target, Target::Exec) {
                    format!(" in wave{size}")
                } else {
                    String::new()
                };
                return Err(format!(
                    "--set {s}: {v} ({v:#x}) does not fit {reg}, a {bits}-bit register{wave}"
                ));
            }
            match set.target {
                Target::Vgpr(r) => w.set_vgpr(r, lane, v as u32),
                Target::Sgpr(r) => w.set_sreg(r, v as u32),
                Target::M0 => w.set_m0(v as u32),
                Target::Exec => w.set_exec(v as u64),
                Target::Mode => w.mode = v as u32,
            }
        }
    }
    Ok(())
}

/// A GWS resource's counter: 12 bits (what `--gws-init` may preset).
const GWS_COUNTER_MAX: u64 = 0xfff;

/// `--mem ADDR=WORDS`: the address and the words.
fn parse_mem(text: &str) -> Result<(u64, Vec<u32>), String> {
    let (a, words) = text
        .split_once('=')
        .ok_or_else(|| format!("--mem {text}: expected ADDR=WORDS, e.g. 0x1000=1,2,3"))?;
    let addr = parse_u64(a)
        .filter(|&a| a < 1 << gpumemsim::addr::ADDRESS_BITS)
        .ok_or_else(|| format!("--mem {text}: `{}` is not a 48-bit address", a.trim()))?;
    let words = words
        .split(',')
        .map(|w| {
            parse_u64(w)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| format!("--mem {text}: `{}` is not a 32-bit word", w.trim()))
        })
        .collect::<Result<Vec<u32>, String>>()?;
    let limit = 1u64 << gpumemsim::addr::ADDRESS_BITS;
    let end = addr + 4 * words.len() as u64;
    if end > limit {
        return Err(format!(
            "--mem {text}: {} words at {addr:#x} run past the 48-bit address space (to {end:#x}; the limit is {limit:#x})",
            words.len()
        ));
    }
    Ok((addr, words))
}
