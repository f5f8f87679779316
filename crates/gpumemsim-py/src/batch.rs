//! `gpumemsim.banks_batch`: many accesses of one shape, costed by the library's batch path
//! ([`BankModel::cost_batch_into`]) a chunk at a time with the GIL released; the address
//! arrays are read through [`crate::addresses`], so nothing is allocated per access.

use gpumemsim::banks::{AccessCost, AccessShape, BankModel, Batch, CostUnits, LaneAddress};
use numpy::ndarray::ArrayView1;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::addresses::{
    as_array, chunk, negative_at, AddressArray, AddressView, Chunk, ChunkBuffers,
};
use crate::banks::shape_text;
use crate::guard::{error, guard};
use crate::query::Query;

/// Accesses costed per call of the library: large enough to amortize the call, small
/// enough that a converted chunk stays in cache.
const CHUNK: usize = 1024;

/// The per-access counters of many accesses of one shape.
///
/// addrs: a 2-D array, one row per access and one column per lane (`uint32`, `uint64`,
/// `int32` or `int64`; anything else NumPy turns into one of those, such as a list of
/// lists, is converted first). active: None (every lane), one mask for every access (an
/// int or a lane list such as "0-15"), or a 1-D integer array with one mask per access.
/// wave: 32 or 64; None for the architecture's default. addrs1: the second addresses of
/// 2addr instructions, an array of the same shape and dtype as addrs.
///
/// Returns a dict of counter name -> 1-D `uint32` array with one entry per access: AMD
/// cycles, ideal_cycles, conflict_cycles; NVIDIA requests, wavefronts, ideal_wavefronts,
/// bank_conflicts. Each access's counters equal `banks(arch, op, row, ...)`'s.
#[pyfunction]
#[pyo3(signature = (arch, op, addrs, active=None, wave=None, *, addrs1=None))]
pub fn banks_batch<'py>(
    py: Python<'py>,
    arch: &Bound<'py, PyAny>,
    op: &Bound<'py, PyAny>,
    addrs: &Bound<'py, PyAny>,
    active: Option<&Bound<'py, PyAny>>,
    wave: Option<&Bound<'py, PyAny>>,
    addrs1: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let q = Query::resolve_py(arch, op, wave)?;
        let lanes = q.wave.lanes() as usize;
        let first = AddressArray::new(py, "addrs", addrs)?;
        let count = first.accesses(lanes)?;
        q.check_addr1(addrs1.is_some())?;
        let second = match addrs1 {
            Some(obj) => {
                let second = AddressArray::new(py, "addrs1", obj)?;
                if second.shape() != first.shape() || second.dtype() != first.dtype() {
                    return Err(error(format!(
                        "addrs1: shape {} and dtype {} must match addrs ({}, {})",
                        shape_text(&second.shape()),
                        second.dtype(),
                        shape_text(&first.shape()),
                        first.dtype()
                    )));
                }
                Some(second)
            }
            None => None,
        };
        let masks = Masks::new(py, &q, active, count)?;
        let shape = AccessShape {
            width: q.op.width,
            kind: q.op.kind,
            active: match &masks {
                Masks::One(m) => *m,
                Masks::Each(_) => q.wave.lane_mask(),
            },
            wave: q.wave,
        };
        let job = Job {
            model: &q.model,
            shape,
            lanes,
            count,
            first: first.view(),
            second: second.as_ref().map(AddressArray::view),
            masks: match &masks {
                Masks::One(_) => None,
                Masks::Each(m) => Some(m.as_slice()),
            },
        };
        let out = py.detach(|| job.run()).map_err(error)?;
        let d = PyDict::new(py);
        let names: &[&str] = match q.model.units() {
            CostUnits::Cycles => &["cycles", "ideal_cycles", "conflict_cycles"],
            CostUnits::Wavefronts => &[
                "requests",
                "wavefronts",
                "ideal_wavefronts",
                "bank_conflicts",
            ],
        };
        let Counters {
            requests,
            cost,
            ideal,
            conflicts,
        } = out;
        let arrays = match q.model.units() {
            CostUnits::Cycles => vec![cost, ideal, conflicts],
            CostUnits::Wavefronts => vec![requests, cost, ideal, conflicts],
        };
        for (name, values) in names.iter().zip(arrays) {
            d.set_item(*name, PyArray1::from_vec(py, values))?;
        }
        Ok(d)
    })
}

