#!/usr/bin/env python3
"""Compiles the Triton kernels the tests run (crates/gpumemsim-cli/tests/triton/) with Triton's
own compiler for gfx1100 (wave32), as `triton.compile` does on a machine with no GPU, and
writes each object. Each pointer is specialised as Triton's launch specialises a device
allocation (divisible by 16, and within 2 GiB, so that loads and stores become buffer
operations whose masked-off lanes read outside the V#'s range); integers are not specialised
(the tests pass sizes of any divisibility). It writes each object (NAME.hsaco, LLVM newer than the project's clang-19: its output is what
`Instruction::decode_hw` must accept) and its launch shape (NAME.json: num_warps, the dynamic
LDS Triton asks for, the constexprs). Needs `pip install triton` (3.9 was used).

    python3 tools/build_triton.py
"""

import json
import os

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "crates", "gpumemsim-cli", "tests", "triton")


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@triton.jit
def softmax(out_ptr, in_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < cols
    x = tl.load(in_ptr + row * cols + offs, mask=m, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * cols + offs, e / tl.sum(e, axis=0), mask=m)


@triton.jit
def layer_norm(out_ptr, in_ptr, w_ptr, b_ptr, cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < cols
    x = tl.load(in_ptr + row * cols + offs, mask=m, other=0.0)
    mean = tl.sum(x, axis=0) / cols
    d = tl.where(m, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / cols
    y = d / tl.sqrt(var + eps) * tl.load(w_ptr + offs, mask=m) + tl.load(b_ptr + offs, mask=m)
    tl.store(out_ptr + row * cols + offs, y, mask=m)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
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


KERNELS = [
    (vector_add, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"},
     {"BLOCK": 256}, 4),
    (softmax, {"out_ptr": "*fp32", "in_ptr": "*fp32", "cols": "i32"}, {"BLOCK": 128}, 4),
    (layer_norm, {"out_ptr": "*fp32", "in_ptr": "*fp32", "w_ptr": "*fp32", "b_ptr": "*fp32",
                  "cols": "i32", "eps": "fp32"}, {"BLOCK": 128}, 4),
    (matmul, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32",
              "K": "i32"}, {"BM": 64, "BN": 64, "BK": 32}, 4),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    for fn, signature, constexprs, warps in KERNELS:
        pointer = [["tt.divisibility", 16], ["tt.pointer_range", 32]]
        attrs = {(i,): pointer for i, t in enumerate(signature.values()) if t.startswith("*")}
        src = triton.compiler.ASTSource(fn=fn, signature=signature, constexprs=constexprs,
                                        attrs=attrs)
        k = triton.compile(src, target=GPUTarget("hip", "gfx1100", 32),
                           options={"num_warps": warps})
        name = fn.__name__
        with open(os.path.join(OUT, name + ".hsaco"), "wb") as f:
            f.write(k.asm["hsaco"])
        shape = {"kernel": k.metadata.name, "num_warps": k.metadata.num_warps,
                 "warp_size": k.metadata.warp_size, "shared": k.metadata.shared,
                 "constexprs": constexprs, "triton": triton.__version__}
        with open(os.path.join(OUT, name + ".json"), "w") as f:
            json.dump(shape, f, indent=1, sort_keys=True)
            f.write("\n")
        print(name, shape)


if __name__ == "__main__":
    main()
