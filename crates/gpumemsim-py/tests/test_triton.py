"""gpumemsim.triton: Triton kernels of the project's own (triton_kernels.py), compiled by
Triton's own compiler for gfx1100 and run on the simulator, against NumPy. Needs Triton
(`pip install 'gpumemsim[triton]'`): without it these tests are skipped with the reason
printed (conftest.py's report header), except under CI, where they fail."""

import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

try:
    import triton  # noqa: F401
    import triton.language as tl
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Triton is not installed (pip install 'gpumemsim[triton]')",
                allow_module_level=True)

import gpumemsim
import gpumemsim.triton as gt

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import triton_kernels as K  # noqa: E402
from triton_layouts import store_costs  # noqa: E402

SOURCE = pathlib.Path(K.__file__).resolve()


def source_line(text):
    """The line number of `text` in triton_kernels.py (the first line that holds it)."""
    for n, line in enumerate(SOURCE.read_text().splitlines(), 1):
        if text in line:
            return n
    raise AssertionError(text)


def lds_by_line(report):
    """Cycles and conflict cycles of the DS instructions that ran, by source line."""
    cycles, conflicts = {}, {}
    for i in report["instructions"]:
        if i["text"].startswith("ds_") and i["executions"]:
            line = i["source"]["line"]
            assert pathlib.Path(i["source"]["file"]).resolve() == SOURCE, i
            cycles[line] = cycles.get(line, 0) + i["cycles"]
            conflicts[line] = conflicts.get(line, 0) + i["conflict_cycles"]
    return cycles, conflicts


def test_vector_add_is_exact_and_its_masked_lanes_are_notes():
    rng = np.random.default_rng(1)
    n = 1000  # 4 programs of 256: the last 24 lanes masked off
    x, y = rng.standard_normal(n, np.float32), rng.standard_normal(n, np.float32)
    out = np.zeros(n, np.float32)
    r = gt.run(K.vector_add, (triton.cdiv(n, 256),), x, y, out, n, BLOCK=256, check=True)
    assert np.array_equal(out, x + y)
    assert r.findings == []
    # Triton's buffer operations mask with an offset outside the V#'s range: notes only.
    assert r.notes and {f["kind"] for f in r.notes} == {"buffer_out_of_range"}
    assert r.grid == (4, 1, 1) and r.block == 128  # Triton's default: 4 warps of 32
    assert r.report["wave_size"] == 32 and r.report["grid"] == [4, 1, 1]
    # The report speaks in the lines of the Python source.
    hottest = r.report["lines"][0]
    assert pathlib.Path(hottest["file"]).resolve() == SOURCE
    assert {line["line"] for line in r.report["lines"]} >= {source_line("x + y, mask=mask")}
    texts = {line["line"]: line["text"] for line in r.report["lines"]}
    assert "tl.load(x_ptr + offs" in texts[source_line("x = tl.load(x_ptr")]
    # The scratch pointers Triton appends are null (the kernel needs none).
    assert [a["kind"] for a in r.report["args"][-2:]] == ["null", "null"]


def test_softmax_rows_match_numpy():
    rng = np.random.default_rng(2)
    rows, cols = 6, 100
    x = (rng.standard_normal((rows, cols)) * 4).astype(np.float32)
    out = np.zeros_like(x)
    gt.run(K.softmax, (rows,), out, x, cols, cols, BLOCK=128)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=2e-6, atol=1e-7)
    # Each row's reductions cross warps: through LDS.
    cycles, _ = lds_by_line(gt.run(K.softmax, (rows,), out, x, cols, cols, BLOCK=128).report)
    assert cycles


