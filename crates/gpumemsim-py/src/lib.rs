//! The `gpumemsim` Python package: the simulator's bank model, assembler and kernel runner,
//! called from Python with NumPy arrays.
//!
//! - [`banks::banks`]: one access, with the same counters and groups as
//!   `gpumemsim banks --json`;
//! - [`batch::banks_batch`]: many accesses as a 2-D array, per-access counters as arrays
//!   (the GIL is released while the batch is costed);
//! - [`isa::assemble`] / [`isa::disassemble`]: gfx1100 text to bytes and back;
//! - [`run::run`]: a clang-19 code object's kernel on a grid, buffers updated in place, the
//!   report of `gpumemsim run --json`;
//! - [`run::check`]: the same launch, its findings as `gpumemsim check --json` lists them
//!   (`[]` for a correct kernel).
//!
//! Every failure is a `gpumemsim.Error` (a `ValueError`) with the CLI's message; a kernel
//! that starts and then stops raises `gpumemsim.KernelError` carrying the report. A panic in
//! the simulator becomes a `gpumemsim.Error` too ([`guard`]), never a crash.

#![forbid(unsafe_code)]

use pyo3::prelude::*;

mod addresses;
mod banks;
mod batch;
mod buffers;
mod guard;
mod isa;
mod query;
mod run;

/// The module's own allocations go through mimalloc, as the CLI's do (its `main.rs` says
/// why): a run's buffers, pages, tags and shadow are tens of megabytes touched once.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

pyo3::create_exception!(
    gpumemsim,
    Error,
    pyo3::exceptions::PyValueError,
    "A gpumemsim call failed: bad input (the message says which argument and why) or a \
     launch that cannot start."
);

pyo3::create_exception!(
    gpumemsim,
    KernelError,
    Error,
    "A kernel started and then stopped (an unimplemented instruction, a deadlock, the step \
     limit). `report` holds what `run` would have returned, with its `error` key set (from \
     `check`: the findings and the error); the buffers were updated in place as far as the \
     run got."
);

/// Bank-conflict costs, the gfx1100 assembler and kernel runs of gpumemsim, a bit-exact
/// simulator of GPU on-chip memory systems.
#[pymodule(name = "gpumemsim")]
fn gpumemsim_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("KernelError", py.get_type::<KernelError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ARCHITECTURES", gpumemsim::banks::PRESET_NAMES.to_vec())?;
    m.add("TARGETS", gpumemsim::loader::SUPPORTED_TARGETS.to_vec())?;
    m.add_function(wrap_pyfunction!(banks::banks, m)?)?;
    m.add_function(wrap_pyfunction!(batch::banks_batch, m)?)?;
    m.add_function(wrap_pyfunction!(isa::assemble, m)?)?;
    m.add_function(wrap_pyfunction!(isa::disassemble, m)?)?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_function(wrap_pyfunction!(run::check, m)?)?;
    // Names `from gpumemsim import *` gives (the package's __init__ re-exports by it).
    m.add(
        "__all__",
        [
            "ARCHITECTURES",
            "Error",
            "KernelError",
            "TARGETS",
            "__version__",
            "assemble",
            "banks",
            "banks_batch",
            "check",
            "disassemble",
            "run",
        ]
        .to_vec(),
    )?;
    Ok(())
}
