"""Random and extreme inputs give results or gpumemsim.Error, never a panic or a crash."""

import numpy as np
import pytest

import gpumemsim

OPS = {
    "rdna3": ["ds_load_b32", "ds_load_b64", "ds_load_b96", "ds_store_b128", "ds_load_u8",
              "ds_store_b16", "ds_add_u32", "ds_load_2addr_b64", "ds_storexchg_2addr_rtn_b32",
              "ds_permute_b32", "ds_bvh_stack_rtn_b32", "ds_gws_init"],
    "cdna3": ["ds_load_b128", "ds_store_b128", "ds_load_2addr_b32"],
    "sm80": ["lds.32", "lds.64", "lds.128", "sts.128", "atoms.32"],
}


def call(f, *args, **kwargs):
    """f(...) or the message of its gpumemsim.Error, which must not be a caught panic."""
    try:
        return f(*args, **kwargs)
    except gpumemsim.Error as e:
        assert "internal error" not in str(e), str(e)
        return str(e)


@pytest.mark.parametrize("seed", range(4))
def test_random_accesses(seed):
    rng = np.random.default_rng(seed)
    edges = np.array([0, 1, 2**31, 2**32 - 4, 2**32, 2**63, 2**64 - 16, 2**64 - 1], dtype=np.uint64)
    for arch, ops in OPS.items():
        for op in ops:
            for wave in (None, 32, 64):
                lanes = wave or (64 if arch == "cdna3" else 32)
                addrs = rng.choice(edges, size=(3, lanes))
                addrs[1] = rng.integers(0, 2**16, size=lanes, dtype=np.uint64) * 4
                mask = int(rng.integers(0, 2**63)) & ((1 << lanes) - 1)
                for row in addrs:
                    call(gpumemsim.banks, arch, op, row, mask, wave, addrs1=row)
                    call(gpumemsim.banks, arch, op, row, mask, wave)
                    call(gpumemsim.banks, arch, op, row, mask, wave, suggest=3)
                call(gpumemsim.banks_batch, arch, op, addrs, mask, wave, addrs1=addrs)
                call(gpumemsim.banks_batch, arch, op, addrs, mask, wave)


@pytest.mark.parametrize("seed", range(4))
def test_random_bytes_and_text(seed):
    rng = np.random.default_rng(seed)
    for _ in range(200):
        data = rng.integers(0, 256, size=int(rng.integers(0, 40)), dtype=np.uint8).tobytes()
        result = call(gpumemsim.disassemble, data)
        if isinstance(result, list):
            # Canonical text assembles back to the same bytes, where it assembles at all (like
            # llvm-mc-19, the assembler refuses a few texts the disassembler prints, such as
            # an inline-constant soffset of tbuffer_store_format_xyz).
            again = call(gpumemsim.assemble, "\n".join(result))
            assert again == data or isinstance(again, str)
        text = "".join(chr(c) for c in rng.integers(32, 127, size=int(rng.integers(0, 30))))
        call(gpumemsim.assemble, text)
        call(gpumemsim.assemble, "ds_load_b32 v1, v2 " + text)


def test_random_launches():
    from conftest import KERNELS

    path = str(KERNELS / "transpose.w32.o")
    rng = np.random.default_rng(0)
    for _ in range(20):
        grid = tuple(int(x) for x in rng.integers(1, 3, size=int(rng.integers(1, 4))))
        block = tuple(int(x) for x in rng.integers(1, 40, size=int(rng.integers(1, 4))))
        size = int(rng.integers(1, 2048))
        src = rng.random(size).astype(np.float32)
        dst = np.zeros(int(rng.integers(1, 2048)), dtype=np.float32)
        call(gpumemsim.run, path, "transpose_swizzled", grid, block, [src, dst])
    # Truncated and corrupted code objects.
    data = (KERNELS / "transpose.w32.o").read_bytes()
    for cut in (0, 4, 64, 200, len(data) // 2, len(data) - 1):
        call(gpumemsim.run, data[:cut], "transpose_naive")
    for _ in range(30):
        bad = np.frombuffer(data, dtype=np.uint8).copy()
        bad[rng.integers(0, len(bad), size=8)] = rng.integers(0, 256, size=8, dtype=np.uint8)
        call(gpumemsim.run, bad.tobytes(), "transpose_naive", 1, 32,
             [np.zeros(1024, np.float32), np.zeros(1024, np.float32)], max_steps=20_000)
