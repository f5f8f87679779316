#!/bin/sh
# Compiles the application-style kernel corpus in examples/apps/ (OpenCL C .cl and HIP .hip)
# with clang-19 for gfx1100, linked against AMD's device libraries (get_global_id, barrier,
# atomics, threadIdx, __shfl_* ... come from opencl.bc / hip.bc / ockl.bc), into
# examples/apps/build/ (and the buggy corpus of examples/buggy/ into examples/buggy/build/):
#   NAME.o        OpenCL: a relocatable object, wave32;
#                 HIP: clang's default output, an offload bundle whose gfx1100 entry is a
#                 linked code object (hipv4-amdgcn-amd-amdhsa--gfx1100);
#   NAME.w64.o    OpenCL, wave64, for the kernels in W64 below;
#   NAME.hsaco    HIP, the linked code object alone (--no-gpu-bundle-output: clang links it
#                 with lld), for the kernels in HSACO below.
# All at -O2 -g. Outputs are committed, so tests need no clang.
#   sh tools/build_apps.sh        (needs clang-19 and lld-19; Debian packages clang-19,
#                                  lld-19, rocm-device-libs and libamdhip64-dev)
# The device-library flags and the W64/HSACO lists are in tools/device_libs.sh.
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/tools/device_libs.sh"
check_device_libs build_apps.sh
# Debug info names sources relative to the repository root (./examples/apps/NAME.cl), not
# this machine's checkout, so reports find the source text from a clone's root.
MAP="-fdebug-prefix-map=$ROOT=."
cd "$ROOT/examples/apps"
mkdir -p build

for src in *.cl; do
    base="${src%.cl}"
    cl="-x cl -cl-std=CL2.0 -cl-kernel-arg-info -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -O2 -g $MAP"
    clang-19 $cl -c "$src" -o "build/$base.o" $(libs opencl 32)
    if contains "$W64" "$base"; then
        clang-19 $cl -mwavefrontsize64 -c "$src" -o "build/$base.w64.o" $(libs opencl 64)
    fi
done

for src in *.hip; do
    base="${src%.hip}"
    hip="-x hip --cuda-device-only --offload-arch=gfx1100 -nogpulib -O2 -g $MAP"
    clang-19 $hip -c "$src" -o "build/$base.o" $(libs hip 32)
    if contains "$HSACO" "$base"; then
        clang-19 $hip --no-gpu-bundle-output -c "$src" -o "build/$base.hsaco" $(libs hip 32)
    fi
done

# The buggy corpus (examples/buggy/): kernels with one bug each for `gpumemsim check`, wave32,
# into examples/buggy/build/ (NAME.o; HIP as offload bundles).
cd ../buggy
mkdir -p build
for src in *.cl; do
    clang-19 -x cl -cl-std=CL2.0 -cl-kernel-arg-info -target amdgcn-amd-amdhsa -mcpu=gfx1100 \
        -nogpulib -O2 -g $MAP -c "$src" -o "build/${src%.cl}.o" $(libs opencl 32)
done
for src in *.hip; do
    clang-19 -x hip --cuda-device-only --offload-arch=gfx1100 -nogpulib -O2 -g $MAP \
        -c "$src" -o "build/${src%.hip}.o" $(libs hip 32)
done

# The front-door test's objects (crates/gpumemsim-cli/tests/front_door/): a linked OpenCL
# kernel with two __local arguments, the same kernel without the device libraries (its calls
# to get_local_id & co. stay undefined), a HIP offload bundle with extern __shared__, and the
# same bundle built for gfx1030 only (no gfx1100 entry).
cd ../../crates/gpumemsim-cli/tests/front_door
cl="-x cl -cl-std=CL2.0 -cl-kernel-arg-info -target amdgcn-amd-amdhsa -mcpu=gfx1100 -nogpulib -O2"
clang-19 $cl -g $MAP -c block_sum.cl -o block_sum.o $(libs opencl 32)
clang-19 $cl -c block_sum.cl -o block_sum.unlinked.o
hip="-x hip --cuda-device-only -nogpulib -O2"
clang-19 $hip --offload-arch=gfx1100 -g $MAP -c reverse_block.hip -o reverse_block.o $(libs hip 32)
clang-19 $hip --offload-arch=gfx1030 -c reverse_block.hip -o reverse_block.gfx1030.o $(libs hip 32)
