//! The launch options that `gpumemsim run` and `gpumemsim check` share ([`LaunchArgs`]), and
//! what they make: the device settings ([`device_config`]) and the parsing of their values
//! (numbers, `A=B` pairs, register names).

use clap::{Args, ValueEnum};
use gpumemsim::exec::RunConfig;
use gpumemsim::lds::{AlignMode, LdsInit, LdsMode};
use gpumemsim::target::Target as Chip;

/// The options that say what to launch and how: the program, the device and the kernel's
/// arguments. `gpumemsim run` and `gpumemsim check` share them.
#[derive(Args, Debug)]
pub struct LaunchArgs {
    /// Assembly program (LLVM syntax, gfx1100), `-` for standard input; a code object from
    /// clang-19 (relocatable `.o`, linked `.hsaco`, or a HIP offload bundle, whose gfx1100
    /// entry is taken; see --kernel, --grid, --block, --arg); or an OpenCL (`.cl`) or HIP
    /// (`.hip`, `.cu`, `.cpp`, `.cc`) source (see --lang), which is compiled with clang-19 and AMD's device libraries first
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
    /// The chip: gfx1100 (RDNA3) or gfx942 (CDNA3); `rdna3` and `cdna3` name them too. A code
    /// object says its chip (a different --arch is an error); a source is compiled for it
    /// (default gfx1100); an assembly program is gfx1100's.
    #[arg(long, value_parser = parse_chip)]
    pub arch: Option<&'static Chip>,
    /// Bank-conflict preset that prices LDS accesses, in place of the chip's own.
    #[arg(long, value_enum)]
    pub banks: Option<BanksArg>,
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
    /// The part to stand for: rx7900xtx (the default for gfx1100 code), w7900, rx7600, or
    /// mi300x (the default for gfx942 code). It sets the WGPs and the clock kernel time is
    /// given at in microseconds (docs/devices.md).
    #[arg(long, value_name = "NAME")]
    pub device: Option<String>,
    /// WGPs of the device (CUs on gfx942), overriding the device's: workgroups are placed on
    /// them in blocks, as many at once as occupancy allows (docs/rules/timing.md#placement);
    /// more WGPs also let a grid run on more host threads.
    #[arg(long, value_parser = parse_wgps)]
    pub wgps: Option<u32>,
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
    /// Run for the results only: no timing model and no checks (docs/functional.md). The
    /// registers and memory are the timed run's for every program whose result does not
    /// depend on the order of its waves' accesses; the report has no cycles. `check` always
    /// runs timed.
    #[arg(long)]
    pub functional: bool,
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
    /// Timing parameters in cycles, NAME=CYCLES[,...]: salu, valu, f64_issue, quarter_issue,
    /// trans_issue, valu_latency, trans_latency, f64_latency, quarter_latency, salu_latency,
    /// lds_issue, lds_latency, vmem_issue, vmem_latency, l0_latency, l1_latency, l2_latency,
    /// mall_latency, vram_latency, kcache_hit, kcache_miss, gds_issue, gds_latency,
    /// gws_latency (docs/timing.md lists each with its source).
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
    /// list, or file:PATH; local:BYTES for an OpenCL `__local` pointer argument (LDS
    /// placed after the static LDS and the earlier local arguments); or null for a null
    /// global pointer.
    #[arg(long = "arg", value_name = "ARG")]
    pub args: Vec<String>,
    /// Code objects: sets a program-scope variable (`__constant` table, `__device__` global)
    /// before the launch, as hipMemcpyToSymbol does (repeatable): NAME=TYPE:V1,V2,... (TYPE
    /// as for --arg; at most the variable's size, written from its first byte), NAME=file:PATH
    /// or NAME=zeros. The report lists every variable with its final values.
    #[arg(long = "symbol", value_name = "NAME=VALUES")]
    pub symbols: Vec<String>,
    /// Code objects: the launch's dynamic LDS bytes (HIP's shared-memory size for `extern
    /// __shared__`), placed after the static LDS.
    #[arg(long, value_name = "BYTES", default_value_t = 0, value_parser = parse_u32_arg)]
    pub dynamic_lds: u32,
    /// Code objects: run only K workgroups, spread evenly over the grid, and scale the
    /// per-line and per-instruction figures to the whole grid (the kernel time, the events
    /// and the buffers are the sample's; docs/ray.md#sampling).
    #[arg(long, value_name = "K", value_parser = parse_u32_arg)]
    pub sample: Option<u32>,
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
    /// The program's language, whatever its extension: `opencl` or `hip` (a source compiled
    /// first) or `asm` (assembly text). Default: by extension (`.cl` OpenCL; `.hip`, `.cu`,
    /// `.cpp`, `.cc`, `.cxx` HIP; anything else assembly or a code object).
    #[arg(long, value_name = "opencl|hip|asm", value_parser = ["opencl", "hip", "asm"])]
    pub lang: Option<String>,
    /// Sources: also write the code object clang-19 built to PATH (to disassemble it, or run
    /// it again without compiling).
    #[arg(long, value_name = "PATH")]
    pub keep_object: Option<String>,
    /// Sources: stop the compiler after this many seconds (0: no limit).
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub compile_timeout: u64,
    /// Sources: the address space the compiler may use, in MiB (0: no limit; set with
    /// `ulimit -v`).
    #[arg(long, value_name = "MIB", default_value_t = 4096)]
    pub compile_memory: u64,
}

