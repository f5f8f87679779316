"""Tuning a Triton matmul's BLOCK_K and num_warps on gpumemsim, without a GPU.

Triton hides the LDS traffic of `tl.dot`: it stages both tiles in shared memory with layouts
of its choosing. This script compiles one matmul for gfx1100 at several BLOCK_K / num_warps
choices with Triton's own compiler (`gpumemsim.triton.run`), runs each on the simulator,
checks the product against NumPy, and prints, per choice, the kernel's cycles and the LDS
cycles and bank-conflict cycles of each line of this file that touches LDS, with the swizzle
Triton picked for the B tile. Run it from anywhere:

    pip install './crates/gpumemsim-py[triton]'
    python examples/triton/tune_matmul.py            # 64×64 tiles of a 256×256 product
    python examples/triton/tune_matmul.py --html DIR # and an HTML report per choice

What to read in the output (examples/triton/README.md shows it): at BLOCK_K=32 the B tile's
store (the `b = tl.load(...)` line) loses half its LDS cycles to 2-way bank conflicts,
because Triton's rotating swizzle for B has only 4 phases there; at BLOCK_K=64 it has 8 and
the conflicts are gone.
"""

import argparse
import os
import re

import numpy as np
import triton
import triton.language as tl

import gpumemsim.triton


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


def lds_lines(report):
    """{line: [text, LDS cycles, conflict cycles]} of the lines whose DS instructions ran."""
    texts = {x["line"]: x["text"].strip() for x in report["lines"]}
    out = {}
    for i in report["instructions"]:
        if i["text"].startswith("ds_") and i["executions"]:
            line = i["source"]["line"]
            row = out.setdefault(line, [texts.get(line, ""), 0, 0])
            row[1] += i["cycles"]
            row[2] += i["conflict_cycles"]
    return out


def b_swizzle(kernel):
    """The B tile's shared layout as Triton printed it (`amd_rotating_shared<{...}>`)."""
    m = re.search(r"#ttg\.amd_rotating_shared<\{vec = (\d+), perPhase = (\d+), "
                  r"maxPhase = (\d+)", kernel.asm["ttgir"])
    return f"vec {m[1]}, perPhase {m[2]}, maxPhase {m[3]}" if m else "(not rotating)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=256, help="M = N = K (a multiple of 64)")
    ap.add_argument("--html", metavar="DIR", help="write an HTML report per choice into DIR")
    args = ap.parse_args()
    n = args.size
    rng = np.random.default_rng(0)
    # Small integers: every product and sum is exact in fp16 inputs / fp32 accumulation.
    a = rng.integers(-4, 5, (n, n)).astype(np.float16)
    b = rng.integers(-4, 5, (n, n)).astype(np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32)
    print(f"{n}x{n}x{n} fp16 matmul, 64x64 tiles, gfx1100 (wave32)\n")
    for bk in (16, 32, 64):
        for warps in (2, 4, 8):
            c = np.zeros((n, n), np.float32)
            html = None
            if args.html:
                os.makedirs(args.html, exist_ok=True)
                html = os.path.join(args.html, f"matmul_bk{bk}_w{warps}.html")
            r = gpumemsim.triton.run(matmul, (n // 64, n // 64), a, b, c, n, n, n,
                                     BM=64, BN=64, BK=bk, num_warps=warps, html=html)
            assert np.array_equal(c, want), f"BK={bk} num_warps={warps}: wrong product"
            rep = r.report
            print(f"BLOCK_K={bk:<3} num_warps={warps}  kernel {rep['cycles']:>7} cycles  "
                  f"LDS {rep['lds_bytes']:>5} bytes  B swizzle: {b_swizzle(r.kernel)}")
            for line, (text, cycles, conflicts) in sorted(lds_lines(rep).items()):
                share = 100.0 * conflicts / cycles if cycles else 0.0
                print(f"    line {line:>3}: {cycles:>7} LDS cycles, {conflicts:>6} conflict "
                      f"({share:4.1f}%)  {text}")
    print("\nevery product matched NumPy exactly")


if __name__ == "__main__":
    main()
