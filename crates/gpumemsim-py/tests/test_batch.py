"""gpumemsim.banks_batch: every access's counters equal gpumemsim.banks on that access."""

import threading

import numpy as np
import pytest

import gpumemsim


def patterns(n: int, lanes: int, width: int, seed: int) -> np.ndarray:
    """`n` accesses mixing conflict-free, broadcast, strided, column and random patterns,
    every address a multiple of `width`."""
    rng = np.random.default_rng(seed)
    t = np.arange(lanes)
    rows = []
    for k in range(n):
        base = int(rng.integers(0, 1024)) * 128
        kind = k % 5
        if kind == 0:
            row = base + width * t
        elif kind == 1:
            row = np.full(lanes, base + 64)
        elif kind == 2:
            row = base + 2 * width * t
        elif kind == 3:
            row = base + 128 * t
        else:
            row = base + rng.integers(0, 4096, size=lanes) * width
        rows.append(row)
    return np.array(rows, dtype=np.int64)


def one_by_one(arch, op, addrs, active=None, wave=None, addrs1=None) -> dict:
    """The counters of `banks` called once per access."""
    out = {}
    for k, row in enumerate(addrs):
        mask = active[k] if isinstance(active, np.ndarray) else active
        kwargs = {} if addrs1 is None else {"addrs1": addrs1[k]}
        r = gpumemsim.banks(arch, op, row, None if mask is None else int(mask), wave, **kwargs)
        for name in ("cycles", "ideal_cycles", "conflict_cycles", "requests", "wavefronts",
                     "ideal_wavefronts", "bank_conflicts"):
            if name in r:
                out.setdefault(name, []).append(r[name])
    return out


def assert_same(batch: dict, loop: dict):
    assert list(batch) == list(loop)
    for name, values in batch.items():
        assert values.dtype == np.uint32 and values.ndim == 1
        assert values.tolist() == loop[name], name


@pytest.mark.parametrize(
    "arch, op, lanes, width",
    [
        ("rdna3", "ds_load_b32", 32, 4),
        ("rdna3", "ds_store_b64", 32, 8),
        ("rdna3", "ds_load_b128", 32, 16),
        ("cdna3", "ds_load_b32", 64, 4),
        ("cdna4", "ds_load_b128", 64, 16),
        ("rdna4", "ds_add_u32", 32, 4),
        ("sm80", "lds.64", 32, 8),
        ("sm90", "sts.128", 32, 16),
        ("sm70", "lds.32", 32, 4),
        ("sm90", "atoms.32", 32, 4),
    ],
)
def test_batch_equals_the_per_access_loop(arch, op, lanes, width):
    addrs = patterns(60, lanes, width, seed=lanes + width)
    assert_same(gpumemsim.banks_batch(arch, op, addrs), one_by_one(arch, op, addrs))


