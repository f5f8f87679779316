//! `gpumemsim.run` and `gpumemsim.check`: a kernel of a clang-19 code object on a grid,
//! through `gpumemsim::launch`, reported as `gpumemsim run KERNEL.o --json` reports it, or
//! its findings as `gpumemsim check KERNEL.o --json` lists them.

use std::path::PathBuf;

use gpumemsim::exec::{GridPart, RunConfig, RunProgress, Schedule, Shard};
use gpumemsim::launch::{launch, KernelArg, Launch, Launched, MAX_BLOCK};
use gpumemsim::lds::LdsInit;
use gpumemsim::loader::{CodeObject, Kernel};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::banks::type_name;
use crate::buffers::{scalar_value, write_back, Arg};
use crate::guard::{error, guard, str_arg, uint_arg};
use crate::KernelError;

/// The keyword arguments `run` and `check` share, as Python passed them (`None`: the
/// default).
struct Keywords<'a, 'py> {
    dynamic_lds: Option<&'a Bound<'py, PyAny>>,
    max_steps: Option<&'a Bound<'py, PyAny>>,
    seed: Option<&'a Bound<'py, PyAny>>,
    threads: Option<&'a Bound<'py, PyAny>>,
    together: bool,
    lds_init: Option<&'a Bound<'py, PyAny>>,
    wgps: Option<&'a Bound<'py, PyAny>>,
    /// The part to stand for (`device`), as the CLI's --device.
    device: Option<String>,
    /// How a source is built (`lang`, `cflags`, `wave64`, `keep_object`).
    source: SourceOptions,
    /// Program-scope variables to set before the launch (`symbols`).
    symbols: Option<&'a Bound<'py, PyAny>>,
    /// Where to write the HTML report (`html`), as the CLI's --html.
    html: Option<PathBuf>,
    /// Run without the timing model and the checks (`functional`), as the CLI's
    /// --functional.
    functional: bool,
    /// Workgroups to sample (`sample`), as the CLI's --sample.
    sample: Option<&'a Bound<'py, PyAny>>,
    /// Run one shard of the grid (`shard=(index, count)`), for `gpumemsim.ray.run`.
    shard: Option<&'a Bound<'py, PyAny>>,
    /// Merge the shards' parts (`parts=[bytes, ...]`) instead of running.
    parts: Option<&'a Bound<'py, PyAny>>,
}

/// The CLI's source options (--lang, --cflags, --wave64, --keep-object, --compile-timeout,
/// --compile-memory), as keywords.
#[derive(Default)]
struct SourceOptions {
    lang: Option<String>,
    cflags: Option<String>,
    wave64: bool,
    /// The chip to compile for (`target`, the CLI's --arch): "gfx1100" (default) or "gfx942".
    target: Option<String>,
    keep_object: Option<PathBuf>,
    /// Seconds (0: no limit; `None`: the default).
    compile_timeout: Option<u64>,
    /// MiB (0: no limit; `None`: the default).
    compile_memory: Option<u64>,
}

/// A kernel that has run: what `run` and `check` report from.
struct Ran<'a, 'py> {
    /// The code object's name in messages (its path, or `<bytes>`).
    file: &'a str,
    /// The code object's path, when Python gave one (source files are looked up near it).
    path: Option<PathBuf>,
    kernel: &'a Kernel,
    kernel_args: &'a [Arg<'py>],
    done: &'a Launched,
    config: &'a RunConfig,
    grid: [u32; 3],
    block: [u32; 3],
}

impl Ran<'_, '_> {
    /// The message of a run that stopped, if it did.
    fn error(&self) -> Option<String> {
        let e = self.done.run.result.as_ref().err()?;
        let (program, sources) = (&self.done.program, self.sources());
        let text = gpumemsim::report::kernel_error(e, self.kernel, program, &sources);
        Some(format!("{}: {text}", self.file))
    }

    /// Each instruction's source line.
    fn sources(&self) -> Vec<Option<gpumemsim::report::InstSource>> {
        gpumemsim::report::kernel_sources(self.kernel, &self.done.program)
    }

    /// The source lines' texts: read from the files the line tables name (and, for a code
    /// object given by path, from beside it).
    fn source_texts(&self) -> gpumemsim::report::SourceTexts {
        match &self.path {
            Some(p) => gpumemsim::report::SourceTexts::near(p),
            None => gpumemsim::report::SourceTexts::new(),
        }
    }
}

/// `lds_init`: "zero", "poison" or "random:SEED" (the CLI's --lds-init).
fn lds_init_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<LdsInit> {
    let Some(obj) = obj else {
        return Ok(LdsInit::Zero);
    };
    let text = str_arg("lds_init", obj, "\"zero\", \"poison\" or \"random:SEED\"")?;
    text.parse()
        .map_err(|e| error(format!("lds_init={text:?}: {e}")))
}

