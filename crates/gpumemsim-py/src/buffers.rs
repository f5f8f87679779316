//! Kernel arguments from Python: NumPy arrays as buffers (their dtype is the element type;
//! they are written back in place) and typed scalars.

use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyString, PyTuple};

use gpumemsim::launch::{ElementType, MAX_BUFFER_ELEMENTS};

use crate::banks::type_name;
use crate::guard::error;

/// A value with its bytes in a buffer: converts between the array and little-endian bytes.
trait BufferValue: numpy::Element + Copy {
    /// Bytes per element.
    const SIZE: usize;
    /// Appends the value's little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
    /// The value of `SIZE` little-endian bytes.
    fn get(bytes: &[u8]) -> Option<Self>;
}

macro_rules! buffer_value {
    ($($t:ty),*) => {$(
        impl BufferValue for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Option<Self> {
                Some(<$t>::from_le_bytes(bytes.try_into().ok()?))
            }
        }
    )*};
}

buffer_value!(u8, u16, u32, i32, u64, i64, half::f16, f32, f64);

/// Calls `$f::<T>($args)` with `T` the Rust type of `$elem`.
macro_rules! with_elem {
    ($elem:expr, $f:ident, $($args:expr),*) => {
        match $elem {
            ElementType::U8 => $f::<u8>($($args),*),
            ElementType::U16 => $f::<u16>($($args),*),
            ElementType::U32 => $f::<u32>($($args),*),
            ElementType::I32 => $f::<i32>($($args),*),
            ElementType::U64 => $f::<u64>($($args),*),
            ElementType::I64 => $f::<i64>($($args),*),
            ElementType::F16 => $f::<half::f16>($($args),*),
            ElementType::F32 => $f::<f32>($($args),*),
            ElementType::F64 => $f::<f64>($($args),*),
        }
    };
}

fn is<T: BufferValue>(array: &Bound<'_, PyAny>) -> bool {
    array.cast::<PyArrayDyn<T>>().is_ok()
}

fn read<T: BufferValue>(array: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let typed = array.cast::<PyArrayDyn<T>>()?;
    let readonly = typed.try_readonly()?;
    let values = readonly
        .as_slice()
        .map_err(|_| error("the array is not C-contiguous"))?;
    let mut out = Vec::with_capacity(values.len() * T::SIZE);
    for &v in values {
        v.put(&mut out);
    }
    Ok(out)
}

fn write<T: BufferValue>(array: &Bound<'_, PyAny>, bytes: &[u8]) -> PyResult<()> {
    let typed = array.cast::<PyArrayDyn<T>>()?;
    let mut readwrite = typed.try_readwrite()?;
    let values = readwrite
        .as_slice_mut()
        .map_err(|_| error("the array is not C-contiguous"))?;
    for (v, b) in values.iter_mut().zip(bytes.chunks_exact(T::SIZE)) {
        if let Some(x) = T::get(b) {
            *v = x;
        }
    }
    Ok(())
}

fn writable<T: BufferValue>(array: &Bound<'_, PyAny>) -> bool {
    array
        .cast::<PyArrayDyn<T>>()
        .is_ok_and(|a| a.try_readwrite().is_ok())
}

