"""gpumemsim: a bit-exact simulator of GPU on-chip memory systems (AMD RDNA3 / gfx1100 first).

Bank-conflict costs of LDS / shared-memory accesses on AMD and NVIDIA architectures, the
gfx1100 assembler and disassembler, and runs of clang-19 kernels with NumPy buffers.

Errors: every failure raises gpumemsim.Error (a ValueError). Where the command-line tool
checks the same thing, the message is the CLI's, word for word, and may name its flags
(`--arch`, `--addr`, `--wave`, `--active`, `--kernel`); checks only Python has (dtypes,
shapes, types) name the Python argument (`addrs`, `args[1]`, ...).
"""

import os
from typing import Literal, Sequence, TypedDict, Union

import numpy as np
import numpy.typing as npt

__version__: str

ARCHITECTURES: list[str]
"""The architecture presets: rdna3, cdna3, cdna4, rdna4 (AMD) and sm70, sm80, sm90 (NVIDIA)."""

TARGETS: list[str]
"""The chips whose code objects `run` and `check` run: ["gfx1100", "gfx942"]. An object for
another chip is an Error naming its chip."""

class Error(ValueError):
    """Bad input (the message says which argument and why) or a launch that cannot start."""

class KernelError(Error):
    """A kernel started and then stopped (an unimplemented instruction, a deadlock, the step
    limit). The buffers were updated in place as far as the run got."""

    report: "RunReport"
    """What `run` would have returned, with its "error" key set to the message; from `check`,
    {"findings": [...], "error": message}."""

Addresses = Union[str, Sequence[int], npt.NDArray[np.integer]]
"""One byte address per lane: a sequence or 1-D integer array, or an expression in the lane
id `t` (`"t*128"`, `"(t^1)*4 + 64"`) or a comma list with one value per lane."""

ActiveLanes = Union[None, int, str]
"""None (every lane), an int mask (`0xffff`), or lanes and ranges as a string (`"0-15,20"`,
`"0xffff"`)."""

class BankUse(TypedDict):
    bank: int
    lanes: list[int]
    words: list[int]
    """The distinct words (byte address / bank width) the bank serves, ascending."""
    accesses: int
    """Passes the bank needs; more than 1 is a conflict."""

class Group(TypedDict):
    addresses: Literal["first", "second", "both"]
    phases: list[int]
    lanes: list[int]
    cost: int
    banks: list[BankUse]
    conflicts: list[BankUse]

def banks(
    arch: str,
    op: str,
    addrs: Addresses,
    active: ActiveLanes = None,
    wave: Union[int, None] = None,
    *,
    addrs1: Union[Addresses, None] = None,
    suggest: Union[bool, int, None] = None,
) -> dict:
    """The bank cost of one LDS / shared-memory access, as `gpumemsim banks --json` reports it.

    Args:
        arch: an architecture preset (see ARCHITECTURES).
        op: a DS mnemonic for AMD (`ds_load_b32`, `ds_store_b128`, `ds_load_2addr_b32`,
            `ds_add_u32`, aliases such as `ds_read_b32`, any case), or `lds.32`, `lds.64`,
            `lds.128`, `sts.32`, `sts.64`, `sts.128`, `atoms.32` for NVIDIA.
        addrs: each lane's byte address (for 2addr instructions, the first address with its
            offset applied).
        active: the active lanes.
        wave: 32 or 64 lanes; None for the architecture's default (64 on CDNA, else 32).
        addrs1: the second addresses of 2addr instructions (required for them, refused
            otherwise).
        suggest: True for the CLI's 6 padding / XOR-swizzle layouts that lower the cost, or
            how many; listed under "suggestions".

    Returns:
        A dict equal to the CLI's JSON object: "arch", "op" (canonical), "kind", "width",
        "wave", "active" (hex string), "banks", "bank_width", the counters (AMD: "cycles",
        "ideal_cycles", "conflict_cycles"; NVIDIA: "requests", "wavefronts",
        "ideal_wavefronts", "bank_conflicts"), "groups" (a list of Group) and, with suggest,
        "suggestions" (each "layout", "expression", "overhead" and the counters).

    Example:
        >>> import numpy as np, gpumemsim
        >>> r = gpumemsim.banks("rdna3", "ds_load_b32", np.arange(32) * 128)
        >>> r["cycles"], r["conflict_cycles"]
        (32, 31)
    """