/// An integer type per-access masks may come in.
trait MaskInt: numpy::Element + Copy + Sync {
    /// The mask as 64 bits, or `None` if it is negative.
    fn to_u64(self) -> Option<u64>;
}

impl MaskInt for u32 {
    fn to_u64(self) -> Option<u64> {
        Some(self as u64)
    }
}

impl MaskInt for u64 {
    fn to_u64(self) -> Option<u64> {
        Some(self)
    }
}

impl MaskInt for i32 {
    fn to_u64(self) -> Option<u64> {
        u64::try_from(self).ok()
    }
}

impl MaskInt for i64 {
    fn to_u64(self) -> Option<u64> {
        u64::try_from(self).ok()
    }
}

/// The active lanes: one mask for all accesses, or one per access.
enum Masks {
    One(u64),
    Each(Vec<u64>),
}

impl Masks {
    fn new(
        py: Python<'_>,
        q: &Query,
        active: Option<&Bound<'_, PyAny>>,
        count: usize,
    ) -> PyResult<Masks> {
        let Some(obj) = active else {
            return Ok(Masks::One(q.wave.lane_mask()));
        };
        let per_access = obj.cast::<PyUntypedArray>().is_ok_and(|a| a.ndim() > 0)
            || obj.cast::<pyo3::types::PyList>().is_ok()
            || obj.cast::<pyo3::types::PyTuple>().is_ok();
        if !per_access {
            return q.active(Some(obj)).map(Masks::One);
        }
        let array = as_array(py, "active", obj)?;
        let untyped = array.cast::<PyUntypedArray>()?;
        if untyped.ndim() != 1 || untyped.len() != count {
            return Err(error(format!(
                "active: one mask per access: expected shape ({count},), got {}",
                shape_text(untyped.shape())
            )));
        }
        let masks = if let Ok(a) = array.cast::<numpy::PyArray1<u64>>() {
            mask_values(a.try_readonly()?)
        } else if let Ok(a) = array.cast::<numpy::PyArray1<i64>>() {
            mask_values(a.try_readonly()?)
        } else if let Ok(a) = array.cast::<numpy::PyArray1<u32>>() {
            mask_values(a.try_readonly()?)
        } else if let Ok(a) = array.cast::<numpy::PyArray1<i32>>() {
            mask_values(a.try_readonly()?)
        } else {
            return Err(error(format!(
                "active: dtype {} is not supported (use uint64, int64, uint32 or int32)",
                untyped.dtype()
            )));
        }?;
        let wave = q.wave.lane_mask();
        if let Some((k, m)) = masks.iter().enumerate().find(|(_, &m)| m & !wave != 0) {
            return Err(error(format!(
                "active[{k}]: {m:#x} names lanes beyond {}",
                q.wave.lanes() - 1
            )));
        }
        Ok(Masks::Each(masks))
    }
}

fn mask_values<T: MaskInt>(array: PyReadonlyArray1<'_, T>) -> PyResult<Vec<u64>> {
    let view: ArrayView1<'_, T> = array.as_array();
    view.iter()
        .enumerate()
        .map(|(k, &m)| {
            m.to_u64()
                .ok_or_else(|| error(format!("active[{k}]: a mask cannot be negative")))
        })
        .collect()
}

/// The per-access counters, one entry per access.
#[derive(Default)]
struct Counters {
    requests: Vec<u32>,
    cost: Vec<u32>,
    ideal: Vec<u32>,
    conflicts: Vec<u32>,
}

