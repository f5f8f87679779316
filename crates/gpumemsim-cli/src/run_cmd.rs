//! `gpumemsim run PROGRAM`: run an assembly program, a code object's kernel or a source, and
//! report what the memory system did. The launch half ([`LaunchArgs`], [`launch`]) is shared
//! with `gpumemsim check`, which reports the same run's findings instead ([`Output`]).

use std::process::ExitCode;

use clap::{Args, ValueEnum};
use gpumemsim::exec::{Device, RunConfig};
use gpumemsim::expr::Expr;
use gpumemsim::isa::asm::{assemble, AsmLine};
use gpumemsim::lds::{AlignMode, LdsInit, LdsMode};
use serde_json::{json, Map, Value};

/// The options that say what to launch and how: the program, the device and the kernel's
/// arguments. `gpumemsim run` and `gpumemsim check` share them.
#[derive(Args, Debug)]
pub struct LaunchArgs {
    /// Assembly program (LLVM syntax, gfx1100), `-` for standard input; a code object from
    /// clang-19 (relocatable `.o`, linked `.hsaco`, or a HIP offload bundle, whose gfx1100
    /// entry is taken; see --kernel, --grid, --block, --arg); or an OpenCL (`.cl`) or HIP
    /// (`.hip`) source, which is compiled with clang-19 and AMD's device libraries first
    /// (see --clang, --cflags, --device-libs). Without it, runs the bundled clang-19 build of
    /// examples/kernels/transpose.cl (`transpose_naive` unless --kernel names another) on a
    /// 32×32 float tile.
    pub program: Option<String>,
    /// Run waves of 64 lanes (default 32).
    #[arg(long)]
    pub wave64: bool,
    /// Waves in each workgroup.
    #[arg(long, default_value_t = 1, value_parser = parse_u32_arg)]
    pub waves: u32,
    /// Workgroups on the device (each with its own LDS allocation; s0 = workgroup id).
    #[arg(long, default_value_t = 1, value_parser = parse_u32_arg)]
    pub workgroups: u32,
    /// Bank-conflict preset that prices LDS accesses.
    #[arg(long, value_enum, default_value_t = ArchArg::Rdna3)]
    pub arch: ArchArg,
    /// Scheduling seed: 0 runs the wave with the earliest clock first; other seeds shake the
    /// interleaving reproducibly.
    #[arg(long, default_value_t = 0, value_parser = parse_u64_arg)]
    pub seed: u64,
    /// GDS size in bytes.
    #[arg(long, default_value_t = 4096, value_parser = parse_u32_arg)]
    pub gds_size: u32,
    /// First GWS resource of the VMID (GDS_GWS_VMID base).
    #[arg(long, default_value_t = 0, value_parser = parse_u32_arg)]
    pub gws_base: u32,
    /// Number of GWS resources of the VMID.
    #[arg(long, default_value_t = 64, value_parser = parse_u32_arg)]
    pub gws_size: u32,
    /// Preset a GWS resource's counter before the run, `RID=VALUE` (repeatable), as the
    /// driver does through GDS_GWS_RESOURCE.
    #[arg(long = "gws-init", value_name = "RID=VALUE")]
    pub gws_init: Vec<String>,
    /// Make ordered-count counter INDEX (0-3) a ring of SIZE entries (ordered alloc),
    /// `INDEX=SIZE` (repeatable); others are append pointers.
    #[arg(long = "ordered-ring", value_name = "INDEX=SIZE")]
    pub ordered_ring: Vec<String>,
    /// LDS allocation of the workgroup in bytes (at most 65536).
    #[arg(long, default_value_t = 65536, value_parser = parse_u32_arg)]
    pub lds_size: u32,
    /// LDS mode: waves on one CU, or spread over the WGP.
    #[arg(long, value_enum, default_value_t = ModeArg::Cu)]
    pub lds_mode: ModeArg,
    /// SH_MEM_CONFIG alignment mode for LDS accesses.
    #[arg(long, value_enum, default_value_t = AlignArg::Dword)]
    pub align: AlignArg,
    /// What LDS holds before the kernel writes it: `zero` (the default, so that results
    /// are stable), `poison` (every byte 0xff: a kernel that reads LDS it did not write
    /// shows it) or `random:SEED`. The hardware does not clear LDS.
    #[arg(long, value_name = "zero|poison|random:SEED", default_value = "zero", value_parser = str::parse::<LdsInit>)]
    pub lds_init: LdsInit,
    /// Skip the shadow-memory checks (LDS races, lane collisions, reads of LDS nothing
    /// wrote, races between workgroups): a run of an LDS-heavy kernel takes about half the
    /// time. Data in flight, barrier and rule checks stay. `check` always does them all.
    #[arg(long)]
    pub no_check: bool,
    /// Initial register value, `REG=VALUE` (repeatable). REG: sN, vN, m0, exec, mode.
    /// VALUE: an integer expression in `wave` (the wave's index in creation order, all
    /// workgroups) and `group` (its workgroup); for a VGPR also in `lane` (e.g. `v1=lane*4`).
    #[arg(long = "set", value_name = "REG=VALUE")]
    pub sets: Vec<String>,
    /// Preload global memory with 32-bit words, `ADDR=WORDS` (repeatable): ADDR a byte
    /// address, WORDS a comma list of decimal or 0x-hex values, e.g. `0x1000=1,2,0xff`.
    #[arg(long = "mem", value_name = "ADDR=WORDS")]
    pub mems: Vec<String>,
    /// Private (scratch) bytes per lane; private accesses at or past it are dropped.
    #[arg(long, default_value_t = 0, value_parser = parse_u32_arg)]
    pub scratch_size: u32,
    /// private_segment_buffer.base: the global address of wave 0's scratch region.
    #[arg(long, default_value_t = gpumemsim::exec::DEFAULT_SCRATCH_BASE, value_parser = parse_addr)]
    pub scratch_base: u64,
    /// Base of the shared (LDS) aperture (4 GiB).
    #[arg(long, default_value_t = gpumemsim::addr::SHARED_BASE, value_parser = parse_addr)]
    pub shared_base: u64,
    /// Base of the private (scratch) aperture (4 GiB).
    #[arg(long, default_value_t = gpumemsim::addr::PRIVATE_BASE, value_parser = parse_addr)]
    pub private_base: u64,
    /// Float atomics to memory follow our reading of the spec (`memory`) or the LDS rules.
    #[arg(long, value_enum, default_value_t = FloatRulesArg::Memory)]
    pub memory_float_rules: FloatRulesArg,
    /// Scalar data cache size in bytes (per workgroup).
    #[arg(long, default_value_t = 16384, value_parser = parse_u32_arg)]
    pub kcache_size: u32,
    /// Scalar data cache line size in bytes.
    #[arg(long, default_value_t = 64, value_parser = parse_u32_arg)]
    pub kcache_line: u32,
    /// Scalar data cache associativity (ways).
    #[arg(long, default_value_t = 4, value_parser = parse_u32_arg)]
    pub kcache_ways: u32,
    /// Stop a wave that has executed this many instructions without ending (the limit is per
    /// wave: a runaway wave is stopped and named).
    #[arg(long, default_value_t = 10_000_000, value_parser = parse_u64_arg)]
    pub max_steps: u64,
    /// Host threads for independent workgroups (0: one per core). The result does not depend
    /// on it.
    #[arg(long, default_value_t = 0, value_parser = parse_usize_arg)]
    pub threads: usize,
    /// Run every workgroup in one schedule even where they could run one at a time.
    #[arg(long)]
    pub together: bool,
    /// Code objects: the kernel to run (optional when there is one).
    #[arg(long)]
    pub kernel: Option<String>,
    /// Timing parameters in cycles, NAME=CYCLES[,...]: salu, valu, lds_issue, lds_latency,
    /// vmem_latency, kcache_hit, kcache_miss (docs/timing.md).
    #[arg(long, value_name = "NAME=CYCLES,...")]
    pub timing: Option<String>,
    /// Code objects: workgroups per dimension, X[,Y,Z].
    #[arg(long, default_value = "1")]
    pub grid: String,
    /// Code objects: work-items per workgroup, X[,Y,Z] (default 64; 32 for the bundled
    /// transpose).
    #[arg(long)]
    pub block: Option<String>,
    /// Code objects: a kernel argument, one per explicit argument, in order (repeatable;
    /// checked against the kernel's metadata): a value TYPE:V (TYPE u8|u16|u32|i32|u64|i64|
    /// f16|f32|f64); a buffer buf:TYPE[LEN]=INIT with INIT zeros, iota, rand:SEED, a comma
    /// list, or file:PATH; or local:BYTES for an OpenCL `__local` pointer argument (LDS
    /// placed after the static LDS and the earlier local arguments).
    #[arg(long = "arg", value_name = "ARG")]
    pub args: Vec<String>,
    /// Code objects: the launch's dynamic LDS bytes (HIP's shared-memory size for `extern
    /// __shared__`), placed after the static LDS.
    #[arg(long, value_name = "BYTES", default_value_t = 0, value_parser = parse_u32_arg)]
    pub dynamic_lds: u32,
    /// Sources: the compiler (default: clang-19 from PATH).
    #[arg(long, value_name = "PATH")]
    pub clang: Option<String>,
    /// Sources: more compiler flags, e.g. "-DN=256 -Iinclude" (split at spaces).
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub cflags: Option<String>,
    /// Sources: the directory of AMD's device-library bitcode (default: where Debian's
    /// rocm-device-libs puts it).
    #[arg(long, value_name = "DIR")]
    pub device_libs: Option<String>,
}

