#!/usr/bin/env python3
"""Writes tests/golden/vopd_asm.txt: seeded random VOPD (`X :: Y`) source lines and what
llvm-mc-19 -triple=amdgcn -mcpu=gfx1100 -show-encoding makes of each: its encoding, or its
error (column and message). Operands are drawn so that many lines break a VOPD rule (VGPR
banks of the sources, the destinations' parity, one literal) and the rest assemble.

One line per case, tab-separated:
    TEXT  CANONICAL  ENCODING   (the text and bytes llvm-mc-19 prints)
    TEXT  error:COL:MESSAGE

    python3 tools/gen_vopd_asm_goldens.py
"""

import os
import random
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "golden", "vopd_asm.txt")
CASES = 600

X_OPS = ["fmac_f32", "fmaak_f32", "fmamk_f32", "mul_f32", "add_f32", "sub_f32", "subrev_f32",
         "mul_dx9_zero_f32", "mov_b32", "cndmask_b32", "max_f32", "min_f32", "dot2acc_f32_f16"]
Y_OPS = X_OPS + ["add_nc_u32", "lshlrev_b32", "and_b32"]


def src0(r):
    k = r.random()
    if k < 0.55:
        return f"v{r.randrange(256)}"
    if k < 0.7:
        return f"s{r.randrange(106)}"
    if k < 0.8:
        return str(r.randrange(-16, 65))
    if k < 0.87:
        return r.choice(["0.5", "1.0", "-2.0", "4.0", "-0.5"])
    return r.choice(["0x12345678", "0x3c00", "0x3f800000", "0x1234"])


def component(r, op):
    vdst = f"v{r.randrange(256)}"
    vsrc1 = f"v{r.randrange(256)}"
    k = r.choice(["0x12345678", "0x1234", "0x3f800000"])
    if op == "mov_b32":
        return f"v_dual_{op} {vdst}, {src0(r)}"
    if op == "fmaak_f32":
        return f"v_dual_{op} {vdst}, {src0(r)}, {vsrc1}, {k}"
    if op == "fmamk_f32":
        return f"v_dual_{op} {vdst}, {src0(r)}, {k}, {vsrc1}"
    return f"v_dual_{op} {vdst}, {src0(r)}, {vsrc1}"


def main():
    r = random.Random(2026)
    lines = [f"{component(r, r.choice(X_OPS))} :: {component(r, r.choice(Y_OPS))}"
             for _ in range(CASES)]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "vopd.s")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        done = subprocess.run(["llvm-mc-19", "-triple=amdgcn", "-mcpu=gfx1100", "-show-encoding",
                               src], capture_output=True, text=True)
    errors = {}
    for m in re.finditer(r"vopd\.s:(\d+):(\d+): error: (.*)", done.stderr):
        errors.setdefault(int(m.group(1)), (int(m.group(2)), m.group(3)))
    encodings = iter(re.findall(r"^\t(.*?)\s*; encoding: (\[[^\]]*\])", done.stdout, re.M))
    rows = []
    for n, text in enumerate(lines, 1):
        if n in errors:
            col, msg = errors[n]
            rows.append(f"{text}\terror:{col}:{msg}")
        else:
            canon, enc = next(encodings)
            rows.append(f"{text}\t{canon}\t{enc}")
    with open(OUT, "w") as f:
        f.write("\n".join(rows) + "\n")
    print(f"{OUT}: {len(rows)} lines, {len(errors)} errors")


if __name__ == "__main__":
    main()
