"""What Triton's layouts say a kernel's LDS stores cost, computed without the simulator's run:
from a compiled kernel's TTGIR, each `ttg.local_store` of a register tensor into shared memory
— the register layout (`#ttg.blocked` or `#ttg.linear`: which element each register, lane and
warp holds) and the shared layout (`#ttg.swizzled_shared` or `#ttg.amd_rotating_shared`: where
each element lives) — gives every lane's byte address for every store instruction, which
`gpumemsim.banks` costs. test_triton.py compares these predictions with what the simulator
measured running the machine code.

The layouts' meaning is Triton's (its LinearLayout conversions of these encodings, Triton
3.9): a blocked layout's bases follow `order` through sizePerThread, threadsPerWarp,
warpsPerCTA, then repeat over the tensor; a swizzled row `r` (a power of two) XORs
`vec * ((r / perPhase) % maxPhase)` into the column, and the rotating layout XORs the phase
with the block number `r / maxPhase / perPhase % maxPhase` as well; other rows XOR the
contributions of their bits."""

import re

import gpumemsim

#: Bytes per store instruction -> the DS store that writes them.
_STORE = {2: "ds_store_b16", 4: "ds_store_b32", 8: "ds_store_b64", 16: "ds_store_b128"}


def _definitions(ttgir):
    return {m.group(1): m.group(2) for m in re.finditer(r"^(#\w+) = (.*)$", ttgir, re.M)}


def _ints(desc, key):
    m = re.search(key + r" = \[([^\]]*)\]", desc)
    return [int(x) for x in m.group(1).split(",")]


def _int(desc, key):
    return int(re.search(key + r" = (\d+)", desc).group(1))


def _bases(desc, key):
    m = re.search(key + r" = \[((?:\[[^\]]*\](?:, )?)*)\]", desc)
    return [[int(x) for x in b.split(",")] for b in re.findall(r"\[([^\]]*)\]", m.group(1))]


def _powers(n):
    """1, 2, 4, ... below n."""
    return [1 << k for k in range(max(n, 1).bit_length() - 1)]


def _unit(dim, value):
    e = [0, 0]
    e[dim] = value
    return e


def register_bases(desc, shape):
    """The (register, lane, warp) bases of a 2-D blocked or linear layout: each a list of
    [dim0, dim1] offsets, XORed for the set bits of the index."""
    if desc.startswith("#ttg.linear"):
        return _bases(desc, "register"), _bases(desc, "lane"), _bases(desc, "warp")
    spt, tpw, wpc, order = (_ints(desc, k) for k in
                            ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"))
    reg = [_unit(d, i) for d in order for i in _powers(spt[d])]
    lane = [_unit(d, spt[d] * i) for d in order for i in _powers(tpw[d])]
    warp = [_unit(d, spt[d] * tpw[d] * i) for d in order for i in _powers(wpc[d])]
    # The layout repeats over a tensor larger than one tile: more registers.
    tile = [spt[d] * tpw[d] * wpc[d] for d in range(2)]
    reg += [_unit(d, tile[d] * i) for d in order for i in _powers(shape[d] // tile[d])]
    return reg, lane, warp


def _element(bases, index):
    out = [0, 0]
    for bit, base in enumerate(bases):
        if index >> bit & 1:
            out = [out[0] ^ base[0], out[1] ^ base[1]]
    return out


def _swizzle(row, desc, columns):
    """The column XOR of shared row `row`."""
    vec, per, maxp = _int(desc, "vec"), _int(desc, "perPhase"), _int(desc, "maxPhase")
    rotating = desc.startswith("#ttg.amd_rotating_shared")
    x, r = 0, 1
    while r <= row:
        if row & r:
            phase = (r // per) % maxp
            if rotating:
                phase ^= r // maxp // per % maxp
            x ^= (vec * phase) % columns
        r *= 2
    return x


def _source_line(ttgir, loc):
    """The source line a `#locN` stands for (following name and fused locations)."""
    defs = dict(re.findall(r"^(#loc\d*) = loc\((.*)\)$", ttgir, re.M))
    seen = set()
    while loc in defs and loc not in seen:
        seen.add(loc)
        m = re.match(r'"[^"]*":(\d+):\d+', defs[loc])
        if m:
            return int(m.group(1))
        loc = re.findall(r"#loc\d*", defs[loc])[-1]
    raise ValueError(f"no source line for {loc}")


def store_costs(ttgir, wave=32):
    """{source line: (store op, cycles, conflict cycles)} of one execution, by every warp, of
    each distinct `ttg.local_store` of the kernel (a software-pipelined loop stores the same
    tile from its prologue and its body: counted once)."""
    defs = _definitions(ttgir)
    pattern = (r"ttg\.local_store \S+, \S+ : tensor<(\d+)x(\d+)x(\w+), (#\w+)> -> "
               r"!ttg\.memdesc<\d+x\d+x\w+, (#\w+)[^>]*> loc\((#loc\d*)\)")
    costs = {}
    for m in re.finditer(pattern, ttgir):
        shape = [int(m.group(1)), int(m.group(2))]
        elem = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1}[m.group(3)]
        reg, lane, warp = register_bases(defs[m.group(4)], shape)
        shared = defs[m.group(5)]
        col, row = _ints(shared, "order")
        columns = shape[col]
        # The registers contiguous along the column dimension make one store instruction.
        v = 0
        while v < len(reg) and reg[v] == _unit(col, 1 << v):
            v += 1
        op = _STORE[(1 << v) * elem]
        cycles = conflicts = 0
        for w in range(1 << len(warp)):
            for r in range(0, 1 << len(reg), 1 << v):
                addrs = []
                for lane_id in range(wave):
                    e = [a ^ b ^ c for a, b, c in zip(_element(reg, r), _element(lane, lane_id),
                                                      _element(warp, w))]
                    addrs.append((e[row] * columns + (e[col] ^ _swizzle(e[row], shared, columns)))
                                 * elem)
                cost = gpumemsim.banks("rdna3", op, addrs)
                cycles += cost["cycles"]
                conflicts += cost["conflict_cycles"]
        costs[_source_line(ttgir, m.group(6))] = (op, cycles, conflicts)
    return costs