def test_a_functional_run_gives_the_timed_softmax_bit_for_bit():
    rng = np.random.default_rng(3)
    rows, cols = 6, 100
    x = (rng.standard_normal((rows, cols)) * 4).astype(np.float32)
    timed, functional = np.zeros_like(x), np.zeros_like(x)
    t = gt.run(K.softmax, (rows,), timed, x, cols, cols, BLOCK=128)
    f = gt.run(K.softmax, (rows,), functional, x, cols, cols, BLOCK=128,
               sim={"functional": True})
    assert functional.tobytes() == timed.tobytes()
    assert f.report["functional"] is True and "cycles" not in f.report
    # Its lines are the .py's, with the same executions and no cycles.
    assert sorted((l["line"], l["executions"]) for l in f.report["lines"]) == \
        sorted((l["line"], l["executions"]) for l in t.report["lines"])
    assert all("cycles" not in l for l in f.report["lines"])


def test_layer_norm_matches_numpy():
    rng = np.random.default_rng(3)
    rows, cols, eps = 5, 120, 1e-5
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    w = rng.standard_normal(cols).astype(np.float32)
    b = rng.standard_normal(cols).astype(np.float32)
    out = np.zeros_like(x)
    gt.run(K.layer_norm, (rows,), out, x, w, b, cols, cols, eps, BLOCK=128)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    want = (x - mean) / np.sqrt(var + np.float32(eps)) * w + b
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=2e-5)


