#!/usr/bin/env python3
"""Checks clang-19's s_delay_alu placement against the timing model's latencies.

clang-19 (LLVM's AMDGPUInsertDelayAlu pass) places `s_delay_alu` where it expects a
dependent ALU instruction to wait for a result. The simulator honours those declarations and
counts, per run, the declared instructions, those that did wait in the model, and the
instructions that waited for an ALU result nothing declared (docs/rules/timing.md#delay-alu).
This script runs the corpus kernels built by tools/build_apps.sh and the bundled
examples/kernels objects through `gpumemsim run --json` and prints one table row per launch,
then each instruction that waited undeclared with the instruction before it, so that a
disagreement between the compiler's latencies and the model's can be read off.

Usage: python3 tools/delay_alu_report.py [--bin target/release/gpumemsim]
"""

import argparse
import collections
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (object, kernel, grid, block, extra arguments): launches of the corpus with random data.
LAUNCHES = [
    ("examples/kernels/lds_sum.w32.o", "lds_sum", "2", "64",
     ["--arg", "buf:i32[128]=iota", "--arg", "buf:i32[2]=zeros"]),
    ("examples/kernels/lds_sum.w64.o", "lds_sum", "2", "64",
     ["--arg", "buf:i32[128]=iota", "--arg", "buf:i32[2]=zeros"]),
    ("examples/apps/build/gemm_tiled.o", "gemm_tiled_16x16", "3,2", "16,16",
     ["--arg", "buf:f32[1024]=rand:1", "--arg", "buf:f32[1536]=rand:2",
      "--arg", "buf:f32[1536]=zeros", "--arg", "i32:32", "--arg", "i32:48", "--arg", "i32:32"]),
    ("examples/apps/build/gemm_tiled.w64.o", "gemm_tiled_16x16", "3,2", "16,16",
     ["--arg", "buf:f32[1024]=rand:1", "--arg", "buf:f32[1536]=rand:2",
      "--arg", "buf:f32[1536]=zeros", "--arg", "i32:32", "--arg", "i32:48", "--arg", "i32:32"]),
    ("examples/apps/build/stencil_laplace.o", "laplace5_tiled", "3,2", "16,16",
     ["--arg", "buf:i32[1320]=rand:3", "--arg", "buf:i32[1320]=zeros",
      "--arg", "i32:44", "--arg", "i32:30"]),
    ("examples/apps/build/bitonic_sort_local.o", "bitonic_sort_local", "4", "128",
     ["--arg", "buf:i32[1024]=rand:4"]),
    ("examples/apps/build/transpose_padded.o", "transpose_tiled_padded", "3,2", "32,8",
     ["--arg", "buf:f32[3840]=zeros", "--arg", "buf:f32[3840]=iota",
      "--arg", "i32:80", "--arg", "i32:48"]),
    ("examples/apps/build/wave_reduce.o", "wave_shuffle_sum", "8", "128",
     ["--arg", "buf:i32[1000]=rand:5", "--arg", "buf:i32[1000]=zeros",
      "--arg", "buf:i32[8]=zeros", "--arg", "buf:i32[1]=zeros", "--arg", "i32:1000"]),
    ("examples/apps/build/histogram256.o", "histogram256_block", "6", "128",
     ["--arg", "buf:u8[3000]=rand:6", "--arg", "i32:3000", "--arg", "buf:u32[256]=zeros"]),
    ("examples/apps/build/warp_bitonic.o", "warp_bitonic_sort", "4", "128",
     ["--arg", "buf:i32[512]=rand:7"]),
    ("examples/apps/build/heat3d.o", "heat3d_7point", "2,2,2", "8,4,4",
     ["--arg", "buf:f32[784]=rand:8", "--arg", "buf:f32[784]=zeros",
      "--arg", "i32:14", "--arg", "i32:8", "--arg", "i32:7"]),
]


def run(binary, launch):
    obj, kernel, grid, block, extra = launch
    argv = [binary, "run", obj, "--kernel", kernel, "--grid", grid, "--block", block,
            "--json"] + extra
    out = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(argv)}: exit {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def report(binary):
    """The report as markdown lines: a table of launches, then the undeclared waits by
    (instruction before, instruction)."""
    missing = [l[0] for l in LAUNCHES if not os.path.exists(os.path.join(ROOT, l[0]))]
    if missing:
        sys.exit(f"not built: {', '.join(missing)} (run tools/build_apps.sh)")
    out = ["| launch | declared | declared and waited | undeclared waits |",
           "|---|---:|---:|---:|"]
    undeclared = collections.Counter()
    totals = [0, 0, 0]
    for launch in LAUNCHES:
        j = run(binary, launch)
        d = j["delay_alu"]
        counts = [d["declared"], d["declared_and_waited"], d["undeclared_waits"]]
        name = f"`{os.path.basename(launch[0])}` `{launch[1]}`"
        out.append(f"| {name} | " + " | ".join(map(str, counts)) + " |")
        totals = [a + b for a, b in zip(totals, counts)]
        text = {i["address"]: i["text"] for i in j["instructions"]}
        addresses = sorted(text)
        for u in d["undeclared_at"]:
            before = addresses[addresses.index(u["address"]) - 1]
            undeclared[(text[before].split()[0], u["text"].split()[0])] += 1
    out.append("| all | " + " | ".join(map(str, totals)) + " |")
    out += ["", "Instructions that waited undeclared (distinct instructions), by the instruction "
            "before them:", "", "| instruction before | instruction | instructions |",
            "|---|---|---:|"]
    for (before, inst), n in sorted(undeclared.items(), key=lambda x: (-x[1], x[0])):
        out.append(f"| `{before}` | `{inst}` | {n} |")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/gpumemsim"))
    args = ap.parse_args()
    print("\n".join(report(args.bin)))


if __name__ == "__main__":
    main()