/// Everything the GIL-free part needs.
struct Job<'a> {
    model: &'a BankModel,
    shape: AccessShape,
    lanes: usize,
    count: usize,
    first: AddressView<'a>,
    second: Option<AddressView<'a>>,
    masks: Option<&'a [u64]>,
}

impl Job<'_> {
    fn run(&self) -> Result<Counters, String> {
        let mut out = Counters {
            requests: Vec::with_capacity(self.count),
            cost: Vec::with_capacity(self.count),
            ideal: Vec::with_capacity(self.count),
            conflicts: Vec::with_capacity(self.count),
        };
        let mut costs: Vec<AccessCost> = Vec::with_capacity(CHUNK);
        let (mut buf0, mut buf1) = (ChunkBuffers::default(), ChunkBuffers::default());
        let mut start = 0;
        while start < self.count {
            let end = self.count.min(start + CHUNK);
            let a0 = chunk("addrs", self.first, start, end, &mut buf0)?;
            let a1 = match self.second {
                Some(v) => Some(chunk("addrs1", v, start, end, &mut buf1)?),
                None => None,
            };
            let masks = self.masks.map(|m| &m[start..end]);
            costs.clear();
            let done = match (a0, a1) {
                (Chunk::U32(a), None) => self.cost_chunk(a, None, masks, &mut costs, start),
                (Chunk::U64(a), None) => self.cost_chunk(a, None, masks, &mut costs, start),
                (Chunk::U32(a), Some(Chunk::U32(b))) => {
                    self.cost_chunk(a, Some(b), masks, &mut costs, start)
                }
                (Chunk::U64(a), Some(Chunk::U64(b))) => {
                    self.cost_chunk(a, Some(b), masks, &mut costs, start)
                }
                // Both arrays have one dtype and one width per chunk.
                _ => Err("addrs1: dtype must match addrs".to_string()),
            };
            // A negative int64 address read in place is refused before anything else.
            let negative = negative_at("addrs", self.first, start, end).or_else(|| {
                self.second
                    .and_then(|v| negative_at("addrs1", v, start, end))
            });
            if let Some(message) = negative {
                return Err(message);
            }
            done?;
            // One pass per counter: each is a plain copy the compiler vectorizes.
            out.requests.extend(costs.iter().map(|c| c.requests));
            out.cost.extend(costs.iter().map(|c| c.cost));
            out.ideal.extend(costs.iter().map(|c| c.ideal));
            out.conflicts.extend(costs.iter().map(|c| c.cost - c.ideal));
            start = end;
        }
        Ok(out)
    }

    /// Costs accesses `start..` held in `a0` (and `a1`), appending to `costs`. An error
    /// names the first access that fails.
    fn cost_chunk<A: LaneAddress>(
        &self,
        a0: &[A],
        a1: Option<&[A]>,
        masks: Option<&[u64]>,
        costs: &mut Vec<AccessCost>,
        start: usize,
    ) -> Result<(), String> {
        let mut batch = Batch::new(self.shape, a0);
        if let Some(a1) = a1 {
            batch = batch.with_second_addresses(a1);
        }
        if let Some(m) = masks {
            batch = batch.with_masks(m);
        }
        let Err(e) = self.model.cost_batch_into(&batch, costs) else {
            return Ok(());
        };
        // Find the access: cost them one at a time.
        for k in 0..a0.len() / self.lanes {
            let range = k * self.lanes..(k + 1) * self.lanes;
            let shape = self
                .shape
                .with_active(masks.map_or(self.shape.active, |m| m[k]));
            let access = gpumemsim::banks::Access {
                shape,
                addrs: &a0[range.clone()],
                addrs1: a1.map(|a| &a[range]),
            };
            if let Err(e) = self.model.cost(&access) {
                return Err(format!("addrs[{}]: {e}", start + k));
            }
        }
        Err(e.to_string())
    }
}