/// Launches the kernel that Python's arguments name (checking them as the CLI does), then
/// hands the run to `then`.
#[allow(clippy::too_many_arguments)]
fn launch_kernel<'py, R>(
    py: Python<'py>,
    kernel_path: &Bound<'py, PyAny>,
    kernel: Option<&str>,
    grid: Option<&Bound<'py, PyAny>>,
    block: Option<&Bound<'py, PyAny>>,
    args: Option<&Bound<'py, PyAny>>,
    kw: Keywords<'_, 'py>,
    then: impl FnOnce(&Ran<'_, 'py>) -> PyResult<R>,
) -> PyResult<R> {
    // Keyword integers (None: the default), checked here so that a negative or huge value
    // is a gpumemsim.Error, not an OverflowError.
    let dynamic_lds: u32 = kw
        .dynamic_lds
        .map_or(Ok(0), |v| uint_arg("dynamic_lds", v, u32::MAX.into()))?;
    let max_steps: u64 = kw
        .max_steps
        .map_or(Ok(RunConfig::default().max_steps), |v| {
            uint_arg("max_steps", v, u64::MAX.into())
        })?;
    let seed: u64 = kw
        .seed
        .map_or(Ok(0), |v| uint_arg("seed", v, u64::MAX.into()))?;
    let threads: usize = kw.threads.map_or(Ok(0), |v| {
        uint_arg("threads", v, gpumemsim::exec::MAX_THREADS as u128)
    })?;
    let lds_init = lds_init_arg(kw.lds_init)?;
    let wgps: Option<u32> = kw
        .wgps
        .map(|v| {
            uint_arg("wgps", v, gpumemsim::exec::MAX_WGPS.into()).and_then(|n: u32| {
                if n == 0 {
                    Err(error("wgps: a device has at least one WGP".to_string()))
                } else {
                    Ok(n)
                }
            })
        })
        .transpose()?;
    let (file, bytes) = code_object(kernel_path, &kw.source)?;
    let obj = CodeObject::parse(&bytes).map_err(|e| error(format!("{file}: {e}")))?;
    let kernel = obj
        .choose(kernel)
        .map_err(|e| error(format!("{file}: {e}")))?;
    if let Some(want) = kw.source.target.as_deref() {
        let named = gpumemsim::target::Target::named(want).map(|t| t.name);
        if named != Some(kernel.target) {
            return Err(error(format!(
                "target: {want:?}: {file} is a code object for {} (a code object runs on the \
                 chip it was built for; leave out target)",
                kernel.target
            )));
        }
    }
    let (device, wgps) =
        gpumemsim::preset::DevicePreset::resolve(kw.device.as_deref(), wgps, kernel.target)
            .map_err(|e| error(format!("device: {e}")))?;
    let grid = dims("grid", grid, 1)?;
    let block_dims = dims("block", block, 64)?;
    if block_dims.iter().map(|&b| b as u64).product::<u64>() > MAX_BLOCK as u64 {
        return Err(error(format!(
            "block {}: at most {MAX_BLOCK} work-items per workgroup",
            block.map_or_else(|| "64".to_string(), shown)
        )));
    }
    let items: Vec<Bound<'py, PyAny>> = match args {
        None => Vec::new(),
        Some(a) => a
            .try_iter()
            .and_then(|it| it.collect::<PyResult<Vec<_>>>())
            .map_err(|_| {
                error(format!(
                    "args: expected a list of kernel arguments, got {}",
                    type_name(a)
                ))
            })?,
    };
    let kernel_args: Vec<Arg<'py>> = items
        .iter()
        .enumerate()
        .map(|(i, a)| Arg::new(py, i, a))
        .collect::<PyResult<_>>()?;
    let kernel_args = crate::buffers::same_buffers(kernel_args)?;
    let launch_args = kernel_args
        .iter()
        .map(|a| {
            Ok(match a {
                Arg::Scalar(_, b) => KernelArg::Scalar(b.clone()),
                Arg::Buffer(..) => KernelArg::Buffer(a.bytes()?),
                Arg::Local(n) => KernelArg::Local(*n),
                Arg::Null => KernelArg::Null,
                Arg::SameAs(j, ..) => KernelArg::SameAs(*j),
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    if let Some(meta) = &kernel.metadata {
        let explicit = meta.args.iter().filter(|m| !m.is_hidden());
        for (i, (m, a)) in explicit.zip(&kernel_args).enumerate() {
            let checked = match a {
                Arg::Scalar(ty, _) => {
                    let e = gpumemsim::launch::ElementType::from_name(ty)
                        .expect("a scalar type is an element type");
                    gpumemsim::launch::check_scalar_type(i, m, e)
                }
                Arg::Buffer(_, e) | Arg::SameAs(_, _, e) => {
                    gpumemsim::launch::check_buffer_type(i, m, *e)
                }
                _ => Ok(()),
            };
            checked.map_err(|e| error(format!("{file}: args[{i}]: {e}")))?;
        }
    }
    let progress = std::sync::Arc::new(RunProgress::new());
    let config = Launch {
        grid,
        block: block_dims,
        args: launch_args,
        dynamic_lds,
        sample: kw
            .sample
            .map(|v| uint_arg::<u32>("sample", v, u32::MAX.into()))
            .transpose()?,
        symbols: symbol_values(kw.symbols)?,
        config: RunConfig {
            shard: shard_arg(kw.shard, kw.parts)?,
            record_samples: kw.html.is_some(),
            record_timeline: kw.html.is_some(),
            progress: Some(progress.clone()),
            max_steps,
            seed,
            threads,
            together: kw.together,
            functional: kw.functional,
            lds_init,
            wgps,
            device: Some(device),
            // The chip's bank model and timing, which the report gives.
            ..gpumemsim::launch::on_chip(&RunConfig::default(), kernel)
        },
        ..Launch::new(kernel)
    };
    let done = interruptible(py, &progress, || launch(&config))?
        .map_err(|e| error(format!("{file}: {e}")))?;
    let ran = Ran {
        file: &file,
        path: kernel_path.extract::<PathBuf>().ok(),
        kernel,
        kernel_args: &kernel_args,
        done: &done,
        config: &config.config,
        grid,
        block: block_dims,
    };
    // A shard's run is a part of the grid's: the merge writes the page.
    if let Some(path) = kw.html.as_ref().filter(|_| kw.shard.is_none()) {
        write_html(&ran, path)?;
    }
    then(&ran)
}

/// Writes the run's HTML report to `path`, as `gpumemsim run --html PATH` writes it.
fn write_html(ran: &Ran<'_, '_>, path: &std::path::Path) -> PyResult<()> {
    use gpumemsim::report::{run_page, RunReport};
    let name = ran.kernel.display_name();
    let sources = ran.sources();
    let mut texts = ran.source_texts();
    let device = &ran.done.run.device;
    let report = RunReport::new(&name, &ran.done.program, device, &ran.config.banks)
        .with_base(ran.kernel.address)
        .with_sources(&sources, &mut texts)
        .with_fact("program", ran.file)
        .with_error(ran.error());
    std::fs::write(path, run_page(&report))
        .map_err(|e| error(format!("html {}: {e}", path.display())))
}

/// `shard=(index, count)` or `parts=[bytes, ...]` as the launch's [`Shard`] (`None`: the
/// whole grid).
fn shard_arg(
    shard: Option<&Bound<'_, PyAny>>,
    parts: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Shard>> {
    match (shard, parts) {
        (Some(_), Some(_)) => Err(error(
            "shard and parts: a launch runs one shard or merges the parts, not both".to_string(),
        )),
        (Some(s), None) => {
            let pair: Vec<Bound<'_, PyAny>> = s
                .try_iter()
                .and_then(|it| it.collect::<PyResult<Vec<_>>>())
                .ok()
                .filter(|v| v.len() == 2)
                .ok_or_else(|| {
                    error(format!(
                        "shard={}: expected (index, count)",
                        crate::guard::described(s).0
                    ))
                })?;
            let count: u32 = uint_arg("shard count", &pair[1], u32::MAX.into())?;
            let index: u32 = uint_arg("shard index", &pair[0], u32::MAX.into())?;
            if count == 0 || index >= count {
                return Err(error(format!(
                    "shard=({index}, {count}): the index is one of 0 to count − 1"
                )));
            }
            Ok(Some(Shard::Run { index, count }))
        }
        (None, Some(p)) => {
            let items: Vec<Bound<'_, PyAny>> = p
                .try_iter()
                .and_then(|it| it.collect::<PyResult<Vec<_>>>())
                .map_err(|_| error("parts: expected a list of bytes".to_string()))?;
            let parts = items
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let bytes: Vec<u8> = b
                        .extract()
                        .map_err(|_| error(format!("parts[{i}]: expected bytes")))?;
                    GridPart::from_bytes(&bytes).map_err(|e| error(format!("parts[{i}]: {e}")))
                })
                .collect::<PyResult<Vec<_>>>()?;
            Ok(Some(Shard::Merge(parts.into())))
        }
        (None, None) => Ok(None),
    }
}

/// Runs `f` without the GIL on a thread of its own, checking for Python signals every 50 ms
/// meanwhile: a Ctrl-C (KeyboardInterrupt) cancels the run through `progress`, which stops
/// within [`gpumemsim::exec::PROGRESS_STEPS`] instructions, and is raised once it has.
fn interruptible<T: Send>(
    py: Python<'_>,
    progress: &RunProgress,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let mut signal = None;
    let out = py.detach(|| {
        std::thread::scope(|s| {
            let run = s.spawn(f);
            while !run.is_finished() {
                std::thread::sleep(std::time::Duration::from_millis(50));
                if signal.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        progress.cancel();
                        signal = Some(e);
                    }
                }
            }
            run.join()
        })
    });
    if let Some(e) = signal {
        return Err(e);
    }
    out.map_err(|_| error("the simulator stopped unexpectedly (a panic)".to_string()))
}

