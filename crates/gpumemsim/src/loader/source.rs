//! Kernel sources in: OpenCL C (`.cl`) and HIP (`.hip`, `.cu`, `.cpp`, `.cc`) compiled by clang-19 for gfx1100 and
//! linked with AMD's device libraries, so that unmodified kernels (`get_global_id`,
//! `barrier`, `threadIdx`, `__syncthreads`, `atomicAdd`, `__shfl_xor`, ...) build; the object
//! then takes the path every code object takes.
//!
//! The device libraries are linked as clang's own driver links them for ROCm, one bitcode
//! file at a time (`-Xclang -mlink-builtin-bitcode -Xclang DIR/NAME.bc`): the language's
//! library (`opencl.bc` or `hip.bc`), `ockl.bc`, `ocml.bc`, and the `oclc_*` control
//! libraries, which set constants the others read. Debian's `rocm-device-libs` (ROCm 5.2.3)
//! has no ISA-version control for gfx1100, so `oclc_isa_version_1036.bc` stands in: it only
//! sets `__oclc_ISA_version`, which the libraries test for features gfx1100 also has (a
//! stand-in documented in docs/kernels.md). The float controls are the defaults of a build
//! without fast-math options: denormals kept, NaN and infinity honoured, no unsafe math,
//! correctly rounded square roots.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A source language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// OpenCL C 2.0 (`.cl`).
    OpenCl,
    /// HIP (`.hip`).
    Hip,
}

impl Language {
    /// The language of a file, by its extension.
    pub fn of_path(path: &Path) -> Option<Language> {
        match path.extension()?.to_str()? {
            "cl" => Some(Language::OpenCl),
            // CUDA-style sources of HIP ports (HeCBench's `.cu`) and HIP in C++ files.
            "hip" | "cu" | "cpp" | "cc" | "cxx" => Some(Language::Hip),
            _ => None,
        }
    }

    /// The language called `name` (`opencl`, `hip`; `--lang`).
    pub fn from_name(name: &str) -> Option<Language> {
        match name {
            "opencl" | "cl" => Some(Language::OpenCl),
            "hip" | "cuda" => Some(Language::Hip),
            _ => None,
        }
    }

    /// The language's device library (`opencl` or `hip`).
    fn library(self) -> &'static str {
        match self {
            Language::OpenCl => "opencl",
            Language::Hip => "hip",
        }
    }
}

/// Where Debian's `rocm-device-libs` and ROCm installations put the bitcode.
pub const DEVICE_LIB_DIRS: [&str; 3] = [
    "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
    "/opt/rocm/amdgcn/bitcode",
    "/opt/rocm/lib/llvm/lib/clang/19/lib/amdgcn/bitcode",
];

/// How to build a source.
#[derive(Clone, Debug, Default)]
pub struct SourceBuild {
    /// The compiler (default: `clang-19` from PATH).
    pub clang: Option<PathBuf>,
    /// The device-library directory (default: the first of [`DEVICE_LIB_DIRS`] that exists).
    pub device_libs: Option<PathBuf>,
    /// Build for waves of 64 lanes (`-mwavefrontsize64`; a chip whose waves are 64 lanes
    /// always is).
    pub wave64: bool,
    /// The chip to build for (`None`: gfx1100).
    pub target: Option<&'static crate::target::Target>,
    /// More flags (`-D`, `-I`, `-O`), passed through.
    pub cflags: Vec<String>,
    /// The OpenCL library to link instead of the directory's `opencl.bc`, and a header to
    /// include first (set by [`compile`] for a source that calls printf: the library without
    /// its `printf`, see [`opencl_printf`]).
    pub opencl_library: Option<(PathBuf, PathBuf)>,
    /// How long the compiler may run (`None`: [`DEFAULT_COMPILE_TIMEOUT`]; zero: no limit).
    pub timeout: Option<std::time::Duration>,
    /// The address space the compiler may use, in MiB (`None`: [`DEFAULT_COMPILE_MEMORY_MIB`];
    /// zero: no limit). Set with `ulimit -v` through `/bin/sh` where there is one.
    pub memory_mib: Option<u64>,
}

/// How long clang may compile a source unless told otherwise: a real kernel takes seconds; a
/// preprocessor bomb would run for minutes.
pub const DEFAULT_COMPILE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// The address space clang may use unless told otherwise, in MiB (the project's HIP and OpenCL
/// builds run within 1 GiB).
pub const DEFAULT_COMPILE_MEMORY_MIB: u64 = 4096;