/// Options of `gpumemsim run`: the launch, then what to report.
#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub launch: LaunchArgs,
    /// What to show at the end (repeatable): vN, sN, m0, exec, vcc, scc, mode (one value per
    /// wave, all workgroups), lds:START:END (workgroup 0's LDS), gds:START:END,
    /// mem:START:END (global memory; all in bytes).
    #[arg(long = "dump", value_name = "WHAT")]
    pub dumps: Vec<String>,
    /// Print one JSON object instead of a readable summary.
    #[arg(long)]
    pub json: bool,
    /// The text report's instruction table: the N hottest instructions (0: all).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub top: usize,
    /// What the text report's first table groups by.
    #[arg(long, value_enum, default_value_t = crate::run_text::By::Line)]
    pub by: crate::run_text::By,
    /// Print every value of each buffer argument (the text report summarises them).
    #[arg(long)]
    pub full: bool,
    /// Compare this run with an earlier report (`gpumemsim run ... --json > BEFORE.json`):
    /// the text report ends with the comparison, `--json` gains it under "diff" (as
    /// `gpumemsim diff BEFORE.json AFTER.json` prints it).
    #[arg(long, value_name = "BEFORE.json")]
    pub baseline: Option<String>,
    /// Also print the run's totals under rocprof's counter names (docs/counters.md); --json
    /// always has them under "counters".
    #[arg(long)]
    pub counters: bool,
    /// Code objects: write each buffer argument's final contents to DIR/argN.TYPE.bin.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<String>,
    /// Also write an HTML report to PATH (one self-contained file): the source lines and
    /// instructions, hottest first, a bank × phase heat map of each DS instruction's
    /// costliest execution, and the findings (as `gpumemsim check` lists them) marked on
    /// their lines and instructions.
    #[arg(long, value_name = "PATH")]
    pub html: Option<String>,
}

