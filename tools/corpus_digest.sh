#!/bin/sh
# Byte-identity check for speed work (issue 22): runs a fixed corpus of launches through a
# gpumemsim binary and prints one line per launch: the SHA-256 of its `--json` report (or of
# its text report, for the rows marked text) and the launch's name. Run it with the binary
# before a change and after it, and diff the two outputs; a speed change must print the same
# lines.
#   sh tools/corpus_digest.sh [BINARY]     (default target/release/gpumemsim, built first)
# The corpus: the bundled default, the examples/*.s tour commands, every application kernel
# (wave32 and wave64 builds) with `rand:` inputs, the benchmark workloads at reduced size,
# `check` on the buggy examples, and grids on 1, 2 and 4 WGPs and 1 and 2 host threads.
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
if [ $# -ge 1 ]; then
    G="$1"
else
    flock /tmp/cargo.lock cargo build -q --release -p gpumemsim-cli
    G="$ROOT/target/release/gpumemsim"
fi

# digest NAME ARGS...: one launch; the exit status is part of the digest.
digest() {
    name="$1"
    shift
    sum="$( ("$G" "$@" 2>&1; echo "exit $?") | sha256sum | cut -c1-16)"
    echo "$sum $name"
}

A=examples/apps/build
digest default run --json
digest default-text run
digest swizzled run --kernel transpose_swizzled --json
digest reduction-s run examples/lds-reduction.s --set v1=lane*4 --set v2=lane+1 --dump v5 --json
digest scratch-s run examples/scratch-swizzle.s --wave64 --waves 2 --scratch-size 4016 \
    --scratch-base 0x100000 --json
digest kcache-s run examples/stale-kcache.s --mem 0x20000=1 --set s0=0x20000 --dump s12 --json
digest gws-s run examples/gws-barrier.s --lds-size 0 --workgroups 4 --json
digest neighbours-check check examples/lds-neighbours.s --waves 2 --json
for f in examples/*.s; do
    digest "$(basename "$f")-w2" run "$f" --waves 2 --json
done
for o in gemm_tiled gemm_tiled.w64; do
    digest "$o" run $A/$o.o --kernel gemm_tiled_16x16 --grid 4,4 --block 16,16 \
        --arg 'buf:f32[4096]=rand:1' --arg 'buf:f32[4096]=rand:2' --arg 'buf:f32[4096]=zeros' \
        --arg i32:64 --arg i32:64 --arg i32:64 --json
done
for w in 1 2 4; do
    for t in 1 2; do
        digest "reduce-wgps$w-t$t" run $A/reduce_two_pass.o --kernel reduce_sum_count_partial \
            --grid 64 --block 256 --arg 'buf:f32[16384]=rand:3' --arg u32:16384 \
            --arg 'buf:f32[64]=zeros' --arg 'buf:i32[64]=zeros' --arg local:1024 --arg local:1024 \
            --wgps $w --threads $t --json
    done
done
digest reduce-w64 run $A/reduce_two_pass.w64.o --kernel reduce_sum_count_partial --grid 16 \
    --block 64 --arg 'buf:f32[1000]=rand:4' --arg u32:1000 --arg 'buf:f32[16]=zeros' \
    --arg 'buf:i32[16]=zeros' --arg local:256 --arg local:256 --json
digest transpose run $A/transpose_padded.o --kernel transpose_tiled_padded --grid 8,8 \
    --block 32,8 --arg 'buf:f32[65536]=zeros' --arg 'buf:f32[65536]=iota' --arg i32:256 \
    --arg i32:256 --json
digest transpose-wgps4 run $A/transpose_padded.o --kernel transpose_tiled_padded --grid 8,8 \
    --block 32,8 --arg 'buf:f32[65536]=zeros' --arg 'buf:f32[65536]=iota' --arg i32:256 \
    --arg i32:256 --wgps 4 --json
for fmt in --json --full; do
    digest "nan-inf$fmt" run $A/transpose_padded.o --kernel transpose_tiled_padded --grid 1 \
        --block 32,8 --arg 'buf:f16[4]=zeros' --arg 'buf:f32[4]=nan,inf,-inf,-0.0' --arg i32:2 \
        --arg i32:2 $fmt
done
# Runs that stop at the step limit part-way (the state of every wave at the error is in
# the report), on one WGP and on two WGPs with two threads.
for w in "--wgps 1" "--wgps 2 --threads 2"; do
    digest "step-limit $w" run examples/bench/build/valu_loop.o --kernel valu_loop --grid 16 \
        --block 256 --arg 'buf:f32[4096]=zeros' --arg 'buf:u32[4096]=zeros' --arg u32:64 \
        --max-steps 300 $w --full --json
done
digest histogram-local run $A/histogram_local.o --kernel histogram_local_bins --grid 4 \
    --block 128 --arg 'buf:u8[2000]=rand:5' --arg u32:2000 --arg 'buf:u32[64]=zeros' \
    --arg 'buf:u32[1]=zeros' --arg local:256 --json
digest histogram256 run $A/histogram256.o --kernel histogram256_block --grid 6 --block 128 \
    --arg 'buf:u8[3000]=rand:1' --arg i32:3000 --arg 'buf:u32[256]=zeros' --json
digest bitonic run $A/bitonic_sort_local.o --kernel bitonic_sort_local --grid 4 --block 128 \
    --arg 'buf:i32[1024]=rand:6' --json
digest bitonic-w64 run $A/bitonic_sort_local.w64.o --kernel bitonic_sort_local --grid 4 \
    --block 128 --arg 'buf:i32[1024]=rand:6' --json
digest stencil run $A/stencil_laplace.o --kernel laplace5_tiled --grid 3,2 --block 16,16 \
    --arg 'buf:i32[1320]=rand:7' --arg 'buf:i32[1320]=zeros' --arg i32:44 --arg i32:30 --json
digest compact run $A/compact_select.o --kernel compact_select_positive --grid 4 --block 256 \
    --arg 'buf:i32[1000]=rand:8' --arg u32:1000 --arg 'buf:i32[1000]=zeros' \
    --arg 'buf:i32[3]=zeros' --json
digest wave-reduce run $A/wave_reduce.o --kernel wave_shuffle_sum --grid 8 --block 128 \
    --arg 'buf:i32[1000]=rand:9' --arg 'buf:i32[1000]=zeros' --arg 'buf:i32[8]=zeros' \
    --arg 'buf:i32[1]=zeros' --arg i32:1000 --json
digest scan run $A/scan_blocked.o --kernel scan_block_inclusive --grid 8 --block 128 \
    --dynamic-lds 512 --arg 'buf:i32[1000]=rand:10' --arg 'buf:i32[1000]=zeros' \
    --arg 'buf:i32[8]=zeros' --arg i32:1000 --json
digest conv1d run $A/conv1d_dynamic.o --kernel conv1d_halo_dynamic --grid 5 --block 64 \
    --dynamic-lds 280 --arg 'buf:i32[300]=rand:11' --arg 'buf:i32[7]=rand:12' \
    --arg 'buf:i32[300]=zeros' --arg i32:300 --arg i32:3 --json
digest warp-bitonic run $A/warp_bitonic.o --kernel warp_bitonic_sort --grid 4 --block 128 \
    --arg 'buf:i32[512]=rand:13' --json
digest heat3d run $A/heat3d.o --kernel heat3d_7point --grid 2,2,2 --block 8,4,4 \
    --arg 'buf:f32[784]=rand:14' --arg 'buf:f32[784]=zeros' --arg i32:14 --arg i32:8 \
    --arg i32:7 --json
digest valu-loop run examples/bench/build/valu_loop.o --kernel valu_loop --grid 8 --block 256 \
    --arg 'buf:f32[2048]=zeros' --arg 'buf:u32[2048]=zeros' --arg u32:16 --json
digest saxpy run examples/bench/build/saxpy_stride.o --kernel saxpy_grid_stride --grid 16 \
    --block 256 --arg 'buf:f32[65536]=zeros' --arg 'buf:f32[65536]=iota' \
    --arg 'buf:f32[65536]=iota' --arg f32:2.5 --arg u32:65536 --json
for f in examples/buggy/*; do
    case "$f" in *.s) digest "check-$(basename "$f")" check "$f" --waves 2 --json ;; esac
done
B=examples/buggy/build
digest check-reduce-no-barrier check $B/reduce_no_barrier.o --grid 2 --block 64 \
    --arg 'buf:i32[128]=iota' --arg 'buf:i32[2]=zeros' --json
digest check-histogram-uninit check $B/histogram_uninit.o --grid 2 --block 64 \
    --arg 'buf:u8[256]=iota' --arg u32:256 --arg 'buf:u32[64]=zeros' --json
digest check-last-block-flag check $B/last_block_flag.o --grid 4 --block 64 \
    --arg 'buf:f32[256]=iota' --arg 'buf:f32[4]=zeros' --arg 'buf:u32[1]=zeros' --json
digest check-split-barrier check $B/split_barrier.o --grid 2 --block 64 \
    --arg 'buf:i32[64]=iota' --arg 'buf:i32[128]=zeros' --json
digest check-transpose-collide check $B/transpose_collide.o --grid 2,2 --block 16,16 \
    --arg 'buf:f32[1024]=iota' --arg 'buf:f32[1024]=zeros' --arg u32:32 --json
digest check-transpose-collide-wgps2 check $B/transpose_collide.o --grid 2,2 --block 16,16 \
    --arg 'buf:f32[1024]=iota' --arg 'buf:f32[1024]=zeros' --arg u32:32 --wgps 2 --json
digest gemm-html run $A/gemm_tiled.o --kernel gemm_tiled_16x16 --grid 2,2 --block 16,16 \
    --arg 'buf:f32[1024]=rand:1' --arg 'buf:f32[1024]=rand:2' --arg 'buf:f32[1024]=zeros' \
    --arg i32:32 --arg i32:32 --arg i32:32 --html /dev/stdout
# The benchmark workloads at full size (docs/benchmarks.md), with FULL=1: a minute more.
if [ "${FULL:-0}" = 1 ]; then
    digest bench-gemm run $A/gemm_tiled.o --kernel gemm_tiled_16x16 --grid 16,16 --block 16,16 \
        --arg 'buf:f32[65536]=rand:1' --arg 'buf:f32[65536]=rand:2' \
        --arg 'buf:f32[65536]=zeros' --arg i32:256 --arg i32:256 --arg i32:256 --json
    digest bench-reduce run $A/reduce_two_pass.o --kernel reduce_sum_count_partial --grid 4096 \
        --block 256 --arg 'buf:f32[1048576]=iota' --arg u32:1048576 --arg 'buf:f32[4096]=zeros' \
        --arg 'buf:i32[4096]=zeros' --arg local:1024 --arg local:1024 --json
    digest bench-transpose run $A/transpose_padded.o --kernel transpose_tiled_padded \
        --grid 64,64 --block 32,8 --arg 'buf:f32[4194304]=zeros' \
        --arg 'buf:f32[4194304]=iota' --arg i32:2048 --arg i32:2048 --json
    digest bench-valu run examples/bench/build/valu_loop.o --kernel valu_loop --grid 64 \
        --block 256 --arg 'buf:f32[16384]=zeros' --arg 'buf:u32[16384]=zeros' --arg u32:64 --json
    digest bench-saxpy run examples/bench/build/saxpy_stride.o --kernel saxpy_grid_stride \
        --grid 256 --block 256 --arg 'buf:f32[1048576]=zeros' --arg 'buf:f32[1048576]=iota' \
        --arg 'buf:f32[1048576]=iota' --arg f32:2.5 --arg u32:1048576 --json
fi