/// Declares a Python entry point with the launch parameters that `run` and `check` share
/// (declared once, so that the two take the same arguments): it launches the kernel
/// ([`launch_kernel`]) and hands the run to `$then`, which makes the result, a
/// `Bound<'py, $result>`.
macro_rules! launch_entry {
    ($(#[$attr:meta])*
     pub fn $name:ident($($extra:ident: $ety:ty = $edef:literal),*) -> $result:ident = $then:path;
     functional: $functional_ok:literal;) => {
        $(#[$attr])*
        #[pyfunction]
        #[pyo3(signature = (kernel_path, kernel=None, grid=None, block=None, args=None, *,
                            dynamic_lds=None, max_steps=None, seed=None, threads=None,
                            together=false, lds_init=None, wgps=None, device=None, lang=None, cflags=None,
                            wave64=false, target=None, keep_object=None, symbols=None,
                            html=None, functional=false,
                            compile_timeout=None, compile_memory=None, sample=None,
                            shard=None, parts=None
                            $(, $extra=$edef)*))]
        #[allow(clippy::too_many_arguments)]
        pub fn $name<'py>(
            py: Python<'py>,
            kernel_path: &Bound<'py, PyAny>,
            kernel: Option<&str>,
            grid: Option<&Bound<'py, PyAny>>,
            block: Option<&Bound<'py, PyAny>>,
            args: Option<&Bound<'py, PyAny>>,
            dynamic_lds: Option<&Bound<'py, PyAny>>,
            max_steps: Option<&Bound<'py, PyAny>>,
            seed: Option<&Bound<'py, PyAny>>,
            threads: Option<&Bound<'py, PyAny>>,
            together: bool,
            lds_init: Option<&Bound<'py, PyAny>>,
            wgps: Option<&Bound<'py, PyAny>>,
            device: Option<String>,
            lang: Option<String>,
            cflags: Option<String>,
            wave64: bool,
            target: Option<String>,
            keep_object: Option<PathBuf>,
            symbols: Option<&Bound<'py, PyAny>>,
            html: Option<PathBuf>,
            functional: bool,
            compile_timeout: Option<&Bound<'py, PyAny>>,
            compile_memory: Option<&Bound<'py, PyAny>>,
            sample: Option<&Bound<'py, PyAny>>,
            shard: Option<&Bound<'py, PyAny>>,
            parts: Option<&Bound<'py, PyAny>>,
            $($extra: $ety),*
        ) -> PyResult<Bound<'py, $result>> {
            let limit = |name: &str, v: Option<&Bound<'py, PyAny>>| {
                v.map(|v| uint_arg::<u64>(name, v, u64::MAX.into())).transpose()
            };
            let compile_timeout = limit("compile_timeout", compile_timeout)?;
            let compile_memory = limit("compile_memory", compile_memory)?;
            // `functional` is for the entries that report a run ($functional_ok), not its
            // findings, and never with an HTML report (its pictures are the timed run's).
            if functional && (!$functional_ok || html.is_some()) {
                return Err(error(format!(
                    "functional=True runs without the timing model and the checks, so {} \
                     has nothing to show; leave it out",
                    if html.is_some() { "html" } else { "gpumemsim.check" }
                )));
            }
            let kw = Keywords {
                dynamic_lds,
                max_steps,
                seed,
                threads,
                together,
                lds_init,
                wgps,
                device,
                source: SourceOptions {
                    lang,
                    cflags,
                    wave64,
                    target,
                    keep_object,
                    compile_timeout,
                    compile_memory,
                },
                symbols,
                html,
                functional,
                sample,
                shard,
                parts,
            };
            guard(|| {
                launch_kernel(py, kernel_path, kernel, grid, block, args, kw, |ran| {
                    $then(py, ran $(, $extra)*)
                })
            })
        }
    };
}