/// `--arch`: the AMD bank-model presets (`gpumemsim banks` also has NVIDIA ones).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ArchArg {
    /// gfx1100.
    Rdna3,
    /// gfx942.
    Cdna3,
    /// gfx950.
    Cdna4,
    /// gfx1200.
    Rdna4,
}

/// `--memory-float-rules`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum FloatRulesArg {
    /// `add_f32` flushes input denormals always (gpumemsim::atomic::MemoryFloatRules::Memory).
    Memory,
    /// As LDS float atomics.
    Lds,
}

/// A 64-bit address in decimal or 0x-hex (for clap).
fn parse_addr(text: &str) -> Result<u64, String> {
    parse_u64(text).ok_or_else(|| format!("`{text}` is not an address"))
}

/// A 32-bit count in decimal or 0x-hex (for clap).
fn parse_u32_arg(text: &str) -> Result<u32, String> {
    let v = parse_u64(text).ok_or_else(|| format!("`{text}` is not a number"))?;
    u32::try_from(v).map_err(|_| format!("{v} does not fit 32 bits (at most {})", u32::MAX))
}

/// A 64-bit count in decimal or 0x-hex (for clap).
fn parse_u64_arg(text: &str) -> Result<u64, String> {
    parse_u64(text).ok_or_else(|| format!("`{text}` is not a 64-bit number"))
}