def banks_batch(
    arch: str,
    op: str,
    addrs: npt.ArrayLike,
    active: Union[ActiveLanes, npt.NDArray[np.integer], Sequence[int]] = None,
    wave: Union[int, None] = None,
    *,
    addrs1: Union[npt.ArrayLike, None] = None,
) -> dict[str, npt.NDArray[np.uint32]]:
    """The per-access counters of many accesses of one shape, costed without the GIL.

    Args:
        addrs: a 2-D array, one row per access and one column per lane: uint32, uint64,
            int32 or int64 (read in place when C-contiguous uint32 / uint64; anything
            numpy.asarray turns into one of those is accepted).
        active: one mask for every access (as in `banks`), or a 1-D integer array with one
            mask per access.
        wave: 32 or 64; None for the architecture's default.
        addrs1: the second addresses of 2addr instructions: same shape and dtype as addrs.

    Returns:
        Counter name -> 1-D uint32 array with one entry per access: AMD "cycles",
        "ideal_cycles", "conflict_cycles"; NVIDIA "requests", "wavefronts",
        "ideal_wavefronts", "bank_conflicts". Row k's counters equal `banks` on row k.

    Example:
        >>> t = np.arange(32, dtype=np.uint32)
        >>> gpumemsim.banks_batch("rdna3", "ds_load_b32", np.stack([4 * t, 128 * t]))["cycles"]
        array([ 1, 32], dtype=uint32)
    """

def assemble(text: str, name: str = "<string>", target: str = "gfx1100") -> bytes:
    """Assembles assembly text (LLVM syntax, as llvm-mc-19 -mcpu=TARGET takes it) into
    machine code: every instruction's encoding, concatenated. target: "gfx1100" or
    "gfx942" (the CLI's `asm --arch`).

    Raises gpumemsim.Error listing every error as `gpumemsim asm` prints them, one per line:
    `NAME:LINE:COL: error: MESSAGE`.
    """

def disassemble(
    data: Union[bytes, bytearray, memoryview, npt.NDArray], target: str = "gfx1100"
) -> list[str]:
    """Disassembles machine code into one canonical line per instruction (the text
    `llvm-mc-19 -mcpu=TARGET --disassemble` prints). A NumPy array gives its raw bytes.
    target: "gfx1100" or "gfx942" (the CLI's `disasm --arch`).

    Raises gpumemsim.Error at the first word that is no instruction:
    `invalid instruction encoding at byte OFFSET`.
    """

ScalarType = Literal["u8", "u16", "u32", "i32", "u64", "i64", "f16", "f32", "f64"]

KernelArgument = Union[
    npt.NDArray,
    tuple[ScalarType, Union[int, float]],
    tuple[Literal["local"], int],
    None,
    np.uint8,
    np.uint16,
    np.uint32,
    np.int32,
    np.uint64,
    np.int64,
    np.float16,
    np.float32,
    np.float64,
]
"""A buffer: a C-contiguous, writable NumPy array of uint8, uint16, uint32, int32, uint64,
int64, float16, float32 or float64 (1 to 2**26 elements, any shape, read in C order), placed
in global memory and written back in place. A scalar: a (type, value) pair such as ("u32", 5)
or ("f32", 2.0) (f16 values are rounded to nearest even), or a NumPy scalar of those types
(numpy.float32(2.0)). None: a null global pointer. One array given for two arguments is one
buffer (the kernel gets its address twice; the second entry of the report's args says
"same_as"); arrays that overlap only in part are an Error."""

