"""gpumemsim.run on the corpus of clang-19 kernels (examples/kernels): buffers updated in
place match CPU references, and reports equal `gpumemsim run KERNEL.o --json`."""

import json
import os

import numpy as np
import pytest

import gpumemsim
from conftest import KERNELS


def kernel(name: str) -> str:
    return str(KERNELS / name)


def cli_run(cli, path, kernel_name, grid, block, args, *extra):
    """`gpumemsim run PATH --kernel K --grid G --block B --arg ... --json`: (exit status,
    report)."""
    argv = ["run", path, "--kernel", kernel_name, "--grid", grid, "--block", block]
    for a in args:
        argv += ["--arg", a]
    done = cli.run(*argv, *extra, "--json")
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def plain(report: dict) -> dict:
    """A report with each buffer's array as a list, as JSON has it."""
    out = dict(report)
    out["args"] = [
        {**a, "values": a["values"].tolist()} if "values" in a else a for a in report["args"]
    ]
    return out


def values(array: np.ndarray) -> str:
    return ",".join(str(x) for x in array.tolist())


@pytest.mark.parametrize("wave", ["w32", "w64"])
@pytest.mark.parametrize("variant", ["naive", "padded", "swizzled"])
def test_transpose_updates_the_buffer_and_equals_the_cli(cli, wave, variant):
    path = kernel(f"transpose.{wave}.o")
    src = np.arange(1024, dtype=np.float32)
    dst = np.zeros(1024, dtype=np.float32)
    report = gpumemsim.run(path, f"transpose_{variant}", 1, 32, [src, dst])
    assert np.array_equal(dst.reshape(32, 32), src.reshape(32, 32).T)
    assert np.array_equal(src, np.arange(1024, dtype=np.float32)), "the input is unchanged"
    assert report["args"][1]["values"] is dst
    conflicts = sum(i["conflict_cycles"] for i in report["instructions"])
    # The naive column read is a 32-way conflict on each of its 32 loads; swizzling removes it.
    # A wave64 of 32 work-items has an empty half that still takes its cycle, and an access
    # takes at most 64 cycles: 16 loads of 61 conflict cycles (docs/rules/banks.md#wave64-in-two-halves,
    # docs/rules/banks.md#at-most-64-cycles), as crates/gpumemsim-cli/tests/kernels.rs pins.
    naive = 32 * 31 if wave == "w32" else 16 * 61
    assert conflicts == {"naive": naive, "padded": conflicts, "swizzled": 0}[variant]
    status, want = cli_run(
        cli, path, f"transpose_{variant}", "1", "32", ["buf:f32[1024]=iota", "buf:f32[1024]=zeros"]
    )
    assert status == 0
    assert plain(report) == want


def test_lds_sum_matches_the_cpu():
    src = (np.arange(256, dtype=np.int32) * 37 % 101) - 50
    out = np.full(4, -1, dtype=np.int32)
    report = gpumemsim.run(kernel("lds_sum.w64.o"), None, 4, 64, [src, out])
    assert out.tolist() == src.reshape(4, 64).sum(axis=1).tolist()
    assert report["events"] == [] and report["wave_size"] == 64
    assert report["target"] == "gfx1100"
    assert report["grid"] == [4, 1, 1] and report["block"] == [64, 1, 1]


def test_one_array_twice_is_one_buffer_and_none_is_a_null_pointer():
    data = np.zeros(256, dtype=np.int32)
    data[:64] = 1
    # The sums land in the data's first words: one buffer, two arguments.
    report = gpumemsim.run(kernel("lds_sum.w64.o"), None, 4, 64, [data, data])
    a, b = report["args"]
    assert b["address"] == a["address"] and b["same_as"] == 0 and "same_as" not in a
    assert data[:4].tolist() == [64, 0, 0, 0]
    with pytest.raises(gpumemsim.Error, match=r"args\[1\]: its array shares part of its memory"):
        gpumemsim.run(kernel("lds_sum.w64.o"), None, 4, 64, [data, data[2:6]])
    # A null pointer: the kernel's store to it lands outside every allocation.
    found = gpumemsim.check(kernel("lds_sum.w64.o"), None, 4, 64, [data, None])
    assert [f["kind"] for f in found] == ["out_of_bounds"]
    report = gpumemsim.run(kernel("lds_sum.w64.o"), None, 4, 64, [data, None])
    assert report["args"][1] == {"kind": "null"}


