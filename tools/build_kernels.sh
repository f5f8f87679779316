#!/bin/sh
# Compiles the OpenCL corpus in examples/kernels/ with clang-19 for gfx1100, wave32 and wave64,
# and records the kernel descriptors' .amdhsa_* directives that clang prints (the oracle the
# loader test checks its decoding against). Outputs are committed, so tests need no clang.
#   sh tools/build_kernels.sh        (needs clang-19: Debian package clang-19)
set -eu
cd "$(dirname "$0")/../examples/kernels"
for src in *.cl; do
    base="${src%.cl}"
    for wave in 32 64; do
        flags="-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -O2"
        [ "$wave" = 64 ] && flags="$flags -mwavefrontsize64"
        clang-19 $flags -c "$src" -o "$base.w$wave.o"
        clang-19 $flags -S "$src" -o - | grep -E '^\s+\.amdhsa_(kernel |[a-z_0-9]+ [0-9]+$)' \
            | sed 's/^\s*//' > "$base.w$wave.kd.txt"
    done
done