impl SourceBuild {
    /// The chip it builds for.
    pub fn chip(&self) -> &'static crate::target::Target {
        self.target.unwrap_or(&crate::target::GFX1100)
    }

    /// Whether it builds for waves of 64 lanes.
    pub fn wave64(&self) -> bool {
        self.wave64 || self.chip().default_wave_size == 64
    }
}

/// The device-library bitcode files to link for `chip`, in order.
pub fn device_libraries(lang: Language, wave64: bool, chip: &crate::target::Target) -> Vec<String> {
    let wave = if wave64 { "on" } else { "off" };
    [
        lang.library(),
        "ockl",
        "ocml",
        chip.isa_version_library,
        "oclc_abi_version_500",
        &format!("oclc_wavefrontsize64_{wave}"),
        "oclc_daz_opt_off",
        "oclc_finite_only_off",
        "oclc_unsafe_math_off",
        "oclc_correctly_rounded_sqrt_on",
    ]
    .iter()
    .map(|n| format!("{n}.bc"))
    .collect()
}

/// clang's arguments to build `src` into `out` with the libraries in `libs`.
pub fn clang_args(
    src: &Path,
    out: &Path,
    lang: Language,
    b: &SourceBuild,
    libs: &Path,
) -> Vec<String> {
    let mut a: Vec<String> = match lang {
        Language::OpenCl => [
            "-x",
            "cl",
            "-cl-std=CL2.0",
            "-cl-kernel-arg-info",
            "-target",
            "amdgcn-amd-amdhsa",
        ]
        .map(String::from)
        .into_iter()
        .chain([format!("-mcpu={}", b.chip().name)])
        .collect(),
        // A linked code object rather than an offload bundle: one file, one target.
        Language::Hip => vec![
            "-x".into(),
            "hip".into(),
            "--cuda-device-only".into(),
            format!("--offload-arch={}", b.chip().name),
            "--no-gpu-bundle-output".into(),
        ],
    };
    a.extend(["-nogpulib", "-O2", "-g"].map(String::from));
    if b.wave64 && b.chip().default_wave_size == 32 {
        a.push("-mwavefrontsize64".into());
    }
    for lib in device_libraries(lang, b.wave64(), b.chip()) {
        a.extend(["-Xclang", "-mlink-builtin-bitcode", "-Xclang"].map(String::from));
        let path = match (lang, &b.opencl_library) {
            (Language::OpenCl, Some((p, _))) if lib == "opencl.bc" => p.clone(),
            _ => libs.join(lib),
        };
        a.push(path.display().to_string());
    }
    // HIP's buffered printf (-mprintf-kind=buffered) calls `__printf_alloc`, which Debian's
    // libraries define only in the OpenCL library: link it too, last.
    if lang == Language::Hip && b.cflags.iter().any(|f| f == "-mprintf-kind=buffered") {
        a.extend(["-Xclang", "-mlink-builtin-bitcode", "-Xclang"].map(String::from));
        a.push(libs.join("opencl.bc").display().to_string());
    }
    if let (Language::OpenCl, Some((_, header))) = (lang, &b.opencl_library) {
        a.push("-include".into());
        a.push(header.display().to_string());
    }
    a.extend(b.cflags.iter().cloned());
    a.extend([
        "-c".into(),
        src.display().to_string(),
        "-o".into(),
        out.display().to_string(),
    ]);
    a
}

fn find_device_libs(b: &SourceBuild, lang: Language) -> Result<PathBuf, String> {
    let has = |d: &Path| d.join(format!("{}.bc", lang.library())).is_file();
    if let Some(d) = &b.device_libs {
        return if has(d) {
            Ok(d.clone())
        } else {
            Err(format!(
                "--device-libs {}: no {}.bc there (AMD's device libraries: Debian package rocm-device-libs)",
                d.display(),
                lang.library()
            ))
        };
    }
    DEVICE_LIB_DIRS
        .iter()
        .map(PathBuf::from)
        .find(|d| has(d))
        .ok_or_else(|| {
            format!(
                "AMD's device libraries ({}.bc, ockl.bc, ocml.bc, oclc_*.bc) are not in {}: \
                 install Debian's rocm-device-libs (apt-get install rocm-device-libs), or give \
                 their directory with --device-libs DIR",
                lang.library(),
                DEVICE_LIB_DIRS.join(" or ")
            )
        })
}