class RunReport(TypedDict, total=False):
    functional: bool
    """True for a run with functional=True: the report then has no timing keys."""
    kernel: str
    """The kernel's name, demangled for HIP."""
    target: str
    """The chip the code object was built for (its ELF header's EF_AMDGPU_MACH): "gfx1100"."""
    symbol: str
    """Its symbol (mangled for HIP)."""
    args: list[dict]
    """One per argument, with "name" where the metadata has one. Buffers: {"kind": "buffer",
    "type", "address", "values": the array itself}; scalars: {"kind": "value", "type",
    "value"}; local memory: {"kind": "local", "offset", "size"}."""
    lds_bytes: int
    """LDS per workgroup: static and dynamic."""
    symbols: list[dict]
    """The code object's program-scope variables after the run: "name", "address", "size",
    "type" ("u32" words, or "u8" for a size not a multiple of 4) and "values"."""
    printf: list[str]
    """What the kernel printed, one string per printf (docs/kernels.md)."""
    calls: list[dict]
    """The calls that ran: "from" and "to" ({"address", "text", "source"?}) and
    "function", the function reached."""
    lines: list[dict]
    """Source lines hottest first (objects built with -g): "file", "line", "text", "cycles",
    "conflict_cycles", "stall_cycles", "executions", "instructions" (their addresses)."""
    resources: dict
    """"vgprs", "sgprs", "lds_bytes", "static_lds_bytes", "dynamic_lds_bytes",
    "scratch_bytes_per_lane", "waves_per_simd", "limited_by"."""
    counters: dict[str, int]
    """The run's totals under rocprof's counter names (docs/counters.md)."""
    events: list[dict]
    """Diagnostics: {"kind", "wave", "pc", "cycle", "message", "address"} and "source" where
    known; an event that names more (a race's other access, the load a read came too early
    for) also has "instructions" (each {"address", "text", "source"?}), "waves", "lanes" and,
    where it names one, "memory_address"."""
    instructions: list[dict]
    """Per instruction: "pc", "address", "line", "text", "executions", "cycles",
    "conflict_cycles", "stall_cycles", "latency_cycles", "cache_hits", "cache_misses", and
    with line tables "source" ({"file", "line", "column"}) and "inlined" (the inline chain,
    innermost first)."""
    cycles: int
    steps: int
    grid: list[int]
    block: list[int]
    wave_size: int
    schedule: dict
    """{"workgroups": "apart", "threads": N} or {"workgroups": "together", "reason": ...}."""
    placement: dict
    """"wgps", "waves_per_simd" (the occupancy limit used), "max_resident_waves_per_simd",
    "max_resident_workgroups" (docs/timing.md)."""
    units: dict
    """Per unit ("lds", "valu", "trans", "salu", "vmem", "smem", "gds"): {"busy_cycles",
    "instances", "utilisation"}."""
    vcache: Union[dict, None]
    """The vector caches, on a device that models them (the RDNA3 presets; None otherwise):
    "lines" (128-byte cache lines vector memory touched), "write_lines", "served_by" (per level
    "l0", "l1", "l2", "infinity_cache", "vram"), "hit_rate" (per cache level, None where no
    line reached it) and "levels" (each cache's "bytes", "ways", "line_bytes";
    docs/timing.md#vector-caches). Each record of "instructions" that touched lines has its own
    "vcache" with "lines", "write_lines" and "served_by"."""
    delay_alu: dict
    """How the kernel's s_delay_alu declarations compared with the model's latencies:
    "declared", "declared_and_waited", "undeclared_waits", "undeclared_at" (each instruction
    that waited undeclared: {"address", "text"})."""
    sampled: dict
    """Only with sample=K (fewer than the grid): {"workgroups": K, "of": total}."""
    part: bytes
    """Only with shard=(I, N): what the shard hands back to be merged (parts=[...])."""
    findings: list["Finding"]
    """Only with check=True: what `check` returns for the same launch."""
    notes: list["Finding"]
    """Only with check=True: events `check` notes but does not fail on (a buffer access
    outside its V#'s range, the masking idiom of Triton's buffer operations; docs/check.md)."""
    error: str
    """Only in KernelError.report."""

Dims = Union[int, Sequence[int]]