/// One kernel argument as given.
pub enum Arg<'py> {
    /// A scalar: the CLI's type name and its little-endian bytes.
    Scalar(&'static str, Vec<u8>),
    /// A buffer: the array (written back after the run) and its element type.
    Buffer(Bound<'py, PyAny>, ElementType),
    /// An OpenCL `__local` pointer argument: bytes of LDS (`("local", BYTES)`).
    Local(u32),
    /// A null pointer (`None`).
    Null,
    /// The same memory as the earlier buffer argument of this index (one array passed twice):
    /// the kernel gets that buffer's address; the array is written back once, by that one.
    SameAs(usize, Bound<'py, PyAny>, ElementType),
}

impl<'py> Arg<'py> {
    /// Reads argument `index`: a NumPy array (a buffer), a `(type, value)` pair or a NumPy
    /// scalar (`numpy.uint32(5)`; a scalar).
    pub fn new(py: Python<'py>, index: usize, obj: &Bound<'py, PyAny>) -> PyResult<Arg<'py>> {
        let bad = |why: &str| error(format!("args[{index}]: {why}"));
        if obj.is_none() {
            return Ok(Arg::Null);
        }
        if let Ok(array) = obj.cast::<PyUntypedArray>() {
            if array.ndim() > 0 {
                return buffer(index, obj, array);
            }
        }
        if let Ok(pair) = obj.cast::<PyTuple>() {
            if pair.len() != 2 {
                return Err(bad("a scalar is a (type, value) pair such as (\"u32\", 5)"));
            }
            let ty = pair.get_item(0)?;
            let ty: String = ty
                .extract()
                .map_err(|_| bad(&format!("a scalar's type is a string: {SCALAR_TYPES}")))?;
            if ty == "local" {
                let n: u32 = pair
                    .get_item(1)?
                    .extract()
                    .ok()
                    .filter(|&n| n > 0 && n <= gpumemsim::lds::MAX_ALLOCATION)
                    .ok_or_else(|| bad("(\"local\", BYTES) takes 1 to 65536 bytes"))?;
                return Ok(Arg::Local(n));
            }
            return scalar(index, &ty, &pair.get_item(1)?);
        }
        let generic = py.import("numpy")?.getattr("generic")?;
        if obj.is_instance(&generic)? || obj.cast::<PyUntypedArray>().is_ok() {
            let dtype = obj.getattr("dtype")?.str()?.to_string();
            let ty = match dtype.as_str() {
                "uint8" => "u8",
                "uint16" => "u16",
                "uint32" => "u32",
                "int32" => "i32",
                "uint64" => "u64",
                "int64" => "i64",
                "float16" => "f16",
                "float32" => "f32",
                "float64" => "f64",
                _ => {
                    return Err(bad(&format!(
                        "a numpy.{dtype} scalar: scalar types are {SCALAR_TYPES} (numpy.uint8, \
                         uint16, uint32, int32, uint64, int64, float16, float32, float64)"
                    )))
                }
            };
            return scalar(index, ty, &obj.call_method0("item")?);
        }
        if obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyFloat>() {
            return Err(bad(
                "give a scalar's type: (\"u32\", 5), (\"f32\", 2.0) or numpy.uint32(5)",
            ));
        }
        Err(bad(&format!(
            "expected a NumPy array (a buffer), a (type, value) pair or a NumPy scalar; got {}",
            type_name(obj)
        )))
    }

    /// The bytes the kernel gets.
    pub fn bytes(&self) -> PyResult<Vec<u8>> {
        match self {
            Arg::Scalar(_, b) => Ok(b.clone()),
            Arg::Buffer(array, elem) => with_elem!(*elem, read, array),
            Arg::Local(_) | Arg::Null | Arg::SameAs(..) => Ok(Vec::new()),
        }
    }
}

fn buffer<'py>(
    index: usize,
    obj: &Bound<'py, PyAny>,
    array: &Bound<'py, PyUntypedArray>,
) -> PyResult<Arg<'py>> {
    let bad = |why: String| error(format!("args[{index}]: {why}"));
    let elem = ElementType::ALL
        .into_iter()
        .find(|&e| with_elem!(e, is, obj))
        .ok_or_else(|| {
            bad(format!(
                "dtype {}: buffer types are u8 u16 u32 i32 u64 i64 f16 f32 f64 (numpy.uint8, \
             uint16, uint32, int32, uint64, int64, float16, float32, float64)",
                array.dtype()
            ))
        })?;
    let len = array.len();
    if len == 0 || len > MAX_BUFFER_ELEMENTS {
        return Err(bad(format!(
            "a buffer has 1 to 2^26 elements; this one has {len}"
        )));
    }
    if !array.is_c_contiguous() {
        return Err(bad(
            "the array is not C-contiguous (buffers are updated in place: pass \
             numpy.ascontiguousarray(a) and keep it)"
                .into(),
        ));
    }
    if !with_elem!(elem, writable, obj) {
        return Err(bad(
            "the array is read-only (buffers are updated in place)".into()
        ));
    }
    Ok(Arg::Buffer(obj.clone(), elem))
}

/// The scalar types a `(type, value)` pair may name.
const SCALAR_TYPES: &str = "u8, u16, u32, i32, u64, i64, f16, f32, f64";

