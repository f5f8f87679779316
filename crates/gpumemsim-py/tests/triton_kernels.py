"""Triton kernels of the project's own, run by test_triton.py through gpumemsim.triton (and
by examples/triton/): the shapes Triton users write — an elementwise add, row softmax and
layer norm (reductions across a row), a `tl.dot` matmul tiled through LDS, and a transpose
whose layout conversion goes through LDS."""

import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax(out_ptr, in_ptr, stride, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(in_ptr + row * stride + offs, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * stride + offs, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def layer_norm(out_ptr, in_ptr, w_ptr, b_ptr, stride, cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < cols
    x = tl.load(in_ptr + row * stride + offs, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / cols
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / cols
    w = tl.load(w_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(out_ptr + row * stride + offs, d / tl.sqrt(var + eps) * w + b, mask=mask)


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


@triton.jit
def transpose(out_ptr, in_ptr, rows, cols, BLOCK: tl.constexpr):
    # Loaded along rows, stored along columns: Triton converts the tile's layout between the
    # two (through LDS) so that both the load and the store are coalesced.
    r = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    c = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tile = tl.load(in_ptr + r[:, None] * cols + c[None, :], mask=mask)
    tl.store(out_ptr + c[None, :] * rows + r[:, None], tile, mask=mask)


@triton.jit
def iota_from(out_ptr, base, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, base + offs, mask=offs < n)


@triton.jit
def named_check(out_ptr, check):
    # A parameter named like a keyword of gpumemsim.triton.run (which refuses the kernel).
    tl.store(out_ptr, check)


@triton.jit
def signed(out_ptr, positive, v, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.where(positive, v, -v) + offs.to(tl.float32))


@triton.jit
def hello(out_ptr):
    pid = tl.program_id(0)
    tl.device_print("program", pid)
    tl.store(out_ptr + pid, pid)
