"""Triton kernels on the simulator: ``gpumemsim.triton.run(fn, grid, *args, ...)`` compiles a
``@triton.jit`` function with Triton's own compiler for an AMD target, as a launch on a GPU
would (the same specialisation of the arguments, the same options), runs the code object on
gpumemsim and writes the results back into the NumPy arrays in place. Its report attributes
the cycles and the LDS bank conflicts to the lines of the Python source (Triton's objects carry
line tables that name the ``.py`` file).

Triton is an optional dependency: ``pip install 'gpumemsim[triton]'``. Without it, ``run``
raises an ImportError that names the extra; importing this module does not import Triton.

    import numpy as np, triton, triton.language as tl
    import gpumemsim.triton

    @triton.jit
    def add(x, y, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)

    x, y = np.arange(1000, dtype=np.float32), np.ones(1000, np.float32)
    out = np.zeros_like(x)
    r = gpumemsim.triton.run(add, (4,), x, y, out, 1000, BLOCK=256)
    assert (out == x + y).all()
    r.report["lines"][0]   # the hottest line of the .py file, with its cycles and conflicts

docs/triton.md describes what is compiled, how arguments map and what the report holds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import gpumemsim as _native
from ._arrays import partial_overlap

#: How to install what this module needs.
EXTRA = "pip install 'gpumemsim[triton]'"

#: Where gpumemsim places the first buffer argument; every buffer starts on a 64 KiB boundary
#: (gpumemsim::launch::BUFFER_BASE and BUFFER_GAP), so Triton may take each pointer as
#: divisible by 16, as it does for a device allocation.
_BUFFER_ADDRESS = 1 << 32

#: The wave size Triton compiles each supported target for (gfx1100: wave32, as Triton's
#: HIP backend reports an RDNA3 device).
_WARP_SIZE = {"gfx1100": 32}

#: The most bytes a uint8 buffer of gpumemsim.run holds (2^26 elements).
_MAX_BUFFER_BYTES = 1 << 26

#: Keywords of `run` itself: a kernel parameter of one of these names could not be given.
_OWN_KEYWORDS = ("target", "check", "html", "sim")

#: The simulator's options `sim=` passes to gpumemsim.run.
_SIM_OPTIONS = ("max_steps", "seed", "threads", "together", "lds_init", "device", "wgps", "sample",
                "functional")

#: Buffer element types gpumemsim.run takes as they are; other arrays travel as their bytes.
_NATIVE_DTYPES = {"uint8", "uint16", "uint32", "int32", "uint64", "int64", "float16",
                  "float32", "float64"}

#: Triton's scalar types and the gpumemsim.run scalar type that carries each (a narrow
#: signed integer travels as its two's complement bits; a bool as 0 or 1).
_SCALAR_TYPES = {"i32": "i32", "u32": "u32", "i64": "i64", "u64": "u64", "fp32": "f32",
                 "u1": "u8", "i1": "u8", "i8": "u8", "u8": "u8", "i16": "u16", "u16": "u16",
                 "fp16": "f16", "fp64": "f64"}


@dataclasses.dataclass
class Result:
    """What `run` returns.

    report: the dict ``gpumemsim.run`` returns (the keys of ``gpumemsim run --json``): lines
    (per line of the Python source, hottest first), instructions, events, counters, resources,
    cycles, ...
    findings: with ``check=True``, what ``gpumemsim.check`` lists for the launch (``[]`` when
    clean); ``None`` otherwise. notes: with ``check=True``, what it notes without failing
    (masked lanes of Triton's buffer operations read outside the V#'s range on purpose).
    kernel: Triton's compiled kernel (``.asm["amdgcn"]``, ``.asm["ttgir"]``, ``.metadata``).
    grid: workgroups per dimension (x, y, z). block: work-items per workgroup (num_warps ×
    the wave size).
    """

    report: dict
    findings: Optional[list]
    notes: Optional[list]
    kernel: Any
    grid: Tuple[int, int, int]
    block: int


class typed:  # noqa: N801 (used like a type: typed(a, tl.bfloat16))
    """An array passed as a pointer to another element type of the same width: for types
    NumPy lacks, ``typed(bits_uint16, tl.bfloat16)`` or ``typed(bytes_uint8, tl.float8e4b8)``.
    The array is updated in place like any other."""

    def __init__(self, array: np.ndarray, dtype: Any):
        self.array = array
        self.dtype = dtype


class _Pointer:
    """A buffer argument as Triton's launch specialises it: its address (divisible by 16,
    see _BUFFER_ADDRESS), element type and size."""

    def __init__(self, array: np.ndarray, dtype: Any):
        self.array = array
        self.dtype = dtype

    def data_ptr(self) -> int:
        return _BUFFER_ADDRESS

    def ptr_range(self) -> int:
        return self.array.nbytes

    # What a grid function reads of an argument (`lambda meta: (meta["x"].size // 256,)`, or
    # torch's `numel()`): the array's. Only these, so that Triton's specialisation, which
    # probes its arguments' attributes, sees what it saw before.
    shape = property(lambda self: self.array.shape)
    size = property(lambda self: self.array.size)
    ndim = property(lambda self: self.array.ndim)
    nbytes = property(lambda self: self.array.nbytes)

    def numel(self) -> int:
        return self.array.size


def _triton():
    try:
        import triton
        import triton.compiler
        from triton.backends.compiler import GPUTarget
        from triton.runtime.jit import JITFunction, create_function_from_signature
    except ImportError as e:
        raise ImportError(f"gpumemsim.triton needs Triton, which is not installed: {EXTRA}") from e
    return triton, GPUTarget, JITFunction, create_function_from_signature


def _error(msg: str) -> Exception:
    return _native.Error(msg)


def _pointer(name: str, value: Any) -> _Pointer:
    if isinstance(value, typed):
        array, dtype = value.array, value.dtype
    else:
        array, dtype = value, value.dtype
    if not isinstance(array, np.ndarray) or array.ndim == 0:
        raise _error(f"{name}: typed() takes a NumPy array, not {type(array).__name__}")
    bits = getattr(dtype, "primitive_bitwidth", None)
    if isinstance(value, typed) and bits is not None and bits != array.itemsize * 8:
        raise _error(f"{name}: typed() as {dtype} ({bits}-bit) needs an array of {bits}-bit "
                     f"elements, not {array.dtype}")
    if array.size == 0:
        raise _error(f"{name}: an empty array (a buffer holds at least one element)")
    if not array.flags.c_contiguous:
        raise _error(f"{name}: the array is not C-contiguous (buffers are updated in place: "
                     "pass numpy.ascontiguousarray(a) and keep it)")
    if not array.flags.writeable:
        raise _error(f"{name}: the array is read-only (buffers are updated in place)")
    return _Pointer(array, dtype)


def _argument(name: str, value: Any) -> Any:
    """A kernel argument as Triton's binder should see it: arrays become pointers, NumPy
    scalars Python numbers."""
    if isinstance(value, typed) or (isinstance(value, np.ndarray) and value.ndim > 0):
        return _pointer(name, value)
    if isinstance(value, (np.generic, np.ndarray)):
        return value.item()
    return value


def _grid(grid: Any, bound: Mapping[str, Any]) -> Tuple[int, int, int]:
    if callable(grid):
        grid = grid(bound)
    if isinstance(grid, (int, np.integer)) and not isinstance(grid, bool):
        grid = (grid,)
    try:
        dims = [int(g) for g in grid]
        ok = 1 <= len(dims) <= 3 and all(d >= 1 and d == g for d, g in zip(dims, grid))
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise _error(f"grid {grid!r}: expected 1 to 3 positive ints (or a function of the "
                     "arguments that returns them)")
    return tuple(dims + [1] * (3 - len(dims)))


def _shared_memory(pointers: Sequence[Tuple[str, _Pointer]]) -> None:
    """Arrays that overlap in part are an error naming the two parameters
    (`_arrays.partial_overlap`)."""
    found = partial_overlap([p.array for _, p in pointers])
    if found:
        a, b = (pointers[k][0] for k in found)
        raise _error(f"{a} and {b} share part of their memory: pass the same array, "
                     "or arrays that do not overlap")


def _scalar(name: str, ty: str, value: Any) -> Tuple[str, Any]:
    kind = _SCALAR_TYPES.get(ty)
    if kind is None:
        raise _error(f"{name}: Triton type {ty} as a scalar argument is not supported "
                     f"(supported: {', '.join(sorted(_SCALAR_TYPES))})")
    if ty in ("u1", "i1"):
        value = int(bool(value))
    elif ty in ("i8", "i16") and isinstance(value, int):
        value &= 0xFF if ty == "i8" else 0xFFFF
    return kind, value


def _compile(fn, target: str, args: Sequence[Any], kwargs: Mapping[str, Any]):
    """Triton's own launch, up to the compiled kernel: its binder specialises the arguments
    (pointer divisibility, ints equal to 1 as constants, ...), its compiler builds (and
    caches) the object for `target`."""
    triton, GPUTarget, JITFunction, create_function_from_signature = _triton()
    if not isinstance(fn, JITFunction):
        raise _error(f"fn: expected a @triton.jit function, got {type(fn).__name__} (for an "
                     "autotuned kernel, pass its .fn and one configuration's values)")
    clash = [k for k in _OWN_KEYWORDS if k in fn.arg_names]
    if clash:
        raise _error(f"{fn.__name__} has a parameter named {clash[0]!r}, a keyword of "
                     "gpumemsim.triton.run")
    gpu = GPUTarget("hip", target, _WARP_SIZE[target])
    backend = triton.compiler.make_backend(gpu)
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    kwargs = dict(kwargs)
    kwargs.setdefault("debug", bool(fn.debug) or bool(triton.knobs.runtime.debug))
    for knob in ("instrumentation_mode", "fpsan_homomorphic_casts"):
        if hasattr(triton.knobs.compilation, knob):
            kwargs.setdefault(knob, getattr(triton.knobs.compilation, knob))
    try:
        bound, specialization, options = binder(*args, **kwargs)
        options, signature, constexprs, attrs = fn._pack_args(
            backend, kwargs, bound, specialization, options)
    except (TypeError, KeyError) as e:
        raise _error(f"{fn.__name__}: {e}") from None
    src = _located(triton.compiler.ASTSource)(fn, signature, constexprs, attrs)
    kernel = triton.compile(src, target=gpu, options=options.__dict__)
    return kernel, bound, signature


def _located(ast_source):
    """Triton's ASTSource whose cache key also holds the source file's path: Triton keys its
    cache (`~/.triton/cache`) by the source text, but the object it caches carries line
    tables naming the file it was compiled from, so the same kernel in another checkout would
    get a report naming the first one's file."""

    class Located(ast_source):
        def hash(self):
            path = getattr(getattr(self.fn, "fn", None), "__code__", None)
            path = path.co_filename if path else ""
            key = f"{super().hash()}-{os.path.abspath(path)}"
            return hashlib.sha256(key.encode("utf-8")).hexdigest()

    return Located


