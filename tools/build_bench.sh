#!/bin/sh
# Compiles the benchmark kernels of examples/bench/ (OpenCL C) with clang-19 for gfx1100,
# wave32, -O3, linked against AMD's device libraries the way tools/build_apps.sh builds the
# application corpus (same flags and tools/device_libs.sh), into examples/bench/build/NAME.o.
# Outputs are committed, so the benchmarks need no clang.
#   sh tools/build_bench.sh        (needs clang-19 and Debian's rocm-device-libs)
# The benchmarks that run them: crates/gpumemsim/benches/workloads.rs and
# tools/bench_workloads.sh (docs/benchmarks.md).
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/tools/device_libs.sh"
check_device_libs build_bench.sh
# Debug info names sources relative to the repository root (./examples/bench/NAME.cl).
MAP="-fdebug-prefix-map=$ROOT=."
cd "$ROOT/examples/bench"
mkdir -p build
for src in *.cl; do
    clang-19 -x cl -cl-std=CL2.0 -cl-kernel-arg-info -target amdgcn-amd-amdhsa -mcpu=gfx1100 \
        -nogpulib -O3 -g $MAP -c "$src" -o "build/${src%.cl}.o" $(libs opencl 32)
done