def run(
    kernel_path: Union[str, os.PathLike, bytes],
    kernel: Union[str, None] = None,
    grid: Union[Dims, None] = None,
    block: Union[Dims, None] = None,
    args: Union[Sequence[KernelArgument], None] = None,
    *,
    dynamic_lds: int = 0,
    max_steps: int = 10_000_000,
    seed: int = 0,
    threads: int = 0,
    together: bool = False,
    lds_init: str = "zero",
    wgps: Union[int, None] = None,
    device: Union[str, None] = None,
    lang: Union[str, None] = None,
    cflags: Union[str, None] = None,
    wave64: bool = False,
    target: Union[str, None] = None,
    keep_object: Union[str, os.PathLike, None] = None,
    symbols: Union[dict[str, Union[bytes, np.ndarray]], None] = None,
    html: Union[str, os.PathLike, None] = None,
    functional: bool = False,
    compile_timeout: Union[int, None] = None,
    compile_memory: Union[int, None] = None,
    sample: Union[int, None] = None,
    shard: Union[tuple[int, int], None] = None,
    parts: Union[Sequence[bytes], None] = None,
    check: bool = False,
) -> RunReport:
    """Runs a kernel of a gfx1100 code object (clang-19 -target amdgcn-amd-amdhsa
    -mcpu=gfx1100), or of an OpenCL or HIP source, on a grid of workgroups, as `gpumemsim
    run KERNEL.o --json` does.

    Args:
        kernel_path: the code object's path, or its bytes; or a source's path (see lang).
        kernel: the kernel's name; optional when the object has one kernel.
        grid: workgroups per dimension: X or (X, Y, Z); default 1.
        block: work-items per workgroup: X or (X, Y, Z), at most 1024 in all; default 64.
        args: the kernel's arguments in order (see KernelArgument), checked against the
            kernel's metadata (count, kinds, scalar types) as the CLI checks them.
        dynamic_lds: HIP's launch shared-memory size in bytes (`extern __shared__`), the
            CLI's --dynamic-lds.
        max_steps, seed, threads, together: the CLI's --max-steps (per wave), --seed,
            --threads (0: one per core) and --together.
        lds_init: what LDS holds before the kernel writes it, the CLI's --lds-init: "zero"
            (the default), "poison" (every byte 0xff) or "random:SEED".
        wgps: WGPs of the device, the CLI's --wgps (default: the device's): workgroups are
            placed on them as occupancy allows (docs/timing.md).
        device: the part to stand for, the CLI's --device: "rx7900xtx" (the default for
            gfx1100 code: 48 WGPs, 2500 MHz), "w7900", "rx7600", or "mi300x" (the default
            for gfx942 code); the report's "device" gives it and the kernel time in µs
            (docs/devices.md).
        lang, cflags, wave64, target, keep_object: for a source (`.cl` OpenCL; `.hip`, `.cu`,
            `.cpp`, `.cc` HIP; or any file with lang="opencl" or "hip"), built with clang-19
            and AMD's device libraries first: the CLI's --lang, --cflags, --wave64, --arch
            ("gfx1100", the default, or "gfx942") and --keep-object. A code object runs on the
            chip it was built for (the report's "target"); a target naming another is an error.
        sample: run only this many workgroups, spread evenly over the grid, and scale the
            per-line and per-instruction figures to the whole grid (the CLI's --sample; the
            report says "sampled": {"workgroups", "of"}; the kernel time, events and buffers
            are the sample's).
        compile_timeout, compile_memory: limits on clang for a source, the CLI's
            --compile-timeout (seconds, default 120) and --compile-memory (MiB, default 4096);
            0 lifts either.
        shard, parts: what gpumemsim.ray.run passes its tasks (docs/ray.md): shard=(I, N)
            runs only shard I of N of the grid's WGP blocks and adds "part" (bytes) to the
            report; parts=[each shard's part] merges them instead of running, into the
            report of the whole launch (or runs the launch whole, when one process would
            run it together). gpumemsim.check takes parts but not shard.
        symbols: program-scope variables to set before the launch, as the CLI's --symbol
            (hipMemcpyToSymbol): {name: bytes or an array}, written from the variable's
            first byte; an unknown name is an Error listing the variables.
        html: also write the HTML report to this path (the CLI's --html): source lines and
            instructions hottest first, bank heat maps, the findings marked.
        check: also list what `check` finds for this launch, under "findings" (one run
            gives both), and what it notes, under "notes".
        functional: run without the timing model and the checks, the CLI's --functional:
            the same buffers for every kernel whose result does not depend on the order
            of its waves' accesses, in less time. The report has "functional": True and
            no "cycles", "timing", "units", "vcache", "delay_alu" or "counters", nor any
            cycle figure per instruction or line (docs/functional.md). Not with check or
            html.

    Returns:
        The report (RunReport): the keys of the CLI's JSON (and "findings" with check).

    Raises:
        Error: the launch cannot start (the CLI's message).
        KernelError: the kernel started and then stopped; `.report` holds the report.
        KeyboardInterrupt: Ctrl-C during the launch, which stops within a few thousand
            instructions (the grid may have any size: memory follows the resident
            workgroups).

    Example:
        >>> src = np.arange(1024, dtype=np.float32); dst = np.zeros_like(src)
        >>> r = gpumemsim.run("examples/kernels/transpose.w32.o", "transpose_naive",
        ...                   grid=1, block=32, args=[src, dst])
        >>> bool((dst.reshape(32, 32) == src.reshape(32, 32).T).all())
        True
    """

