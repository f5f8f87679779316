//! The address arrays of `banks_batch`: 2-D NumPy integer arrays borrowed for the call and
//! handed to the library a chunk at a time: in place where the array is C-contiguous
//! `uint32` / `uint64`, else converted into buffers reused for the whole call.

use numpy::ndarray::{ArrayView2, Axis};
use numpy::{PyArrayMethods, PyReadonlyArray2, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::banks::{shape_text, type_name};
use crate::guard::error;

/// A 2-D address array, borrowed from NumPy for the call.
pub enum AddressArray<'py> {
    U32(PyReadonlyArray2<'py, u32>),
    U64(PyReadonlyArray2<'py, u64>),
    I32(PyReadonlyArray2<'py, i32>),
    I64(PyReadonlyArray2<'py, i64>),
}

/// A view of an [`AddressArray`] that can cross into the GIL-free part.
#[derive(Clone, Copy)]
pub enum AddressView<'a> {
    U32(ArrayView2<'a, u32>),
    U64(ArrayView2<'a, u64>),
    I32(ArrayView2<'a, i32>),
    I64(ArrayView2<'a, i64>),
}

impl<'py> AddressArray<'py> {
    /// Borrows `obj` (converted by `numpy.asarray` if it is not an array) as a 2-D integer
    /// array; `name` is the argument for messages.
    pub fn new(
        py: Python<'py>,
        name: &str,
        obj: &Bound<'py, PyAny>,
    ) -> PyResult<AddressArray<'py>> {
        let array = as_array(py, name, obj)?;
        let untyped = array.cast::<PyUntypedArray>()?;
        if untyped.ndim() != 2 {
            return Err(error(format!(
                "{name}: expected a 2-D array (accesses × lanes), got shape {}",
                shape_text(untyped.shape())
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

    pub fn view(&self) -> AddressView<'_> {
        match self {
            AddressArray::U32(a) => AddressView::U32(a.as_array()),
            AddressArray::U64(a) => AddressView::U64(a.as_array()),
            AddressArray::I32(a) => AddressView::I32(a.as_array()),
            AddressArray::I64(a) => AddressView::I64(a.as_array()),
        }
    }

    pub fn shape(&self) -> [usize; 2] {
        let dim = match self.view() {
            AddressView::U32(v) => v.dim(),
            AddressView::U64(v) => v.dim(),
            AddressView::I32(v) => v.dim(),
            AddressView::I64(v) => v.dim(),
        };
        [dim.0, dim.1]
    }

    pub fn dtype(&self) -> &'static str {
        match self {
            AddressArray::U32(_) => "uint32",
            AddressArray::U64(_) => "uint64",
            AddressArray::I32(_) => "int32",
            AddressArray::I64(_) => "int64",
        }
    }

    /// The number of accesses, checking that each row is one wave.
    pub fn accesses(&self, lanes: usize) -> PyResult<usize> {
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
pub fn as_array<'py>(
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

/// A chunk of addresses as the library takes them.
pub enum Chunk<'a> {
    U32(&'a [u32]),
    U64(&'a [u64]),
}

/// Buffers a chunk is converted into when it cannot be read in place.
#[derive(Default)]
pub struct ChunkBuffers {
    u32s: Vec<u32>,
    u64s: Vec<u64>,
}

/// Rows `start..end` of `view` as addresses: 32-bit for uint32 and int32, 64-bit for
/// uint64 and int64 (the batch path's vector kernel reads a wave of 64-bit addresses that
/// all fit 32 bits as 32-bit ones, without a pass of its own). The array's own memory where
/// it is C-contiguous and of that width (int64 read as uint64: [`negative_at`] then tells
/// a negative address), else converted into `buf` (checking that no address is negative).
pub fn chunk<'c, 'v: 'c>(
    name: &str,
    view: AddressView<'v>,
    start: usize,
    end: usize,
    buf: &'c mut ChunkBuffers,
) -> Result<Chunk<'c>, String> {
    let (u32s, u64s) = (&mut buf.u32s, &mut buf.u64s);
    let rows = |cols: usize| start * cols..end * cols;
    match view {
        AddressView::U32(v) => match v.to_slice() {
            Some(s) => Ok(Chunk::U32(&s[rows(v.ncols())])),
            None => fill(name, v, start, end, u32s, Some).map(Chunk::U32),
        },
        AddressView::U64(v) => match v.to_slice() {
            Some(s) => Ok(Chunk::U64(&s[rows(v.ncols())])),
            None => fill(name, v, start, end, u64s, Some).map(Chunk::U64),
        },
        AddressView::I32(v) => {
            fill(name, v, start, end, u32s, |x| u32::try_from(x).ok()).map(Chunk::U32)
        }
        AddressView::I64(v) => match v.to_slice() {
            Some(s) => Ok(Chunk::U64(bytemuck::cast_slice(&s[rows(v.ncols())]))),
            None => fill(name, v, start, end, u64s, |x| u64::try_from(x).ok()).map(Chunk::U64),
        },
    }
}

/// For an int64 `view` read in place by [`chunk`], the message naming the first negative
/// address of rows `start..end`, if there is one. (Checked after the rows are costed, while
/// they are in cache: an OR of the values is negative exactly when one is.)
pub fn negative_at(name: &str, view: AddressView<'_>, start: usize, end: usize) -> Option<String> {
    let AddressView::I64(v) = view else {
        return None;
    };
    let rows = &v.to_slice()?[start * v.ncols()..end * v.ncols()];
    if rows.iter().fold(0, |acc, &x| acc | x) >= 0 {
        return None;
    }
    let at = rows.iter().position(|&x| x < 0)?;
    Some(format!(
        "{name}[{}, {}]: address {} is negative",
        start + at / v.ncols(),
        at % v.ncols(),
        rows[at]
    ))
}

/// Copies rows `start..end` of `view` into `buf` through `convert` (`None`: a negative
/// address).
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
