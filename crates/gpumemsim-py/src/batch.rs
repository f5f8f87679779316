//! `gpumemsim.banks_batch`: many accesses of one shape, costed by the library's batch path
//! ([`BankModel::cost_batch_into`]) with the GIL released. Addresses are read in place where
//! the array is C-contiguous `uint32` / `uint64`; other integer arrays are converted a chunk
//! at a time into buffers reused for the whole call, so nothing is allocated per access.

use gpumemsim::banks::{AccessCost, AccessShape, BankModel, Batch, CostUnits, LaneAddress};
use numpy::ndarray::{ArrayView1, ArrayView2, Axis};
use numpy::{
    PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::banks::type_name;
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
    arch: &str,
    op: &str,
    addrs: &Bound<'py, PyAny>,
    active: Option<&Bound<'py, PyAny>>,
    wave: Option<u32>,
    addrs1: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let q = Query::resolve(arch, op, wave)?;
        let lanes = q.wave.lanes() as usize;
        let first = AddressArray::new(py, "addrs", addrs)?;
        let count = first.accesses(lanes)?;
        let second = match (addrs1, q.op.kind.is_two_addr()) {
            (Some(obj), true) => {
                let second = AddressArray::new(py, "addrs1", obj)?;
                if second.shape() != first.shape() || second.dtype() != first.dtype() {
                    return Err(error(format!(
                        "addrs1: shape {:?} and dtype {} must match addrs ({:?}, {})",
                        second.shape(),
                        second.dtype(),
                        first.shape(),
                        first.dtype()
                    )));
                }
                Some(second)
            }
            (None, true) => {
                return Err(error(format!(
                    "{} takes two addresses per lane: give --addr1 as well",
                    q.op.name
                )))
            }
            (Some(_), false) => {
                return Err(error(format!(
                    "--addr1 is for 2addr instructions; {} has one address per lane",
                    q.op.name
                )))
            }
            (None, false) => None,
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

/// An integer type addresses and masks may come in.
trait LaneInt: numpy::Element + Copy + Sync {
    /// The value as an unsigned 64-bit integer, or `None` if it is negative.
    fn to_u64(self) -> Option<u64>;
}

impl LaneInt for u32 {
    fn to_u64(self) -> Option<u64> {
        Some(self as u64)
    }
}

impl LaneInt for u64 {
    fn to_u64(self) -> Option<u64> {
        Some(self)
    }
}

impl LaneInt for i32 {
    fn to_u64(self) -> Option<u64> {
        u64::try_from(self).ok()
    }
}

impl LaneInt for i64 {
    fn to_u64(self) -> Option<u64> {
        u64::try_from(self).ok()
    }
}

/// A 2-D address array, borrowed from NumPy for the call.
enum AddressArray<'py> {
    U32(PyReadonlyArray2<'py, u32>),
    U64(PyReadonlyArray2<'py, u64>),
    I32(PyReadonlyArray2<'py, i32>),
    I64(PyReadonlyArray2<'py, i64>),
}

/// A view of an [`AddressArray`] that can cross into the GIL-free part.
#[derive(Clone, Copy)]
enum AddressView<'a> {
    U32(ArrayView2<'a, u32>),
    U64(ArrayView2<'a, u64>),
    I32(ArrayView2<'a, i32>),
    I64(ArrayView2<'a, i64>),
}

impl<'py> AddressArray<'py> {
    /// Borrows `obj` (converted by `numpy.asarray` if it is not an array) as a 2-D integer
    /// array; `name` is the argument for messages.
    fn new(py: Python<'py>, name: &str, obj: &Bound<'py, PyAny>) -> PyResult<AddressArray<'py>> {
        let array = as_array(py, name, obj)?;
        let untyped = array.cast::<PyUntypedArray>()?;
        if untyped.ndim() != 2 {
            return Err(error(format!(
                "{name}: expected a 2-D array (accesses × lanes), got shape {:?}",
                untyped.shape()
            )));
        }
        if let Ok(a) = array.cast::<numpy::PyArray2<u32>>() {
            return Ok(AddressArray::U32(a.try_readonly()?));
        }
        if let Ok(a) = array.cast::<numpy::PyArray2<u64>>() {
            return Ok(AddressArray::U64(a.try_readonly()?));
        }
        if let Ok(a) = array.cast::<numpy::PyArray2<i32>>() {
            return Ok(AddressArray::I32(a.try_readonly()?));
        }
        if let Ok(a) = array.cast::<numpy::PyArray2<i64>>() {
            return Ok(AddressArray::I64(a.try_readonly()?));
        }
        Err(error(format!(
            "{name}: dtype {} is not supported (use uint32, uint64, int32 or int64)",
            untyped.dtype()
        )))
    }

    fn view(&self) -> AddressView<'_> {
        match self {
            AddressArray::U32(a) => AddressView::U32(a.as_array()),
            AddressArray::U64(a) => AddressView::U64(a.as_array()),
            AddressArray::I32(a) => AddressView::I32(a.as_array()),
            AddressArray::I64(a) => AddressView::I64(a.as_array()),
        }
    }

    fn shape(&self) -> [usize; 2] {
        let dim = match self.view() {
            AddressView::U32(v) => v.dim(),
            AddressView::U64(v) => v.dim(),
            AddressView::I32(v) => v.dim(),
            AddressView::I64(v) => v.dim(),
        };
        [dim.0, dim.1]
    }

    fn dtype(&self) -> &'static str {
        match self {
            AddressArray::U32(_) => "uint32",
            AddressArray::U64(_) => "uint64",
            AddressArray::I32(_) => "int32",
            AddressArray::I64(_) => "int64",
        }
    }

    /// The number of accesses, checking that each row is one wave.
    fn accesses(&self, lanes: usize) -> PyResult<usize> {
        let [rows, cols] = self.shape();
        if cols != lanes {
            return Err(error(format!(
                "addrs: each row is one access with one address per lane: {cols} columns \
                 given, the wave has {lanes} lanes"
            )));
        }
        Ok(rows)
    }
}

/// `obj` itself if it is a NumPy array, else `numpy.asarray(obj)`.
fn as_array<'py>(
    py: Python<'py>,
    name: &str,
    obj: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if obj.cast::<PyUntypedArray>().is_ok() {
        return Ok(obj.clone());
    }
    let converted = py
        .import("numpy")
        .and_then(|np| np.call_method1("asarray", (obj,)))
        .map_err(|e| error(format!("{name}: not an array of integers ({e})")))?;
    if converted.cast::<PyUntypedArray>().is_err() {
        return Err(error(format!(
            "{name}: expected a NumPy array, got {}",
            type_name(obj)
        )));
    }
    Ok(converted)
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
                "active: one mask per access: expected shape ({count},), got {:?}",
                untyped.shape()
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

fn mask_values<T: LaneInt>(array: PyReadonlyArray1<'_, T>) -> PyResult<Vec<u64>> {
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

/// A chunk of addresses as the library takes them.
enum Chunk<'a> {
    U32(&'a [u32]),
    U64(&'a [u64]),
}

/// Buffers a chunk is converted into when it cannot be read in place.
#[derive(Default)]
struct ChunkBuffers {
    u32s: Vec<u32>,
    u64s: Vec<u64>,
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
            let wide = !narrow(self.first, start, end, &mut buf0)
                || self
                    .second
                    .is_some_and(|v| !narrow(v, start, end, &mut buf1));
            let a0 = chunk("addrs", self.first, start, end, wide, &mut buf0)?;
            let a1 = match self.second {
                Some(v) => Some(chunk("addrs1", v, start, end, wide, &mut buf1)?),
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
            done?;
            for c in &costs {
                out.requests.push(c.requests);
                out.cost.push(c.cost);
                out.ideal.push(c.ideal);
                out.conflicts.push(c.conflicts());
            }
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

/// Whether rows `start..end` of `view` can be read as 32-bit addresses (uint32, int32),
/// must be 64-bit (uint64), or, for int64, whether every value fits 32 bits: that is
/// found while converting them into `buf.u32s` (for [`chunk`] to hand out), in one pass
/// that ORs the values (an OR vectorizes where a 64-bit comparison may not).
fn narrow(view: AddressView<'_>, start: usize, end: usize, buf: &mut ChunkBuffers) -> bool {
    match view {
        AddressView::U32(_) | AddressView::I32(_) => true,
        AddressView::U64(_) => false,
        AddressView::I64(v) => {
            let mut high = 0u64;
            let cols = v.ncols();
            buf.u32s.clear();
            buf.u32s.resize((end - start) * cols, 0);
            match v.to_slice() {
                Some(all) => {
                    for (out, &x) in buf.u32s.iter_mut().zip(&all[start * cols..end * cols]) {
                        high |= x as u64;
                        *out = x as u32;
                    }
                }
                None => {
                    let rows = v.slice_axis(Axis(0), (start..end).into());
                    for (out, &x) in buf.u32s.iter_mut().zip(rows.iter()) {
                        high |= x as u64;
                        *out = x as u32;
                    }
                }
            }
            high <= u32::MAX as u64
        }
    }
}

/// Rows `start..end` of `view` as 32-bit addresses, or 64-bit ones where `wide`: the
/// array's own memory where it is C-contiguous and of that width, else converted into
/// `buf` (checking that no address is negative). `int64` rows read narrow were converted
/// by [`narrow`].
fn chunk<'c, 'v: 'c>(
    name: &str,
    view: AddressView<'v>,
    start: usize,
    end: usize,
    wide: bool,
    buf: &'c mut ChunkBuffers,
) -> Result<Chunk<'c>, String> {
    let (u32s, u64s) = (&mut buf.u32s, &mut buf.u64s);
    match (view, wide) {
        (AddressView::U32(v), false) => match v.to_slice() {
            Some(s) => Ok(Chunk::U32(&s[start * v.ncols()..end * v.ncols()])),
            None => fill(name, v, start, end, u32s, Some).map(Chunk::U32),
        },
        (AddressView::U32(v), true) => {
            fill(name, v, start, end, u64s, |x| Some(u64::from(x))).map(Chunk::U64)
        }
        (AddressView::U64(v), _) => match v.to_slice() {
            Some(s) => Ok(Chunk::U64(&s[start * v.ncols()..end * v.ncols()])),
            None => fill(name, v, start, end, u64s, Some).map(Chunk::U64),
        },
        (AddressView::I32(v), false) => {
            fill(name, v, start, end, u32s, |x| u32::try_from(x).ok()).map(Chunk::U32)
        }
        (AddressView::I32(v), true) => {
            fill(name, v, start, end, u64s, |x| u64::try_from(x).ok()).map(Chunk::U64)
        }
        // `narrow` converted them.
        (AddressView::I64(_), false) => Ok(Chunk::U32(u32s.as_slice())),
        (AddressView::I64(v), true) => {
            fill(name, v, start, end, u64s, |x| u64::try_from(x).ok()).map(Chunk::U64)
        }
    }
}

/// Copies rows `start..end` of `view` into `buf` through `convert` (`None`: a negative
/// address; [`narrow`] has ruled out values too large for `A`).
fn fill<'a, T: Copy + std::fmt::Display, A: Default>(
    name: &str,
    view: ArrayView2<'_, T>,
    start: usize,
    end: usize,
    buf: &'a mut Vec<A>,
    convert: impl Fn(T) -> Option<A>,
) -> Result<&'a [A], String> {
    buf.clear();
    let cols = view.ncols();
    if let Some(all) = view.to_slice() {
        let rows = &all[start * cols..end * cols];
        // Two passes without early exits, so both vectorize: check, then convert.
        let bad = rows
            .iter()
            .fold(false, |bad, &x| bad | convert(x).is_none());
        if !bad {
            buf.extend(rows.iter().map(|&x| convert(x).unwrap_or_default()));
            return Ok(buf.as_slice());
        }
        let at = rows
            .iter()
            .position(|&x| convert(x).is_none())
            .unwrap_or_default();
        return Err(format!(
            "{name}[{}, {}]: address {} is negative",
            start + at / cols,
            at % cols,
            rows[at]
        ));
    }
    for (k, row) in view
        .slice_axis(Axis(0), (start..end).into())
        .outer_iter()
        .enumerate()
    {
        for (lane, &x) in row.iter().enumerate() {
            match convert(x) {
                Some(a) => buf.push(a),
                None => {
                    return Err(format!(
                        "{name}[{}, {lane}]: address {x} is negative",
                        start + k
                    ))
                }
            }
        }
    }
    Ok(buf.as_slice())
}
