#!/bin/bash
# How "apart" runs scale on host threads: the LDS reduction and the padded transpose of
# docs/benchmarks.md (and a reduction four times larger), each on a fixed device of W WGPs, run
# with --threads 1, 2, 4, ... up to the host's cores (or MAX). The device shape fixes the
# schedule, so every thread count must print the same JSON report but for the thread count it
# records ("schedule": {"threads"}): the script checks that byte for byte and stops if not. It prints, per workload and thread count, the wall seconds of
# the whole process and the speed-up over one thread.
#   bash tools/bench_threads.sh [WGPS [MAX]]      (WGPS default 16)
# The binary: $GPUMEMSIM if set (a machine without cargo), else the release CLI, built first.
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
WGPS="${1:-16}"
MAX="${2:-$(nproc)}"
if [ -n "${GPUMEMSIM:-}" ]; then
    G="$GPUMEMSIM"
else
    flock /tmp/cargo.lock cargo build -q --release -p gpumemsim-cli
    G="$ROOT/target/release/gpumemsim"
fi
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
A=examples/apps/build

reduce() {
    local n=$(($1 * 256))
    echo "$A/reduce_two_pass.o --kernel reduce_sum_count_partial --grid $1 --block 256" \
        "--arg buf:f32[$n]=iota --arg u32:$n --arg buf:f32[$1]=zeros --arg buf:i32[$1]=zeros" \
        "--arg local:1024 --arg local:1024"
}
transpose="$A/transpose_padded.o --kernel transpose_tiled_padded --grid 64,64 --block 32,8
    --arg buf:f32[4194304]=zeros --arg buf:f32[4194304]=iota --arg i32:2048 --arg i32:2048"

printf "%-26s %5s %7s %9s %8s\n" workload wgps threads seconds speed-up
sweep() {
    local name="$1" args="$2" t=1 base="" first=""
    while [ "$t" -le "$MAX" ]; do
        local start end secs
        start=$(date +%s%N)
        # shellcheck disable=SC2086 # $args is a list of arguments
        "$G" run $args --wgps "$WGPS" --threads "$t" --json >"$OUT/report.json"
        end=$(date +%s%N)
        secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
        [ -n "$base" ] || base="$secs"
        sum=$(sed 's/"threads":[0-9]*//' "$OUT/report.json" | sha256sum | cut -c1-16)
        [ -n "$first" ] || first="$sum"
        if [ "$sum" != "$first" ]; then
            echo "bench_threads.sh: $name with --threads $t reported differently" >&2
            exit 1
        fi
        awk -v n="$name" -v w="$WGPS" -v t="$t" -v s="$secs" -v b="$base" \
            'BEGIN { printf "%-26s %5d %7d %9.3f %7.2fx\n", n, w, t, s, b / s }'
        t=$((t * 2))
    done
}
sweep lds_reduce_4096wg "$(reduce 4096)"
sweep lds_reduce_16384wg "$(reduce 16384)"
sweep transpose_padded_4096wg "$transpose"
