#!/usr/bin/env python3
"""Writes tests/golden/source_lines.txt: for every instruction of every kernel
of the committed objects built with -g (examples/kernels/, examples/apps/build/, the
front-door test's objects),
the inline chain llvm-addr2line-19 gives for its address, innermost frame first.

One line per instruction, tab-separated:
    OBJECT  KERNEL_SYMBOL  OFFSET  FRAME[ <- FRAME...]
OBJECT is relative to the repository root; OFFSET is the instruction's byte offset from the
kernel's symbol (hex); a FRAME is FUNCTION@FILE:LINE:COLUMN as llvm-addr2line-19 -f -i -C
names them, except that a frame on line 0 (DWARF's "no source line": code the compiler made,
which the reports attribute to no line) gets column 0 where llvm-addr2line-19 still prints
the row's column — the choice addr2line-rs makes, and ours. Instruction addresses come from llvm-objdump-19 -d; offload bundles are unpacked
with clang-offload-bundler-19 first, relocatable objects linked with ld.lld-19. Needs Debian's
llvm-19, clang-19 and lld-19.

    python3 tools/gen_line_goldens.py
"""

import glob
import json
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests/golden/source_lines.txt")
OBJECTS = sorted(
    glob.glob("examples/kernels/*.o", root_dir=ROOT)
    + glob.glob("examples/apps/build/*.o", root_dir=ROOT)
    + glob.glob("examples/apps/build/*.hsaco", root_dir=ROOT)
    + ["crates/gpumemsim-cli/tests/front_door/block_sum.o",
       "crates/gpumemsim-cli/tests/front_door/reverse_block.o"]
    + glob.glob("crates/gpumemsim-cli/tests/compiler_output/*.o", root_dir=ROOT)
)
GFX1100 = "hipv4-amdgcn-amd-amdhsa--gfx1100"


def elf_of(path, tmp):
    """The ELF file to ask: a linked code object as it is, a bundle's gfx1100 entry, or a
    relocatable object linked by ld.lld-19 (in a relocatable object every section starts at
    0, and llvm-addr2line-19 then names some addresses after data symbols of other sections;
    linking changes no offset within a kernel and no line)."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head.startswith(b"\x7fELF") and head[16] == 1:  # e_type ET_REL
        out = os.path.join(tmp, os.path.basename(path) + ".so")
        subprocess.run(["ld.lld-19", "-shared", "-o", out, path], check=True)
        return out
    if not head.startswith(b"__CLANG_OFFLOAD_BUNDLE__"):
        return path
    out = os.path.join(tmp, os.path.basename(path) + ".gfx1100")
    subprocess.run(["clang-offload-bundler-19", "--unbundle", "--type=o", f"--targets={GFX1100}",
                    f"--input={path}", f"--output={out}"], check=True)
    return out


def instructions(elf):
    """{kernel symbol: (symbol address, [instruction addresses])} from llvm-objdump-19 -d."""
    text = subprocess.run(["llvm-objdump-19", "-d", elf], check=True, capture_output=True,
                          text=True).stdout
    kernels, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if m:
            current = m.group(2)
            kernels[current] = (int(m.group(1), 16), [])
            continue
        m = re.search(r"// ([0-9A-F]+):", line)
        if m and current is not None:
            kernels[current][1].append(int(m.group(1), 16))
    return kernels


def sizes(elf):
    """Each function symbol's size (the padding llvm-objdump-19 lists after a kernel's last
    instruction is not the kernel's)."""
    out = subprocess.run(["llvm-nm-19", "-S", "--defined-only", elf], check=True,
                         capture_output=True, text=True).stdout
    return {f[3]: int(f[1], 16) for f in (l.split() for l in out.splitlines())
            if len(f) == 4 and f[2] in "Tt"}


def frames(elf, addresses):
    """Each address's inline chain from llvm-addr2line-19, innermost first."""
    out = subprocess.run(["llvm-addr2line-19", "--output-style=JSON", "-f", "-i", "-C", "-e", elf]
                         + [hex(a) for a in addresses], check=True, capture_output=True,
                         text=True).stdout
    chains = []
    for line in out.splitlines():
        for record in json.loads(line):
            if not any(s["FileName"] for s in record["Symbol"]):
                # No DWARF for it (an object built without -g): llvm-addr2line-19 names the
                # symbol-table function, but there is no chain to compare.
                chains.append("@:0:0")
                continue
            chains.append(" <- ".join(
                f"{s['FunctionName']}@{s['FileName']}:{s['Line']}:{s['Column'] if s['Line'] else 0}"
                for s in record["Symbol"]))
    return chains


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for obj in OBJECTS:
            elf = elf_of(os.path.join(ROOT, obj), tmp)
            size = sizes(elf)
            for name, (start, addrs) in sorted(instructions(elf).items()):
                addrs = [a for a in addrs if a < start + size.get(name, 0)]
                for addr, chain in zip(addrs, frames(elf, addrs)):
                    rows.append(f"{obj}\t{name}\t{addr - start:#x}\t{chain}")
    with open(OUT, "w") as f:
        f.write("\n".join(rows) + "\n")
    print(f"{OUT}: {len(rows)} instructions")


if __name__ == "__main__":
    main()