launch_entry! {
    /// Runs a kernel of a gfx1100 code object (built by `clang-19 -target amdgcn-amd-amdhsa
    /// -mcpu=gfx1100`) or of a source on a grid of workgroups, as `gpumemsim run KERNEL.o`
    /// (or `KERNEL.cl`, `KERNEL.hip`) does.
    ///
    /// kernel_path: the code object's path (or its bytes), or an OpenCL (`.cl`) or HIP
    /// (`.hip`, `.cu`, `.cpp`, `.cc`) source, compiled with clang-19 and AMD's device
    /// libraries first; lang ("opencl" or "hip") overrides the extension, cflags adds compiler
    /// flags ("-O0 -DN=64"), wave64 builds for 64-lane waves, target names the chip to build
    /// for ("gfx1100", the default, or "gfx942"; a code object runs on its own chip), compile_timeout (seconds,
    /// default 120) and compile_memory (MiB, default 4096; 0 lifts either) limit clang,
    /// keep_object=PATH writes the
    /// object built. kernel: the kernel's name (optional when the object has one). grid:
    /// workgroups per dimension, an int or 1 to 3 ints. block: work-items per workgroup,
    /// likewise (at most 1024 in all). args: the kernel's arguments in order: a NumPy array is
    /// a buffer (dtype uint8, uint16, uint32, int32, uint64, int64, float16, float32 or
    /// float64; C-contiguous and writable) placed in global memory and written back in place
    /// after the run; a scalar is a `(type, value)` pair with type "u8", "u16", "u32", "i32",
    /// "u64", "i64", "f16", "f32" or "f64", or a NumPy scalar of those types
    /// (`numpy.float32(2.0)`); an OpenCL `__local` pointer argument is `("local", BYTES)`;
    /// None is a null global pointer; one array given twice is one buffer (its report entry
    /// says `same_as`). The arguments are checked against the kernel's
    /// metadata (count and kinds). dynamic_lds: HIP's launch shared-memory size (`extern
    /// __shared__`). max_steps (per wave), seed, threads, together, lds_init ("zero", "poison"
    /// or "random:SEED"), device (default "rx7900xtx" for gfx1100 code, "mi300x" for gfx942),
    /// wgps (default the device's): as the CLI's --max-steps, --seed, --threads,
    /// --together, --lds-init, --device, --wgps. sample=K runs K workgroups spread over the grid and
    /// scales the per-line and per-instruction figures to it (report key "sampled"), as
    /// --sample. shard=(I, N) and parts=[bytes, ...] are what gpumemsim.ray.run passes its
    /// tasks: run shard I of N of the grid (the report gets "part", bytes), or merge every
    /// shard's part into the whole launch's report. html=PATH also writes the HTML report there (as
    /// --html does). check=True adds the keys "findings" (what `check` returns for the same
    /// launch: one run gives both) and "notes" (what `check` notes but does not fail on).
    /// functional=True runs without the timing model and the checks, as --functional: the
    /// same buffers for every kernel whose result does not depend on the order of its
    /// waves' accesses, in less time; the report has "functional": True and no cycles,
    /// timing, units, vcache, delay_alu or counters (docs/functional.md).
    ///
    /// Returns a dict with the keys of `gpumemsim run --json`: kernel, args (each buffer's type,
    /// address and values, the values being the array itself; each scalar's type and value),
    /// events, instructions (per-instruction executions, cycles, conflict cycles, stalls,
    /// latency, cache hits and misses), cycles, steps, grid, block, wave_size, schedule,
    /// placement, units and delay_alu (docs/timing.md).
    /// Raises gpumemsim.Error when the launch cannot start, and gpumemsim.KernelError (with the
    /// report as `.report`) when the kernel starts and then stops.
    pub fn run(check: bool = false) -> PyDict = report;
    functional: true;
}