@pytest.mark.parametrize("k", [("i32", 7), np.int32(7), np.array(7, dtype=np.int32)])
def test_scalar_arguments(cli, k):
    src = np.arange(40, dtype=np.int32)
    out = np.zeros(64, dtype=np.int32)
    report = gpumemsim.run(kernel("private_array.w32.o"), "private_array", 1, 64, [src, out, k])
    lanes = np.arange(64)
    assert out.tolist() == (((7 + lanes) % 40) * lanes).tolist()
    assert report["args"][2] == {"kind": "value", "type": "i32", "value": 7}
    _, want = cli_run(
        cli, kernel("private_array.w32.o"), "private_array", "1", "64",
        ["buf:i32[40]=iota", "buf:i32[64]=zeros", "i32:7"],
    )
    assert plain(report) == want


def test_histogram_of_bytes_and_a_u32_scalar():
    data = np.random.default_rng(7).integers(0, 256, size=900, dtype=np.uint8)
    hist = np.zeros(256, dtype=np.uint32)
    gpumemsim.run(kernel("histogram.w32.o"), "histogram", (3,), (256,), [data, hist, ("u32", 300)])
    assert hist.tolist() == np.bincount(data, minlength=256).tolist()


def test_matmul_equals_the_cli_bit_for_bit(cli):
    n = 32
    i = np.arange(n * n)
    a = (((i * 7 + 1) % 13) / 8.0 - 0.75 + (i % 5) * 1e-3).astype(np.float32)
    b = (((i * 7 + 4) % 13) / 8.0 - 0.75 + (i % 5) * 1e-3).astype(np.float32)
    c = np.zeros(n * n, dtype=np.float32)
    report = gpumemsim.run(kernel("matmul.w32.o"), "matmul", (2, 2), (16, 16), [a, b, c, ("i32", n)])
    assert np.allclose(c.reshape(n, n), a.reshape(n, n) @ b.reshape(n, n), atol=1e-4)
    _, want = cli_run(
        cli, kernel("matmul.w32.o"), "matmul", "2,2", "16,16",
        [f"buf:f32[{n * n}]={values(a)}", f"buf:f32[{n * n}]={values(b)}",
         f"buf:f32[{n * n}]=zeros", f"i32:{n}"],
    )
    assert plain(report) == want


def test_a_uint8_buffer_carries_raw_bytes_for_any_pointer():
    # transpose_naive (float*) moves 4-byte words: a uint8 array's bytes go in and come back
    # as they are (u8 is raw bytes, accepted for any pointer).
    words = np.arange(1024, dtype=np.float32)
    src = words.view(np.uint8).copy()
    dst = np.zeros_like(src)
    report = gpumemsim.run(kernel("transpose.w32.o"), "transpose_naive", 1, 32, [src, dst])
    assert np.array_equal(dst.view(np.float32).reshape(32, 32), words.reshape(32, 32).T)
    assert report["args"][1]["type"] == "u8"


@pytest.mark.parametrize("dtype", [np.uint16, np.float16, np.int32, np.uint64, np.float64])
def test_a_buffer_of_another_type_than_the_pointer_names_is_an_error(dtype):
    # OpenCL's metadata names the pointee (float*): another element type would run with
    # garbage values.
    src = np.zeros(1024, dtype=dtype)
    dst = np.zeros(1024, dtype=np.float32)
    with pytest.raises(gpumemsim.Error, match=r"args\[0\]: argument 0 .*\(float\*\) points to "
                       r"f32 values; given a buffer of"):
        gpumemsim.run(kernel("transpose.w32.o"), "transpose_naive", 1, 32, [src, dst])


def test_a_2d_buffer_is_flattened_in_c_order():
    src = np.arange(1024, dtype=np.float32).reshape(32, 32)
    dst = np.zeros((32, 32), dtype=np.float32)
    gpumemsim.run(kernel("transpose.w32.o"), "transpose_naive", 1, 32, [src, dst])
    assert np.array_equal(dst, src.T)