/// What an OpenCL source that calls printf links instead of `opencl.bc`, and the header it
/// includes; `None` for a source that does not mention printf (built as it always was).
///
/// Debian's `opencl.bc` defines `printf` (a stub that prints nothing), and LLVM lowers
/// printf calls to the printf buffer only where `printf` is a declaration: a copy of the
/// library without it (`llvm-extract-19 --delete --func=printf`, made once per library file
/// and kept in the temporary directory) lets the lowering run as it does with ROCm's
/// libraries. The lowering calls `__printf_alloc`, which the library link (only what the
/// source uses) would otherwise leave out: the header makes the source use it. Without
/// llvm-extract-19, the error names the package.
pub fn opencl_printf(libs: &Path, src: &Path) -> Result<Option<(PathBuf, PathBuf)>, String> {
    let text = std::fs::read_to_string(src).unwrap_or_default();
    if !text.contains("printf") {
        return Ok(None);
    }
    let lib = libs.join("opencl.bc");
    let meta = std::fs::metadata(&lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    let stamp = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (lib.as_os_str(), meta.len(), stamp).hash(&mut h);
        h.finish()
    };
    let out = std::env::temp_dir().join(format!("gpumemsim-opencl-noprintf-{key:016x}.bc"));
    let header = std::env::temp_dir().join("gpumemsim-opencl-printf.h");
    // Written whole then renamed: another build may be reading it.
    if std::fs::read_to_string(&header).ok().as_deref() != Some(PRINTF_HEADER) {
        let part = header.with_extension(format!("{}.part", std::process::id()));
        std::fs::write(&part, PRINTF_HEADER)
            .and_then(|()| std::fs::rename(&part, &header))
            .map_err(|e| format!("{}: {e}", header.display()))?;
    }
    if out.is_file() {
        return Ok(Some((out, header)));
    }
    let partial = out.with_extension(format!("{}.part", std::process::id()));
    let done = Command::new("llvm-extract-19")
        .args(["--delete", "--func=printf"])
        .arg(&lib)
        .arg("-o")
        .arg(&partial)
        .output();
    match done {
        Ok(o) if o.status.success() => {
            std::fs::rename(&partial, &out).map_err(|e| format!("{}: {e}", out.display()))?;
            Ok(Some((out, header)))
        }
        other => {
            let _ = std::fs::remove_file(&partial);
            let why = match other {
                Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
                Err(e) => e.to_string(),
            };
            Err(format!(
                "{} calls printf, and the OpenCL library's printf must be removed for it to print:                  llvm-extract-19 failed ({why}); install Debian's llvm-19",
                src.display()
            ))
        }
    }
}

/// The header an OpenCL source with printf includes: a function (kept, never called) that
/// calls `__printf_alloc`, so that the library link brings it in for the printf lowering.
const PRINTF_HEADER: &str = "__global char *__printf_alloc(uint);\n\
__attribute__((used)) static void __gpumemsim_keep_printf_alloc(void) { __printf_alloc(0); }\n";

/// How a limited run of the compiler ended.
enum Limited {
    /// It ended by itself (its standard error captured).
    Done(std::process::Output),
    /// It ran past this limit and was killed.
    TimedOut(std::time::Duration),
}

/// Runs `program` with `args` within the time and memory limits of `b`, capturing its
/// standard error (read as it comes, so a chatty compiler cannot block on a full pipe).
fn run_limited(program: &Path, args: &[String], b: &SourceBuild) -> std::io::Result<Limited> {
    use std::io::Read;
    use std::process::Stdio;
    use wait_timeout::ChildExt;
    let memory = b.memory_mib.unwrap_or(DEFAULT_COMPILE_MEMORY_MIB);
    let shell = Path::new("/bin/sh");
    // A compiler that is not there is named as such (through the shell it would only be a
    // "not found" on its standard error).
    if which(program).is_none() {
        return Err(std::io::Error::from(std::io::ErrorKind::NotFound));
    }
    let mut cmd = if memory > 0 && cfg!(unix) && shell.exists() {
        // `ulimit -v` takes KiB; if the hard limit is lower, the compiler runs under that.
        let mut c = Command::new(shell);
        c.arg("-c")
            .arg(format!(
                "ulimit -v {} 2>/dev/null; exec \"$0\" \"$@\"",
                memory.saturating_mul(1024)
            ))
            .arg(program)
            .args(args);
        c
    } else {
        let mut c = Command::new(program);
        c.args(args);
        c
    };
    let mut child = cmd.stdout(Stdio::null()).stderr(Stdio::piped()).spawn()?;
    let mut pipe = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = pipe.read_to_end(&mut text);
        text
    });
    let timeout = b.timeout.unwrap_or(DEFAULT_COMPILE_TIMEOUT);
    let status = if timeout.is_zero() {
        Some(child.wait()?)
    } else {
        child.wait_timeout(timeout)?
    };
    let Some(status) = status else {
        // The reader is not waited for: a process the compiler started (the linker) may
        // outlive the kill and keep the pipe open, and the timeout is the promise.
        let _ = child.kill();
        let _ = child.wait();
        drop(reader);
        return Ok(Limited::TimedOut(timeout));
    };
    let stderr = reader.join().unwrap_or_default();
    Ok(Limited::Done(std::process::Output {
        status,
        stdout: Vec::new(),
        stderr,
    }))
}

