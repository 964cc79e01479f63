#!/usr/bin/env bash
# Device half of the differential table (issue 14): adds the H200 column to the tile-level and
# lowered interpreter columns the dev box produced (bench/differential_payload.sh), with the same
# inputs (--seed 1), and writes $OUT/differential-<date>.json/.md (copy to bench/results/).
#   run(command="bash bench/h200_differential.sh", carry=[".devbin", ".diff"], timeout_s=560)
# 119 kernels, 8 at a time (NVRTC + a small launch + the tile interpreter for tilec's own check):
# a few minutes. Exit 1 when a kernel disagrees beyond its tolerance without an explanation.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache
[ -x .devbin/tilec ] && [ -f .diff/cases.json ] || { echo "h200_differential: run bench/differential_payload.sh first" | tee "$OUT/differential.txt"; exit 2; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cat .devbin/commit 2>/dev/null
timeout ${DIFF_LIMIT:-480} python3 bench/differential.py run --engines gpu --tilec .devbin/tilec --work .diff -j 8 --timeout 120 > "$OUT/gpu-runs.log" 2>&1
echo "gpu runs: rc=$? ($(grep -c '] ' "$OUT/gpu-runs.log") done)"
grep -E "rc=[^0]" "$OUT/gpu-runs.log" | head -30
python3 bench/differential.py table --work .diff --out "$OUT/differential-$(date -u +%F)"
rc=$?
grep -E "DISAGREE|error|timeout" "$OUT/differential-$(date -u +%F).md" | head -30
mkdir -p "$OUT/gpu-logs" && for d in .diff/*/; do [ -f "$d/gpu.log" ] && cp "$d/gpu.log" "$OUT/gpu-logs/$(basename "$d").log"; done
exit $rc
