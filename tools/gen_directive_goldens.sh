#!/bin/sh
# Writes what llvm-mc-19 makes of tests/golden/directives.s: its printed text
# (directives.s.txt, -show-encoding) and the bytes of its .text section (directives.s.bin,
# from -filetype=obj). Needs Debian's llvm-19.
#   sh tools/gen_directive_goldens.sh
set -eu
cd "$(dirname "$0")/../tests/golden"
MC="llvm-mc-19 -triple=amdgcn -mcpu=gfx1100"
$MC -show-encoding directives.s > directives.s.txt
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
$MC -filetype=obj directives.s -o "$TMP/d.o"
llvm-objcopy-19 -O binary --only-section=.text "$TMP/d.o" directives.s.bin
