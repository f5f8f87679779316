#!/usr/bin/env python3
"""Turns the output of tools/nvidia_banks/measure.sh into the measured table the tests read:
    python3 tools/nvidia_banks/collect.py OUT > crates/gpumemsim/tests/golden/sm90_shared_measured.tsv
One row per pattern of tools/nvidia_banks/patterns.txt: name, op, active mask, the 32 byte
addresses, then what Nsight Compute counted for its one-warp launch: shared-memory instructions,
wavefronts and bank conflicts (the load counters for lds.*, the store counters for sts.*, the atomic ones for atoms.*).
The header names the GPU, driver and tools from OUT/env.txt."""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def patterns():
    rows = []
    with open(os.path.join(HERE, "patterns.txt")) as f:
        for line in f:
            name, op, mask, addrs = line.split()
            rows.append((name, op, mask, addrs))
    return rows


def counters(path):
    """{op: {launch id: {metric: value}}} from the ncu runs in OUT/ncu.txt."""
    out, op = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith("# op "):
                op = line.split()[2]
                out[op] = {}
            elif line.startswith('"') and not line.startswith('"ID"'):
                r = next(csv.reader([line]))
                out[op].setdefault(int(r[0]), {})[r[12]] = int(r[14].replace(",", ""))
    return out


def main(out_dir):
    counts = counters(os.path.join(out_dir, "ncu.txt"))
    with open(os.path.join(out_dir, "env.txt")) as f:
        env = [line.strip() for line in f if line.strip()]
    print("# Shared-memory counters measured on NVIDIA hardware, one warp and one instruction per")
    print("# launch: tools/nvidia_banks/measure.sh, then tools/nvidia_banks/collect.py.")
    for line in env:
        print(f"# {line}")
    print("# name\top\tmask\taddresses\tinstructions\twavefronts\tbank_conflicts")
    launch = {}
    for name, op, mask, addrs in patterns():
        i = launch.get(op, 0)
        launch[op] = i + 1
        m = counts[op][i]
        d = {"lds": "ld", "sts": "st", "atoms": "atom"}[op.split(".")[0]]
        inst = m[f"smsp__inst_executed_op_shared_{d}.sum"]
        wave = m[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{d}.sum"]
        conf = m[f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{d}.sum"]
        print(f"{name}\t{op}\t{mask}\t{addrs}\t{inst}\t{wave}\t{conf}")
    for op, ids in counts.items():
        if len(ids) != launch.get(op, 0):
            sys.exit(f"{op}: {len(ids)} launches counted, {launch.get(op, 0)} patterns")


if __name__ == "__main__":
    main(sys.argv[1])
