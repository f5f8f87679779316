"""gpumemsim.banks against `gpumemsim banks --json`: the same counters, groups and errors."""

import numpy as np
import pytest

import gpumemsim

LANES32 = np.arange(32)
LANES64 = np.arange(64)

# (CLI arguments, the same access as Python arguments): the addresses on the Python side are
# computed here, so each case also checks that an array means what the CLI's expression does.
CASES = [
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "t*128"],
        dict(arch="rdna3", op="ds_load_b32", addrs=LANES32 * 128),
        id="rdna3-column-32way",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "t*128", "--active", "0-3"],
        dict(arch="rdna3", op="ds_load_b32", addrs=list(range(0, 4096, 128)), active="0-3"),
        id="rdna3-column-4-lanes",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "0x80 * lane", "--active", "0xff"],
        dict(arch="rdna3", op="ds_load_b32", addrs=(LANES32 * 128).astype(np.uint32), active=0xFF),
        id="rdna3-int-mask",
    ),
    pytest.param(
        ["--arch", "cdna3", "--op", "ds_read_b32", "--addr", "16*t"],
        dict(arch="cdna3", op="ds_read_b32", addrs=LANES64 * 16),
        id="cdna3-default-wave64-alias",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_b128", "--addr", "(t^1)*16", "--wave", "64"],
        dict(arch="rdna3", op="ds_load_b128", addrs=(LANES64 ^ 1) * 16, wave=64),
        id="rdna3-b128-wave64",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_2addr_b32", "--addr", "t*4", "--addr1", "t*4 + 256"],
        dict(arch="rdna3", op="ds_load_2addr_b32", addrs=LANES32 * 4, addrs1=LANES32 * 4 + 256),
        id="rdna3-2addr",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_add_u32", "--addr", "0"],
        dict(arch="rdna3", op="ds_add_u32", addrs="0"),
        id="rdna3-atomic-expression",
    ),
    pytest.param(
        ["--arch", "sm80", "--op", "lds.64", "--addr", "8*t"],
        dict(arch="sm80", op="lds.64", addrs=tuple(int(x) for x in LANES32 * 8)),
        id="sm80-lds64",
    ),
    pytest.param(
        ["--arch", "sm90", "--op", "sts.64", "--addr", "8*(t/2)"],
        dict(arch="sm90", op="STS.64", addrs=LANES32 // 2 * 8),
        id="sm90-sts64-upper-case",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "t*128", "--suggest"],
        dict(arch="rdna3", op="ds_load_b32", addrs=LANES32 * 128, suggest=True),
        id="rdna3-suggest",
    ),
]


@pytest.mark.parametrize("cli_args, call", CASES)
def test_banks_equals_cli_json(cli, cli_args, call):
    assert gpumemsim.banks(**call) == cli.json("banks", *cli_args)


def test_column_conflict_breakdown():
    r = gpumemsim.banks("rdna3", "ds_load_b32", LANES32 * 128)
    assert (r["cycles"], r["ideal_cycles"], r["conflict_cycles"]) == (32, 1, 31)
    (group,) = r["groups"]
    (conflict,) = group["conflicts"]
    assert conflict["bank"] == 0
    assert conflict["lanes"] == list(range(32))
    assert conflict["words"] == [32 * t for t in range(32)]
    assert conflict["accesses"] == 32
    # Padding by one word per row removes it, and the suggestions say so.
    padded = gpumemsim.banks("rdna3", "ds_load_b32", LANES32 * 132)
    assert padded["conflict_cycles"] == 0
    best = gpumemsim.banks("rdna3", "ds_load_b32", LANES32 * 128, suggest=2)["suggestions"]
    assert len(best) == 2 and best[0]["conflict_cycles"] == 0


def test_counters_follow_the_units():
    nvidia = gpumemsim.banks("sm80", "lds.32", [12] * 32)
    assert {"requests", "wavefronts", "ideal_wavefronts", "bank_conflicts"} <= set(nvidia)
    assert "cycles" not in nvidia
    amd = gpumemsim.banks("rdna3", "ds_load_b32", [12] * 32)
    assert "wavefronts" not in amd and amd["cycles"] == 1


