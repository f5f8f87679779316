"""Throughput of gpumemsim.banks_batch through Python: wave32 accesses per second.

    python crates/gpumemsim-py/bench/bench_batch.py [--accesses N] [--repeat R]

Costs N wave32 ds_load_b32 accesses on rdna3 (the patterns of the Rust bench
crates/gpumemsim/benches/banks.rs: conflict-free, broadcast, stride 8, a 32-way column
conflict, random, and a mix of them all) as uint32, uint64 and int64 arrays, and prints the
best of R timed calls per case in millions of accesses per second. The target (tracker
issue 8) is at least 20 million per second on one core; each call runs on one thread. The
README gives the figures measured on the project's build machine.
"""

import argparse
import time

import numpy as np

import gpumemsim


def patterns(n: int, rng: np.random.Generator) -> dict:
    t = np.arange(32, dtype=np.uint32)
    base = (rng.integers(0, 1024, size=(n, 1), dtype=np.uint32) * 128).astype(np.uint32)
    cases = {
        "conflict_free": base + 4 * t,
        "broadcast": base + np.zeros(32, dtype=np.uint32) + 64,
        "stride8": base + 8 * t,
        "column_32way": base + 128 * t,
        "random": base + rng.integers(0, 16384, size=(n, 32), dtype=np.uint32) * 4,
    }
    names = list(cases)
    mixed = np.empty((n, 32), dtype=np.uint32)
    for k, name in enumerate(names):
        mixed[k :: len(names)] = cases[name][k :: len(names)]
    cases["mixed"] = mixed
    return cases


def best_rate(addrs: np.ndarray, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        out = gpumemsim.banks_batch("rdna3", "ds_load_b32", addrs)
        best = min(best, time.perf_counter() - start)
        assert len(out["cycles"]) == len(addrs)
    return len(addrs) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--accesses", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    cases = patterns(args.accesses, rng)
    print(f"{args.accesses} wave32 ds_load_b32 accesses on rdna3, best of {args.repeat}")
    print(f"{'pattern':<16}{'uint32':>12}{'uint64':>12}{'int64':>12}   (million accesses/s)")
    for name, addrs in cases.items():
        rates = [best_rate(addrs.astype(dt), args.repeat) for dt in (np.uint32, np.uint64, np.int64)]
        print(f"{name:<16}" + "".join(f"{r / 1e6:>12.1f}" for r in rates))


if __name__ == "__main__":
    main()