/// `program` as a path that exists: itself when it names a directory part, else the first
/// match on PATH.
fn which(program: &Path) -> Option<PathBuf> {
    if program.components().count() > 1 {
        return program.exists().then(|| program.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// Compiles `src` and returns the code object's bytes; an error carries clang's diagnostics
/// (which name file:line:col) or says what to install; clang runs within a time and a memory
/// limit ([`SourceBuild::timeout`], [`SourceBuild::memory_mib`]).
pub fn compile(src: &Path, lang: Language, b: &SourceBuild) -> Result<Vec<u8>, String> {
    let libs = find_device_libs(b, lang)?;
    let clang = b.clang.clone().unwrap_or_else(|| PathBuf::from("clang-19"));
    static BUILDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // A folder of its own, removed when the build ends however it ends: clang writes its
    // output through a temporary file beside it, which a clang stopped at its time or memory
    // limit leaves behind.
    let dir = BuildDir(std::env::temp_dir().join(format!("gpumemsim-{}-{n}", std::process::id())));
    std::fs::create_dir_all(&dir.0).map_err(|e| format!("{}: {e}", dir.0.display()))?;
    let out = dir.0.join(format!(
        "{}.o",
        src.file_stem().and_then(|s| s.to_str()).unwrap_or("kernel")
    ));
    let mut build = b.clone();
    if lang == Language::OpenCl && build.opencl_library.is_none() {
        build.opencl_library = opencl_printf(&libs, src)?;
    }
    let args = clang_args(src, &out, lang, &build, &libs);
    let result = run_limited(&clang, &args, b);
    let output = match result {
        Ok(Limited::Done(o)) => o,
        Ok(Limited::TimedOut(t)) => {
            return Err(format!(
                "{} did not finish compiling {} within {} s and was stopped (--compile-timeout \
                 SECONDS; 0 for no limit)",
                clang.display(),
                src.display(),
                t.as_secs()
            ));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!(
                "{} was not found{}: gpumemsim compiles {} with clang-19 (Debian packages clang-19 \
                 and lld-19; give another compiler with --clang PATH)",
                clang.display(),
                if b.clang.is_some() { "" } else { " on PATH" },
                src.display()
            ))
        }
        Err(e) => return Err(format!("{}: {e}", clang.display())),
    };
    if !output.status.success() {
        let text = String::from_utf8_lossy(&output.stderr);
        let hint = if text.contains("hip/hip_runtime.h' file not found") {
            "\nthe HIP headers are missing: install Debian's libamdhip64-dev (or pass -I DIR with --cflags)"
        } else {
            ""
        };
        let memory = b.memory_mib.unwrap_or(DEFAULT_COMPILE_MEMORY_MIB);
        let hint = if memory > 0
            && [
                "out of memory",
                "bad_alloc",
                "Cannot allocate memory",
                "failed to map",
            ]
            .iter()
            .any(|m| text.contains(m))
        {
            format!("{hint}\nclang ran with at most {memory} MiB (--compile-memory MIB; 0 for no limit)")
        } else {
            hint.to_string()
        };
        // A compiler killed by a signal may say nothing: the status says how it ended.
        let said = match text.trim_end() {
            "" => format!("({})", output.status),
            t => t.to_string(),
        };
        return Err(format!(
            "{} did not compile {}:\n{said}{hint}",
            clang.display(),
            src.display()
        ));
    }
    std::fs::read(&out).map_err(|e| format!("{}: {e}", out.display()))
}

/// A build's temporary folder, removed with everything in it when dropped.
struct BuildDir(PathBuf);

impl Drop for BuildDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