/// A host-side count in decimal or 0x-hex (for clap).
fn parse_usize_arg(text: &str) -> Result<usize, String> {
    let v = parse_u64_arg(text)?;
    usize::try_from(v).map_err(|_| format!("{v} is too large"))
}

/// `--lds-mode`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ModeArg {
    /// CU mode.
    Cu,
    /// WGP mode.
    Wgp,
}

/// `--align`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum AlignArg {
    /// ALIGNMENT_MODE_DWORD.
    Dword,
    /// ALIGNMENT_MODE_UNALIGNED.
    Unaligned,
}

enum Target {
    Vgpr(u32),
    Sgpr(u32),
    M0,
    Exec,
    Mode,
}

fn parse_target(reg: &str) -> Result<Target, String> {
    let num = |s: &str, max: u32| -> Option<u32> {
        let n: u32 = s.parse().ok()?;
        (n <= max).then_some(n)
    };
    match reg {
        "m0" => Ok(Target::M0),
        "exec" => Ok(Target::Exec),
        "mode" => Ok(Target::Mode),
        _ => {
            if let Some(n) = reg.strip_prefix('v').and_then(|s| num(s, 255)) {
                Ok(Target::Vgpr(n))
            } else if let Some(n) = reg.strip_prefix('s').and_then(|s| num(s, 105)) {
                Ok(Target::Sgpr(n))
            } else {
                Err(format!(
                    "unknown register `{reg}` (use v0-v255, s0-s105, m0, exec or mode)"
                ))
            }
        }
    }
}

fn apply_sets(sets: &[String], wg: &mut Device) -> Result<(), String> {
    for s in sets {
        let Some((reg, value)) = s.split_once('=') else {
            return Err(format!("--set {s}: expected REG=VALUE"));
        };
        let target = parse_target(reg.trim())?;
        let vars: &[&str] = match target {
            Target::Vgpr(_) => &["lane", "wave", "group"],
            _ => &["wave", "group"],
        };
        let e = Expr::parse(value, vars)
            .map_err(|e| format!("--set {s}: column {}: {}", e.col + reg.len() + 1, e.msg))?;
        let size = wg.waves.first().map_or(32, |w| w.size);
        for (w, &group) in wg.waves.iter_mut().zip(&wg.wave_group) {
            let wave_id = w.id as i64;
            let group = group as i64;
            let lanes = if matches!(target, Target::Vgpr(_)) {
                size
            } else {
                1
            };
            for lane in 0..lanes {
                let v = e
                    .eval(&|n| match n {
                        "lane" => Some(lane as i64),
                        "wave" => Some(wave_id),
                        "group" => Some(group),
                        _ => None,
                    })
                    .map_err(|e| format!("--set {s}: {}", e.msg))?;
                // A value must fit the register: unsigned, or negative in two's complement.
                let bits = if matches!(target, Target::Exec) {
                    size
                } else {
                    32
                };
                if bits < 64 && !(-(1i64 << (bits - 1))..1i64 << bits).contains(&v) {
                    let wave = if matches!(target, Target::Exec) {
                        format!(" in wave{size}")
                    } else {
                        String::new()
                    };
                    return Err(format!(
                        "--set {s}: {v} ({v:#x}) does not fit {}, a {bits}-bit register{wave}",
                        reg.trim()
                    ));
                }
                match target {
                    Target::Vgpr(r) => w.set_vgpr(r, lane, v as u32),
                    Target::Sgpr(r) => w.set_sreg(r, v as u32),
                    Target::M0 => w.set_m0(v as u32),
                    Target::Exec => w.set_exec(v as u64),
                    Target::Mode => w.mode = v as u32,
                }
            }
        }
    }
    Ok(())
}

fn parse_pair(opt: &str, text: &str) -> Result<(u64, u64), String> {
    let num = |x: &str| -> Option<u64> {
        let x = x.trim();
        match x.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => x.parse().ok(),
        }
    };
    let bad = || format!("{opt} {text}: expected two integers A=B");
    let (a, b) = text.split_once('=').ok_or_else(bad)?;
    Ok((num(a).ok_or_else(bad)?, num(b).ok_or_else(bad)?))
}

