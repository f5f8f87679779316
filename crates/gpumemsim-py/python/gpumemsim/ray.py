"""Sweeps of launches on a Ray cluster: ``gpumemsim.ray.sweep(launches)`` runs each launch — a
dict of the keyword arguments ``gpumemsim.run`` takes — as a Ray task in a worker that loads
the package, and returns the reports in the order given. Ray does the distribution (its
scheduler, its object store, its retries); nothing here opens a socket or keeps a queue.

Ray is an optional dependency: ``pip install 'gpumemsim[ray]'``. Without it, ``sweep``
raises an ImportError that names the extra; importing this module does not import Ray.

    import numpy as np, gpumemsim.ray
    data = np.arange(128, dtype=np.int32)
    launches = [dict(kernel_path="examples/kernels/lds_sum.w32.o", grid=2, block=64,
                     args=[data, np.zeros(2, np.int32)], seed=s) for s in range(20)]
    reports = gpumemsim.ray.sweep(launches)          # a local cluster, or address="HOST:PORT"
    [r["cycles"] for r in reports]

``gpumemsim.ray.run(..., shards=N)`` splits one big launch by workgroups over N Ray tasks and
merges their parts into the report ``gpumemsim.run`` gives for the same launch.

docs/ray.md describes what is shipped and what it costs.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Iterable, List, Mapping, Optional

import numpy as np

from ._arrays import partial_overlap

#: How to install what this module needs.
EXTRA = "pip install 'gpumemsim[ray]'"


def _ray():
    try:
        import ray
    except ImportError as e:
        raise ImportError(f"gpumemsim.ray needs Ray, which is not installed: {EXTRA}") from e
    return ray


def _run_launch(launch: Mapping[str, Any], shared: Mapping[int, Any], cwd: str) -> dict:
    """One launch, in a Ray worker: the arrays fetched from the object store (copied, since
    gpumemsim.run updates them in place and the store's are read-only), run in the driver's
    working directory when the worker sees it (relative paths, source texts), the report or
    the error as a dict."""
    import gpumemsim

    kw = _shipped_launch(launch, shared, _ray())
    here = os.getcwd()
    try:
        if os.path.isdir(cwd):
            os.chdir(cwd)
        return gpumemsim.run(**kw)
    except gpumemsim.KernelError as e:
        return dict(e.report)
    except Exception as e:  # a bad launch: its message is the result
        return {"error": f"{type(e).__name__}: {e}"}
    finally:
        os.chdir(here)


#: Marks an argument shipped through the object store: (_SHARED, key).
_SHARED = "gpumemsim.ray:shared"


def _ship(launches: List[Mapping[str, Any]], ray) -> tuple:
    """Each distinct array (and code-object bytes) of the launches, put in Ray's object store
    once; the launches with those values replaced by references to them."""
    refs: dict = {}
    keep: list = []  # the objects whose id() keys refs, alive while the sweep runs

    def shared(obj):
        key = id(obj)
        if key not in refs:
            refs[key] = ray.put(obj)
            keep.append(obj)
        return (_SHARED, key)

    out = []
    for i, launch in enumerate(launches):
        if not isinstance(launch, Mapping):
            raise TypeError(f"launches[{i}]: expected a dict of gpumemsim.run's keyword "
                            f"arguments, got {type(launch).__name__}")
        if "kernel_path" not in launch:
            raise TypeError(f"launches[{i}]: no kernel_path")
        kw = dict(launch)
        if isinstance(kw["kernel_path"], (bytes, bytearray)):
            kw["kernel_path"] = shared(bytes(kw["kernel_path"]))
        elif isinstance(kw["kernel_path"], os.PathLike):
            kw["kernel_path"] = os.fspath(kw["kernel_path"])
        arrays = [a for a in kw.get("args") or [] if isinstance(a, np.ndarray) and a.ndim > 0]
        kw["error"] = _overlap(arrays)
        kw["args"] = [shared(a) if isinstance(a, np.ndarray) and a.ndim > 0 else a
                      for a in kw.get("args") or []]
        out.append(kw)
    return out, refs, keep


def _overlap(arrays: List[np.ndarray]) -> Optional[str]:
    """The error of a launch whose arrays overlap in part (`_arrays.partial_overlap`), as a
    local run refuses them: each worker's copies would hide the overlap."""
    if partial_overlap(arrays) is None:
        return None
    return ("Error: two arrays share part of their memory: pass the same array, or arrays "
            "that do not overlap")


class _Progress:
    """`gpumemsim.ray.sweep [###...] N/TOTAL` on standard error (tasks done), redrawn in place
    on a terminal."""

    def __init__(self, total: int, on: bool, title: str = "gpumemsim.ray.sweep"):
        self.total, self.on, self.title = total, on and total > 0, title
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def show(self, done: int) -> None:
        if not self.on:
            return
        now = time.monotonic()
        if done < self.total and now - self.last < 0.2:
            return
        self.last = now
        width = 30
        filled = width * done // self.total
        line = f"{self.title} [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total}"
        if self.tty:
            print("\r" + line, end="\n" if done == self.total else "", file=sys.stderr,
                  flush=True)
        elif done == self.total:
            print(line, file=sys.stderr, flush=True)


def sweep(launches: Iterable[Mapping[str, Any]], address: Optional[str] = None, *,
          progress: bool = True, max_retries: int = 3) -> List[dict]:
    """Runs every launch on a Ray cluster and returns their reports, in the order given.

    launches: dicts of the keyword arguments ``gpumemsim.run`` takes (``kernel_path``,
    ``kernel``, ``grid``, ``block``, ``args``, and any option: ``seed``, ``lds_init``,
    ``wgps``, ``lang``, ``cflags``, ...). Each distinct NumPy array and each code object given
    as bytes goes into Ray's object store once, however many launches use it; each worker
    runs on a copy (one per array and launch: an array given twice is one buffer, as in a local
    run), so the caller's arrays are not changed, and a read-only or non-contiguous array is
    taken as its values (a report's buffer ``values`` are the worker's results). A path must
    be readable by the workers: a local cluster, or a file
    system they share (tasks run in the driver's working directory when it exists there).

    address: a running cluster (``"HOST:PORT"`` or ``"auto"``) to connect to, when this
    process is not connected yet; ``None`` uses the connection ``ray.init`` already made, else
    starts a local cluster. progress: a bar on
    standard error. max_retries: how often Ray reruns a launch whose worker died.

    Returns one dict per launch: the report of ``gpumemsim.run``; for a kernel that stopped,
    that report with its ``"error"``; for a launch that could not start (bad arguments, a
    missing file) or whose worker kept dying, ``{"error": message}``. One failed launch never
    loses the sweep.
    """
    ray = _ray()
    launches = list(launches)
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    shipped, refs, keep = _ship(launches, ray)
    task = ray.remote(max_retries=max_retries)(_run_launch)
    cwd = os.getcwd()
    pending = {}
    results: List[Optional[dict]] = [None] * len(launches)
    done = 0
    for i, kw in enumerate(shipped):
        error = kw.pop("error")
        if error:
            results[i] = {"error": error}
            done += 1
            continue
        needed = {a[1]: refs[a[1]] for a in [kw["kernel_path"], *kw["args"]]
                  if isinstance(a, tuple) and a and a[0] == _SHARED}
        pending[task.remote(kw, needed, cwd)] = i
    bar = _Progress(len(launches), progress)
    bar.show(done)
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
        for ref in ready:
            i = pending.pop(ref)
            try:
                results[i] = ray.get(ref)
            except Exception as e:  # the task failed past its retries
                results[i] = {"error": f"the launch's worker failed: {e}"}
            done += 1
        bar.show(done)
    del keep
    return results


def _shipped_launch(kw: Mapping[str, Any], shared: Mapping[int, Any], ray) -> dict:
    """A launch's keyword arguments with the shipped arrays fetched from the object store
    (copied, since gpumemsim.run updates them in place and the store's are read-only; one copy
    per array, so that an array given twice stays one buffer, as in a local run) and
    code-object bytes restored."""
    kw = dict(kw)
    fetched = {k: ray.get(ref) for k, ref in shared.items()}
    copies = {k: np.array(v, copy=True) if isinstance(v, np.ndarray) else v
              for k, v in fetched.items()}
    kw["args"] = [copies[a[1]] if isinstance(a, tuple) and a and a[0] == _SHARED else a
                  for a in kw.get("args") or []]
    if isinstance(kw.get("kernel_path"), tuple) and kw["kernel_path"][0] == _SHARED:
        kw["kernel_path"] = copies[kw["kernel_path"][1]]
    return kw


def _in_dir(cwd: str, f):
    """`f()` in the driver's working directory when this worker sees it; gpumemsim's own
    errors come back as values (``("error", type name, message, report)``), so that the
    driver raises them as ``gpumemsim.run`` would."""
    import gpumemsim

    here = os.getcwd()
    try:
        if os.path.isdir(cwd):
            os.chdir(cwd)
        return ("ok", f())
    except gpumemsim.KernelError as e:
        return ("error", "KernelError", str(e), dict(e.report))
    except gpumemsim.Error as e:
        return ("error", "Error", str(e), None)
    finally:
        os.chdir(here)


def _run_shard(kw: Mapping[str, Any], shared: Mapping[int, Any], cwd: str, index: int,
               count: int):
    """Shard `index` of `count`, in a Ray worker: its part (bytes), or the error."""
    import gpumemsim

    ray = _ray()
    kw = _shipped_launch(kw, shared, ray)
    return _in_dir(cwd, lambda: gpumemsim.run(**kw, shard=(index, count))["part"])


def _merge_parts(kw: Mapping[str, Any], shared: Mapping[int, Any], cwd: str, html: bool,
                 *parts: bytes):
    """The parts put together, in a Ray worker (a grid that cannot be split runs whole here):
    the report (its buffers' values the results) and the HTML page's text, or the error."""
    import tempfile

    import gpumemsim

    ray = _ray()
    kw = _shipped_launch(kw, shared, ray)

    def merged():
        if not html:
            return gpumemsim.run(**kw, parts=list(parts)), None
        with tempfile.TemporaryDirectory() as d:
            page = os.path.join(d, "report.html")
            report = gpumemsim.run(**kw, parts=list(parts), html=page)
            with open(page, encoding="utf-8") as f:
                return report, f.read()

    return _in_dir(cwd, merged)


def _raised(outcome):
    """The value of a worker's `_in_dir` outcome, or its error raised as gpumemsim raises it."""
    import gpumemsim

    if outcome[0] == "ok":
        return outcome[1]
    _, kind, message, report = outcome
    if kind == "KernelError":
        e = gpumemsim.KernelError(message)
        e.report = report
        raise e
    raise gpumemsim.Error(message)


def run(kernel_path, kernel=None, grid=None, block=None, args=None, *,
        shards: Optional[int] = None, address: Optional[str] = None, progress: bool = True,
        max_retries: int = 3, **options) -> dict:
    """Runs one launch split by workgroups over `shards` Ray tasks and returns the report
    ``gpumemsim.run`` gives for it, buffers written back in place.

    The arguments are ``gpumemsim.run``'s (kernel_path, kernel, grid, block, args and its
    keyword options: wgps, check, html, sample, ...). The grid's workgroups are dealt to the
    device's WGPs in blocks (``device``, default rx7900xtx: 48 WGPs; ``wgps`` overrides); shard i runs its share of the blocks, each
    block apart, in a Ray task (one thread each unless ``threads`` says more; each task asks
    Ray for that many CPUs), and hands back what it did: the figures a report reads, the
    bytes it wrote and the log of the bytes it touched. One more task checks, as one process
    does, that no two blocks touched a byte one of them wrote, and merges the parts: the
    report is the one ``gpumemsim.run`` gives, byte for byte, but for ``schedule.threads``,
    which counts the threads of every shard (``gpumemsim.run`` with that many threads gives
    the identical report). A grid that one process would run together — one WGP, workgroups
    sharing output (a global atomic counter, one reading another's result), a device-wide
    unit (GDS, GWS, ordered count), HIP's printf, a workgroup stopping with an error — is run
    whole in that one task instead: the report is still the single process's.

    shards: tasks (default: the cluster's CPUs). address, max_retries: as for ``sweep``.
    progress: a bar on standard error. html=PATH is written by this process.

    Raises gpumemsim.Error when the launch cannot start and gpumemsim.KernelError (with
    ``.report``) when it starts and stops, as ``gpumemsim.run`` does.
    """
    import gpumemsim

    ray = _ray()
    if "shard" in options or "parts" in options:
        raise TypeError("gpumemsim.ray.run: shard and parts are what it passes itself")
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    if shards is None:
        shards = max(1, int(ray.cluster_resources().get("CPU", 1)))
    if not isinstance(shards, int) or isinstance(shards, bool) or shards < 1:
        raise gpumemsim.Error(f"shards={shards!r}: expected an integer of at least 1")
    html = options.pop("html", None)
    launch = dict(options, kernel_path=kernel_path, kernel=kernel, grid=grid, block=block,
                  args=list(args or []))
    if html is not None:
        # The shards record what the page draws; the merge draws it.
        launch["html"] = os.devnull
    threads = launch.setdefault("threads", 1)
    [shipped], refs, keep = _ship([launch], ray)
    error = shipped.pop("error")
    if error:
        raise gpumemsim.Error(error.removeprefix("Error: "))
    needed = {a[1]: refs[a[1]] for a in [shipped["kernel_path"], *shipped["args"]]
              if isinstance(a, tuple) and a and a[0] == _SHARED}
    cwd = os.getcwd()
    cpus = max(1, int(threads) if isinstance(threads, int) and threads > 0 else 1)
    shard_task = ray.remote(max_retries=max_retries, num_cpus=cpus)(_run_shard)
    pending = [shard_task.remote(shipped, needed, cwd, i, shards) for i in range(shards)]
    # The shards, then the merge.
    bar = _Progress(shards + 1, progress, "gpumemsim.ray.run")
    done = 0
    waiting = list(pending)
    while waiting:
        ready, waiting = ray.wait(waiting, num_returns=1, timeout=1.0)
        done += len(ready)
        bar.show(done)
    parts = [_raised(ray.get(ref)) for ref in pending]
    merge_task = ray.remote(max_retries=max_retries, num_cpus=cpus)(_merge_parts)
    merge_kw = dict(shipped)
    merge_kw.pop("html", None)
    report, page = _raised(ray.get(merge_task.remote(merge_kw, needed, cwd, html is not None,
                                                     *parts)))
    bar.show(shards + 1)
    del keep
    if html is not None:
        with open(html, "w", encoding="utf-8") as f:
            f.write(page)
    _write_back(report, launch["args"])
    return report


def _write_back(report: dict, args: List[Any]) -> None:
    """The worker's results into the caller's arrays, and the report's buffer values made
    the caller's arrays, as a local ``gpumemsim.run`` leaves them."""
    for entry, a in zip(report.get("args", []), args):
        if entry.get("kind") == "buffer" and isinstance(a, np.ndarray) and a.ndim > 0:
            if "same_as" not in entry:
                np.copyto(a, np.asarray(entry["values"]).reshape(a.shape), casting="unsafe")
            entry["values"] = a
