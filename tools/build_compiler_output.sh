#!/bin/sh
# Builds the kernels of crates/gpumemsim-cli/tests/compiler_output/ as `gpumemsim run SRC`
# builds a source (the same clang-19 flags and device libraries, loader/source.rs), at -O2 -g
# and at -O0 -g, so that the tests run compiler output with calls, program-scope data and
# traps without clang:
#   table.o, table.O0.o    (OpenCL: a relocatable object)
#   calls.o, calls.O0.o    (HIP: a linked code object)
#   printf.cl.o            (OpenCL printf: built with opencl.bc less its printf stub and the
#                           header gpumemsim includes, loader/source.rs)
#   printf.hip.o           (HIP printf through the hostcall buffer)
#   printf.buffered.o      (HIP printf with -mprintf-kind=buffered: the printf buffer;
#                           __printf_alloc comes from opencl.bc, linked last)
#   lut.o                  (lut.cu: HIP in a .cu file, a __constant__ table)
#   transpose_padded.O0.o  (examples/apps/transpose_padded.hip at -O0 -g: every instruction
#                           on a source line, the build people use for exact lines)
#   reverse.o              (OpenCL: an LDS address that wraps past 2^32, as clang -O2 folds it)
# Needs clang-19, lld-19, rocm-device-libs and libamdhip64-dev (Debian packages).
#   sh tools/build_compiler_output.sh
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LIBS=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
cd "$ROOT/crates/gpumemsim-cli/tests/compiler_output"
# The device libraries to link: the language's library ($1, a path), then the others.
link() {
    printf ' -Xclang -mlink-builtin-bitcode -Xclang %s' "$1"
    for n in ockl ocml oclc_isa_version_1036 oclc_abi_version_500 oclc_wavefrontsize64_off \
        oclc_daz_opt_off oclc_finite_only_off oclc_unsafe_math_off oclc_correctly_rounded_sqrt_on; do
        printf ' -Xclang -mlink-builtin-bitcode -Xclang %s/%s.bc' "$LIBS" "$n"
    done
}
# OpenCL's printf needs the library without its stub printf (loader/source.rs).
NOPRINTF="$(mktemp -d)"
trap 'rm -rf "$NOPRINTF"' EXIT
llvm-extract-19 --delete --func=printf "$LIBS/opencl.bc" -o "$NOPRINTF/opencl.bc"
printf '%s\n' '__global char *__printf_alloc(uint);' \
    '__attribute__((used)) static void __gpumemsim_keep_printf_alloc(void) { __printf_alloc(0); }' \
    > "$NOPRINTF/printf.h"
common="-nogpulib -O2 -g -fdebug-prefix-map=$ROOT=."
clang-19 -x cl -cl-std=CL2.0 -cl-kernel-arg-info -target amdgcn-amd-amdhsa -mcpu=gfx1100 \
    $common -fdebug-prefix-map="$NOPRINTF"=/tmp/gpumemsim-printf -include "$NOPRINTF/printf.h" \
    $(link "$NOPRINTF/opencl.bc") \
    -c printf.cl -o printf.cl.o
clang-19 -x hip --cuda-device-only --offload-arch=gfx1100 --no-gpu-bundle-output \
    $common $(link "$LIBS/hip.bc") -c printf.hip -o printf.hip.o
clang-19 -x hip --cuda-device-only --offload-arch=gfx1100 --no-gpu-bundle-output \
    $common -mprintf-kind=buffered $(link "$LIBS/hip.bc") \
    -Xclang -mlink-builtin-bitcode -Xclang "$LIBS/opencl.bc" -c printf.hip -o printf.buffered.o
clang-19 -x hip --cuda-device-only --offload-arch=gfx1100 --no-gpu-bundle-output \
    $common $(link "$LIBS/hip.bc") -c lut.cu -o lut.o
clang-19 -x hip --cuda-device-only --offload-arch=gfx1100 --no-gpu-bundle-output \
    -nogpulib -O0 -g -fdebug-prefix-map=$ROOT=. $(link "$LIBS/hip.bc") \
    -c ../../../../examples/apps/transpose_padded.hip -o transpose_padded.O0.o
clang-19 -x cl -cl-std=CL2.0 -cl-kernel-arg-info -target amdgcn-amd-amdhsa -mcpu=gfx1100 \
    -nogpulib -O2 -g -fdebug-prefix-map=$ROOT=. $(link "$LIBS/opencl.bc") \
    -c reverse.cl -o reverse.o
for opt in O2 O0; do
    out() { if [ "$opt" = O2 ]; then echo "$1.o"; else echo "$1.$opt.o"; fi; }
    # -fdebug-prefix-map: sources named relative to the repository root.
    common="-nogpulib -O2 -g -fdebug-prefix-map=$ROOT=. -$opt"
    clang-19 -x cl -cl-std=CL2.0 -cl-kernel-arg-info -target amdgcn-amd-amdhsa -mcpu=gfx1100 \
        $common $(link "$LIBS/opencl.bc") -c table.cl -o "$(out table)"
    clang-19 -x hip --cuda-device-only --offload-arch=gfx1100 --no-gpu-bundle-output \
        $common $(link "$LIBS/hip.bc") -c calls.hip -o "$(out calls)"
done