launch_entry! {
    /// Runs a kernel as `run` does (the same arguments) and returns only what it did wrong, as
    /// `gpumemsim check KERNEL.o --json` reports it: a list of findings, one per kind and
    /// instructions, each a dict with kind, count, instructions (each with address, text and,
    /// where the object has line tables, source), waves, lanes, message and, where one applies,
    /// the memory address. A correct kernel gives `[]`, so a unit test can
    /// `assert gpumemsim.check(...) == []`. Buffers are written back in place as `run` does;
    /// html=PATH writes the HTML report with the findings marked (as --html does).
    /// Raises gpumemsim.Error when the launch cannot start, and gpumemsim.KernelError when the
    /// kernel starts and then stops, its `.report` being `{"findings": [...], "error": ...}`.
    pub fn check() -> PyAny = findings;
    functional: false;
}

/// `check`'s result: the findings (buffers written back in place as `run` does); a run that
/// stopped raises gpumemsim.KernelError with `{"findings": [...], "error": ...}` as `.report`.
fn findings<'py>(py: Python<'py>, ran: &Ran<'_, 'py>) -> PyResult<Bound<'py, PyAny>> {
    if ran.done.run.part.is_some() {
        return Err(error(
            "shard: gpumemsim.check does not run a shard of a grid; gpumemsim.run does".to_string(),
        ));
    }
    for (i, a) in ran.kernel_args.iter().enumerate() {
        if let (Arg::Buffer(array, elem), Some(bytes)) = (a, ran.done.buffers.get(i)) {
            write_back(array, *elem, bytes)?;
        }
    }
    let (findings, _) = findings_lists(py, ran)?;
    if let Some(msg) = ran.error() {
        let report = PyDict::new(py);
        report.set_item("findings", &findings)?;
        report.set_item("error", &msg)?;
        let err = KernelError::new_err(msg);
        err.value(py).setattr("report", &report)?;
        return Err(err);
    }
    Ok(findings)
}

