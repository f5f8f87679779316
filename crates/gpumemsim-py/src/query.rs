//! What `banks` and `banks_batch` share: the architecture, operation, wave size and active
//! lanes, resolved as `gpumemsim banks` resolves `--arch`, `--op`, `--wave` and `--active`
//! (gpumemsim::banks::query), with the same messages.

use gpumemsim::banks::query::{operation, parse_lanes, wave_size, Operation};
use gpumemsim::banks::{BankModel, WaveSize};
use pyo3::prelude::*;

use crate::guard::error;

/// A resolved `(arch, op, wave)`.
pub struct Query {
    /// The architecture's bank model.
    pub model: BankModel,
    /// The operation: name, width and kind.
    pub op: Operation,
    /// The wave size.
    pub wave: WaveSize,
}

impl Query {
    /// Checks that second addresses are `given` exactly when the operation is a 2addr one
    /// (with the CLI's messages).
    pub fn check_addr1(&self, given: bool) -> PyResult<()> {
        match (given, self.op.kind.is_two_addr()) {
            (false, true) => Err(error(format!(
                "{} takes two addresses per lane: give --addr1 as well",
                self.op.name
            ))),
            (true, false) => Err(error(format!(
                "--addr1 is for 2addr instructions; {} has one address per lane",
                self.op.name
            ))),
            _ => Ok(()),
        }
    }

    /// [`Query::resolve`] of Python arguments: a type that does not fit (None for `arch`,
    /// a negative `wave`) is a `gpumemsim.Error` naming the argument.
    pub fn resolve_py(
        arch: &Bound<'_, PyAny>,
        op: &Bound<'_, PyAny>,
        wave: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Query> {
        let names = "an architecture name (gpumemsim.ARCHITECTURES)";
        let arch = crate::guard::str_arg("arch", arch, names)?;
        let op = crate::guard::str_arg("op", op, "an operation name")?;
        let wave = match wave.filter(|w| !w.is_none()) {
            Some(w) => Some(crate::guard::uint_arg::<u32>("wave", w, u32::MAX.into())?),
            None => None,
        };
        Query::resolve(&arch, &op, wave)
    }

    /// Resolves the architecture preset, the operation and the wave size (`None`: the
    /// architecture's default).
    pub fn resolve(arch: &str, op: &str, wave: Option<u32>) -> PyResult<Query> {
        let model = BankModel::preset(arch)
            .ok_or_else(|| error(format!("unknown architecture `{arch}`")))?;
        let op = operation(&model, op).map_err(error)?;
        let wave = wave_size(&model, wave).map_err(error)?;
        Ok(Query { model, op, wave })
    }

    /// One active mask: `None` (every lane), an int mask, or a lane list such as `"0-15,20"`
    /// or `"0xffff"`.
    pub fn active(&self, active: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
        let Some(obj) = active else {
            return Ok(self.wave.lane_mask());
        };
        if let Ok(text) = obj.extract::<String>() {
            return parse_lanes(&text, self.wave).map_err(error);
        }
        let mask = int_mask(obj)?;
        // Checked as the CLI checks `--active 0x...`.
        parse_lanes(&format!("{mask:#x}"), self.wave).map_err(error)
    }
}

/// A Python int (or NumPy integer) as a 64-bit lane mask.
pub fn int_mask(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(error(
            "active: a bool is not a lane mask (give an int mask such as 0xffff, or lanes as \
             \"0-15,20\")",
        ));
    }
    obj.extract::<u64>().map_err(|_| {
        let shown = obj
            .repr()
            .map_or_else(|_| "?".to_string(), |r| r.to_string());
        error(format!(
            "active: {shown} is not a lane mask (give an int from 0 to 2**64-1, lanes as \
             \"0-15,20\", or None for every lane)"
        ))
    })
}