def test_code_object_bytes():
    data = (KERNELS / "transpose.w32.o").read_bytes()
    dst = np.zeros(1024, dtype=np.float32)
    gpumemsim.run(data, "transpose_padded", 1, 32, [np.arange(1024, dtype=np.float32), dst])
    assert dst[1] == 32.0


def test_schedules_equal_the_clis(cli):
    args = ["buf:i32[128]=iota", "buf:i32[2]=zeros"]
    for extra, kwargs in [([], {}), (["--together"], {"together": True}),
                          (["--threads", "1"], {"threads": 1}), (["--seed", "3"], {"seed": 3}),
                          (["--wgps", "2"], {"wgps": 2}),
                          (["--wgps", "2", "--threads", "1"], {"wgps": 2, "threads": 1})]:
        src = np.arange(128, dtype=np.int32)
        out = np.zeros(2, dtype=np.int32)
        report = gpumemsim.run(kernel("lds_sum.w32.o"), "lds_sum", 2, 64, [src, out], **kwargs)
        _, want = cli_run(cli, kernel("lds_sum.w32.o"), "lds_sum", "2", "64", args, *extra)
        assert plain(report) == want, extra
        assert out.tolist() == [sum(range(64)), sum(range(64, 128))]


def test_a_kernel_that_stops_raises_with_the_report(cli):
    src = np.arange(1024, dtype=np.float32)
    dst = np.zeros(1024, dtype=np.float32)
    with pytest.raises(gpumemsim.KernelError) as raised:
        gpumemsim.run(kernel("transpose.w32.o"), "transpose_naive", 1, 32, [src, dst], max_steps=10)
    status, want = cli_run(
        cli, kernel("transpose.w32.o"), "transpose_naive", "1", "32",
        ["buf:f32[1024]=iota", "buf:f32[1024]=zeros"], "--max-steps", "10",
    )
    assert status == 1
    assert str(raised.value) == want["error"]
    assert "after 10 instructions" in want["error"]
    assert plain(raised.value.report) == want


# (CLI arguments after the path, Python call) that fail with the same message.
CLI_ERRORS = [
    pytest.param(["--kernel", "nope"], dict(kernel="nope"), id="no-such-kernel"),
    pytest.param([], dict(), id="choose-a-kernel"),
    pytest.param(
        ["--kernel", "transpose_naive", "--arg", "u32:1", "--arg", "u64:2", "--arg", "u64:3"],
        dict(kernel="transpose_naive", args=[("u32", 1), ("u64", 2), np.uint64(3)]),
        id="an-extra-argument",
    ),
]


@pytest.mark.parametrize("cli_args, call", CLI_ERRORS)
def test_launch_errors_are_the_clis(cli, cli_args, call):
    path = kernel("transpose.w32.o")
    with pytest.raises(gpumemsim.Error) as raised:
        gpumemsim.run(path, **call)
    assert str(raised.value) == cli.error("run", path, *cli_args)


def test_a_missing_file_is_the_clis_message(cli):
    with pytest.raises(gpumemsim.Error) as raised:
        gpumemsim.run("no/such/kernel.o")
    assert str(raised.value) == cli.error("run", "no/such/kernel.o")


def read_only():
    a = np.zeros(1024, dtype=np.float32)
    a.setflags(write=False)
    return a


