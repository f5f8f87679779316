//! `gpumemsim.banks`: one access's bank cost, as `gpumemsim banks --json` reports it.

use gpumemsim::banks::query::lane_values;
use gpumemsim::banks::{
    suggest_layouts, Access, AccessCost, AccessShape, BankUse, CostUnits, GroupReport, GroupSource,
    WaveSize,
};
use numpy::{PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::guard::{error, guard};
use crate::query::Query;

/// How many layouts `suggest=True` asks for (as `gpumemsim banks --suggest`).
const SUGGESTIONS: usize = 6;

/// The bank cost of one LDS / shared-memory access.
///
/// arch: an architecture preset (`gpumemsim.ARCHITECTURES`: rdna3, cdna3, cdna4, rdna4,
/// sm70, sm80, sm90). op: a DS mnemonic for AMD (`ds_load_b32`, `ds_store_b128`,
/// `ds_load_2addr_b32`, `ds_add_u32`, ...) or
/// `lds.32|lds.64|lds.128|sts.32|sts.64|sts.128|atoms.32` for NVIDIA. addrs: each lane's byte address, a sequence or 1-D NumPy array with one
/// integer per lane of the wave, or an expression in the lane id `t` (`"t*128"`) or a comma
/// list, as the CLI's `--addr` takes. active: None (every lane), an int mask, or lanes as
/// `"0-15,20"`. wave: 32 or 64; None for the architecture's default (64 on CDNA, else 32).
/// addrs1: the second addresses of 2addr instructions. suggest: True (6) or a number of
/// padding / XOR-swizzle layouts to add under "suggestions".
///
/// Returns a dict equal to the JSON object `gpumemsim banks ... --json` prints: arch, op,
/// kind, width, wave, active, banks, bank_width, the counters (AMD: cycles, ideal_cycles,
/// conflict_cycles; NVIDIA: requests, wavefronts, ideal_wavefronts, bank_conflicts) and
/// "groups", each with its phases, lanes, cost, banks and conflicts. Raises gpumemsim.Error
/// with the CLI's message on bad input.
#[pyfunction]
#[pyo3(signature = (arch, op, addrs, active=None, wave=None, *, addrs1=None, suggest=None))]
#[allow(clippy::too_many_arguments)]
pub fn banks<'py>(
    py: Python<'py>,
    arch: &Bound<'py, PyAny>,
    op: &Bound<'py, PyAny>,
    addrs: &Bound<'py, PyAny>,
    active: Option<&Bound<'py, PyAny>>,
    wave: Option<&Bound<'py, PyAny>>,
    addrs1: Option<&Bound<'py, PyAny>>,
    suggest: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let q = Query::resolve_py(arch, op, wave)?;
        let active = q.active(active)?;
        let limit = suggestion_count(suggest)?;
        let first = lane_addresses("--addr", addrs, q.wave)?;
        q.check_addr1(addrs1.is_some())?;
        let second = match addrs1 {
            Some(obj) => Some(lane_addresses("--addr1", obj, q.wave)?),
            None => None,
        };
        let shape = AccessShape {
            width: q.op.width,
            kind: q.op.kind,
            active,
            wave: q.wave,
        };
        let access = Access {
            shape,
            addrs: &first,
            addrs1: second.as_deref(),
        };
        let report = q.model.analyze(&access).map_err(|e| error(e.to_string()))?;
        let units = q.model.units();
        let out = PyDict::new(py);
        out.set_item("arch", q.model.name())?;
        out.set_item("op", &q.op.name)?;
        out.set_item("kind", shape.kind.name())?;
        out.set_item("width", shape.width)?;
        out.set_item("wave", shape.wave.lanes())?;
        out.set_item("active", format!("{:#x}", shape.active))?;
        out.set_item("banks", q.model.banks())?;
        out.set_item("bank_width", q.model.bank_width())?;
        set_counters(&out, &report.cost, units)?;
        let named = PyDict::new(py);
        for (name, value) in report.cost.counters(units).profiler_entries(shape.kind) {
            named.set_item(name, value)?;
        }
        out.set_item("counters", named)?;
        let groups = PyList::empty(py);
        for g in &report.groups {
            groups.append(group_dict(py, g)?)?;
        }
        out.set_item("groups", groups)?;
        if let Some(limit) = limit {
            let list = PyList::empty(py);
            for s in suggest_layouts(&q.model, &access, limit).map_err(|e| error(e.to_string()))? {
                let d = PyDict::new(py);
                d.set_item("layout", s.layout.to_string())?;
                d.set_item("expression", s.layout.expression())?;
                d.set_item("overhead", s.layout.overhead())?;
                set_counters(&d, &s.cost, units)?;
                list.append(d)?;
            }
            out.set_item("suggestions", list)?;
        }
        Ok(out)
    })
}