/// `--arch`: a chip by name.
fn parse_chip(s: &str) -> Result<&'static Chip, String> {
    if let Some(t) = Chip::named(s) {
        return Ok(t);
    }
    let preset = gpumemsim::banks::BankModel::preset(s).is_some();
    Err(if preset {
        format!("`{s}` is a bank preset, not a chip gpumemsim runs: use --banks {s}")
    } else {
        format!("not a chip gpumemsim runs (it runs {})", Chip::names())
    })
}

/// `--banks`: the AMD bank-model presets (`gpumemsim banks` also has NVIDIA ones).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum BanksArg {
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

/// `--wgps`: 1 to [`gpumemsim::exec::MAX_WGPS`] (for clap).
fn parse_wgps(text: &str) -> Result<u32, String> {
    let v = parse_u32_arg(text)?;
    if v == 0 || v > gpumemsim::exec::MAX_WGPS {
        return Err(format!(
            "{v} WGPs: a device has 1 to {} (a Radeon RX 7900 XTX has 48)",
            gpumemsim::exec::MAX_WGPS
        ));
    }
    Ok(v)
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

/// A register that `--set` presets or `--dump` shows.
pub enum Target {
    /// `vN`.
    Vgpr(u32),
    /// `sN`.
    Sgpr(u32),
    /// `m0`.
    M0,
    /// `exec`.
    Exec,
    /// `mode`.
    Mode,
}

/// A register name: v0-v255, s0-s105, m0, exec or mode.
pub fn parse_target(reg: &str) -> Result<Target, String> {
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

/// `A=B` of option `opt`: two integers in decimal or 0x-hex.
pub fn parse_pair(opt: &str, text: &str) -> Result<(u64, u64), String> {
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

/// An integer in decimal or 0x-hex.
pub fn parse_u64(x: &str) -> Option<u64> {
    let x = x.trim();
    match x.strip_prefix("0x").or_else(|| x.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => x.parse().ok(),
    }
}

/// The device settings the run flags give (the kernel path takes its wave size, waves,
/// workgroups and LDS/scratch sizes from the code object instead).
pub fn device_config(args: &LaunchArgs) -> Result<RunConfig, String> {
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
        banks: gpumemsim::banks::BankModel::preset(match args.banks {
            Some(BanksArg::Rdna3) => "rdna3",
            Some(BanksArg::Cdna3) => "cdna3",
            Some(BanksArg::Cdna4) => "cdna4",
            Some(BanksArg::Rdna4) => "rdna4",
            None => args.arch.unwrap_or(&gpumemsim::target::GFX1100).bank_preset,
        })
        .ok_or("unknown bank preset")?,
        banks_chosen: args.banks.is_some(),
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
        functional: args.functional,
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
        record_samples: false,
        progress: None,
        ..RunConfig::default()
    };
    apply_timing(args.timing.as_deref(), &mut cfg)?;
    Ok(cfg)
}

/// Sets `cfg`'s device and WGPs for code built for `arch` from `--device` and `--wgps`.
pub fn apply_device(args: &LaunchArgs, arch: &str, cfg: &mut RunConfig) -> Result<(), String> {
    let (preset, wgps) =
        gpumemsim::preset::DevicePreset::resolve(args.device.as_deref(), args.wgps, arch)
            .map_err(|e| format!("--device: {e}"))?;
    cfg.device = Some(preset);
    cfg.wgps = wgps;
    Ok(())
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
