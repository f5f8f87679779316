#!/bin/bash
# Interleaved A/B timing of two gpumemsim binaries (or one binary with two sets of flags) on
# the kernel workloads of docs/benchmarks.md, the way the benchmark passes judged each change:
# each workload runs N rounds of A then B (`gpumemsim run ... --threads 1`, text report),
# and the least task-clock of each (`perf stat -e task-clock`, CPU milliseconds) is printed
# with their ratio (> 1: B is faster). Interleaving keeps a shared machine's drift out of
# the comparison; the least of N keeps out the runs a neighbour slowed.
#   bash tools/bench_ab.sh N BIN_A BIN_B [WORKLOAD ...]
#   WORKLOAD: valu (the VALU loop at 512 rounds), gemm, reduce, transpose (default: all four)
#   FLAGS_A, FLAGS_B: extra `run` options for A and for B (e.g. FLAGS_B=--no-check)
# Needs perf (Debian: linux-perf) and the committed kernels of examples/.
set -eu
if [ $# -lt 3 ]; then
    echo "usage: bash tools/bench_ab.sh N BIN_A BIN_B [valu|gemm|reduce|transpose ...]" >&2
    exit 2
fi
N="$1" A="$2" B="$3"
shift 3
case "$N" in '' | *[!0-9]* | 0)
    echo "bench_ab.sh: N must be a positive number of rounds, not '$N'" >&2
    exit 2
    ;;
esac
for bin in "$A" "$B"; do
    [ -x "$bin" ] || { echo "bench_ab.sh: $bin is not an executable" >&2; exit 2; }
done
command -v perf >/dev/null || { echo "bench_ab.sh: needs perf (perf stat -e task-clock)" >&2; exit 2; }
cd "$(dirname "$0")/.."

declare -A W
W[valu]="examples/bench/build/valu_loop.o --kernel valu_loop --grid 64 --block 256
    --arg buf:f32[16384]=zeros --arg buf:u32[16384]=zeros --arg u32:512"
W[gemm]="examples/apps/build/gemm_tiled.o --kernel gemm_tiled_16x16 --grid 16,16 --block 16,16
    --arg buf:f32[65536]=rand:1 --arg buf:f32[65536]=rand:2 --arg buf:f32[65536]=zeros
    --arg i32:256 --arg i32:256 --arg i32:256"
W[reduce]="examples/apps/build/reduce_two_pass.o --kernel reduce_sum_count_partial
    --grid 4096 --block 256 --arg buf:f32[1048576]=iota --arg u32:1048576
    --arg buf:f32[4096]=zeros --arg buf:i32[4096]=zeros --arg local:1024 --arg local:1024"
W[transpose]="examples/apps/build/transpose_padded.o --kernel transpose_tiled_padded
    --grid 64,64 --block 32,8 --arg buf:f32[4194304]=zeros --arg buf:f32[4194304]=iota
    --arg i32:2048 --arg i32:2048"

# ms BIN FLAGS WORKLOAD: one run's task-clock in whole milliseconds; stops the script when
# the run fails (a failed run's time would compare nothing).
ms() {
    out="$(mktemp)"
    # shellcheck disable=SC2086 # the launch and the flags are lists of words
    if ! perf stat -x, -e task-clock -o "$out" "$1" run ${W[$3]} --threads 1 $2 >/dev/null; then
        echo "bench_ab.sh: $1 failed on $3" >&2
        rm -f "$out"
        exit 1
    fi
    t="$(grep task-clock "$out" | cut -d, -f1)"
    rm -f "$out"
    echo "${t%.*}"
}

[ $# -gt 0 ] || set -- valu gemm reduce transpose
for w in "$@"; do
    [ -n "${W[$w]+x}" ] || { echo "bench_ab.sh: no workload '$w' (valu gemm reduce transpose)" >&2; exit 2; }
done
printf "%-10s %10s %10s %7s\n" workload "A ms" "B ms" "A/B"
for w in "$@"; do
    best_a="" best_b=""
    for _ in $(seq "$N"); do
        a="$(ms "$A" "${FLAGS_A:-}" "$w")"
        b="$(ms "$B" "${FLAGS_B:-}" "$w")"
        if [ -z "$best_a" ] || [ "$a" -lt "$best_a" ]; then best_a="$a"; fi
        if [ -z "$best_b" ] || [ "$b" -lt "$best_b" ]; then best_b="$b"; fi
    done
    awk -v w="$w" -v a="$best_a" -v b="$best_b" 'BEGIN { printf "%-10s %10d %10d %7.3f\n", w, a, b, a / b }'
done