SRC = np.arange(1024, dtype=np.float32)


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ([SRC, np.zeros(1024, np.int8)], {}, "args[1]: dtype int8: buffer types are u8 u16"),
        ([SRC, np.zeros(1024, bool)], {}, "args[1]: dtype bool: buffer types are"),
        ([SRC, np.zeros(2048, np.float32)[::2]], {}, "args[1]: the array is not C-contiguous"),
        ([SRC, read_only()], {}, "args[1]: the array is read-only"),
        ([SRC, np.zeros(0, np.float32)], {}, "args[1]: a buffer has 1 to 2^26 elements; this one has 0"),
        ([SRC, 5], {}, "args[1]: give a scalar's type"),
        ([SRC, 2.0], {}, "args[1]: give a scalar's type"),
        ([SRC, "x"], {}, "args[1]: expected a NumPy array (a buffer), a (type, value) pair"),
        ([SRC, ("u32", -1)], {}, "args[1]: value does not fit the type"),
        ([SRC, ("u32", 2**32)], {}, "args[1]: value does not fit the type"),
        ([SRC, ("i32", 2**31)], {}, "args[1]: value does not fit the type"),
        ([SRC, ("u32", 1.5)], {}, "args[1]: value does not fit the type"),
        ([SRC, ("u32", True)], {}, "args[1]: value does not fit the type"),
        ([SRC, ("f32", "2.0")], {}, "args[1]: value does not fit the type"),
        ([SRC, ("i8", 1)], {}, "args[1]: scalar types are u8, u16, u32, i32, u64, i64, f16,"),
        ([SRC, (1, 2)], {}, "args[1]: a scalar's type is a string"),
        ([SRC, ("u32", 1, 2)], {}, "args[1]: a scalar is a (type, value) pair"),
        ([SRC, np.int8(1)], {}, "args[1]: a numpy.int8 scalar: scalar types are"),
        (5, {}, "args: expected a list of kernel arguments, got int"),
        ([SRC, SRC.copy()], {"grid": 0}, "grid 0: `0` is not a positive integer"),
        ([SRC, SRC.copy()], {"grid": (1, 2, 3, 4)}, "grid (1, 2, 3, 4): expected X[,Y,Z]"),
        ([SRC, SRC.copy()], {"grid": "4"}, "grid '4': expected X[,Y,Z]"),
        ([SRC, SRC.copy()], {"block": (64, 32)}, "block (64, 32): at most 1024 work-items per workgroup"),
        ([SRC, SRC.copy()], {"block": (32, -1)}, "block (32, -1): `-1` is not a positive integer"),
    ],
)
def test_bad_arguments(args, kwargs, message):
    call = {"grid": 1, "block": 32, **kwargs}
    with pytest.raises(gpumemsim.Error) as raised:
        gpumemsim.run(kernel("transpose.w32.o"), "transpose_naive", args=args, **call)
    assert message in str(raised.value)


def test_bad_code_objects(tmp_path):
    with pytest.raises(gpumemsim.Error, match="kernel_path: expected a path"):
        gpumemsim.run(5)
    text = tmp_path / "k.s"
    text.write_text("s_endpgm\n")
    with pytest.raises(gpumemsim.Error, match="k.s: "):
        gpumemsim.run(str(text))
    with pytest.raises(gpumemsim.Error, match="<bytes>: "):
        gpumemsim.run(b"\x7fELF" + bytes(60))


APPS = KERNELS.parent / "apps" / "build"


def test_local_arguments_and_dynamic_lds_as_the_cli_runs_them(cli):
    # histogram_local_bins(data, n, hist, fullest, __local uint *bins): a __local argument.
    data = (np.arange(500) * 37 % 256).astype(np.uint8)
    hist = np.zeros(64, np.uint32)
    fullest = np.zeros(1, np.uint32)
    path = str(APPS / "histogram_local.o")
    report = gpumemsim.run(path, "histogram_local_bins", 2, 128,
                           [data, ("u32", 500), hist, fullest, ("local", 256)])
    assert hist.tolist() == np.bincount(data >> 2, minlength=64).tolist()
    assert report["args"][4] == {"kind": "local", "offset": 4, "size": 256, "name": "bins"}
    assert report["args"][0]["name"] == "data"
    # HIP's extern __shared__: the launch's dynamic LDS.
    data = np.arange(1024, dtype=np.int32)
    out = np.zeros(1024, np.int32)
    sums = np.zeros(8, np.int32)
    path = str(APPS / "scan_blocked.o")
    report = gpumemsim.run(path, "scan_block_inclusive", 8, 128,
                           [data, out, sums, ("i32", 1024)], dynamic_lds=512)
    assert out.tolist() == np.concatenate([np.cumsum(c) for c in data.reshape(8, 128)]).tolist()
    assert report["kernel"] == "scan_block_inclusive" and report["events"] == []
    _, want = cli_run(
        cli, path, "scan_block_inclusive", "8", "128",
        ["buf:i32[1024]=iota", "buf:i32[1024]=zeros", "buf:i32[8]=zeros", "i32:1024"],
        "--dynamic-lds", "512",
    )
    assert plain(report) == want