/// The run's findings and notes as `gpumemsim check --json` lists them.
fn findings_lists<'py>(
    py: Python<'py>,
    ran: &Ran<'_, 'py>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let dev = &ran.done.run.device;
    let (findings, notes) = gpumemsim::report::json::findings_and_notes(
        &ran.done.program,
        ran.kernel.address,
        dev,
        &ran.sources(),
    );
    Ok((from_json(py, &findings)?, from_json(py, &notes)?))
}

/// `run`'s report: the keys of `gpumemsim run --json`, buffers written back in place; with
/// `check`, also `"findings"` (what `check` returns for the same launch).
fn report<'py>(py: Python<'py>, ran: &Ran<'_, 'py>, check: bool) -> PyResult<Bound<'py, PyDict>> {
    let (kernel, done) = (ran.kernel, ran.done);
    let (run, dev) = (&done.run, &done.run.device);
    let report = PyDict::new(py);
    report.set_item("kernel", kernel.display_name())?;
    report.set_item("target", kernel.target)?;
    report.set_item("symbol", &kernel.name)?;
    let names: Vec<Option<String>> = kernel.metadata.as_ref().map_or_else(Vec::new, |m| {
        m.args
            .iter()
            .filter(|a| !a.is_hidden())
            .map(|a| a.name.clone())
            .collect()
    });
    let arg_list = PyList::empty(py);
    for (i, a) in ran.kernel_args.iter().enumerate() {
        let d = PyDict::new(py);
        if let Some(Some(n)) = names.get(i) {
            d.set_item("name", n)?;
        }
        let (address, bytes) = (
            done.addresses.get(i).copied().unwrap_or(0),
            done.buffers.get(i).map_or(&[][..], Vec::as_slice),
        );
        match a {
            Arg::Scalar(ty, b) => {
                d.set_item("kind", "value")?;
                d.set_item("type", *ty)?;
                d.set_item("value", scalar_value(py, ty, b)?)?;
            }
            Arg::Local(n) => {
                d.set_item("kind", "local")?;
                d.set_item("offset", address)?;
                d.set_item("size", *n)?;
            }
            Arg::Null => d.set_item("kind", "null")?,
            Arg::SameAs(j, array, elem) => {
                d.set_item("kind", "buffer")?;
                d.set_item("type", elem.name())?;
                d.set_item("address", address)?;
                d.set_item("same_as", j)?;
                d.set_item("values", array)?;
            }
            Arg::Buffer(array, elem) => {
                write_back(array, *elem, bytes)?;
                d.set_item("kind", "buffer")?;
                d.set_item("type", elem.name())?;
                d.set_item("address", address)?;
                d.set_item("values", array)?;
            }
        }
        arg_list.append(d)?;
    }
    report.set_item("args", arg_list)?;
    report.set_item("symbols", symbols(py, &done.symbols)?)?;
    report.set_item("printf", done.printf.clone())?;
    if let Some((k, total)) = done.sampled {
        let s = PyDict::new(py);
        s.set_item("workgroups", k)?;
        s.set_item("of", total)?;
        report.set_item("sampled", s)?;
    }
    use gpumemsim::report::json;
    let sources = ran.sources();
    let mut texts = ran.source_texts();
    let resources = gpumemsim::occupancy::Resources::of_kernel(kernel)
        .with_dynamic_lds(done.lds_bytes - kernel.descriptor.group_segment_fixed_size)
        .with_workgroup_size(ran.block.iter().product());
    let occupancy = gpumemsim::occupancy::occupancy(&resources, &kernel.chip().limits);
    let program = &done.program;
    let parts = [
        (
            "events",
            json::events(program, kernel.address, dev, &sources),
        ),
        (
            "instructions",
            json::instructions(program, kernel.address, dev, &sources),
        ),
        (
            "lines",
            json::lines(program, kernel.address, dev, &sources, &mut texts),
        ),
        (
            "calls",
            json::calls(program, kernel.address, dev, &sources, Some(kernel)),
        ),
        ("cycles", dev.cycles().into()),
        ("totals", json::totals(dev)),
        ("timing", json::timing(ran.config)),
        ("device", json::device(dev)),
        ("placement", json::placement(dev)),
        ("units", json::units(dev)),
        (
            "vcache",
            json::vcache(dev).unwrap_or(serde_json::Value::Null),
        ),
        ("delay_alu", json::delay_alu(program, kernel.address, dev)),
    ];
    for (key, mut value) in parts {
        if dev.functional() {
            // No timing in a functional run (as `gpumemsim run --functional --json`).
            if json::is_timing_key(key) {
                continue;
            }
            json::strip_timing(&mut value);
        }
        report.set_item(key, from_json(py, &value)?)?;
    }
    if dev.functional() {
        report.set_item("functional", true)?;
    }
    report.set_item("steps", dev.steps())?;
    report.set_item("grid", ran.grid.to_vec())?;
    report.set_item("block", ran.block.to_vec())?;
    report.set_item("wave_size", done.wave_size)?;
    report.set_item("lds_bytes", done.lds_bytes)?;
    let resources = json::resources(&resources, &occupancy);
    report.set_item("resources", from_json(py, &resources)?)?;
    if !dev.functional() {
        report.set_item("counters", from_json(py, &json::counters(program, dev))?)?;
    }
    let schedule = PyDict::new(py);
    match run.schedule {
        Schedule::Apart { threads } => {
            schedule.set_item("workgroups", "apart")?;
            schedule.set_item("threads", threads)?;
        }
        Schedule::Together => {
            schedule.set_item("workgroups", "together")?;
            schedule.set_item("reason", run.together_because.to_string())?;
        }
    }
    report.set_item("schedule", schedule)?;
    if let Some(part) = &run.part {
        report.set_item("part", pyo3::types::PyBytes::new(py, &part.to_bytes()))?;
    }
    if check {
        let (findings, notes) = findings_lists(py, ran)?;
        report.set_item("findings", findings)?;
        report.set_item("notes", notes)?;
    }
    if let Some(msg) = ran.error() {
        report.set_item("error", &msg)?;
        let err = KernelError::new_err(msg);
        err.value(py).setattr("report", &report)?;
        return Err(err);
    }
    Ok(report)
}