def test_sm90_shared_atomics_serialize_on_one_word():
    # As an H200 counts them (tools/nvidia_banks/): all lanes on one word, 16 pairs on 16 banks.
    t = np.arange(32, dtype=np.uint32)
    out = gpumemsim.banks_batch("sm90", "atoms.32", np.stack([0 * t, 4 * (t // 2)]))
    assert out["wavefronts"].tolist() == [32, 2]
    assert out["bank_conflicts"].tolist() == [31, 1]


def test_column_conflict_in_a_batch():
    t = np.arange(32, dtype=np.uint32)
    addrs = np.stack([4 * t, 128 * t, 132 * t])
    out = gpumemsim.banks_batch("rdna3", "ds_load_b32", addrs)
    assert out["cycles"].tolist() == [1, 32, 1]
    assert out["conflict_cycles"].tolist() == [0, 31, 0]


def test_masks_two_addresses_and_wave64():
    addrs = patterns(40, 64, 4, seed=3)
    second = addrs + 256
    rng = np.random.default_rng(9)
    masks = rng.integers(0, 2**63, size=40, dtype=np.int64).astype(np.uint64) | np.uint64(1 << 63)
    masks[::7] = 0  # no active lane: no request, no cost
    batch = gpumemsim.banks_batch("rdna3", "ds_load_2addr_b32", addrs, masks, 64, addrs1=second)
    loop = one_by_one("rdna3", "ds_load_2addr_b32", addrs, masks, 64, addrs1=second)
    assert_same(batch, loop)
    assert batch["cycles"][0] == 0
    # One mask for every access, as an int and as a lane list.
    same = gpumemsim.banks_batch("cdna3", "ds_load_b32", addrs, 0xFFFF)
    assert_same(same, one_by_one("cdna3", "ds_load_b32", addrs, 0xFFFF))
    listed = gpumemsim.banks_batch("cdna3", "ds_load_b32", addrs, "0-15")
    assert_same(listed, one_by_one("cdna3", "ds_load_b32", addrs, 0xFFFF))


def test_every_dtype_and_layout_gives_the_same_counters():
    addrs = patterns(3000, 32, 4, seed=1)  # more than one chunk
    want = gpumemsim.banks_batch("rdna3", "ds_load_b32", addrs)
    assert_same(want, one_by_one("rdna3", "ds_load_b32", addrs))
    for dtype in (np.uint32, np.uint64, np.int32, np.int64):
        got = gpumemsim.banks_batch("rdna3", "ds_load_b32", addrs.astype(dtype))
        assert all(np.array_equal(got[k], want[k]) for k in want), dtype
    # Not C-contiguous: every other column of a wider array, and a Fortran-order copy.
    wide = np.repeat(addrs, 2, axis=1)[:, ::2]
    assert not wide.flags.c_contiguous
    for array in (wide, wide.astype(np.uint32), np.asfortranarray(addrs)):
        got = gpumemsim.banks_batch("rdna3", "ds_load_b32", array)
        assert all(np.array_equal(got[k], want[k]) for k in want)
    # Lists of lists go through numpy.asarray.
    got = gpumemsim.banks_batch("rdna3", "ds_load_b32", addrs[:10].tolist())
    assert got["cycles"].tolist() == want["cycles"][:10].tolist()


def test_addresses_beyond_32_bits():
    addrs = patterns(50, 32, 4, seed=2)
    high = addrs + (1 << 40)
    high[10:20] = addrs[10:20]  # a chunk mixes narrow and wide rows
    want = one_by_one("rdna3", "ds_load_b32", high)
    for dtype in (np.uint64, np.int64):
        assert_same(gpumemsim.banks_batch("rdna3", "ds_load_b32", high.astype(dtype)), want)
    second = addrs.copy()
    second[0, 0] = 1 << 33  # only the second addresses need 64 bits
    got = gpumemsim.banks_batch("rdna3", "ds_load_2addr_b32", addrs, addrs1=second)
    assert_same(got, one_by_one("rdna3", "ds_load_2addr_b32", addrs, addrs1=second))


@pytest.mark.parametrize("arch, op", [("rdna3", "ds_load_b32"), ("rdna3", "ds_add_u32"),
                                      ("sm80", "lds.32"), ("rdna3", "ds_load_u16")])
def test_scattered_lanes_with_repeated_words(arch, op):
    # Random lanes over a wide range (rows far apart), some rows taking their words from a
    # few that repeat: the batch path's vector kernel (where the CPU has AVX2) against the
    # one-access path, for each address dtype.
    rng = np.random.default_rng(11)
    width = 2 if op.endswith("16") else 4
    addrs = rng.integers(0, 1 << 24, size=(600, 32)) * width
    pool = rng.integers(0, 1 << 24, size=8) * width
    few = rng.integers(0, 8, size=(300, 32))
    addrs[::2] = np.where(rng.random((300, 32)) < 0.5, pool[few], addrs[::2])
    want = one_by_one(arch, op, addrs)
    for dtype in (np.uint32, np.uint64, np.int32, np.int64):
        assert_same(gpumemsim.banks_batch(arch, op, addrs.astype(dtype)), want)


def test_empty_batch():
    out = gpumemsim.banks_batch("sm80", "lds.32", np.zeros((0, 32), dtype=np.uint32))
    assert list(out) == ["requests", "wavefronts", "ideal_wavefronts", "bank_conflicts"]
    assert all(len(v) == 0 for v in out.values())


def test_threads_share_the_module():
    addrs = patterns(500, 32, 4, seed=5)
    want = gpumemsim.banks_batch("rdna3", "ds_load_b32", addrs)["cycles"]
    results = [None] * 4

    def work(i):
        results[i] = gpumemsim.banks_batch("rdna3", "ds_load_b32", addrs)["cycles"]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(r, want) for r in results)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: gpumemsim.banks_batch("rdna3", "ds_load_b32", np.zeros((4, 16), np.uint32)),
         "addrs: each row is one access with one address per lane: 16 columns given, the wave "
         "has 32 lanes"),
        (lambda: gpumemsim.banks_batch("rdna3", "ds_load_b32", np.zeros(32, np.uint32)),
         "addrs: expected a 2-D array (accesses × lanes), got shape (32,)"),
        (lambda: gpumemsim.banks_batch("rdna3", "ds_load_b32", np.zeros((2, 32))),
         "addrs: dtype float64 is not supported (use uint32, uint64, int32 or int64)"),
        (lambda: gpumemsim.banks_batch("rdna3", "ds_load_b32", np.zeros((2, 32), np.uint16)),
         "addrs: dtype uint16 is not supported"),
        (lambda: gpumemsim.banks_batch("rdna3", "ds_load_b32", np.full((3, 32), -8)),
         "addrs[0, 0]: address -8 is negative"),
        (lambda: gpumemsim.banks_batch(
            "rdna3", "ds_load_b32", np.where(np.arange(96).reshape(3, 32) == 70, -4, 0)),
         "addrs[2, 6]: address -4 is negative"),
        (lambda: gpumemsim.banks_batch(
            "rdna3", "ds_load_b32", np.full((3, 64), -8)[:, ::2]),
         "addrs[0, 0]: address -8 is negative"),
        # A negative address is named before a misaligned one ahead of it (in one chunk of
        # the accesses the library takes at a time).
        (lambda: gpumemsim.banks_batch(
            "sm80", "lds.64", np.select(
                [np.arange(64000).reshape(2000, 32) == 1500 * 32 + 3,
                 np.arange(64000).reshape(2000, 32) == 1100 * 32],
                [-8, 4], np.arange(64000).reshape(2000, 32) * 8)),
         "addrs[1500, 3]: address -8 is negative"),
        (lambda: gpumemsim.banks_batch(
            "sm80", "lds.64", np.array([np.arange(32) * 8, np.arange(32) * 8 + 4])),
         "addrs[1]: lane 0: address 4 (0x4) is not a multiple of 8 (this architecture needs "
         "naturally aligned accesses)"),
        (lambda: gpumemsim.banks_batch(
            "rdna3", "ds_load_b32", np.zeros((3, 32), np.uint32), np.array([1, 2])),
         "active: one mask per access: expected shape (3,), got (2,)"),
        (lambda: gpumemsim.banks_batch(
            "rdna3", "ds_load_b32", np.zeros((2, 32), np.uint32), np.array([1, 1 << 40])),
         "active[1]: 0x10000000000 names lanes beyond 31"),
        (lambda: gpumemsim.banks_batch(
            "rdna3", "ds_load_b32", np.zeros((2, 32), np.uint32), np.array([1, -1])),
         "active[1]: a mask cannot be negative"),
        (lambda: gpumemsim.banks_batch(
            "rdna3", "ds_load_b32", np.zeros((2, 32), np.uint32), np.array([1.0, 2.0])),
         "active: dtype float64 is not supported"),
        (lambda: gpumemsim.banks_batch(
            "rdna3", "ds_load_2addr_b32", np.zeros((2, 32), np.uint32),
            addrs1=np.zeros((2, 32), np.uint64)),
         "addrs1: shape (2, 32) and dtype uint64 must match addrs ((2, 32), uint32)"),
        (lambda: gpumemsim.banks_batch("rdna3", "ds_load_2addr_b32", np.zeros((2, 32), np.uint32)),
         "ds_load_2addr_b32 takes two addresses per lane: give --addr1 as well"),
        (lambda: gpumemsim.banks_batch("rdna3", "ds_load_b32", np.zeros((2, 32), np.uint32),
                                       addrs1=np.zeros((2, 32), np.uint32)),
         "--addr1 is for 2addr instructions; ds_load_b32 has one address per lane"),
        (lambda: gpumemsim.banks_batch("rdna3", "ds_load_b32", [[1, 2], [3]]),
         "addrs: not an array of integers"),
        (lambda: gpumemsim.banks_batch("sm80", "lds.32", np.zeros((2, 32), np.uint32), wave=64),
         "sm80 runs waves of 32 lanes only, not 64"),
    ],
)
def test_bad_batches(call, message):
    with pytest.raises(gpumemsim.Error) as raised:
        call()
    assert message in str(raised.value)
