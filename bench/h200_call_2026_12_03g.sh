#!/usr/bin/env bash
# One device call of the 2026-12-03 (seventh) session: the differential table's GPU column over
# every sample and tests/e2e/programs kernel (new since the last table: shfl_sync_broadcast,
# copy_scalar_offset's negative offsets, the TMA sweep program ...), then the SwiGLU sweep.
# Dev box: bash bench/differential_payload.sh (.devbin, .diff), then
#   run(command="bash bench/h200_call_2026_12_03g.sh", carry=[".devbin", ".diff"], timeout_s=600)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
t0=$(date +%s)
DIFF_LIMIT=320 timeout 380 bash bench/h200_differential.sh; echo "differential rc=$? at $(( $(date +%s) - t0 )) s"
timeout 190 bash bench/h200_swiglu_sweep.sh; echo "swiglu rc=$? at $(( $(date +%s) - t0 )) s"
