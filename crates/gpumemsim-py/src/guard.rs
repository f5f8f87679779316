//! The boundary between Python and the simulator: errors become `gpumemsim.Error`, and a
//! panic (a simulator bug) becomes one too instead of unwinding into the interpreter.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::types::{PyAnyMethods, PyBool, PyString, PyTypeMethods};
use pyo3::{Bound, PyAny, PyErr, PyResult};

use crate::Error;

/// A `gpumemsim.Error` with `msg`.
pub fn error(msg: impl Into<String>) -> PyErr {
    Error::new_err(msg.into())
}

/// `repr(obj)` and its type's name, for messages.
pub(crate) fn described(obj: &Bound<'_, PyAny>) -> (String, String) {
    let repr = obj
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    let ty = obj
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string());
    (repr, ty)
}

/// The integer argument `name` (`obj`), which must lie in 0..=`max`; anything else (a
/// negative or too large int, a bool, None, another type) is a `gpumemsim.Error` naming the
/// argument, the value and the range, not Python's OverflowError or TypeError.
pub fn uint_arg<T: TryFrom<u128>>(name: &str, obj: &Bound<'_, PyAny>, max: u128) -> PyResult<T> {
    let (repr, ty) = described(obj);
    let range = || {
        error(format!(
            "{name}={repr}: expected an integer from 0 to {max}"
        ))
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(error(format!(
            "{name}={repr}: expected an integer from 0 to {max}, got bool"
        )));
    }
    let v: i128 = match obj.extract::<i128>() {
        Ok(v) => v,
        Err(_) if obj.extract::<pyo3::Bound<'_, pyo3::types::PyInt>>().is_ok() => {
            return Err(range())
        }
        Err(_) => {
            return Err(error(format!(
                "{name}={repr}: expected an integer from 0 to {max}, got {ty}"
            )))
        }
    };
    let v = u128::try_from(v)
        .ok()
        .filter(|&v| v <= max)
        .ok_or_else(range)?;
    T::try_from(v).map_err(|_| range())
}

/// The string argument `name` (`obj`); anything else is a `gpumemsim.Error` naming it.
pub fn str_arg(name: &str, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    if !obj.is_instance_of::<PyString>() {
        let (repr, ty) = described(obj);
        return Err(error(format!("{name}={repr}: expected {what}, got {ty}")));
    }
    obj.extract::<String>()
        .map_err(|e| error(format!("{name}: {e}")))
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
