#!/usr/bin/env python3
"""The checker's measured accuracy: `gpumemsim check` on every launch of
examples/checker/corpus.txt, each source built at -O1, -O2 and -O3 for wave32 and wave64
and run with scheduling seeds 0 to N-1 (default 20).

A `clean` launch (a correct kernel) must exit 0 with no findings: any other answer is a
false positive. A `bug` launch (a kernel with one seeded bug) must exit 1 with a finding of
the expected kind whose instructions include every expected source line: any other answer
is a false negative.

    python3 tools/check_accuracy.py [--bin target/release/gpumemsim] [--seeds 20] [--jobs 2]
        [--write | --check]

Prints the tables (and every wrong run); --write puts them into docs/check.md between the
`accuracy` markers, --check exits 1 when docs/check.md holds other figures (CI runs it).
Needs clang-19, lld-19 and the device libraries (the binary compiles the sources).
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "examples", "checker", "corpus.txt")
DOC = os.path.join(ROOT, "docs", "check.md")
BEGIN, END = "<!-- accuracy:begin -->", "<!-- accuracy:end -->"
OPTS = ["-O1", "-O2", "-O3"]
WAVES = [32, 64]


def parse_manifest(path):
    """The launches: (what, path, expect, args, waves), expect a (kind, [lines]) for a bug,
    waves the wave sizes to build for."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            head, sep, args = line.partition(" -- ")
            words = head.split()
            if not sep or len(words) < 2 or words[0] not in ("clean", "bug"):
                sys.exit(f"{path}:{n}: expected `clean PATH [OPTIONS] -- ARGS` or "
                         f"`bug PATH KIND:LINE[,LINE] [OPTIONS] -- ARGS`")
            what, src, rest = words[0], words[1], words[2:]
            waves = WAVES
            if "waves=32" in rest:
                # A bug only a workgroup of several waves has (one wave of 64 runs in step).
                rest.remove("waves=32")
                waves = [32]
            expect = None
            if what == "bug":
                if not rest or ":" not in rest[0]:
                    sys.exit(f"{path}:{n}: a bug names KIND:LINE[,LINE] after its path")
                kind, lines = rest[0].split(":", 1)
                expect = (kind, [int(x) for x in lines.split(",")])
                rest = rest[1:]
            out.append((what, src, expect, rest + args.split(), waves))
    return out


def check(binary, argv):
    """`gpumemsim check ARGV --json`: (exit status, findings, stderr)."""
    p = subprocess.run([binary, "check", *argv, "--json"], capture_output=True, text=True,
                       cwd=ROOT)
    try:
        findings = json.loads(p.stdout)["findings"] if p.stdout.strip() else []
    except (json.JSONDecodeError, KeyError):
        findings = None
    return p.returncode, findings, p.stderr.strip()


def found_expected(findings, expect):
    kind, lines = expect
    for f in findings or []:
        if f["kind"] != kind:
            continue
        have = {i.get("source", {}).get("line") for i in f["instructions"]}
        if all(line in have for line in lines):
            return True
    return False


def judge(what, expect, status, findings):
    """True when the run answered right."""
    if what == "clean":
        return status == 0 and findings == []
    return status == 1 and found_expected(findings, expect)


def one_build(binary, entry, opt, wave, seeds, tmp):
    """Builds the entry's source once (seed 0 keeps the object) and runs the other seeds
    on the object: the wrong runs, as (seed, status, kinds or error)."""
    what, src, expect, args, _ = entry
    name = os.path.basename(src).replace(".", "_")
    obj = os.path.join(tmp, f"{name}{opt}w{wave}.o")
    w64 = ["--wave64"] if wave == 64 else []
    flags = [f"--cflags={opt}", *w64]
    wrong = []
    for seed in range(seeds):
        if seed == 0:
            argv = [src, *flags, "--keep-object", obj, "--seed", "0", *args]
        else:
            argv = [obj, "--seed", str(seed), *args]
        status, findings, err = check(binary, argv)
        if seed == 0 and not os.path.exists(obj):
            return [(s, status, err or "no object") for s in range(seeds)]
        if not judge(what, expect, status, findings):
            kinds = sorted({f["kind"] for f in findings or []})
            wrong.append((seed, status, ", ".join(kinds) or err.splitlines()[-1:] or "-"))
    return wrong


def measure(binary, seeds, jobs):
    entries = parse_manifest(MANIFEST)
    results = {}
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {}
        for i, e in enumerate(entries):
            for opt in OPTS:
                for wave in e[4]:
                    f = pool.submit(one_build, binary, e, opt, wave, seeds, tmp)
                    futures[f] = (i, opt, wave)
        for f in concurrent.futures.as_completed(futures):
            results[futures[f]] = f.result()
    return entries, results


def tables(entries, results, seeds):
    rows, totals = [], {"clean": [0, 0, 0], "bug": [0, 0, 0]}
    for i, (what, src, expect, args, waves) in enumerate(entries):
        per = len(OPTS) * len(waves) * seeds
        wrong = sum(len(results[(i, o, w)]) for o in OPTS for w in waves)
        kernel = args[args.index("--kernel") + 1] if "--kernel" in args else ""
        t = totals[what]
        t[0] += 1
        t[1] += per
        t[2] += wrong
        label = "correct" if what == "clean" else f"bug: `{expect[0]}`"
        if waves != WAVES:
            label += " (wave32 only)"
        name = f"`{src}`" + (f" `{kernel}`" if kernel else "")
        rows.append(f"| {name} | {label} | {per} | {wrong} |")

    def rate(t):
        return f"{100.0 * t[2] / t[1]:.1f} %" if t[1] else "-"

    c, b = totals["clean"], totals["bug"]
    lines = [
        f"Measured by `python3 tools/check_accuracy.py` (CI checks these figures): every "
        f"launch of `examples/checker/corpus.txt` built at -O1, -O2 and -O3 for wave32 and "
        f"wave64, and run with seeds 0-{seeds - 1}.",
        "",
        "| corpus | launches | runs | wrong runs | rate |",
        "|---|---|---|---|---|",
        f"| correct kernels (a finding is a false positive) | {c[0]} | {c[1]} | {c[2]} | "
        f"{rate(c)} |",
        f"| seeded bugs (no finding of the kind at both lines is a false negative) | "
        f"{b[0]} | {b[1]} | {b[2]} | {rate(b)} |",
        "",
        "| launch | expected | runs | wrong runs |",
        "|---|---|---|---|",
        *rows,
    ]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "gpumemsim"))
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="put the tables into docs/check.md")
    mode.add_argument("--check", action="store_true",
                      help="exit 1 when docs/check.md holds other figures")
    a = ap.parse_args()
    entries, results = measure(a.bin, a.seeds, a.jobs)
    text = tables(entries, results, a.seeds)
    print(text)
    for (i, opt, wave), wrong in sorted(results.items()):
        for seed, status, what in wrong:
            print(f"wrong: {entries[i][1]} {opt} wave{wave} seed {seed}: exit {status}, {what}")
    doc = open(DOC).read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f"{DOC}: no {BEGIN} ... {END} block")
    head, rest = doc.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    if a.write:
        with open(DOC, "w") as f:
            f.write(head + BEGIN + "\n" + text + END + tail)
    elif a.check and old.strip() != text.strip():
        sys.exit("docs/check.md's accuracy tables differ from the measurement above: run "
                 "python3 tools/check_accuracy.py --write")


if __name__ == "__main__":
    main()
