#!/usr/bin/env python3
"""Runs a gpumemsim command and prints only its results, for comparing a timed run with a
functional one (docs/functional.md): it stands in for the binary in tools/corpus_digest.sh.

    GMS_REAL=target/release/gpumemsim sh tools/corpus_digest.sh tools/results_only.py > timed
    GMS_REAL=target/release/gpumemsim GMS_FUNCTIONAL=1 \\
        sh tools/corpus_digest.sh tools/results_only.py > functional
    diff timed functional

A `run` gets --json (and --functional with GMS_FUNCTIONAL=1); what is printed is its exit
status and the report's results: the buffers ("args"), "dump", "symbols", "printf",
"error", the wave-instructions executed ("steps") and the events that are results (out of
range and out of bounds accesses, memory violations, traps: not the checks' findings and
the timing rules, which a functional run does not watch). Other commands (`check`) run as
they are, timed either way."""
import json
import os
import subprocess
import sys

# Events a functional run reports as the timed run does: what an access or instruction did
# (the error kinds of crates/gpumemsim/src/event.rs, ERROR_KINDS, and two more).
RESULT_EVENTS = {
    "out_of_bounds", "memviol", "flat_address_range", "lds_out_of_range", "gds_out_of_range",
    "scratch_out_of_range", "buffer_out_of_range", "smem_range", "unsupported_format",
    "scratch_overlap", "no_endpgm",
}


def main():
    real = os.environ["GMS_REAL"]
    args = sys.argv[1:]
    if not args or args[0] != "run":
        r = subprocess.run([real] + args)
        sys.exit(r.returncode)
    args = args + (["--json"] if "--json" not in args else [])
    if os.environ.get("GMS_FUNCTIONAL") == "1":
        args.append("--functional")
    r = subprocess.run([real] + args, capture_output=True, text=True)
    try:
        report = json.loads(r.stdout)
    except json.JSONDecodeError:
        print(r.stdout + r.stderr, end="")
        sys.exit(r.returncode)
    kept = {k: report.get(k) for k in ("args", "dump", "symbols", "printf", "error", "steps")}
    kept["events"] = sorted(
        (e.get("kind"), e.get("wave"), e.get("address"), e.get("message"))
        for e in report.get("events", []) if e.get("kind") in RESULT_EVENTS)
    print(json.dumps(kept, sort_keys=True))
    sys.exit(r.returncode)


main()