@pytest.mark.parametrize("args, message", [
    ([np.zeros(4, np.uint8), ("u32", 4), np.zeros(64, np.uint32), np.zeros(1, np.uint32)],
     "kernel `histogram_local_bins` takes 5 arguments, 4 given: argument 4 `bins` (uint*) is "
     "missing (--arg local:BYTES)"),
    ([np.zeros(4, np.uint8), ("f32", 4.0), np.zeros(64, np.uint32), np.zeros(1, np.uint32),
      ("local", 256)],
     "args[1]: argument 1 `n` (uint) takes --arg u32:VALUE; given a f32 value"),
    ([np.zeros(4, np.uint8), ("u32", 4), np.zeros(64, np.uint32), np.zeros(1, np.uint32),
      ("local", 0)],
     'args[4]: ("local", BYTES) takes 1 to 65536 bytes'),
])
def test_launch_arguments_are_checked_against_the_metadata(args, message):
    with pytest.raises(gpumemsim.Error) as raised:
        gpumemsim.run(str(APPS / "histogram_local.o"), "histogram_local_bins", 1, 64, args)
    assert message in str(raised.value)


def test_ctrl_c_interrupts_a_long_launch():
    # 2^28 workgroups of the padded transpose over a 4×4 matrix: hours of work. SIGINT half a
    # second in must raise KeyboardInterrupt within a progress batch, not after the run; run
    # in a child process, so that a launch that cannot be interrupted fails by its timeout.
    import subprocess
    import sys
    import textwrap
    child = textwrap.dedent(f"""
        import os, signal, threading, time
        import numpy as np
        import gpumemsim
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.monotonic()
        try:
            gpumemsim.run({str(APPS / "transpose_padded.o")!r}, "transpose_tiled_padded",
                          (1 << 14, 1 << 14), (32, 8),
                          [np.zeros(16, np.float32), np.zeros(16, np.float32),
                           ("i32", 4), ("i32", 4)])
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
    """)
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip() == "interrupted", done.stderr


COMPILER_OUTPUT = KERNELS.parent.parent / "crates" / "gpumemsim-cli" / "tests" / "compiler_output"


def test_a_source_is_compiled_and_its_table_read(cli, tmp_path):
    """`gpumemsim.run("table.cl", ...)` builds the source as the CLI does (clang-19 and the
    device libraries; CI installs them), reads the program-scope table PC-relative, and
    reports the variables as `--json` does."""
    src = np.arange(64, dtype=np.float32)
    out = np.zeros(64, dtype=np.float32)
    try:
        report = gpumemsim.run(str(COMPILER_OUTPUT / "table.cl"), None, 1, 64, [out, src])
    except gpumemsim.Error as e:
        assert "CI" not in os.environ, f"under CI the source must build: {e}"
        pytest.skip(f"clang-19 or the device libraries are missing here: {e}")
    w = np.array([0.25, 0.5, 1.5, -2.0], dtype=np.float32)
    assert out.tolist() == (src * w[np.arange(64) & 3]).tolist()
    table = next(s for s in report["symbols"] if s["name"] == "w")
    assert table["values"] == w.view(np.uint32).tolist()
    # The same source as the CLI builds and reports it.
    code, want = cli_run(
        cli, str(COMPILER_OUTPUT / "table.cl"), "weigh", "1", "64",
        ["buf:f32[64]=zeros", f"buf:f32[64]={values(src)}"],
    )
    assert code == 0
    assert report["symbols"] == want["symbols"]
    # lang= reads a file of any name as a source; keep_object= keeps the build, which runs
    # the same.
    renamed = tmp_path / "table.txt"
    renamed.write_text((COMPILER_OUTPUT / "table.cl").read_text())
    kept = tmp_path / "kept.o"
    again = np.zeros(64, dtype=np.float32)
    gpumemsim.run(str(renamed), None, 1, 64, [again, src], lang="opencl", keep_object=str(kept))
    assert again.tolist() == out.tolist()
    from_object = np.zeros(64, dtype=np.float32)
    gpumemsim.run(str(kept), None, 1, 64, [from_object, src])
    assert from_object.tolist() == out.tolist()
    with pytest.raises(gpumemsim.Error, match="lang"):
        gpumemsim.run(str(renamed), None, 1, 64, [again, src], lang="fortran")


