"""Hostile arguments (issue 23): each is a gpumemsim.Error naming the argument, never
Python's OverflowError or TypeError, and a too large grid is not called "not positive"."""

import numpy as np
import pytest

import gpumemsim

from conftest import KERNELS


def transpose(**kwargs):
    src = np.arange(1024, dtype=np.float32)
    dst = np.zeros(1024, np.float32)
    return gpumemsim.run(str(KERNELS / "transpose.w32.o"), "transpose_naive",
                         kwargs.pop("grid", 1), 32, [src, dst], **kwargs)


def test_a_grid_past_32_bits_is_named_as_too_large():
    with pytest.raises(gpumemsim.Error, match="more than 4294967295") as e:
        transpose(grid=2**40)
    assert "not a positive integer" not in str(e.value)


@pytest.mark.parametrize("name", ["seed", "threads", "max_steps", "dynamic_lds"])
@pytest.mark.parametrize("value", [-1, 2**70, 1.5, "3"])
def test_bad_run_integers_are_gpumemsim_errors(name, value):
    with pytest.raises(gpumemsim.Error, match=name):
        transpose(**{name: value})


def test_threads_past_the_cap_are_an_error():
    with pytest.raises(gpumemsim.Error, match="threads=257"):
        transpose(threads=257)
    transpose(threads=256)


@pytest.mark.parametrize("f", [gpumemsim.banks, gpumemsim.banks_batch])
def test_bad_bank_query_arguments_are_gpumemsim_errors(f):
    addrs = np.arange(32, dtype=np.uint32) * 4
    with pytest.raises(gpumemsim.Error, match="arch=None"):
        f(None, "ds_load_b32", addrs)
    with pytest.raises(gpumemsim.Error, match="wave=-1"):
        f("rdna3", "ds_load_b32", addrs, wave=-1)
    with pytest.raises(gpumemsim.Error, match="op=3"):
        f("rdna3", 3, addrs)
