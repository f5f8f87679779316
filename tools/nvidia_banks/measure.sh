#!/bin/bash
# Measures shared-memory wavefronts and bank conflicts of every pattern in
# tools/nvidia_banks/patterns.txt on the NVIDIA GPU of this machine, with Nsight Compute. Needs
# nvcc, ncu and cuobjdump (a CUDA toolkit) and a GPU; run from the repository root:
#   OUT=/some/dir bash tools/nvidia_banks/measure.sh
# Writes OUT/env.txt (GPU, driver, tool versions), OUT/sass.txt (the probe's shared-memory
# instructions, to show each PTX access became one LDS/STS of its width), OUT/ncu.txt (the counters, CSV, one run per operation) and OUT/log.txt. Then, on any machine:
#   python3 tools/nvidia_banks/collect.py OUT > crates/gpumemsim/tests/golden/sm90_shared_measured.tsv
set -u
D=tools/nvidia_banks
OUT=${OUT:-/tmp/nvidia_banks}
mkdir -p "$OUT"
log() { echo "$(date +%T) $*" | tee -a "$OUT/log.txt"; }
{
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
    nvcc --version | tail -2
    ncu --version | tail -1
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
log "building for sm_$cap"
nvcc -O2 -std=c++17 -arch="sm_$cap" -o /tmp/probe "$D/probe.cu" 2>>"$OUT/log.txt" || { log "nvcc failed"; exit 1; }
cuobjdump -sass /tmp/probe | grep -E "Function :|LDS|STS|ATOMS" | sed 's/^ *//; s/ *\/\*[^*]*\*\/ *$//' >"$OUT/sass.txt"
want=""
for d in ld st atom; do
    want="$want smsp__inst_executed_op_shared_$d l1tex__data_pipe_lsu_wavefronts_mem_shared_op_$d"
    want="$want l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_$d"
done
known=$(timeout 60 ncu --query-metrics 2>>"$OUT/log.txt")
metrics=""
for m in $want; do
    if echo "$known" | grep -q "^$m "; then metrics="$metrics,$m.sum"; else log "metric $m not listed"; fi
done
metrics=${metrics#,}
[ -n "$metrics" ] || metrics=$(echo $want | sed 's/ /.sum,/g; s/$/.sum/')
log "metrics $metrics"
for op in lds.32 lds.64 lds.128 sts.32 sts.64 sts.128 atoms.32; do
    log "ncu $op"
    echo "# op $op" >>"$OUT/ncu.txt"
    timeout 200 ncu --metrics "$metrics" --csv --print-units base --clock-control none \
        --cache-control none /tmp/probe "$D/patterns.txt" "$op" >>"$OUT/ncu.txt" 2>>"$OUT/log.txt" \
        || log "ncu $op exited $?"
done
log "done: $(grep -c '^"' "$OUT/ncu.txt") counter rows"