def run(fn: Callable, grid: Union[int, Sequence[int], Callable], *args: Any,
        target: str = "gfx1100", num_warps: Optional[int] = None,
        num_stages: Optional[int] = None, check: bool = False, html: Optional[str] = None,
        sim: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> Result:
    """Runs the ``@triton.jit`` function `fn` on `grid` workgroups on the simulator.

    args (and keyword arguments named after `fn`'s parameters): NumPy arrays for pointers
    (their dtype gives Triton's element type; ``typed(a, tl.bfloat16)`` for types NumPy lacks),
    Python or NumPy numbers for scalars, values for ``tl.constexpr`` parameters. The arrays are
    updated in place after the run, as a GPU run would update them. grid: an int, 1 to 3 ints,
    or a function of the bound arguments (as Triton's ``kernel[grid]``).

    target: the chip (``"gfx1100"``). num_warps, num_stages and other keywords that are
    Triton options (``waves_per_eu``, ``matrix_instr_nonkdim``, ...) go to Triton's compiler
    (None: Triton's default). check=True also lists what ``gpumemsim.check`` finds (races,
    missing waits, out-of-range accesses) in ``Result.findings``. html=PATH writes the HTML
    report (the Python source beside the instructions). sim: options of the simulator,
    as ``gpumemsim.run`` takes them (max_steps, seed, threads, together, lds_init, wgps,
    sample, functional).

    Triton's trailing scratch-pointer arguments and its dynamic LDS size come from the
    compiled kernel's metadata. Raises ImportError without Triton, gpumemsim.Error for bad
    input, gpumemsim.KernelError (with ``.report``) when the kernel starts and then stops.
    """
    if target not in _WARP_SIZE:
        raise _error(f"target {target!r}: gpumemsim.triton compiles for {', '.join(_WARP_SIZE)} "
                     "(Triton's gfx942 code is not run yet)")
    sim = dict(sim or {})
    unknown = [k for k in sim if k not in _SIM_OPTIONS]
    if unknown:
        raise _error(f"sim: unknown option {unknown[0]!r} (options: {', '.join(_SIM_OPTIONS)})")
    names = list(getattr(fn, "arg_names", []))
    args = [_argument(names[i] if i < len(names) else f"args[{i}]", a)
            for i, a in enumerate(args)]
    kwargs = {k: _argument(k, v) for k, v in kwargs.items()}
    if num_warps is not None:
        kwargs["num_warps"] = num_warps
    if num_stages is not None:
        kwargs["num_stages"] = num_stages
    kernel, bound, signature = _compile(fn, target, args, kwargs)
    grid3 = _grid(grid, bound)
    pointers = [(k, v) for k, v in bound.items() if isinstance(v, _Pointer)]
    _shared_memory(pointers)
    launch_args = []
    for name, value in bound.items():
        ty = signature[name]
        if ty == "constexpr":
            continue
        if ty.startswith("*"):
            if not isinstance(value, _Pointer):
                raise _error(f"{name}: a pointer parameter takes a NumPy array, "
                             f"not {type(value).__name__}")
            launch_args.append(_buffer(value))
        else:
            launch_args.append(_scalar(name, ty, value))
    meta = kernel.metadata
    workgroups = grid3[0] * grid3[1] * grid3[2]
    for what, size in (("global", meta.global_scratch_size),
                       ("profile", meta.profile_scratch_size)):
        # Triton's launcher allocates size bytes per program, or passes a null pointer.
        if workgroups * size > _MAX_BUFFER_BYTES:
            raise _error(f"{fn.__name__}: Triton's {what} scratch is {size} bytes per program, "
                         f"{workgroups * size} for {workgroups} programs: more than the "
                         f"{_MAX_BUFFER_BYTES} bytes a gpumemsim buffer holds (use a smaller "
                         "grid)")
        launch_args.append(np.zeros(workgroups * size, np.uint8) if size else None)
    block = meta.num_warps * meta.warp_size
    try:
        report = _native.run(kernel.asm["hsaco"], meta.name, grid3, block, launch_args,
                             dynamic_lds=meta.shared, html=html, check=check, **sim)
    except _native.Error as e:
        raise _named(e, f"{fn.__name__} (Triton, {target})") from None
    findings, notes = report.pop("findings", None), report.pop("notes", None)
    return Result(report=report, findings=findings, notes=notes, kernel=kernel, grid=grid3,
                  block=block)


def _named(e: Exception, name: str) -> Exception:
    """`e` (a gpumemsim.Error or KernelError about the object's bytes) with the kernel's name
    where the message says `<bytes>`; a KernelError keeps its report."""
    msg = str(e)
    if msg.startswith("<bytes>"):
        msg = name + msg[len("<bytes>"):]
    named = type(e)(msg)
    if hasattr(e, "report"):
        named.report = e.report
        if str(named.report.get("error", "")).startswith("<bytes>"):
            named.report["error"] = msg
    return named


def _buffer(p: _Pointer) -> np.ndarray:
    """The array gpumemsim.run takes for pointer `p`: itself, or a byte view of it (the same
    memory, so that it is updated in place) for an element type gpumemsim.run lacks."""
    a = p.array
    if isinstance(p.dtype, np.dtype) and p.dtype.name in _NATIVE_DTYPES:
        return a
    return a.reshape(-1).view(np.uint8)