# (CLI arguments, Python call) that fail with the same message.
ERRORS = [
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_frob", "--addr", "0"],
        dict(arch="rdna3", op="ds_frob", addrs="0"),
        id="unknown-instruction",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "lds.32", "--addr", "0"],
        dict(arch="rdna3", op="lds.32", addrs="0"),
        id="nvidia-op-on-amd",
    ),
    pytest.param(
        ["--arch", "sm80", "--op", "ds_load_b32", "--addr", "0"],
        dict(arch="sm80", op="ds_load_b32", addrs="0"),
        id="amd-op-on-nvidia",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "s_endpgm", "--addr", "0"],
        dict(arch="rdna3", op="s_endpgm", addrs="0"),
        id="not-a-bank-access",
    ),
    pytest.param(
        ["--arch", "sm80", "--op", "lds.32", "--addr", "0", "--wave", "64"],
        dict(arch="sm80", op="lds.32", addrs="0", wave=64),
        id="wave64-on-nvidia",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "0", "--active", "0-40"],
        dict(arch="rdna3", op="ds_load_b32", addrs="0", active="0-40"),
        id="lane-outside-wave",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "0", "--active", "0x1ffffffff"],
        dict(arch="rdna3", op="ds_load_b32", addrs="0", active=0x1FFFFFFFF),
        id="mask-outside-wave",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_2addr_b32", "--addr", "0"],
        dict(arch="rdna3", op="ds_load_2addr_b32", addrs="0"),
        id="2addr-without-addr1",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "0", "--addr1", "4"],
        dict(arch="rdna3", op="ds_load_b32", addrs="0", addrs1="4"),
        id="addr1-for-one-address",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "t*"],
        dict(arch="rdna3", op="ds_load_b32", addrs="t*"),
        id="expression-syntax",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "t-1"],
        dict(arch="rdna3", op="ds_load_b32", addrs="t-1"),
        id="negative-expression",
    ),
    pytest.param(
        ["--arch", "rdna3", "--op", "ds_load_b32", "--addr", "1,2,3"],
        dict(arch="rdna3", op="ds_load_b32", addrs=[1, 2, 3]),
        id="too-few-addresses",
    ),
    pytest.param(
        ["--arch", "sm80", "--op", "lds.64", "--addr", "4*t"],
        dict(arch="sm80", op="lds.64", addrs=LANES32 * 4),
        id="misaligned-on-nvidia",
    ),
]


@pytest.mark.parametrize("cli_args, call", ERRORS)
def test_errors_have_the_cli_messages(cli, cli_args, call):
    with pytest.raises(gpumemsim.Error) as raised:
        gpumemsim.banks(**call)
    assert str(raised.value) == cli.error("banks", *cli_args)


def test_unknown_architecture():
    with pytest.raises(gpumemsim.Error, match="unknown architecture `gfx9000`"):
        gpumemsim.banks("gfx9000", "ds_load_b32", "0")
    assert gpumemsim.ARCHITECTURES == ["rdna3", "cdna3", "cdna4", "rdna4", "sm70", "sm80", "sm90"]


@pytest.mark.parametrize(
    "addrs, message",
    [
        ([-4] + [0] * 31, "--addr: lane 0: address -4 is negative"),
        ([0] * 31 + [2**64], "--addr: lane 31: address 18446744073709551616 does not fit in 64 bits"),
        ([0.5] * 32, "--addr: lane 0: 0.5 is not an integer address"),
        ([0] * 5 + [None] * 27, "--addr: lane 5: None is not an integer address"),
        (np.zeros((2, 16), dtype=np.uint32), "expected one address per lane (a 1-D array), got an array of shape (2, 16)"),
        (np.zeros(64, dtype=np.uint32), "--addr lists 64 values; the wave has 32 lanes"),
        (42, "expected a sequence or 1-D array of byte addresses"),
        (np.full(32, -1, dtype=np.int64), "--addr: lane 0: address -1 is negative"),
        (np.full(32, 1.0), "is not an integer address"),
    ],
)
def test_bad_addresses(addrs, message):
    with pytest.raises(gpumemsim.Error) as raised:
        gpumemsim.banks("rdna3", "ds_load_b32", addrs)
    assert message in str(raised.value)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(active=True), "active: a bool is not a lane mask"),
        (dict(active=-1), "active: -1 is not a lane mask"),
        (dict(active=[1, 2]), "active: [1, 2] is not a lane mask"),
        (dict(wave=48), "--wave 48: must be 32 or 64"),
        (dict(suggest="yes"), "suggest: give True, False or a number of layouts"),
    ],
)
def test_bad_options(kwargs, message):
    with pytest.raises(gpumemsim.Error) as raised:
        gpumemsim.banks("rdna3", "ds_load_b32", "4*t", **kwargs)
    assert message in str(raised.value)


def test_errors_are_value_errors():
    assert issubclass(gpumemsim.Error, ValueError)
    assert issubclass(gpumemsim.KernelError, gpumemsim.Error)
    with pytest.raises(ValueError):
        gpumemsim.banks("rdna3", "nope", "0")
