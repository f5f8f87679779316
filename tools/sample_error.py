#!/usr/bin/env python3
"""Measures how far a sampled launch (`--sample K`) is from the full one on the project's
corpus: for each launch, every source line's conflict cycles and issue cycles, full against
sampled at K = 64 and scaled to the grid, and prints the table docs/ray.md shows (between its
`sample-error` markers; `--write` puts it there, `--check` fails if it differs).

    python3 tools/sample_error.py [--bin target/release/gpumemsim] [--write | --check]
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
A = "examples/apps/build"
K = 64

# (name, uniform?, arguments after `run`): grids of 256 workgroups or more.
LAUNCHES = [
    ("transpose_naive (bundled)", True,
     ["examples/kernels/transpose.w32.o", "--kernel", "transpose_naive", "--grid", "512",
      "--block", "32", "--arg", "buf:f32[1024]=iota", "--arg", "buf:f32[1024]=zeros"]),
    ("transpose_tiled_padded", True,
     [f"{A}/transpose_padded.o", "--kernel", "transpose_tiled_padded", "--grid", "16,16",
      "--block", "32,8", "--arg", "buf:f32[262144]=zeros", "--arg", "buf:f32[262144]=iota",
      "--arg", "i32:512", "--arg", "i32:512"]),
    ("lds_sum", True,
     ["examples/kernels/lds_sum.w32.o", "--grid", "1024", "--block", "64",
      "--arg", "buf:i32[65536]=iota", "--arg", "buf:i32[1024]=zeros"]),
    ("reduce_sum_count_partial", True,
     [f"{A}/reduce_two_pass.o", "--kernel", "reduce_sum_count_partial", "--grid", "512",
      "--block", "256", "--arg", "buf:f32[131072]=rand:3", "--arg", "u32:131072",
      "--arg", "buf:f32[512]=zeros", "--arg", "buf:i32[512]=zeros", "--arg", "local:1024",
      "--arg", "local:1024"]),
    ("wave_shuffle_sum", True,
     [f"{A}/wave_reduce.o", "--kernel", "wave_shuffle_sum", "--grid", "256", "--block", "128",
      "--arg", "buf:i32[32768]=rand:9", "--arg", "buf:i32[32768]=zeros",
      "--arg", "buf:i32[256]=zeros", "--arg", "buf:i32[1]=zeros", "--arg", "i32:32768"]),
    ("scan_block_inclusive", True,
     [f"{A}/scan_blocked.o", "--kernel", "scan_block_inclusive", "--grid", "256",
      "--block", "128", "--dynamic-lds", "512", "--arg", "buf:i32[32768]=rand:10",
      "--arg", "buf:i32[32768]=zeros", "--arg", "buf:i32[256]=zeros", "--arg", "i32:32768"]),
    ("bitonic_sort_local (data-dependent)", False,
     [f"{A}/bitonic_sort_local.o", "--kernel", "bitonic_sort_local", "--grid", "256",
      "--block", "128", "--arg", "buf:i32[32768]=rand:6"]),
    ("histogram256_block (data-dependent)", False,
     [f"{A}/histogram256.o", "--kernel", "histogram256_block", "--grid", "256",
      "--block", "128", "--arg", "buf:u8[131072]=rand:1", "--arg", "i32:131072",
      "--arg", "buf:u32[256]=zeros"]),
]


def report(binary, args):
    done = subprocess.run([binary, "run", *args, "--json", "--no-check"], cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def worst(full, sampled, key):
    """The largest relative error of `key` over the lines where the full run has some."""
    s = {(x["file"], x["line"]): x[key] for x in sampled["lines"]}
    errors = [abs(s.get((x["file"], x["line"]), 0) - x[key]) / x[key]
              for x in full["lines"] if x[key] > 0]
    return (max(errors), len(errors)) if errors else (None, 0)


def percent(e):
    return "—" if e is None else f"{100 * e:.1f}%"


def table(binary):
    rows = ["| launch | workgroups | lines | conflict cycles, worst line | issue cycles, worst line |",
            "|---|---|---|---|---|"]
    for name, _, args in LAUNCHES:
        full = report(binary, args)
        sampled = report(binary, [*args, "--sample", str(K)])
        total = sampled["sampled"]["of"]
        conflict, _ = worst(full, sampled, "conflict_cycles")
        cycles, n = worst(full, sampled, "cycles")
        rows.append(f"| {name} | {K} of {total} | {n} | {percent(conflict)} | {percent(cycles)} |")
    return "\n".join(rows) + "\n"


BEGIN, END = "<!-- sample-error: begin -->\n", "<!-- sample-error: end -->\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "gpumemsim"))
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="put the table in docs/ray.md")
    mode.add_argument("--check", action="store_true", help="fail if docs/ray.md differs")
    a = ap.parse_args()
    t = table(a.bin)
    if not (a.write or a.check):
        sys.stdout.write(t)
        return
    doc_path = os.path.join(ROOT, "docs", "ray.md")
    doc = open(doc_path).read()
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    if a.write:
        open(doc_path, "w").write(doc[:start] + t + doc[end:])
    elif a.check:
        if doc[start:end] != t:
            sys.exit("docs/ray.md's sampling table differs from what the binary gives: run "
                     "python3 tools/sample_error.py --write")


if __name__ == "__main__":
    main()