class Instruction(TypedDict, total=False):
    address: int
    """The instruction's address as llvm-objdump-19 -d prints it (the kernel's address in its
    code object plus the instruction's offset)."""
    text: str
    """The instruction in LLVM syntax."""
    source: dict
    """{"file", "line", "column"}, where the object has line tables (built with -g)."""

class Finding(TypedDict, total=False):
    kind: str
    """"out_of_bounds", "memviol", "lds_race", "missing_wait", ... (docs/check.md)."""
    count: int
    """How many times it happened."""
    instructions: list[Instruction]
    """The instruction it happened at first, then the others it names (a race's other
    access, the load a read came too early for)."""
    waves: list[int]
    """Every wave involved, ascending."""
    lanes: list[int]
    """Every lane named, ascending (empty when the kind names none)."""
    address: int
    """The memory address, where one applies (an LDS byte offset in the workgroup's
    allocation, or a global address)."""
    message: str
    """What happened, the first time."""

def check(
    kernel_path: Union[str, os.PathLike, bytes],
    kernel: Union[str, None] = None,
    grid: Union[Dims, None] = None,
    block: Union[Dims, None] = None,
    args: Union[Sequence[KernelArgument], None] = None,
    *,
    dynamic_lds: int = 0,
    max_steps: int = 10_000_000,
    seed: int = 0,
    threads: int = 0,
    together: bool = False,
    lds_init: str = "zero",
    wgps: Union[int, None] = None,
    device: Union[str, None] = None,
    lang: Union[str, None] = None,
    cflags: Union[str, None] = None,
    wave64: bool = False,
    target: Union[str, None] = None,
    keep_object: Union[str, os.PathLike, None] = None,
    symbols: Union[dict[str, Union[bytes, np.ndarray]], None] = None,
    html: Union[str, os.PathLike, None] = None,
    functional: bool = False,
    compile_timeout: Union[int, None] = None,
    compile_memory: Union[int, None] = None,
    sample: Union[int, None] = None,
    shard: Union[tuple[int, int], None] = None,
    parts: Union[Sequence[bytes], None] = None,
) -> list[Finding]:
    """Runs a kernel as `run` does (the same arguments; buffers are written back in place)
    and returns only what it did wrong, as `gpumemsim check KERNEL.o --json` lists it: one
    Finding per kind and instructions, in the order they first happened. A correct kernel
    gives [], so a kernel's unit test can `assert gpumemsim.check(...) == []`. html=PATH
    also writes the HTML report with the findings marked (the CLI's --html). functional=True
    is an Error: the checks watch the timed run.

    Returns:
        The findings (list of Finding; docs/check.md describes each kind).

    Raises:
        Error: the launch cannot start (the CLI's message).
        KernelError: the kernel started and then stopped; `.report` is
            {"findings": [...], "error": message}.

    Example:
        >>> data = np.arange(128, dtype=np.int32); sums = np.zeros(2, dtype=np.int32)
        >>> gpumemsim.check("examples/kernels/lds_sum.w32.o", grid=2, block=64,
        ...                 args=[data, sums])
        []
        >>> short = np.arange(100, dtype=np.int32); out = np.zeros(12, dtype=np.int32)
        >>> found = gpumemsim.check("crates/gpumemsim-cli/tests/front_door/block_sum.o",
        ...                         grid=3, block=64,
        ...                         args=[short, out, ("local", 256), ("local", 512), ("i32", 192)])
        >>> [(f["kind"], f["count"]) for f in found]
        [('out_of_bounds', 3)]
    """