def matmul(bm, bn, bk, num_warps=4, size=128, seed=4):
    """A size×size matmul of small integers in fp16 (every product and sum exact in the fp32
    accumulator) on BM×BN tiles: (C, the result, the reference)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, (size, size)).astype(np.float16)
    b = rng.integers(-4, 5, (size, size)).astype(np.float16)
    c = np.zeros((size, size), np.float32)
    r = gt.run(K.matmul, (size // bm, size // bn), a, b, c, size, size, size,
               BM=bm, BN=bn, BK=bk, num_warps=num_warps)
    return c, r, a.astype(np.float32) @ b.astype(np.float32)


def test_matmul_with_tl_dot_is_exact_and_names_its_hottest_lds_line():
    c, r, want = matmul(64, 64, 32)
    assert np.array_equal(c, want)
    assert r.report["lds_bytes"] == r.kernel.metadata.shared > 0
    # WMMA does the arithmetic; the tiles go through LDS.
    assert any(i["text"].startswith("v_wmma_") and i["executions"]
               for i in r.report["instructions"])
    cycles, conflicts = lds_by_line(r.report)
    hottest = max(cycles, key=cycles.get)
    # The B tile's load (stored transposed for WMMA) costs the most, conflicts included.
    assert hottest == source_line("b = tl.load(b_ptr + (k + rk)")
    assert conflicts[hottest] == max(conflicts.values()) > 0
    # The report's per-line records say the same as its instruction table.
    line = next(x for x in r.report["lines"] if x["line"] == hottest)
    assert line["conflict_cycles"] == conflicts[hottest]
    assert "tl.load(b_ptr" in line["text"]


def shared_layouts(kernel):
    """The shared-memory encodings of the compiled kernel's TTGIR, by name (`#shared`, ...):
    their kind and parameters as ints."""
    found = {}
    for m in re.finditer(r"^(#shared\d*) = #ttg\.(\w+)<\{([^}]*)\}", kernel.asm["ttgir"], re.M):
        params = dict(re.findall(r"(\w+) = (\d+)", m.group(3)))
        found[m.group(1)] = (m.group(2), {k: int(v) for k, v in params.items()})
    return found


def measured_stores(report):
    """{source line: (cycles, conflict cycles)} of the DS stores that ran."""
    out = {}
    for i in report["instructions"]:
        if i["text"].startswith("ds_store") and i["executions"]:
            c, k = out.get(i["source"]["line"], (0, 0))
            out[i["source"]["line"]] = (c + i["cycles"], k + i["conflict_cycles"])
    return out


@pytest.mark.parametrize("bm, bn, bk, warps", [
    (64, 64, 32, 4), (64, 64, 64, 4), (64, 64, 16, 4), (128, 128, 32, 4), (32, 64, 32, 2),
])
def test_matmul_tile_stores_cost_what_their_layouts_predict(bm, bn, bk, warps):
    """Each LDS store line's cycles and conflict cycles, as the simulator measured them
    running the machine code, equal what Triton's layouts predict (triton_layouts.py: the
    register layout and the shared swizzle give every lane's address; the bank model costs
    them), per tile store × K/BK iterations × programs."""
    size = 128
    c, r, want = matmul(bm, bn, bk, warps, size=size)
    assert np.array_equal(c, want)
    predicted = store_costs(r.kernel.asm["ttgir"])
    measured = measured_stores(r.report)
    runs = (size // bk) * (size // bm) * (size // bn)
    assert set(predicted) == set(measured) == {source_line("a = tl.load(a_ptr + rm"),
                                               source_line("b = tl.load(b_ptr + (k + rk)")}
    for line, (op, cycles, conflicts) in predicted.items():
        assert measured[line] == (cycles * runs, conflicts * runs), (line, op)


def test_two_matmul_tilings_differ_in_conflicts_as_their_layouts_say():
    """BK=32 and BK=64 on 64×64 tiles: the same product, but Triton picks the B tile's
    swizzle from BK (B is stored K-contiguous for WMMA, `amd_rotating_shared`). With BK=64
    a 128-byte row of B holds 8 vectors of 8 fp16 and the swizzle has 8 phases; with BK=32 a
    row holds 4 and the swizzle 4 phases (perPhase 2), so rows that repeat a phase share
    banks: 2-way conflicts on every B store, none with BK=64. A's tile is conflict-free in
    both."""
    c32, r32, want = matmul(64, 64, 32)
    c64, r64, _ = matmul(64, 64, 64)
    assert np.array_equal(c32, want) and np.array_equal(c64, want)
    b_line = source_line("b = tl.load(b_ptr + (k + rk)")
    a_line = source_line("a = tl.load(a_ptr + rm")
    (b32,) = [p for kind, p in shared_layouts(r32.kernel).values()
              if kind == "amd_rotating_shared"]
    (b64,) = [p for kind, p in shared_layouts(r64.kernel).values()
              if kind == "amd_rotating_shared"]
    assert (b32["maxPhase"], b32["perPhase"]) == (4, 2)
    assert (b64["maxPhase"], b64["perPhase"]) == (8, 1)
    s32, s64 = measured_stores(r32.report), measured_stores(r64.report)
    assert s64[b_line][1] == 0 and s32[b_line][1] > 0
    assert 2 * s32[b_line][1] == s32[b_line][0]  # 2-way: half the cycles are conflicts
    assert s32[a_line][1] == s64[a_line][1] == 0
    # The slower layout costs the kernel time too.
    assert r32.report["cycles"] > 0 and s32[b_line][0] > s64[b_line][0]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_transpose_through_a_layout_conversion_is_exact(dtype):
    rows, cols = 96, 160
    x = np.arange(rows * cols).reshape(rows, cols).astype(dtype)
    out = np.zeros((cols, rows), dtype)
    r = gt.run(K.transpose, (triton.cdiv(rows, 64), triton.cdiv(cols, 64)), out, x, rows, cols,
               BLOCK=64)
    assert np.array_equal(out, x.T)
    cycles, _ = lds_by_line(r.report)
    assert cycles, "the layout conversion goes through LDS"


def test_bfloat16_through_typed_and_scalar_types():
    # bf16 bits in a uint16 array (NumPy has no bfloat16): x + x is exact.
    bits = (np.arange(64, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
    out = np.zeros(64, np.uint16)
    gt.run(K.vector_add, (1,), gt.typed(bits, tl.bfloat16), gt.typed(bits, tl.bfloat16),
           gt.typed(out, tl.bfloat16), 64, BLOCK=64)
    as_f32 = lambda u: (u.astype(np.uint32) << 16).view(np.float32)  # noqa: E731
    assert np.array_equal(as_f32(out), 2 * as_f32(bits))
    # An int64 buffer and a Python int past 32 bits (Triton's i64).
    base = 3 << 40
    ints = np.zeros(100, np.int64)
    gt.run(K.iota_from, (1,), ints, base, 100, BLOCK=128)
    assert np.array_equal(ints, base + np.arange(100))


def test_a_bool_and_a_float_scalar():
    out = np.zeros(64, np.float32)
    r = gt.run(K.signed, (1,), out, True, 2.5, BLOCK=64)
    assert np.array_equal(out, 2.5 + np.arange(64, dtype=np.float32))
    assert [(a["type"], a["value"]) for a in r.report["args"][1:3]] == [("u8", 1), ("f32", 2.5)]
    gt.run(K.signed, (1,), out, False, 2.5, BLOCK=64)
    assert np.array_equal(out, -2.5 + np.arange(64, dtype=np.float32))


def test_device_print_lands_in_the_report():
    out = np.zeros(2, np.int32)
    r = gt.run(K.hello, (2,), out, num_warps=1)
    assert out.tolist() == [0, 1]
    # Every lane prints, as on a GPU: 32 lanes of each of the 2 programs.
    printed = r.report["printf"]
    assert len(printed) == 64
    assert sorted(set(printed)) == [f"pid ({p}, 0, 0) idx () program: {p}\n" for p in (0, 1)]


def test_html_report_shows_the_python_source(tmp_path):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 100)).astype(np.float32)
    out = np.zeros_like(x)
    page = tmp_path / "softmax.html"
    gt.run(K.softmax, (4,), out, x, 100, 100, BLOCK=128, html=str(page))
    html = page.read_text()
    assert "e / tl.sum(e, axis=0)" in html.replace("&#x2F;", "/")
    assert "triton_kernels.py" in html


def test_one_array_for_two_pointers_is_one_buffer():
    # In place: out is x, as `add(x, y, x)` on a GPU.
    x = np.arange(256, dtype=np.float32)
    y = np.full(256, 0.5, np.float32)
    r = gt.run(K.vector_add, (1,), x, y, x, 256, BLOCK=256)
    assert np.array_equal(x, np.arange(256, dtype=np.float32) + 0.5)
    args = r.report["args"]
    assert args[2]["address"] == args[0]["address"] and args[2]["same_as"] == 0


def test_a_grid_function_reads_the_arrays():
    x = np.arange(1000, dtype=np.float32)
    out = np.zeros_like(x)
    r = gt.run(K.vector_add, lambda meta: (triton.cdiv(meta["x_ptr"].size, meta["BLOCK"]),),
               x, x, out, 1000, BLOCK=256)
    assert r.grid == (4, 1, 1) and np.array_equal(out, 2 * x)
    r = gt.run(K.vector_add, lambda meta: (triton.cdiv(meta["x_ptr"].numel(), 512),),
               x, x, out, 1000, BLOCK=512)
    assert r.grid == (2, 1, 1)


def test_simulator_options_and_check_go_through():
    x = np.ones(64, np.float32)
    out = np.zeros(64, np.float32)
    r = gt.run(K.vector_add, (1,), x, x, out, 64, BLOCK=64, num_warps=2,
               sim={"seed": 3, "together": True})
    assert r.block == 64 and r.report["schedule"]["workgroups"] == "together"
    assert r.findings is None and r.notes is None


def test_bad_input_is_an_error_naming_it():
    x = np.zeros(256, np.float32)
    out = np.zeros(256, np.float32)
    cases = [
        (lambda: gt.run(K.vector_add, (0,), x, x, out, 256, BLOCK=256), "grid (0,)"),
        (lambda: gt.run(K.vector_add, (1,), x[::2], x[::2], out, 128, BLOCK=128),
         "x_ptr: the array is not C-contiguous"),
        (lambda: gt.run(K.vector_add, (1,), x[:128], x.copy(), x[64:192], 128, BLOCK=128),
         "x_ptr and out_ptr share part of their memory"),
        (lambda: gt.run(K.vector_add, (1,), x, x.copy(), out, 256, BLOCK=256, sim={"nope": 1}),
         "sim: unknown option 'nope'"),
        (lambda: gt.run(K.vector_add, (1,), x, x.copy(), out, 256, BLOCK=256, target="gfx942"),
         "target 'gfx942': gpumemsim.triton compiles for gfx1100"),
        (lambda: gt.run(print, (1,), x), "fn: expected a @triton.jit function"),
        (lambda: gt.run(K.vector_add, (1,), x, x.copy(), out, BLOCK=256), "vector_add:"),
        (lambda: gt.run(K.named_check, (1,), out, 1), "a keyword of gpumemsim.triton.run"),
        (lambda: gt.run(K.vector_add, (1,), gt.typed(x, tl.bfloat16), x.copy(), out, 256,
                        BLOCK=256), "x_ptr: typed() as bf16 (16-bit) needs an array of 16-bit"),
    ]
    for call, message in cases:
        with pytest.raises(gpumemsim.Error) as raised:
            call()
        assert message in str(raised.value), (message, str(raised.value))


def test_a_kernel_that_stops_raises_with_its_name_and_report():
    x = np.ones(64, np.float32)
    out = np.zeros(64, np.float32)
    with pytest.raises(gpumemsim.KernelError) as raised:
        gt.run(K.vector_add, (1,), x, x, out, 64, BLOCK=64, sim={"max_steps": 5})
    assert str(raised.value).startswith("vector_add (Triton, gfx1100): ")
    assert raised.value.report["error"] == str(raised.value) and raised.value.report["lines"]


def test_without_triton_the_error_names_the_extra():
    code = (
        "import sys; sys.modules['triton'] = None\n"
        "import numpy as np, gpumemsim.triton as gt\n"
        "try:\n"
        "    gt.run(object(), 1, np.zeros(4, np.float32))\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "pip install 'gpumemsim[triton]'" in done.stdout


def test_the_tuning_example_shows_the_b_tile_conflicts():
    """examples/triton/tune_matmul.py: every product exact; the B tile's line has conflicts
    at BLOCK_K=32 and none at BLOCK_K=64 (4 warps), as its README explains."""
    from conftest import REPO

    script = REPO / "examples" / "triton" / "tune_matmul.py"
    done = subprocess.run([sys.executable, str(script), "--size", "128"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert "every product matched NumPy exactly" in done.stdout
    conflicts = {}
    choice = None
    for line in done.stdout.splitlines():
        m = re.match(r"BLOCK_K=(\d+)\s+num_warps=(\d+)", line)
        if m:
            choice = (int(m[1]), int(m[2]))
        m = re.search(r"(\d+) conflict .*b = tl\.load", line)
        if m:
            conflicts[choice] = int(m[1])
    assert len(conflicts) == 9
    assert conflicts[(32, 4)] > 0 and conflicts[(64, 4)] == 0


def test_the_same_kernel_in_two_files_reports_each_file(tmp_path):
    """Triton caches compiled kernels by their source text; the line tables of a cached object
    name the file it was compiled from. gpumemsim.triton keys its compiles by the file too,
    so the same kernel in two checkouts reports each one's own file."""
    import importlib.util

    text = (SOURCE.read_text())
    reports = []
    for d in ("one", "two"):
        (tmp_path / d).mkdir()
        path = tmp_path / d / "kernels_copy.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location(f"kernels_copy_{d}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        x = np.ones(256, np.float32)
        out = np.zeros_like(x)
        r = gt.run(module.vector_add, (1,), x, x, out, 256, BLOCK=256)
        reports.append((path, r.report))
    for path, report in reports:
        assert {pathlib.Path(x["file"]).resolve() for x in report["lines"]} == {path.resolve()}
