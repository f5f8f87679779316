#!/bin/sh
# Compiles the kernel corpus in examples/kernels/ (OpenCL .cl, and LLVM IR .ll where OpenCL has
# no builtin for the instruction) with clang-19 for gfx1100, wave32 and wave64:
#   NAME.w32.o, NAME.w64.o           -O2 -g, the builds the tests check against CPU references;
#   NAME.w32.kd.txt, NAME.w64.kd.txt the .amdhsa_* directives clang prints for them (the oracle
#                                    the loader test checks its decoding against);
#   opt/NAME.O{0,1,3}.w{32,64}.o     the other optimisation levels, for the coverage test.
# Outputs are committed, so tests need no clang.
#   sh tools/build_kernels.sh        (needs clang-19: Debian package clang-19)
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT/examples/kernels"
mkdir -p opt
for src in *.cl *.ll; do
    base="${src%.*}"
    case "$src" in
        *.cl) lang="-x cl -cl-std=CL2.0" ;;
        *) lang="-x ir" ;;
    esac
    for wave in 32 64; do
        for opt in 0 1 2 3; do
            # -g: line tables for the per-source-line reports, naming the sources relative
            # to the repository root (./examples/kernels/NAME.cl).
            flags="$lang -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -O$opt -g -fdebug-prefix-map=$ROOT=."
            [ "$wave" = 64 ] && flags="$flags -mwavefrontsize64"
            if [ "$opt" = 2 ]; then
                clang-19 $flags -c "$src" -o "$base.w$wave.o"
                clang-19 $flags -S "$src" -o - | grep -E '^\s+\.amdhsa_(kernel |[a-z_0-9]+ [0-9]+$)' \
                    | sed 's/^\s*//' > "$base.w$wave.kd.txt"
            else
                clang-19 $flags -c "$src" -o "opt/$base.O$opt.w$wave.o"
            fi
        done
    done
done
