#!/bin/sh
# Assembles crates/gpumemsim/tests/golden/relocations.s (a function and data referring to one
# variable through every relocation kind the loader applies to a relocatable object) with
# llvm-mc-19 into relocations.o beside it, which tests/loader.rs reads. Needs Debian's llvm-19.
#   sh tools/gen_relocation_objects.sh
set -eu
cd "$(dirname "$0")/../crates/gpumemsim/tests/golden"
llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx1100 -filetype=obj relocations.s -o relocations.o