/// The code object: a path (str or os.PathLike; named by it in messages) or its bytes.
/// A JSON value (the library's report records) as the Python objects `json.loads` makes.
/// The report's `"symbols"`, as the CLI's `--json` gives them without `--symbol`: each
/// program-scope variable's name, address, size, and final values as u32 words (u8 for a size
/// that is not a multiple of 4: an ELF symbol has no type).
fn symbols<'py>(
    py: Python<'py>,
    values: &[gpumemsim::launch::SymbolValue],
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for v in values {
        let d = PyDict::new(py);
        d.set_item("name", &v.name)?;
        d.set_item("address", v.address)?;
        d.set_item("size", v.bytes.len())?;
        if v.bytes.len().is_multiple_of(4) {
            d.set_item("type", "u32")?;
            let words: Vec<u32> = v
                .bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            d.set_item("values", words)?;
        } else {
            d.set_item("type", "u8")?;
            // As ints (a Vec<u8> would become bytes).
            let bytes: Vec<u32> = v.bytes.iter().map(|&b| u32::from(b)).collect();
            d.set_item("values", bytes)?;
        }
        list.append(d)?;
    }
    Ok(list)
}

fn from_json<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

/// The `symbols` keyword: a dict of variable name to its bytes (`bytes`, or anything with
/// `tobytes()`, a NumPy array), as the CLI's --symbol sets them.
fn symbol_values(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<(String, Vec<u8>)>> {
    let Some(obj) = obj else {
        return Ok(Vec::new());
    };
    let dict = obj.cast::<PyDict>().map_err(|_| {
        error(format!(
            "symbols: expected a dict of name to bytes or array, got {}",
            type_name(obj)
        ))
    })?;
    let mut out = Vec::new();
    for (k, v) in dict.iter() {
        let name: String = k
            .extract()
            .map_err(|_| error(format!("symbols: a name is a str, not {}", type_name(&k))))?;
        let bytes = if let Ok(b) = v.cast::<PyBytes>() {
            b.as_bytes().to_vec()
        } else {
            let b = v.call_method0("tobytes").map_err(|_| {
                error(format!(
                    "symbols: `{name}`: expected bytes or an array, got {}",
                    type_name(&v)
                ))
            })?;
            b.cast::<PyBytes>()
                .map_err(|_| error(format!("symbols: `{name}`: tobytes() gave no bytes")))?
                .as_bytes()
                .to_vec()
        };
        out.push((name, bytes));
    }
    Ok(out)
}

fn code_object(obj: &Bound<'_, PyAny>, opts: &SourceOptions) -> PyResult<(String, Vec<u8>)> {
    use gpumemsim::loader::source::{compile, Language, SourceBuild};
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(("<bytes>".to_string(), b.as_bytes().to_vec()));
    }
    let path: PathBuf = obj.extract().map_err(|_| {
        error(format!(
            "kernel_path: expected a path (str or os.PathLike) or bytes, got {}",
            type_name(obj)
        ))
    })?;
    let file = path.display().to_string();
    let lang = match opts.lang.as_deref() {
        None => Language::of_path(&path),
        Some(name) => Some(Language::from_name(name).ok_or_else(|| {
            error(format!(
                "lang: {name:?} is not a source language (\"opencl\" or \"hip\")"
            ))
        })?),
    };
    let Some(lang) = lang else {
        let bytes = std::fs::read(&path).map_err(|e| error(format!("{file}: {e}")))?;
        return Ok((file, bytes));
    };
    // A source: compiled with clang-19 and the device libraries, as the CLI compiles it.
    let target = match opts.target.as_deref() {
        None => None,
        Some(name) => Some(gpumemsim::target::Target::named(name).ok_or_else(|| {
            error(format!(
                "target: {name:?} is not a chip gpumemsim runs ({})",
                gpumemsim::target::Target::names()
            ))
        })?),
    };
    let build = SourceBuild {
        wave64: opts.wave64,
        target,
        cflags: opts
            .cflags
            .as_deref()
            .map(|f| f.split_whitespace().map(String::from).collect())
            .unwrap_or_default(),
        timeout: opts.compile_timeout.map(std::time::Duration::from_secs),
        memory_mib: opts.compile_memory,
        ..SourceBuild::default()
    };
    let bytes = compile(&path, lang, &build).map_err(error)?;
    if let Some(keep) = &opts.keep_object {
        std::fs::write(keep, &bytes)
            .map_err(|e| error(format!("keep_object {}: {e}", keep.display())))?;
    }
    Ok((file, bytes))
}

