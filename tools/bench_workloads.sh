#!/bin/sh
# Whole-process speed of the simulator on the kernel workloads of docs/benchmarks.md, as
# issue 44 measures it: each is one `gpumemsim run` of the release CLI with the default text
# report, pinned to one core (`taskset -c 1`; two cores for the two-thread table) when
# taskset is there, timed with /usr/bin/time (wall seconds and peak resident set); the least
# time of RUNS runs (default 1). First on one host thread (--threads 1, the default device),
# then the same without the checks (--no-check), then without the timing model either
# (--functional, docs/functional.md), then on two WGPs and two host threads (--wgps 2
# --threads 2). The time is the whole process: parsing and filling the argument buffers, the
# run, and the report (REPORT=json: the `--json` report instead, which lists every buffer's
# values, as the tables of the earlier passes in docs/benchmarks.md were measured). It prints
# one table per configuration:
#   workload, wave-instructions (the report's count of those executed), lane-instructions
#   (× 32), seconds, million lane-instructions per second, peak RSS in MiB.
# The bank-model batch workload has no CLI form: `cargo bench -p gpumemsim --bench workloads`
# measures it (and the same kernels through the library, without process or report costs).
#   bash tools/bench_workloads.sh        (needs /usr/bin/time; builds only the release CLI)
#   RUNS=5 REPORT=json bash tools/bench_workloads.sh
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
RUNS="${RUNS:-1}"
REPORT="${REPORT:-text}"
case "$REPORT" in
text) REPORT_FLAG="" ;;
json) REPORT_FLAG="--json" ;;
*) echo "bench_workloads.sh: REPORT is text or json, not $REPORT" >&2; exit 1 ;;
esac
case "$RUNS" in
'' | *[!0-9]* | 0) echo "bench_workloads.sh: RUNS is a count of runs (1 or more), not $RUNS" >&2; exit 1 ;;
esac

flock /tmp/cargo.lock cargo build --release -p gpumemsim-cli
G="$ROOT/target/release/gpumemsim"
[ -x /usr/bin/time ] || { echo "bench_workloads.sh: needs /usr/bin/time (GNU time)" >&2; exit 1; }

OUT="$(mktemp)"
TIMES="$(mktemp)"
ERR="$(mktemp)"
trap 'rm -f "$OUT" "$TIMES" "$ERR"' EXIT

# pinned CORES COMMAND...: COMMAND on those cores when taskset is there.
pinned() {
    cores="$1"
    shift
    if command -v taskset >/dev/null 2>&1; then
        taskset -c "$cores" "$@"
    else
        "$@"
    fi
}

# run NAME FLAGS PROGRAM ARGS...: one workload, one table row (the least of RUNS runs).
run() {
    name="$1" flags="$2"
    shift 2
    cores=1
    case "$flags" in *"--threads 2"*) cores=0,1 ;; esac
    best="" kib=""
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        # shellcheck disable=SC2086 # $flags and $REPORT_FLAG are lists of options
        if ! pinned "$cores" /usr/bin/time -o "$TIMES" -f '%e %M' \
            "$G" run "$@" $REPORT_FLAG $flags >"$OUT" 2>"$ERR"; then
            echo "bench_workloads.sh: $name did not run to its end:" >&2
            tail -5 "$ERR" >&2
            exit 1
        fi
        read -r secs k <"$TIMES"
        if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best="$secs" kib="$k"
        fi
        i=$((i + 1))
    done
    if [ "$REPORT" = json ]; then
        waves="$(grep -o '"totals":{[^}]*}' "$OUT" | grep -o '"wave_instructions":[0-9]*' | cut -d: -f2)"
    else
        waves="$(sed -n 's/^kernel .* \([0-9][0-9]*\) wave-instructions executed.*/\1/p' "$OUT" | head -1)"
    fi
    if [ -z "$waves" ]; then
        echo "bench_workloads.sh: $name: no count of wave-instructions in its report" >&2
        exit 1
    fi
    awk -v n="$name" -v w="$waves" -v s="$best" -v k="$kib" 'BEGIN {
        printf "%-24s %12.0f %13.0f %8.2f %12.1f %9.1f\n", n, w, w * 32, s, w * 32 / s / 1e6, k / 1024
    }'
}

table() {
    flags="$1"
    echo
    echo "gpumemsim run ...${REPORT_FLAG:+ $REPORT_FLAG} $flags (least of $RUNS)"
    printf "%-24s %12s %13s %8s %12s %9s\n" workload wave-instr lane-instr seconds "M lane-i/s" "RSS MiB"
    run valu_loop "$flags" examples/bench/build/valu_loop.o --kernel valu_loop \
        --grid 64 --block 256 --arg 'buf:f32[16384]=zeros' --arg 'buf:u32[16384]=zeros' --arg u32:64
    run gemm_tiled_256 "$flags" examples/apps/build/gemm_tiled.o --kernel gemm_tiled_16x16 \
        --grid 16,16 --block 16,16 --arg 'buf:f32[65536]=rand:1' --arg 'buf:f32[65536]=rand:2' \
        --arg 'buf:f32[65536]=zeros' --arg i32:256 --arg i32:256 --arg i32:256
    run lds_reduce_4096wg "$flags" examples/apps/build/reduce_two_pass.o \
        --kernel reduce_sum_count_partial --grid 4096 --block 256 \
        --arg 'buf:f32[1048576]=iota' --arg u32:1048576 --arg 'buf:f32[4096]=zeros' \
        --arg 'buf:i32[4096]=zeros' --arg local:1024 --arg local:1024
    run transpose_padded_4096wg "$flags" examples/apps/build/transpose_padded.o \
        --kernel transpose_tiled_padded --grid 64,64 --block 32,8 \
        --arg 'buf:f32[4194304]=zeros' --arg 'buf:f32[4194304]=iota' --arg i32:2048 --arg i32:2048
    # The same transpose on a 16 × 16 times larger grid over the same matrix: 65,536
    # workgroups, of which the 4,096 on the matrix do its work and the rest only their
    # bounds checks. Memory must stay what the resident workgroups need.
    run transpose_padded_65536wg "$flags" examples/apps/build/transpose_padded.o \
        --kernel transpose_tiled_padded --grid 256,256 --block 32,8 \
        --arg 'buf:f32[4194304]=zeros' --arg 'buf:f32[4194304]=iota' --arg i32:2048 --arg i32:2048
    # One 32×32 tile transposed by each of 4,096 one-wave workgroups, all writing the same
    # output: the grid runs together (the form issue 41 measured the checks on).
    run transpose_together_4096wg "$flags" examples/kernels/transpose.w32.o \
        --kernel transpose_padded --grid 4096 --block 32 \
        --arg 'buf:f32[1024]=iota' --arg 'buf:f32[1024]=zeros'
    run saxpy_grid_stride "$flags" examples/bench/build/saxpy_stride.o --kernel saxpy_grid_stride \
        --grid 256 --block 256 --arg 'buf:f32[1048576]=zeros' --arg 'buf:f32[1048576]=iota' \
        --arg 'buf:f32[1048576]=iota' --arg f32:2.5 --arg u32:1048576
    printf "%-24s %s\n" bank_batch "(library only: cargo bench -p gpumemsim --bench workloads)"
}

table "--threads 1"
table "--threads 1 --no-check"
table "--threads 1 --functional"
table "--wgps 2 --threads 2"
