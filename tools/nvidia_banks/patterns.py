#!/usr/bin/env python3
"""Writes the shared-memory access patterns that tools/nvidia_banks/measure.sh runs on an
NVIDIA GPU: one line per pattern, `name op mask a0,a1,...,a31` (op lds.32|lds.64|lds.128|
sts.32|sts.64|sts.128|atoms.32, mask the active lanes in hex, aᵢ lane i's byte address). Every
pattern appears once as a load and once as a store; the 32-bit ones also as an atomic add. The random ones come from a fixed seed, so the file
is the same on every run.
    python3 tools/nvidia_banks/patterns.py > tools/nvidia_banks/patterns.txt
"""
import random

FULL = 0xFFFFFFFF
LIMIT = 16384  # the probe's shared array holds 32 KiB; patterns stay in the first 16 KiB


def lanes(f):
    return [f(t) for t in range(32)]


def width_patterns(w):
    """(name, mask, addresses) for one access width w in bytes."""
    out = []
    for s in range(0, {4: 34, 8: 18, 16: 10}[w]):
        out.append((f"stride{s}", FULL, lanes(lambda t: w * s * t)))
    for k in (2, 4, 8, 16):
        out.append((f"same_per_{k}", FULL, lanes(lambda t: w * (t // k))))
        out.append((f"mod{k}", FULL, lanes(lambda t: w * (t % k))))
    for k in (2, 4, 8, 16, 32):
        out.append((f"bank0_{k}words", FULL, lanes(lambda t: 128 * (t % k))))
    for x in (1, 2, 4, 8, 16):
        out.append((f"xor{x}", FULL, lanes(lambda t: w * (t ^ x))))
    out.append(("perm7", FULL, lanes(lambda t: w * ((t * 7) % 32))))
    out.append(("pairs_bank0", FULL, lanes(lambda t: 128 * (t // 2))))
    out.append(("quads_bank0", FULL, lanes(lambda t: 128 * (t // 4))))
    out.append(("halves_same", FULL, lanes(lambda t: w * (t % 16))))
    for mask in (0x1, 0x3, 0xFF, 0xFFFF, 0xFFFF0000, 0x55555555, 0xAAAAAAAA, 0x11111111,
                 0x01010101, 0x80000001, 0x00010001, 0x00018000):
        out.append((f"linear_m{mask:x}", mask, lanes(lambda t: w * t)))
        out.append((f"bank0_m{mask:x}", mask, lanes(lambda t: 128 * t)))
    # Lanes 0 and 16 alone: different words of bank 0, then neighbouring words.
    out.append(("l0_l16_bank0", 0x00010001, lanes(lambda t: 0 if t == 0 else 128)))
    out.append(("l0_l16_near", 0x00010001, lanes(lambda t: 0 if t == 0 else w)))
    # Lanes 15 and 16 on one address.
    out.append(("l15_l16_same", 0x00018000, lanes(lambda t: 64)))
    rng = random.Random(0x5EED0000 + w)
    for i in range(12):
        out.append((f"random{i}", FULL, lanes(lambda t: w * rng.randrange(LIMIT // w))))
    for i in range(8):
        pool = [w * rng.randrange(LIMIT // w) for _ in range(rng.randrange(2, 7))]
        out.append((f"pool{i}", FULL, lanes(lambda t: rng.choice(pool))))
    for i in range(8):
        mask = rng.getrandbits(32) | 1
        out.append((f"random_masked{i}", mask, lanes(lambda t: w * rng.randrange(64))))
    # Partner-structured: lanes i and i^d share a random address (d = 1, 2 or both), so the
    # vectorized groups may merge, on few banks, so that the merged groups conflict.
    for i in range(16):
        d = (1, 2, 3)[i % 3]
        words = [rng.randrange(8) * 128 + w * rng.randrange(2) for _ in range(32)]
        mask = FULL if i < 8 else rng.getrandbits(32) | 1
        out.append((f"partners{d}_{i}", mask, lanes(lambda t: words[t & ~d])))
    return out


def main():
    for w, directions in ((4, ("lds", "sts", "atoms")), (8, ("lds", "sts")), (16, ("lds", "sts"))):
        for direction in directions:
            for name, mask, addrs in width_patterns(w):
                assert all(0 <= a < LIMIT and a % w == 0 for a in addrs), name
                print(f"{direction}{w * 8}_{name} {direction}.{w * 8} {mask:08x} "
                      + ",".join(map(str, addrs)))


if __name__ == "__main__":
    main()