/// Grid or block dimensions: an int (X) or 1 to 3 positive ints (X, Y, Z); `None` gives
/// `default` workgroups or work-items in X.
fn dims(name: &str, obj: Option<&Bound<'_, PyAny>>, default: u32) -> PyResult<[u32; 3]> {
    let Some(obj) = obj else {
        return Ok([default, 1, 1]);
    };
    let shown = shown(obj);
    let items: Vec<Bound<'_, PyAny>> = if obj.extract::<i128>().is_ok() {
        vec![obj.clone()]
    } else if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(error(format!("{name} {shown}: expected X[,Y,Z]")));
    } else {
        obj.try_iter()
            .and_then(|it| it.collect::<PyResult<Vec<_>>>())
            .map_err(|_| error(format!("{name} {shown}: expected X[,Y,Z]")))?
    };
    if items.is_empty() || items.len() > 3 {
        return Err(error(format!("{name} {shown}: expected X[,Y,Z]")));
    }
    let mut d = [1u32; 3];
    for (i, item) in items.iter().enumerate() {
        let not_positive = || {
            error(format!(
                "{name} {shown}: `{}` is not a positive integer",
                self::shown(item)
            ))
        };
        if item.is_instance_of::<pyo3::types::PyBool>() {
            return Err(not_positive());
        }
        // An int too large for 32 bits is named as such, not as "not a positive integer".
        let big = item
            .extract::<pyo3::Bound<'_, pyo3::types::PyInt>>()
            .is_ok_and(|n| n.gt(u32::MAX).unwrap_or(false));
        if big {
            return Err(error(format!(
                "{name} {shown}: `{}` is more than {}, the most a dimension may be (32 bits)",
                self::shown(item),
                u32::MAX
            )));
        }
        d[i] = item
            .extract::<u32>()
            .ok()
            .filter(|&v| v > 0)
            .ok_or_else(not_positive)?;
    }
    Ok(d)
}

/// `repr(obj)`, for messages.
fn shown(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string())
}
