"""gpumemsim.check: a launch's findings as `gpumemsim check KERNEL.o --json` lists them, so a
kernel's unit test can assert that it is clean."""

import json

import numpy as np
import pytest

import gpumemsim
from conftest import KERNELS, REPO

BLOCK_SUM = str(REPO / "crates" / "gpumemsim-cli" / "tests" / "front_door" / "block_sum.o")
LDS_SUM = str(KERNELS / "lds_sum.w32.o")


def block_sum_out_of_bounds():
    """block_sum with an `in` buffer of 100 elements for n = 192: the lanes past element 99
    read outside it (the CLI tests' common::BLOCK_SUM_OUT_OF_BOUNDS)."""
    short = np.arange(100, dtype=np.int32)
    out = np.zeros(12, dtype=np.int32)
    return [short, out, ("local", 256), ("local", 512), ("i32", 192)], out


def cli_findings(cli, *argv):
    done = cli.run("check", *argv, "--json")
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def test_a_correct_kernel_has_no_findings(cli):
    data = np.arange(128, dtype=np.int32)
    sums = np.zeros(2, dtype=np.int32)
    assert gpumemsim.check(LDS_SUM, grid=2, block=64, args=[data, sums]) == []
    # Buffers are written back in place, as run does.
    assert sums.tolist() == [2016, 6112]
    status, report = cli_findings(
        cli, LDS_SUM, "--grid", "2", "--block", "64", "--arg", "buf:i32[128]=iota",
        "--arg", "buf:i32[2]=zeros",
    )
    assert (status, report) == (0, {"findings": [], "notes": []})


def test_an_out_of_bounds_read_is_one_finding_with_its_instruction_and_source(cli):
    args, _ = block_sum_out_of_bounds()
    found = gpumemsim.check(BLOCK_SUM, grid=3, block=64, args=args)
    assert [f["kind"] for f in found] == ["out_of_bounds"]
    f = found[0]
    assert f["count"] == 3
    assert f["waves"] == [3, 4, 5]
    assert "outside every allocation" in f["message"]
    (inst,) = f["instructions"]
    assert inst["address"] == 0xA0
    assert inst["text"].startswith("global_load_b32")
    assert inst["source"]["file"].endswith("block_sum.cl")
    assert inst["source"]["line"] == 9
    assert isinstance(f["lanes"], list)
    # The same records as the CLI's JSON.
    status, report = cli_findings(
        cli, BLOCK_SUM, "--grid", "3", "--block", "64", "--arg", "buf:i32[100]=iota",
        "--arg", "buf:i32[12]=zeros", "--arg", "local:256", "--arg", "local:512",
        "--arg", "i32:192",
    )
    assert status == 1
    assert report == {"findings": found, "notes": []}


def test_lds_init_takes_the_clis_values():
    data = np.arange(128, dtype=np.int32)
    for value in ("zero", "poison", "random:7", "random:0x10"):
        sums = np.zeros(2, dtype=np.int32)
        assert gpumemsim.check(LDS_SUM, grid=2, block=64, args=[data, sums], lds_init=value) == []
        # lds_sum writes every LDS word it reads: its result does not depend on lds_init.
        gpumemsim.run(LDS_SUM, grid=2, block=64, args=[data, sums], lds_init=value)
        assert sums.tolist() == [2016, 6112]


@pytest.mark.parametrize("value", ["garbage", "random:", "random:x", "Zero", 0, None.__class__])
def test_a_bad_lds_init_names_the_argument(value):
    data = np.arange(128, dtype=np.int32)
    sums = np.zeros(2, dtype=np.int32)
    for f in (gpumemsim.run, gpumemsim.check):
        with pytest.raises(gpumemsim.Error, match="lds_init"):
            f(LDS_SUM, grid=2, block=64, args=[data, sums], lds_init=value)


def test_a_run_that_stops_raises_with_the_findings_so_far():
    args, _ = block_sum_out_of_bounds()
    with pytest.raises(gpumemsim.KernelError) as caught:
        gpumemsim.check(BLOCK_SUM, grid=3, block=64, args=args, max_steps=20)
    report = caught.value.report
    assert set(report) == {"findings", "error"}
    assert "20" in report["error"]
    assert isinstance(report["findings"], list)
