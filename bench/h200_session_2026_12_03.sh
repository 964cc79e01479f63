#!/usr/bin/env bash
# One device call (2026-12-03): MHA backward vector atomics, then the pipeline matrix, then the
# TMA eligibility sweep while time lasts. Payload: .devbin (bench/tma_pipeline_payload.sh).
OUT=${OUT:-/tmp/out}; export OUT
ONLY_BENCH=${ONLY_BENCH:-} bash bench/h200_mha_bwd_atomics.sh 2>&1 | tee "$OUT/mha_bwd_atomics.txt"
timeout 150 bash bench/h200_pipeline_matrix.sh 2>&1 | tail -30 | tee "$OUT/pipeline_matrix.txt"
timeout 200 bash bench/h200_tma_sweep.sh 2>&1 | tail -30 | tee "$OUT/tma_sweep.txt"
