#!/usr/bin/env python3
"""Times one big launch run by one process and split over Ray tasks with
gpumemsim.ray.run(..., shards=N), and checks that the reports are the same (all but the
threads each says it used). The figures for docs/ray.md and the closing note of issue 43:

    python3 tools/shard_speedup.py [--n 256] [--wgps 16] [--shards 4] [--cpus CPUS]

The launch is examples/kernels/matmul.w32.o (16×16 LDS tiles) on n×n floats: (n/16)²
workgroups of 256 work-items, dealt to --wgps WGPs. Ray runs a local cluster of --cpus CPUs
(default: this machine's cores)."""

import argparse
import json
import os
import pathlib
import time

import numpy as np

import gpumemsim
import gpumemsim.ray

REPO = pathlib.Path(__file__).resolve().parent.parent


def launch(n):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    return dict(kernel_path=str(REPO / "examples/kernels/matmul.w32.o"),
                grid=(n // 16, n // 16), block=(16, 16),
                args=[a, b, np.zeros((n, n), np.float32), ("i32", n)])


def same_but_threads(x, y):
    def key(r):
        r = dict(r, schedule={k: v for k, v in r["schedule"].items() if k != "threads"})
        return json.dumps(r, default=lambda a: a.tolist())
    return key(x) == key(y)


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=256)
    p.add_argument("--wgps", type=int, default=16)
    p.add_argument("--shards", type=int, default=4)
    p.add_argument("--cpus", type=int, default=os.cpu_count())
    a = p.parse_args()
    import ray

    ray.init(num_cpus=a.cpus, include_dashboard=False, log_to_driver=False)
    grid = (a.n // 16) ** 2
    print(f"matmul {a.n}x{a.n}: {grid} workgroups on {a.wgps} WGPs; "
          f"{os.cpu_count()} cores, a Ray cluster of {a.cpus} CPUs")
    one, t1 = timed(lambda: gpumemsim.run(**launch(a.n), wgps=a.wgps, threads=1))
    print(f"one process, 1 thread:           {t1:7.2f} s  ({one['steps']} instructions)")
    every, tn = timed(lambda: gpumemsim.run(**launch(a.n), wgps=a.wgps))
    print(f"one process, {every['schedule']['threads']} threads:          {tn:7.2f} s")
    # The first Ray call starts the workers and loads the package: not the run's cost.
    gpumemsim.ray.run(**launch(32), wgps=4, shards=a.shards, progress=False)
    sharded, ts = timed(lambda: gpumemsim.ray.run(**launch(a.n), wgps=a.wgps,
                                                  shards=a.shards, progress=False))
    print(f"gpumemsim.ray.run, {a.shards} shards:     {ts:7.2f} s  "
          f"(×{t1 / ts:.2f} over 1 thread, ×{tn / ts:.2f} over {every['schedule']['threads']} threads)")
    same = same_but_threads(one, sharded) and same_but_threads(every, sharded)
    print("reports the same but for schedule.threads:", same)
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
