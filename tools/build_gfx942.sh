#!/bin/sh
# Compiles the project's kernels for gfx942 (CDNA3, MI300) with clang-19, linked against AMD's
# device libraries with gfx942's ISA-version library (oclc_isa_version_940), wave64, -O2 -g:
#   examples/gfx942/build/apps/NAME.o  every kernel of examples/apps (OpenCL: a relocatable
#                                      object; HIP: a linked code object), which
#                                      crates/gpumemsim-cli/tests/apps.rs runs as it runs
#                                      their gfx1100 builds;
#   examples/gfx942/build/NAME.o       the CDNA3 kernels of examples/gfx942 (MFMA, scalar
#                                      stores, 64 KiB of LDS, spills, the address-space
#                                      document's experiments): crates/gpumemsim-cli/tests/gfx942.rs.
# Outputs are committed, so tests need no clang.
#   sh tools/build_gfx942.sh      (clang-19, lld-19, rocm-device-libs, libamdhip64-dev)
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/tools/device_libs.sh"
check_device_libs build_gfx942.sh
MAP="-fdebug-prefix-map=$ROOT=."
OUT="$ROOT/examples/gfx942/build"
mkdir -p "$OUT/apps"
cl="-x cl -cl-std=CL2.0 -cl-kernel-arg-info -target amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -g $MAP"
hip="-x hip --cuda-device-only --offload-arch=gfx942 --no-gpu-bundle-output -nogpulib -O2 -g $MAP"
cd "$ROOT/examples/apps"
for src in *.cl; do
    clang-19 $cl -c "$src" -o "$OUT/apps/${src%.cl}.o" $(libs opencl 64 940)
done
for src in *.hip; do
    clang-19 $hip -c "$src" -o "$OUT/apps/${src%.hip}.o" $(libs hip 64 940)
done
cd "$ROOT/examples/gfx942"
for src in *.hip; do
    clang-19 $hip -c "$src" -o "$OUT/${src%.hip}.o" $(libs hip 64 940)
done
