"""Sweeping an LDS transpose's padding and block shape on a Ray cluster, and plotting the bank
conflict cycles against the choice.

Each launch builds transpose_pad.cl with -DPAD=N (clang-19 on the worker) and runs a 256×256
transpose with blocks of 32 × ROWS work-items; gpumemsim.ray.sweep runs the 20 launches as Ray
tasks and returns their reports in order. The script checks every result against NumPy,
prints a table of conflict cycles and kernel time per (PAD, ROWS), and with matplotlib writes
a plot:

    pip install './crates/gpumemsim-py[ray]' matplotlib
    python examples/ray/sweep_transpose.py                 # a local cluster, plot sweep.png
    python examples/ray/sweep_transpose.py --address HOST:PORT --plot out.png

Padding by one float (or any odd number) spreads a tile column over 32 banks; even paddings
leave 2-, 4- or 8-way conflicts; ROWS changes how many loop iterations each work-item makes,
not the conflict per access.
"""

import argparse
import os

import numpy as np

import gpumemsim.ray

HERE = os.path.dirname(os.path.abspath(__file__))
N = 256
PADS = [0, 1, 2, 4, 8]
ROWS = [2, 4, 8, 16]


def launches(src):
    out = []
    for pad in PADS:
        for rows in ROWS:
            out.append(dict(kernel_path=os.path.join(HERE, "transpose_pad.cl"),
                            cflags=f"-DPAD={pad}", grid=(N // 32, N // 32), block=(32, rows),
                            args=[np.zeros(N * N, np.float32), src, ("i32", N), ("i32", N)]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--address", help="a running Ray cluster (default: a local one)")
    ap.add_argument("--plot", default="sweep.png", help="where to write the plot")
    a = ap.parse_args()
    src = np.arange(N * N, dtype=np.float32)
    given = launches(src)
    reports = gpumemsim.ray.sweep(given, address=a.address)
    want = src.reshape(N, N).T.ravel()
    conflicts, cycles = {}, {}
    print(f"{'PAD':>4} {'ROWS':>5} {'conflict cycles':>16} {'kernel cycles':>14}")
    for launch, r in zip(given, reports):
        if "error" in r:
            raise SystemExit(f"{launch['cflags']} block {launch['block']}: {r['error']}")
        assert np.array_equal(r["args"][0]["values"], want), launch["cflags"]
        pad, rows = int(launch["cflags"].split("=")[1]), launch["block"][1]
        conflicts[pad, rows] = r["totals"]["conflict_cycles"]
        cycles[pad, rows] = r["cycles"]
        print(f"{pad:>4} {rows:>5} {conflicts[pad, rows]:>16} {r['cycles']:>14}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib is not installed: no plot)")
        return
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 4))
    for rows in ROWS:
        ax.plot(PADS, [conflicts[p, rows] for p in PADS], marker="o", label=f"32×{rows} block")
        bx.plot(PADS, [cycles[p, rows] for p in PADS], marker="o", label=f"32×{rows} block")
    ax.set_ylabel("LDS bank-conflict cycles (all waves)")
    bx.set_ylabel("kernel cycles")
    for x in (ax, bx):
        x.set_xlabel("padding per tile row (floats)")
        x.legend()
    fig.suptitle(f"{N}×{N} transpose through LDS, gfx1100")
    fig.tight_layout()
    fig.savefig(a.plot)
    print(f"plot: {a.plot}")


if __name__ == "__main__":
    main()