fn parse_u64(x: &str) -> Option<u64> {
    let x = x.trim();
    match x.strip_prefix("0x").or_else(|| x.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => x.parse().ok(),
    }
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

fn parse_range(what: &str, rest: &str) -> Result<(u64, u64), String> {
    let parse = parse_u64;
    let bad = || format!("--dump {what}: expected START:END in bytes, e.g. lds:0:64");
    let (a, b) = rest.split_once(':').ok_or_else(bad)?;
    let (a, b) = (parse(a).ok_or_else(bad)?, parse(b).ok_or_else(bad)?);
    if b < a {
        return Err(format!("--dump {what}: END is before START"));
    }
    if (b - a) > 16 * 1024 * 1024 {
        return Err(format!("--dump {what}: range too large"));
    }
    if (b - a) % 4 != 0 {
        return Err(format!(
            "--dump {what}: the dump shows 32-bit words, so END - START ({}) must be a multiple of 4",
            b - a
        ));
    }
    Ok((a, b))
}

fn parse_range32(what: &str, rest: &str) -> Result<(u32, u32), String> {
    let (a, b) = parse_range(what, rest)?;
    match (u32::try_from(a), u32::try_from(b)) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        _ => Err(format!("--dump {what}: offsets must fit in 32 bits")),
    }
}

/// `--dump lds:`/`gds:`: END must lie inside the allocation (`size` bytes, `name`).
fn check_inside(what: &str, end: u32, size: u32, name: &str) -> Result<(), String> {
    if end > size {
        return Err(format!(
            "--dump {what}: END {end} is past the end of {name}, which has {size} bytes"
        ));
    }
    Ok(())
}

fn dump_value(what: &str, wg: &Device) -> Result<Value, String> {
    if let Some(rest) = what.strip_prefix("lds:") {
        let (a, b) = parse_range32(what, rest)?;
        check_inside(
            what,
            b,
            wg.alloc.size,
            "the workgroup's LDS allocation (--lds-size)",
        )?;
        return Ok(json!(wg.lds[0].words(wg.alloc.base + a, wg.alloc.base + b)));
    }
    if let Some(rest) = what.strip_prefix("gds:") {
        let (a, b) = parse_range32(what, rest)?;
        check_inside(what, b, wg.gds.size(), "GDS (--gds-size)")?;
        return Ok(json!(wg.gds.words(a, b)));
    }
    if let Some(rest) = what.strip_prefix("mem:") {
        let (a, b) = parse_range(what, rest)?;
        let limit = 1u64 << gpumemsim::addr::ADDRESS_BITS;
        if b > limit {
            return Err(format!(
                "--dump {what}: END {b:#x} is past the 48-bit address space (the limit is {limit:#x})"
            ));
        }
        return Ok(json!(wg.memory.words(a, b)));
    }
    let per_wave = |f: &dyn Fn(&gpumemsim::wave::Wave) -> u64| -> Value {
        json!(wg.waves.iter().map(f).collect::<Vec<u64>>())
    };
    Ok(match what {
        "m0" => per_wave(&|w| w.m0() as u64),
        "exec" => per_wave(&|w| w.exec()),
        "vcc" => per_wave(&|w| w.vcc()),
        "scc" => per_wave(&|w| w.scc as u64),
        "mode" => per_wave(&|w| w.mode as u64),
        _ => match parse_target(what)? {
            Target::Vgpr(r) => json!(wg.waves.iter().map(|w| w.vgpr_lanes(r)).collect::<Vec<_>>()),
            Target::Sgpr(r) => per_wave(&|w| w.sreg(r) as u64),
            _ => unreachable_target(what)?,
        },
    })
}

fn unreachable_target(what: &str) -> Result<Value, String> {
    Err(format!("--dump {what}: not something to dump"))
}

