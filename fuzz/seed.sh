#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds from the repository: the golden files' encodings
# (disasm) and instruction texts (asm), the examples' programs (asm), the committed code
# objects (loader), and a few hand-written or deterministic random inputs for the
# choice-driven targets (exec, banks, launch). At most a few hundred seeds per target; the
# corpus directories are not committed (fuzz/.gitignore). Run from anywhere:
#   bash fuzz/seed.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
corpus="$here/corpus"
mkdir -p "$corpus"/{disasm,asm,loader,exec,banks,launch}

python3 - "$root" "$corpus" <<'PY'
import glob, hashlib, os, random, sys
root, corpus = sys.argv[1], sys.argv[2]

def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(corpus, target, name), "wb") as f:
        f.write(data)

def as_bytes(col):
    col = col.strip()
    try:
        if col.startswith("0x"):
            return bytes(int(t, 16) for t in col.split(","))
        if col and len(col) % 2 == 0 and all(c in "0123456789abcdefABCDEF" for c in col):
            return bytes.fromhex(col)
    except ValueError:
        pass
    return None

def sample(items, n):
    step = max(1, -(-len(items) // n))
    return items[::step][:n]

goldens = sorted(glob.glob(os.path.join(root, "tests/golden/*.txt")))
goldens = [g for g in goldens if not g.endswith(("resources.txt", "source_lines.txt"))]
enc, txt = [], []
for g in goldens:
    e, t = [], []
    for line in open(g, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        for col in line.rstrip("\n").split("\t"):
            b = as_bytes(col)
            if b is not None:
                e.append(b)
            elif " " in col and not col.startswith("<"):
                t.append(col)
    enc += sample(e, 20)
    txt += sample(t, 20)
for b in enc:
    put("disasm", b)
for k in range(0, len(enc), 8):
    put("disasm", b"".join(enc[k:k + 8]))
for t in txt:
    put("asm", t)
for k in range(0, len(txt), 6):
    put("asm", "\n".join(txt[k:k + 6]))
for s in sorted(glob.glob(os.path.join(root, "examples/*.s"))):
    put("asm", open(s, "rb").read())

objs = sorted(glob.glob(os.path.join(root, "examples/kernels/*.o")))
objs += sorted(glob.glob(os.path.join(root, "examples/apps/build/*.o")))
objs += sorted(glob.glob(os.path.join(root, "examples/apps/build/*.hsaco")))
for o in objs:
    put("loader", open(o, "rb").read())

rng = random.Random(23)
for k in range(100):
    put("exec", bytes(rng.randrange(256) for _ in range(16 + 8 * (k % 24))))
for k in range(60):
    put("banks", bytes(rng.randrange(256) for _ in range(64)))
for k, e in enumerate(["t*128", "(t^1)*4 + 64", "t*4 + t/8*4", "8*t", "16*t", "t", "0",
                       "t*12", "(t%4)*256 + t/4*4", "t<<3"]):
    for arch in range(7):
        put("banks", bytes([arch, 0, 0]) + e.encode() + b"\n")
for k in range(60):
    put("launch", bytes([1]) + bytes(rng.randrange(256) for _ in range(48)))
for v in ["1", "-1", "0x10", "3.5", "inf", "-Infinity", "nan", "1e40", "65504", "4294967296",
          "18446744073709551615", "-9223372036854775808", "0x", "1_000", " 7 "]:
    for ty in range(9):
        put("launch", bytes([0, ty]) + v.encode())
PY
for t in disasm asm loader exec banks launch; do
  printf '%-7s %4d seeds\n' "$t" "$(ls "$corpus/$t" | wc -l)"
done