def test_target_builds_a_source_for_gfx942(cli):
    """`target="gfx942"` builds a source for CDNA3 as the CLI's --arch gfx942 does: wave64
    and the gfx942 instruction set; the report says so, the results match the gfx1100 build
    and the CLI's report; a code object runs on its own chip only."""
    src = np.arange(64, dtype=np.float32)
    out = np.zeros(64, dtype=np.float32)
    try:
        report = gpumemsim.run(
            str(COMPILER_OUTPUT / "table.cl"), None, 1, 64, [out, src], target="gfx942"
        )
    except gpumemsim.Error as e:
        assert "CI" not in os.environ, f"under CI the source must build: {e}"
        pytest.skip(f"clang-19 or the device libraries are missing here: {e}")
    assert report["target"] == "gfx942" and report["wave_size"] == 64
    w = np.array([0.25, 0.5, 1.5, -2.0], dtype=np.float32)
    assert out.tolist() == (src * w[np.arange(64) & 3]).tolist()
    code, want = cli_run(
        cli, str(COMPILER_OUTPUT / "table.cl"), "weigh", "1", "64",
        ["buf:f32[64]=zeros", f"buf:f32[64]={values(src)}"], "--arch", "gfx942",
    )
    assert code == 0 and want["target"] == "gfx942"
    assert want["args"][0]["values"] == out.tolist()
    with pytest.raises(gpumemsim.Error, match="not a chip"):
        gpumemsim.run(str(COMPILER_OUTPUT / "table.cl"), None, 1, 64, [out, src], target="gfx90a")
    # A gfx1100 object asked to run as gfx942: refused, naming its chip.
    with pytest.raises(gpumemsim.Error, match="a code object for gfx1100"):
        gpumemsim.run(str(COMPILER_OUTPUT / "table.o"), None, 1, 64, [out, src], target="gfx942")


def test_symbols_are_set_before_the_launch():
    """`symbols=` sets a program-scope variable as the CLI's --symbol does."""
    obj = str(COMPILER_OUTPUT / "table.o")
    src = np.arange(64, dtype=np.float32)
    out = np.zeros(64, dtype=np.float32)
    w = np.array([1.0, -1.0, 2.0, 0.5], dtype=np.float32)
    report = gpumemsim.run(obj, None, 1, 64, [out, src], symbols={"w": w, "hits": b"\x29\0\0\0"})
    assert out.tolist() == (src * w[np.arange(64) & 3]).tolist()
    hits = next(s for s in report["symbols"] if s["name"] == "hits")
    assert hits["values"] == [42]
    with pytest.raises(gpumemsim.Error, match="no variable `nope` in the code object"):
        gpumemsim.run(obj, None, 1, 64, [out, src], symbols={"nope": b"\0"})
    with pytest.raises(gpumemsim.Error, match="symbols"):
        gpumemsim.run(obj, None, 1, 64, [out, src], symbols=[1])


