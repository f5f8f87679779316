"""gpumemsim.ray.sweep on real Ray clusters: a local one (``ray.init`` with 2 CPUs), a head and
a worker node started as separate processes with ``ray start``, and a worker killed in the
middle of a sweep. Needs Ray (`pip install 'gpumemsim[ray]'`): without it these tests are
skipped with the reason printed (conftest.py's report header), except under CI, where they
fail."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

try:
    import ray
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("Ray is not installed (pip install 'gpumemsim[ray]')", allow_module_level=True)

import gpumemsim
import gpumemsim.ray as gr
from conftest import KERNELS, REPO

LDS_SUM = str(KERNELS / "lds_sum.w32.o")
TRANSPOSE = str(KERNELS / "transpose.w32.o")


@pytest.fixture
def local_cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def launches(data):
    """24 launches: lds_sum at every seed on 2 WGPs, and the three transposes at two grids."""
    out = [dict(kernel_path=LDS_SUM, grid=4, block=64, args=[data, np.zeros(4, np.int32)],
                seed=s, wgps=2) for s in range(18)]
    src = np.arange(1024, dtype=np.float32)
    for k in ("transpose_naive", "transpose_padded", "transpose_swizzled"):
        for g in (1, 2):
            out.append(dict(kernel_path=TRANSPOSE, kernel=k, grid=g, block=32,
                            args=[src, np.zeros(1024, np.float32)]))
    return out


def without_args(report):
    return {k: v for k, v in report.items() if k != "args"}


def assert_same_as_local(results, given):
    """Each result is the report gpumemsim.run gives in this process (buffers by value)."""
    assert len(results) == len(given)
    for got, launch in zip(results, given):
        fresh = [np.copy(a) if isinstance(a, np.ndarray) else a for a in launch["args"]]
        want = gpumemsim.run(**{**launch, "args": fresh})
        assert without_args(got) == without_args(want)
        for g, w in zip(got["args"], want["args"]):
            if "values" in w:
                assert np.array_equal(g["values"], w["values"])


def test_a_sweep_equals_the_launches_run_here(local_cluster, monkeypatch):
    monkeypatch.chdir(REPO)
    data = np.arange(256, dtype=np.int32)
    given = launches(data)
    puts = []
    real_put = ray.put
    monkeypatch.setattr(ray, "put", lambda obj, **kw: puts.append(obj) or real_put(obj, **kw))
    results = gr.sweep(given)
    assert_same_as_local(results, given)
    # Every distinct array went to the object store once: data and the transposes' input
    # once each, however many launches use them, plus each launch's own output array.
    assert len(puts) == 2 + len(given)
    assert sum(p is data for p in puts) == 1
    # The caller's arrays are not changed: each worker ran on a copy.
    assert np.array_equal(data, np.arange(256)) and not given[0]["args"][1].any()


def test_a_failed_launch_is_a_result_not_a_lost_sweep(local_cluster, monkeypatch):
    monkeypatch.chdir(REPO)
    data = np.arange(128, dtype=np.int32)
    ok = dict(kernel_path=LDS_SUM, grid=2, block=64, args=[data, np.zeros(2, np.int32)])
    results = gr.sweep([
        dict(kernel_path="no/such/kernel.o"),
        {**ok, "max_steps": 3},
        ok,
        {**ok, "grid": 0},
    ], progress=False)
    assert results[0] == {"error": "Error: no/such/kernel.o: No such file or directory (os error 2)"}
    assert "was stopped at 0x" in results[1]["error"] and "instructions" in results[1]
    assert "error" not in results[2] and results[2]["args"][1]["values"].tolist() == [2016, 6112]
    assert results[3]["error"].startswith("Error: grid 0:")
    # One array given twice is one buffer, as in a local run (the sums land in the data);
    # arrays that overlap in part are an error, as in a local run.
    data = np.zeros(256, dtype=np.int32)
    data[:64] = 1
    twice, overlap = gr.sweep([
        dict(kernel_path=LDS_SUM, grid=4, block=64, args=[data, data]),
        dict(kernel_path=LDS_SUM, grid=4, block=64, args=[data, data[2:6]]),
    ], progress=False)
    local = data.copy()
    want = gpumemsim.run(LDS_SUM, None, 4, 64, [local, local])
    assert twice["args"][1]["same_as"] == 0
    assert np.array_equal(twice["args"][0]["values"], want["args"][0]["values"])
    assert twice["args"][0]["values"][:4].tolist() == [64, 0, 0, 0]
    assert "share part of their memory" in overlap["error"]
    with pytest.raises(TypeError, match=r"launches\[0\]: no kernel_path"):
        gr.sweep([dict(grid=1)])


def test_a_killed_worker_is_retried_and_the_sweep_completes(local_cluster, monkeypatch):
    monkeypatch.chdir(REPO)
    src = np.arange(1024, dtype=np.float32)
    # Launches of half a second or more each (512 workgroups, every one transposing the same
    # tile), so that one is running when its worker is killed.
    given = [dict(kernel_path=TRANSPOSE, kernel="transpose_naive", grid=512, block=32,
                  args=[src, np.zeros(1024, np.float32)], wgps=1) for _ in range(6)]
    box = {}
    sweep = threading.Thread(target=lambda: box.update(r=gr.sweep(given, progress=False)))
    sweep.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and time.monotonic() < deadline:
        for pid in worker_pids("_run_launch"):
            os.kill(pid, signal.SIGKILL)
            killed = pid
            break
        time.sleep(0.01)
    sweep.join(timeout=300)
    assert killed is not None, "no worker was seen running a launch"
    assert_same_as_local(box["r"], given)


def worker_pids(task):
    """Ray worker processes running `task` (their process title is `ray::TASK`)."""
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/cmdline", "rb") as f:
                if f.read().startswith(f"ray::{task}".encode()):
                    pids.append(int(d))
        except OSError:
            pass
    return pids


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_head_and_a_worker_node_started_apart():
    """`ray start --head` and `ray start --address` as separate processes (two nodes of one
    CPU each), and a sweep from a third process that connects by address."""
    ray_cli = os.path.join(os.path.dirname(sys.executable), "ray")
    port = free_port()
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    start = [ray_cli, "start", "--num-cpus=1", "--disable-usage-stats"]
    try:
        subprocess.run([*start, "--head", f"--port={port}", "--include-dashboard=false"],
                       check=True, env=env, capture_output=True, timeout=120)
        subprocess.run([*start, f"--address=127.0.0.1:{port}"], check=True, env=env,
                       capture_output=True, timeout=120)
        code = (
            "import numpy as np, ray, gpumemsim.ray as gr\n"
            f"ray.init(address='127.0.0.1:{port}', log_to_driver=False)\n"
            "assert len(ray.nodes()) == 2, ray.nodes()\n"
            "data = np.arange(128, dtype=np.int32)\n"
            f"r = gr.sweep([dict(kernel_path={LDS_SUM!r}, grid=2, block=64,\n"
            "                    args=[data, np.zeros(2, np.int32)], seed=s) for s in range(20)],\n"
            "              progress=False)\n"
            "print(sorted({tuple(x['args'][1]['values'].tolist()) for x in r}))\n"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, cwd=REPO, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        assert done.stdout.strip().splitlines()[-1] == "[(2016, 6112)]"
    finally:
        subprocess.run([ray_cli, "stop", "--force"], env=env, capture_output=True, timeout=120)


def test_without_ray_the_error_names_the_extra():
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "import gpumemsim.ray as gr\n"
        "try:\n"
        "    gr.sweep([])\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "pip install 'gpumemsim[ray]'" in done.stdout


def test_the_transpose_sweep_example(tmp_path):
    """examples/ray/sweep_transpose.py: 20 launches built from one source with -DPAD=N (clang-19
    on the workers), every result checked against NumPy by the script; padding by one float
    removes the conflicts, and with matplotlib the plot is written."""
    plot = tmp_path / "sweep.png"
    done = subprocess.run([sys.executable, str(REPO / "examples" / "ray" / "sweep_transpose.py"),
                           "--plot", str(plot)], capture_output=True, text=True, cwd=tmp_path,
                          timeout=600)
    if done.returncode != 0 and "was not found" in done.stderr + done.stdout:
        assert "CI" not in os.environ, f"under CI clang-19 must be installed: {done.stderr}"
        pytest.skip("clang-19 is missing here")
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {}
    for line in done.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0].isdigit():
            rows[int(parts[0]), int(parts[1])] = int(parts[2])
    assert len(rows) == 20
    assert all(rows[0, r] > 0 and rows[1, r] == 0 for r in (2, 4, 8, 16))
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "no plot" in done.stdout
    else:
        assert plot.stat().st_size > 0


# --- gpumemsim.ray.run(..., shards=N): one launch split by workgroups ---------------------

import json  # noqa: E402

MATMUL = str(KERNELS / "matmul.w32.o")
HISTOGRAM = str(KERNELS / "histogram.w32.o")
COLLIDE = str(REPO / "examples" / "buggy" / "transpose_collide.cl")


def serialised(report):
    """The report as bytes, arrays by value, keys in their order: what "byte for byte" means
    here (the CLI prints the same dict as JSON)."""
    return json.dumps(report, default=lambda a: a.tolist()).encode()


def matmul_launch(n=64):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    return a, b, dict(kernel_path=MATMUL, grid=(n // 16, n // 16), block=(16, 16),
                      args=[a, b, np.zeros((n, n), np.float32), ("i32", n)])


def fresh(launch):
    return {**launch, "args": [np.copy(a) if isinstance(a, np.ndarray) else a
                               for a in launch["args"]]}


def test_a_sharded_run_is_the_single_process_run_byte_for_byte(local_cluster, tmp_path):
    a, b, launch = matmul_launch()
    for shards, wgps in ((4, 8), (3, 8), (2, 5), (6, 4)):
        options = dict(wgps=wgps, check=True)
        single = gpumemsim.run(**fresh(launch), threads=min(shards, wgps), **options)
        got = fresh(launch)
        sharded = gr.run(**got, shards=shards, progress=False, **options)
        assert single["schedule"] == {"workgroups": "apart",
                                      "threads": min(shards, wgps)}
        assert serialised(sharded) == serialised(single), (shards, wgps)
        # The caller's output array holds the product, as after a local run.
        assert np.allclose(got["args"][2], a @ b, atol=1e-4)
        assert sharded["args"][2]["values"] is got["args"][2]
    # The HTML page (timeline, heat maps) is the single process's too.
    single_page, sharded_page = tmp_path / "single.html", tmp_path / "sharded.html"
    gpumemsim.run(**fresh(launch), wgps=8, threads=4, html=single_page)
    gr.run(**fresh(launch), wgps=8, shards=4, progress=False, html=sharded_page)
    assert sharded_page.read_bytes() == single_page.read_bytes()


def test_a_sharded_run_keeps_events_and_findings_in_order(local_cluster, monkeypatch):
    """A buggy transpose: every workgroup has a lane collision (and copies out LDS nothing
    wrote, which is no finding); the events, the findings and the notes come back as one
    process orders them."""
    monkeypatch.chdir(REPO)
    n = 64
    launch = dict(kernel_path=COLLIDE, grid=(n // 16, n // 16), block=(16, 16),
                  args=[np.arange(n * n, dtype=np.float32), np.zeros(n * n, np.float32),
                        ("u32", n)], wgps=4, check=True)
    try:
        single = gpumemsim.run(**fresh(launch), threads=4)
    except gpumemsim.Error as e:
        if "was not found" in str(e) and "CI" not in os.environ:
            pytest.skip(f"clang-19 is missing here: {e}")
        raise
    sharded = gr.run(**fresh(launch), shards=4, progress=False)
    assert len(single["events"]) >= 16
    assert {f["kind"] for f in single["findings"]} >= {"lane_collision"}
    assert serialised(sharded) == serialised(single)


def test_a_grid_that_cannot_be_split_runs_whole_with_the_same_report(local_cluster):
    # Global atomics into one histogram: two blocks write the same bytes, so one process runs
    # the grid together; so does the merge, in one task.
    data = np.random.default_rng(3).integers(0, 256, 8 * 1024, dtype=np.uint8)
    launch = dict(kernel_path=HISTOGRAM, grid=8, block=256,
                  args=[data, np.zeros(256, np.uint32), ("u32", 1024)], wgps=4)
    single = gpumemsim.run(**fresh(launch))
    assert single["schedule"]["workgroups"] == "together"
    assert "touch the same global memory" in single["schedule"]["reason"]
    got = fresh(launch)
    sharded = gr.run(**got, shards=4, progress=False)
    assert serialised(sharded) == serialised(single)
    assert got["args"][1].tolist() == np.bincount(data, minlength=256).tolist()
    # One WGP: nothing to split; the report says why, as one process's does.
    _, _, mm = matmul_launch(32)
    mm = dict(mm, wgps=1)
    single = gpumemsim.run(**fresh(mm))
    assert single["schedule"]["reason"] == "one WGP runs every workgroup (--wgps 1)"
    assert serialised(gr.run(**fresh(mm), shards=3, progress=False)) == serialised(single)


def test_sharded_errors_are_raised_as_gpumemsim_raises_them(local_cluster):
    _, _, launch = matmul_launch(32)
    with pytest.raises(gpumemsim.KernelError) as stopped:
        gr.run(**fresh(launch), wgps=4, shards=2, max_steps=20, progress=False)
    with pytest.raises(gpumemsim.KernelError) as local:
        gpumemsim.run(**fresh(launch), wgps=4, max_steps=20)
    assert str(stopped.value) == str(local.value)
    assert serialised(stopped.value.report) == serialised(local.value.report)
    with pytest.raises(gpumemsim.Error, match="grid 0:"):
        gr.run(**{**fresh(launch), "grid": 0}, shards=2, progress=False)
    with pytest.raises(gpumemsim.Error, match=r"shards=0: expected an integer of at least 1"):
        gr.run(**fresh(launch), shards=0, progress=False)


def test_parts_that_are_not_this_launchs_are_refused():
    """The parts a merge takes are checked: every shard once, of this program and grid."""
    _, _, launch = matmul_launch(32)
    parts = [gpumemsim.run(**fresh(launch), wgps=4, threads=1, shard=(i, 2))["part"]
             for i in range(2)]
    merged = gpumemsim.run(**fresh(launch), wgps=4, parts=parts)
    assert merged["schedule"] == {"workgroups": "apart", "threads": 2}
    with pytest.raises(gpumemsim.Error, match="1 given for 2 shards"):
        gpumemsim.run(**fresh(launch), wgps=4, parts=parts[:1])
    with pytest.raises(gpumemsim.Error, match="shard 1 of 2 is missing or given twice"):
        gpumemsim.run(**fresh(launch), wgps=4, parts=[parts[0], parts[0]])
    with pytest.raises(gpumemsim.Error, match="ran another program or grid"):
        gpumemsim.run(**fresh(launch), wgps=8, parts=parts)
    with pytest.raises(gpumemsim.Error, match=r"parts\[1\]: not a part of a sharded run"):
        gpumemsim.run(**fresh(launch), wgps=4, parts=[parts[0], b"nonsense"])
    with pytest.raises(gpumemsim.Error, match=r"shard=\(2, 2\): the index is one of 0 to"):
        gpumemsim.run(**fresh(launch), wgps=4, shard=(2, 2))
    with pytest.raises(gpumemsim.Error, match="shard and parts"):
        gpumemsim.run(**fresh(launch), wgps=4, shard=(0, 2), parts=parts)
