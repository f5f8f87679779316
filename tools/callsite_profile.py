#!/usr/bin/env python3
"""Where one function's host instructions go, by the call sites of its inlined callees.

callgrind counts the instructions of inlined code under the file and line of the inlined
function (`ready.rs:74`, `index.rs:219`), not under the line that called it, so a loop that
inlines most of what it calls shows as a spread of library lines. This runs a command under
`valgrind --tool=callgrind --dump-instr=yes`, takes the instructions counted in FUNCTION
(its own code and everything inlined into it, not its calls), looks up each instruction's
inline frames with `llvm-addr2line-19 -i`, and adds its count to the frame that ANCHOR's
line calls: one row per (ANCHOR's line, callee), divided by PER (e.g. the run's
wave-instructions, to read host instructions per step).

    python3 tools/callsite_profile.py [--anchor NAME] FUNCTION PER -- BINARY ARGS...

FUNCTION names the compiled function whose instructions are counted, ANCHOR the function
(maybe inlined into it) whose lines the rows name; both match the end of a demangled name,
and the anchor defaults to FUNCTION. `Device::run_steps` is inlined into
`Device::run_with_facts`, so the scheduling loop's step is (docs/benchmarks.md, 2026-11-30,
fifth session):

    python3 tools/callsite_profile.py --anchor Device::run_steps Device::run_with_facts \\
        615936 -- target/release/gpumemsim \\
        run examples/bench/build/valu_loop.o --kernel valu_loop --grid 64 --block 256 \\
        --arg 'buf:f32[16384]=zeros' --arg 'buf:u32[16384]=zeros' --arg u32:64 \\
        --threads 1 --wgps 1

Needs valgrind and llvm-addr2line-19; the binary needs debug information (build it with
`cargo build --profile bench -p gpumemsim-cli`, which writes target/release with it).
"""
import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile

HASH = re.compile(r"::h[0-9a-f]{16}( \(\.llvm\.[0-9]+\))?$")


def plain(name):
    """A demangled name without its hash suffix."""
    return HASH.sub("", name)


def instruction_counts(out_file, function):
    """{address: instructions} of FUNCTION's own code in a callgrind --dump-instr file."""
    ids = {}
    counts = collections.Counter()
    inside, last, skip = False, 0, False
    with open(out_file) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("cfn="):
                # A name is given once, where its id first appears (maybe as a callee).
                m = re.match(r"cfn=\((\d+)\) (.*)", line)
                if m:
                    ids[m.group(1)] = m.group(2)
            if line.startswith("fn="):
                m = re.match(r"fn=\((\d+)\)(?: (.*))?", line)
                if m and m.group(2):
                    ids[m.group(1)] = m.group(2)
                name = ids.get(m.group(1), "") if m else ""
                inside = plain(name).endswith(function)
                continue
            if not inside:
                continue
            if line.startswith("calls="):
                # The next cost line is the call's inclusive cost, not this function's.
                skip = True
                continue
            m = re.match(r"^(0x[0-9a-f]+|\+\d+|-\d+|\*)", line)
            if not m:
                continue
            a = m.group(1)
            if a.startswith("0x"):
                last = int(a, 16)
            elif a[0] in "+-":
                last += int(a)
            if skip:
                skip = False
                continue
            parts = line.split()
            if len(parts) >= 3:
                counts[last] += int(parts[2])
    return counts


def inline_frames(binary, addresses):
    """{address: [(function, file:line), ...]} innermost first."""
    frames = {}
    chunk = 2000
    for i in range(0, len(addresses), chunk):
        args = ["llvm-addr2line-19", "-a", "-f", "-i", "-C", "-e", binary]
        args += ["0x%x" % a for a in addresses[i : i + chunk]]
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        lines = out.split("\n")
        k, cur = 0, None
        while k < len(lines):
            line = lines[k]
            if line.startswith("0x"):
                cur = int(line, 16)
                frames[cur] = []
                k += 1
            elif not line.strip():
                k += 1
            else:
                where = lines[k + 1] if k + 1 < len(lines) else ""
                frames[cur].append((plain(line), where.split("/")[-1]))
                k += 2
    return frames


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--anchor", help="attribute to the calls this function makes (default: FUNCTION)")
    p.add_argument("--rows", type=int, default=25)
    p.add_argument("function")
    p.add_argument("per", type=float)
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command:
        p.error("no command to run (give it after --)")
    for tool in ("valgrind", "llvm-addr2line-19"):
        if not shutil.which(tool):
            sys.exit(f"callsite_profile.py: needs {tool}")
    anchor = a.anchor or a.function
    with tempfile.NamedTemporaryFile(suffix=".callgrind") as out:
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--dump-instr=yes", f"--callgrind-out-file={out.name}"]
            + command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        if run.returncode != 0:
            sys.exit(f"callsite_profile.py: the command failed:\n{run.stderr[-2000:]}")
        counts = instruction_counts(out.name, a.function)
    if not counts:
        sys.exit(f"callsite_profile.py: no instructions counted in a function ending '{a.function}'")
    frames = inline_frames(command[0], sorted(a for a, c in counts.items() if c))
    rows = collections.Counter()
    for addr, c in counts.items():
        fr = frames.get(addr, [])
        at = [k for k, (f, _) in enumerate(fr) if f.endswith(anchor)]
        if not at:
            rows[("(outside " + anchor + ")", "")] += c
            continue
        k = at[0]
        callee = fr[k - 1][0].split("::")[-1] if k > 0 else "(itself)"
        rows[(fr[k][1], callee)] += c
    total = sum(counts.values())
    print(f"{a.function}: {total:,} host instructions, {total / a.per:.1f} per {a.per:,.0f}")
    print(f"{'per':>8}  {'share':>6}  line of {anchor} -> callee")
    for (line, callee), c in rows.most_common(a.rows):
        print(f"{c / a.per:8.1f}  {100 * c / total:5.1f}%  {line} -> {callee}")


if __name__ == "__main__":
    main()