def test_clang_runs_within_the_limits_given(tmp_path):
    """compile_timeout= and compile_memory= limit clang as the CLI's --compile-timeout and
    --compile-memory do: a preprocessor bomb (10^8 statements) is stopped and named."""
    bomb = tmp_path / "bomb.cl"
    bomb.write_text("#define A(x) x x x x x x x x x x\n#define B(x) A(A(A(A(x))))\n"
                    "#define C(x) B(B(x))\n"
                    "__kernel void bomb(__global int *o) { int v = 0; C(v++;) o[0] = v; }\n")
    out = np.zeros(1, dtype=np.int32)
    with pytest.raises(gpumemsim.Error) as raised:
        gpumemsim.run(str(bomb), None, 1, 64, [out], compile_timeout=1)
    if "was not found" in str(raised.value):
        assert "CI" not in os.environ, f"under CI clang-19 must be installed: {raised.value}"
        pytest.skip(f"clang-19 is missing here: {raised.value}")
    assert "within 1 s and was stopped" in str(raised.value)
    with pytest.raises(gpumemsim.Error, match="clang ran with at most 64 MiB"):
        gpumemsim.run(str(bomb), None, 1, 64, [out], compile_memory=64)
    with pytest.raises(gpumemsim.Error, match="compile_timeout=-1"):
        gpumemsim.run(str(bomb), None, 1, 64, [out], compile_timeout=-1)


def test_sample_runs_part_of_the_grid_and_scales_to_it(cli):
    data = np.arange(16384, dtype=np.int32)
    full = gpumemsim.run(kernel("lds_sum.w32.o"), None, 256, 64, [data, np.zeros(256, np.int32)])
    sums = np.zeros(256, np.int32)
    sampled = gpumemsim.run(kernel("lds_sum.w32.o"), None, 256, 64, [data, sums], sample=16)
    assert sampled["sampled"] == {"workgroups": 16, "of": 256} and "sampled" not in full
    assert [(x["line"], x["cycles"]) for x in sampled["lines"]] == \
        [(x["line"], x["cycles"]) for x in full["lines"]]
    assert sums[16] == data[1024:1088].sum() and sums[1] == 0
    # The CLI's --sample gives the same report.
    _, want = cli_run(cli, kernel("lds_sum.w32.o"), "lds_sum", "256", "64",
                      ["buf:i32[16384]=iota", "buf:i32[256]=zeros"], "--sample", "16")
    assert want["sampled"] == sampled["sampled"] and want["lines"] == sampled["lines"]
    with pytest.raises(gpumemsim.Error, match="sample 0"):
        gpumemsim.run(kernel("lds_sum.w32.o"), None, 4, 64, [data, sums], sample=0)


def test_a_functional_run_gives_the_timed_buffers_and_the_clis_report(cli):
    n = 32
    i = np.arange(n * n)
    a = ((i * 7 + 1) % 13 / 8.0 - 0.75).astype(np.float32)
    b = ((i * 7 + 4) % 13 / 8.0 - 0.75).astype(np.float32)
    timed_c, functional_c = np.zeros(n * n, np.float32), np.zeros(n * n, np.float32)
    timed = gpumemsim.run(kernel("matmul.w32.o"), "matmul", (2, 2), (16, 16),
                          [a, b, timed_c, ("i32", n)])
    report = gpumemsim.run(kernel("matmul.w32.o"), "matmul", (2, 2), (16, 16),
                           [a, b, functional_c, ("i32", n)], functional=True)
    assert functional_c.tobytes() == timed_c.tobytes()
    assert report["functional"] is True and "functional" not in timed
    for key in ("cycles", "timing", "units", "vcache", "delay_alu", "counters"):
        assert key in timed and key not in report, key
    assert report["totals"] == {"wave_instructions": timed["totals"]["wave_instructions"]}
    assert all("cycles" not in i for i in report["instructions"])
    _, want = cli_run(
        cli, kernel("matmul.w32.o"), "matmul", "2,2", "16,16",
        [f"buf:f32[{n * n}]={values(a)}", f"buf:f32[{n * n}]={values(b)}",
         f"buf:f32[{n * n}]=zeros", f"i32:{n}"], "--functional",
    )
    assert plain(report) == want


@pytest.mark.parametrize("extra", [{"html": "/tmp/never-written.html"}, {}])
def test_functional_with_html_or_check_is_an_error(extra):
    src = np.arange(1024, dtype=np.float32)
    dst = np.zeros_like(src)
    call = gpumemsim.run if extra else gpumemsim.check
    with pytest.raises(gpumemsim.Error, match="functional=True runs without the timing model"):
        call(kernel("transpose.w32.o"), "transpose_naive", 1, 32, [src, dst], functional=True,
             **extra)