/// `--baseline BEFORE.json`: compares the report `obj` with it. With `--json` the comparison
/// goes into `obj` under `"diff"` (and the text is empty); otherwise the text to end the
/// report with. Without `--baseline`, nothing.
pub(crate) fn baseline_diff(args: &RunArgs, obj: &mut Value) -> Result<String, String> {
    let Some(path) = &args.baseline else {
        return Ok(String::new());
    };
    let before = crate::diff_cmd::read_report(path)?;
    let diff =
        crate::diff_cmd::compare(&before, obj).map_err(|e| format!("--baseline {path}: {e}"))?;
    if args.json {
        obj["diff"] = diff;
        return Ok(String::new());
    }
    Ok(format!(
        "\nCompared with {path} (--baseline):\n{}",
        crate::diff_cmd::render_text(&diff, 10)
    ))
}

/// `--counters`: the counters as a table, each with its definition.
pub(crate) fn counters_text(program: &[AsmLine], wg: &Device) -> String {
    let mut s = String::from("\ncounters (rocprof's names; docs/counters.md):\n");
    for ((name, v), (_, what)) in gpumemsim::report::amd_counters(program, wg)
        .into_iter()
        .zip(gpumemsim::report::AMD_COUNTERS)
    {
        s.push_str(&format!("  {name:<22} {v:>12}  {what}\n"));
    }
    s
}

/// The device settings the run flags give (the kernel path takes its wave size, waves,
/// workgroups and LDS/scratch sizes from the code object instead).
pub(crate) fn device_config(args: &LaunchArgs) -> Result<RunConfig, String> {
    if args.threads > gpumemsim::exec::MAX_THREADS {
        return Err(format!(
            "--threads {}: at most {} (each thread holds its own copy of global memory; more than the workgroups are never used)",
            args.threads,
            gpumemsim::exec::MAX_THREADS
        ));
    }
    let mut rings = [None; 4];
    for r in &args.ordered_ring {
        let (i, n) = parse_pair("--ordered-ring", r)?;
        if i > 3 || n == 0 {
            return Err(format!(
                "--ordered-ring {r}: INDEX is 0-3 and SIZE at least 1"
            ));
        }
        let n = u32::try_from(n).map_err(|_| {
            format!("--ordered-ring {r}: SIZE {n} does not fit the ring size, which has 32 bits")
        })?;
        rings[i as usize] = Some(n);
    }
    let mut cfg = RunConfig {
        wave_size: if args.wave64 { 64 } else { 32 },
        waves: args.waves,
        workgroups: args.workgroups,
        seed: args.seed,
        gds_size: args.gds_size,
        gws: gpumemsim::gws::GwsConfig {
            base: args.gws_base,
            size: args.gws_size,
        },
        ordered_rings: rings,
        banks: gpumemsim::banks::BankModel::preset(match args.arch {
            ArchArg::Rdna3 => "rdna3",
            ArchArg::Cdna3 => "cdna3",
            ArchArg::Cdna4 => "cdna4",
            ArchArg::Rdna4 => "rdna4",
        })
        .ok_or("unknown bank preset")?,
        lds_size: args.lds_size,
        lds_mode: match args.lds_mode {
            ModeArg::Cu => LdsMode::Cu,
            ModeArg::Wgp => LdsMode::Wgp,
        },
        align: match args.align {
            AlignArg::Dword => AlignMode::Dword,
            AlignArg::Unaligned => AlignMode::Unaligned,
        },
        lds_init: args.lds_init,
        check: !args.no_check,
        max_steps: args.max_steps,
        threads: args.threads,
        together: args.together,
        scratch_size: args.scratch_size,
        scratch_base: args.scratch_base,
        apertures: gpumemsim::addr::Apertures::with_bases(args.shared_base, args.private_base),
        memory_float_rules: match args.memory_float_rules {
            FloatRulesArg::Memory => gpumemsim::atomic::MemoryFloatRules::Memory,
            FloatRulesArg::Lds => gpumemsim::atomic::MemoryFloatRules::Lds,
        },
        kcache: gpumemsim::smem::KcacheConfig {
            size: args.kcache_size,
            line: args.kcache_line,
            ways: args.kcache_ways,
            ..Default::default()
        },
        record_ds: false,
        progress: None,
        ..RunConfig::default()
    };
    apply_timing(args.timing.as_deref(), &mut cfg)?;
    Ok(cfg)
}

