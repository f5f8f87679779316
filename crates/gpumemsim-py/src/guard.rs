//! The boundary between Python and the simulator: errors become `gpumemsim.Error`, and a
//! panic (a simulator bug) becomes one too instead of unwinding into the interpreter.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::{PyErr, PyResult};

use crate::Error;

/// A `gpumemsim.Error` with `msg`.
pub fn error(msg: impl Into<String>) -> PyErr {
    Error::new_err(msg.into())
}

/// Runs `f`, turning a panic into a `gpumemsim.Error` that quotes it.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        Err(error(format!(
            "internal error in gpumemsim (please report it): {}",
            panic_message(payload.as_ref())
        )))
    })
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}
