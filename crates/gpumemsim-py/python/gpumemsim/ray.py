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

    ray = _ray()
    kw = dict(launch)
    fetched = {k: ray.get(ref) for k, ref in shared.items()}
    # One copy per array: an array given twice stays one buffer, as in a local run.
    copies = {k: np.array(v, copy=True) if isinstance(v, np.ndarray) else v
              for k, v in fetched.items()}
    kw["args"] = [copies[a[1]] if isinstance(a, tuple) and a and a[0] == _SHARED else a
                  for a in kw.get("args") or []]
    if isinstance(kw.get("kernel_path"), tuple) and kw["kernel_path"][0] == _SHARED:
        kw["kernel_path"] = copies[kw["kernel_path"][1]]
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
    """`sweep: N/TOTAL launches done` on standard error, redrawn in place on a terminal."""

    def __init__(self, total: int, on: bool):
        self.total, self.on = total, on and total > 0
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
        line = f"gpumemsim.ray.sweep [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total}"
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