/// Applies `--timing NAME=CYCLES,...` (see docs/timing.md) to `cfg`.
fn apply_timing(text: Option<&str>, cfg: &mut RunConfig) -> Result<(), String> {
    for item in text.unwrap_or("").split(',').filter(|x| !x.is_empty()) {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("--timing {item}: expected NAME=CYCLES"))?;
        let v: u64 = parse_u64(value.trim())
            .ok_or_else(|| format!("--timing {item}: `{value}` is not a cycle count"))?;
        let max = gpumemsim::exec::MAX_TIMING_CYCLES;
        if v > max {
            return Err(format!(
                "--timing {item}: {v} cycles is more than the limit of {max} (2^32) per parameter"
            ));
        }
        if !cfg.set_timing(name.trim(), v) {
            return Err(format!(
                "--timing {item}: unknown parameter `{}` (known: {})",
                name.trim(),
                RunConfig::TIMING_NAMES.join(", ")
            ));
        }
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

/// What a launch is for: `run`'s report or `check`'s findings.
#[derive(Clone, Copy)]
pub enum Output<'a> {
    /// `gpumemsim run`: the report (text or JSON), dumps, a baseline comparison.
    Run(&'a RunArgs),
    /// `gpumemsim check`: only the findings.
    Check(&'a crate::check_cmd::CheckArgs),
}

impl<'a> Output<'a> {
    /// `--json`.
    pub fn json(self) -> bool {
        match self {
            Output::Run(a) => a.json,
            Output::Check(a) => a.json,
        }
    }

    /// `--html PATH`.
    pub fn html(self) -> Option<&'a str> {
        match self {
            Output::Run(a) => a.html.as_deref(),
            Output::Check(a) => a.html.as_deref(),
        }
    }

    /// Ends a launch whose output has been printed: the error of a run that stopped on
    /// standard error and exit status 1; otherwise 0, except that `check` exits 1 when it
    /// found something.
    pub fn finish(self, error: Option<String>, device: &Device) -> ExitCode {
        if let Some(e) = error {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
        match self {
            Output::Check(_) if !device.events.is_empty() => ExitCode::from(1),
            _ => ExitCode::SUCCESS,
        }
    }
}

/// `gpumemsim run`.
pub fn run(args: &RunArgs) -> Result<ExitCode, String> {
    // A baseline that cannot be read is an error before any work.
    if let Some(path) = &args.baseline {
        crate::diff_cmd::read_report(path).map_err(|e| format!("--baseline {e}"))?;
    }
    launch(&args.launch, Output::Run(args))
}

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
    let path = std::path::Path::new(program);
    if program != "-" {
        if let Some(lang) = gpumemsim::loader::source::Language::of_path(path) {
            let build = gpumemsim::loader::source::SourceBuild {
                clang: args.clang.as_ref().map(Into::into),
                device_libs: args.device_libs.as_ref().map(Into::into),
                wave64: args.wave64,
                cflags: args
                    .cflags
                    .as_deref()
                    .map(|f| f.split_whitespace().map(String::from).collect())
                    .unwrap_or_default(),
            };
            let bytes = gpumemsim::loader::source::compile(path, lang, &build)?;
            return crate::kernel_cmd::run_kernel(args, out, program, &bytes, None);
        }
    }
    // Read the input once (a pipe cannot be read twice), then tell a code object from text.
    let (name, bytes) = crate::read_input_bytes(program, crate::MAX_PROGRAM_INPUT)?;
    if bytes.starts_with(b"\x7fELF") || bytes.starts_with(b"__CLANG_OFFLOAD_BUNDLE__") {
        return crate::kernel_cmd::run_kernel(args, out, &name, &bytes, None);
    }
    if bytes.len() as u64 > crate::MAX_TEXT_INPUT {
        return Err(format!(
            "{name}: assembly text is larger than {} MiB, the most gpumemsim assembles",
            crate::MAX_TEXT_INPUT >> 20
        ));
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        format!("{name}: neither assembly text (it is not UTF-8) nor a code object (no ELF or offload-bundle header)")
    })?;
    let prog = assemble(&text);
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
    let cfg = RunConfig {
        record_ds: out.html().is_some(),
        progress: bar.counters(),
        ..device_config(args)?
    };
    check_scratch(args, &cfg)?;
    let mut wg = Device::new(&cfg, prog.lines.len()).map_err(|e| e.to_string())?;
    apply_sets(&args.sets, &mut wg)?;
    for m in &args.mems {
        let (addr, words) = parse_mem(m)?;
        wg.memory.write_words(addr, &words);
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
        wg.gws.resources[rid as usize].counter = v as u32;
    }
    // Check dump requests before running, so a typo does not waste a run.
    let dump_requests: &[String] = match out {
        Output::Run(r) => &r.dumps,
        Output::Check(_) => &[],
    };
    for d in dump_requests {
        dump_value(d, &wg)?;
    }
    let result = wg.run(&prog.lines, &cfg);
    bar.finish();
    let sources = gpumemsim::report::assembly_sources(&name, &prog.lines);
    let mut texts = gpumemsim::report::SourceTexts::new();
    if name == "<stdin>" {
        texts.insert(&name, &text);
    }
    let error = result.as_ref().err().map(|e| format!("{name}: {e}"));
    match out {
        Output::Check(c) => crate::check_cmd::print(
            c,
            &crate::check_cmd::Checked {
                title: &name,
                program: &prog.lines,
                sources: &sources,
                device: &wg,
                error: error.as_deref(),
            },
            &mut texts,
        ),
        Output::Run(run) => {
            let mut dumps = Map::new();
            for d in &run.dumps {
                dumps.insert(d.clone(), dump_value(d, &wg)?);
            }
            report_assembly(
                run,
                &cfg,
                &name,
                &prog.lines,
                &wg,
                &sources,
                &mut texts,
                dumps,
                error.as_deref(),
            )?;
        }
    }
    if let Some(path) = out.html() {
        let source = crate::html_out::RunSource {
            title: &name,
            file: &name,
            error: error.clone(),
        };
        crate::html_out::write_run_report(
            path,
            source,
            &prog.lines,
            &wg,
            &cfg.banks,
            &sources,
            &mut texts,
        )?;
    }
    Ok(out.finish(error, &wg))
}