/// `suggest`: None or False (no suggestions), True (the CLI's 6), or a count.
fn suggestion_count(suggest: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    let Some(obj) = suggest else {
        return Ok(None);
    };
    if let Ok(on) = obj.extract::<bool>() {
        return Ok(on.then_some(SUGGESTIONS));
    }
    match obj.extract::<usize>() {
        Ok(0) => Ok(None),
        Ok(n) => Ok(Some(n)),
        Err(_) => Err(error(
            "suggest: give True, False or a number of layouts".to_string(),
        )),
    }
}

/// The counters under the names the model's units give them, in the CLI's order.
pub fn set_counters(d: &Bound<'_, PyDict>, cost: &AccessCost, units: CostUnits) -> PyResult<()> {
    for (name, value) in cost.counters(units).entries() {
        d.set_item(name, value)?;
    }
    Ok(())
}

fn lane_list(mask: u64) -> Vec<u32> {
    (0..64).filter(|l| mask >> l & 1 == 1).collect()
}

fn source_name(source: GroupSource) -> &'static str {
    match source {
        GroupSource::First => "first",
        GroupSource::Second => "second",
        GroupSource::Both => "both",
    }
}

fn bank_dict<'py>(py: Python<'py>, b: &BankUse) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("bank", b.bank)?;
    d.set_item("lanes", lane_list(b.lanes))?;
    d.set_item("words", &b.words)?;
    d.set_item("accesses", b.accesses)?;
    Ok(d)
}

fn group_dict<'py>(py: Python<'py>, g: &GroupReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("addresses", source_name(g.source))?;
    d.set_item("phases", &g.phases)?;
    d.set_item("lanes", lane_list(g.lanes))?;
    d.set_item("cost", g.cost)?;
    let banks = PyList::empty(py);
    for b in &g.banks {
        banks.append(bank_dict(py, b)?)?;
    }
    d.set_item("banks", banks)?;
    let conflicts = PyList::empty(py);
    for b in g.conflicts() {
        conflicts.append(bank_dict(py, b)?)?;
    }
    d.set_item("conflicts", conflicts)?;
    Ok(d)
}

/// One address per lane: an expression or comma list (as the CLI's `--addr`), or a
/// sequence / 1-D array of integers. `flag` names the argument as the CLI does.
fn lane_addresses(flag: &str, obj: &Bound<'_, PyAny>, wave: WaveSize) -> PyResult<Vec<u64>> {
    if let Ok(text) = obj.extract::<String>() {
        return lane_values(flag, &text, wave).map_err(error);
    }
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        if array.ndim() != 1 {
            return Err(error(format!(
                "{flag}: expected one address per lane (a 1-D array), got an array of shape \
                 {}",
                shape_text(array.shape())
            )));
        }
    }
    let items: Vec<Bound<'_, PyAny>> = obj
        .try_iter()
        .and_then(|it| it.collect::<PyResult<Vec<_>>>())
        .map_err(|_| {
            error(format!(
                "{flag}: expected a sequence or 1-D array of byte addresses, or an expression \
                 in the lane id t; got {}",
                type_name(obj)
            ))
        })?;
    let lanes = wave.lanes() as usize;
    if items.len() != lanes {
        return Err(error(format!(
            "{flag} lists {} values; the wave has {lanes} lanes (give one per lane, or an \
             expression in the lane id t)",
            items.len()
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(lane, item)| address(flag, lane, item))
        .collect()
}

/// One lane's address: a non-negative integer below 2^64.
fn address(flag: &str, lane: usize, item: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(v) = item.extract::<u64>() {
        if !item.is_instance_of::<pyo3::types::PyBool>() {
            return Ok(v);
        }
    }
    let shown = item
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    let why = match item.extract::<i128>() {
        Ok(v) if v < 0 => format!("address {v} is negative"),
        Ok(_) if item.is_instance_of::<pyo3::types::PyBool>() => {
            format!("{shown} is not an integer address")
        }
        Ok(v) => format!("address {v} does not fit in 64 bits"),
        Err(_) => format!("{shown} is not an integer address"),
    };
    Err(error(format!("{flag}: lane {lane}: {why}")))
}

/// The Python type name of `obj`, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string())
}

/// An array shape as NumPy prints it: `(32,)`, `(2, 32)`.
pub fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            format!("({})", dims.join(", "))
        }
    }
}