/// A `(type, value)` scalar as `--arg TYPE:VALUE` encodes it.
fn scalar<'py>(index: usize, ty: &str, value: &Bound<'_, PyAny>) -> PyResult<Arg<'py>> {
    let bad = |why: &str| error(format!("args[{index}]: {why}"));
    let fits = || bad("value does not fit the type");
    let is_bool = value.is_instance_of::<pyo3::types::PyBool>();
    let int = || -> PyResult<i128> {
        if is_bool || value.is_instance_of::<PyString>() {
            return Err(fits());
        }
        value.extract::<i128>().map_err(|_| fits())
    };
    // An integer of type `name`, in `min..=max`, as its `bytes` little-endian bytes (the low
    // bytes of the two's complement, which is the same for every width).
    let int_le = |name: &'static str, min: i128, max: i128, bytes: usize| -> PyResult<Arg<'py>> {
        let v = int()?;
        if !(min..=max).contains(&v) {
            return Err(fits());
        }
        Ok(Arg::Scalar(name, v.to_le_bytes()[..bytes].to_vec()))
    };
    let float = || -> PyResult<f64> {
        if is_bool || value.is_instance_of::<PyString>() {
            return Err(fits());
        }
        value.extract().map_err(|_| fits())
    };
    Ok(match ty {
        "u8" => int_le("u8", 0, u8::MAX.into(), 1)?,
        "u16" => int_le("u16", 0, u16::MAX.into(), 2)?,
        "u32" => int_le("u32", 0, u32::MAX.into(), 4)?,
        "i32" => int_le("i32", i32::MIN.into(), i32::MAX.into(), 4)?,
        "u64" => int_le("u64", 0, u64::MAX.into(), 8)?,
        "i64" => int_le("i64", i64::MIN.into(), i64::MAX.into(), 8)?,
        // Rounded to nearest even, as a compiler rounds a constant.
        "f16" => Arg::Scalar("f16", half::f16::from_f64(float()?).to_le_bytes().to_vec()),
        "f32" => Arg::Scalar("f32", (float()? as f32).to_bits().to_le_bytes().to_vec()),
        "f64" => Arg::Scalar("f64", float()?.to_bits().to_le_bytes().to_vec()),
        _ => return Err(bad(&format!("scalar types are {SCALAR_TYPES}"))),
    })
}

/// The bytes an array spans: (address, length), from its `__array_interface__`.
fn memory_range(array: &Bound<'_, PyAny>) -> PyResult<(u128, u128)> {
    let data = array.getattr("__array_interface__")?.get_item("data")?;
    let start: u128 = data.get_item(0)?.extract()?;
    let len: u128 = array.getattr("nbytes")?.extract()?;
    Ok((start, len))
}

/// Marks each buffer whose array spans exactly the memory of an earlier one as
/// [`Arg::SameAs`] it (as a GPU would see one pointer twice); an array that overlaps another
/// only in part is an error (the simulator gives each buffer an allocation of its own).
pub fn same_buffers<'py>(args: Vec<Arg<'py>>) -> PyResult<Vec<Arg<'py>>> {
    let mut seen: Vec<(usize, u128, u128)> = Vec::new();
    let mut out = Vec::with_capacity(args.len());
    for (i, a) in args.into_iter().enumerate() {
        let Arg::Buffer(array, elem) = a else {
            out.push(a);
            continue;
        };
        let (start, len) = memory_range(&array)?;
        let same = seen
            .iter()
            .find(|&&(_, s, l)| s < start + len && start < s + l);
        match same {
            Some(&(j, s, l)) if (s, l) == (start, len) => out.push(Arg::SameAs(j, array, elem)),
            Some(&(j, ..)) => {
                return Err(error(format!(
                    "args[{i}]: its array shares part of its memory with args[{j}]'s; pass \
                     the same array, or arrays that do not overlap"
                )))
            }
            None => {
                seen.push((i, start, len));
                out.push(Arg::Buffer(array, elem));
            }
        }
    }
    Ok(out)
}

/// Writes a buffer's final bytes back into its array.
pub fn write_back(array: &Bound<'_, PyAny>, elem: ElementType, bytes: &[u8]) -> PyResult<()> {
    with_elem!(elem, write, array, bytes)
}

/// A scalar's value for the report, decoded from its bytes as the CLI decodes it.
pub fn scalar_value<'py>(py: Python<'py>, ty: &str, b: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let mut x = [0u8; 8];
    let n = b.len().min(8);
    x[..n].copy_from_slice(&b[..n]);
    let u = u64::from_le_bytes(x);
    Ok(match ty {
        "i32" => (u as u32 as i32).into_pyobject(py)?.into_any(),
        "i64" => (u as i64).into_pyobject(py)?.into_any(),
        "f16" => half::f16::from_bits(u as u16)
            .to_f64()
            .into_pyobject(py)?
            .into_any(),
        "f32" => (f32::from_bits(u as u32) as f64)
            .into_pyobject(py)?
            .into_any(),
        "f64" => f64::from_bits(u).into_pyobject(py)?.into_any(),
        _ => u.into_pyobject(py)?.into_any(),
    })
}