/// `run`'s report of an assembly program: one JSON object (`--json`) or the text report.
#[allow(clippy::too_many_arguments)]
fn report_assembly(
    args: &RunArgs,
    cfg: &RunConfig,
    name: &str,
    program: &[AsmLine],
    wg: &Device,
    sources: &[Option<gpumemsim::report::InstSource>],
    texts: &mut gpumemsim::report::SourceTexts,
    dumps: Map<String, Value>,
    error: Option<&str>,
) -> Result<(), String> {
    let kc = wg.kcache_stats();
    let mut obj = json!({
        "dump": Value::Object(dumps.clone()),
        "events": gpumemsim::report::json::events(program, wg, sources),
        "instructions": gpumemsim::report::json::instructions(program, wg, sources),
        "lines": gpumemsim::report::json::lines(program, wg, sources, texts),
        "counters": gpumemsim::report::json::counters(program, wg),
        "cycles": wg.cycles(),
        "totals": gpumemsim::report::json::totals(wg),
        "timing": gpumemsim::report::json::timing(cfg),
        "steps": wg.steps,
        "waves": cfg.waves,
        "workgroups": cfg.workgroups,
        "wave_size": cfg.wave_size,
        "kcache": {
            "hits": kc.hits,
            "misses": kc.misses,
            "invalidations": kc.invalidations,
        },
    });
    if let Some(e) = error {
        obj["error"] = json!(e);
    }
    let baseline = baseline_diff(args, &mut obj)?;
    if args.json {
        outln!("{obj}");
    } else {
        let view = crate::run_text::TextView {
            title: name.to_string(),
            program,
            sources,
            base: 0,
            device: wg,
            top: args.top,
            by: args.by,
        };
        let mut text = crate::run_text::render(&view, texts, &dumps);
        if args.counters {
            text.push_str(&counters_text(program, wg));
        }
        text.push_str(&baseline);
        out!("{text}");
    }
    Ok(())
}

/// `errors: 2 out_of_bounds, 1 memviol (see the events below)`, or `None` when the run met no
/// error-class event.
pub(crate) fn error_counts(wg: &Device) -> Option<String> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for e in wg.events.iter().filter(|e| e.is_error()) {
        match counts.iter_mut().find(|(k, _)| *k == e.kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((e.kind, 1)),
        }
    }
    if counts.is_empty() {
        return None;
    }
    let list: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
    Some(format!(
        "errors: {} (see the events below)",
        list.join(", ")
    ))
}
