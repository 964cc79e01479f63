#!/usr/bin/env bash
# One device call (2026-12-02 d session), under 560 s, carry [".devbin", ".tl", ".corpus"]:
#  1. bench/h200_vecmem.sh: vectorized global accesses correct (float64) and timed, rmsnorm and
#     softmax vs TileLang 0.1.15 on the same files in the same call (-> vecmem-summary.json);
#  2. bench/h200_launches.sh: several T.Kernel blocks per function (issue 8) on sm_90a and sm_80;
#  3. the GPU conformance column (bench/conformance/run.py --gpu, every catalogued kernel: GPU vs
#     float64 reference or vs the interpreter), with what is left of the call's time, so the
#     vectorized codegen is checked on every corpus kernel that runs.
# Everything is tarred to $OUT/all.tgz (the device tool returns at most 8 files).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=/tmp/tscache
t0=$(date +%s)
echo "== tree $(git log -1 --oneline 2>/dev/null); tilec $(cat .devbin/commit 2>/dev/null)"
mkdir -p "$OUT/vecmem" "$OUT/launches" "$OUT/conf"
OUT="$OUT/vecmem" timeout 200 bash bench/h200_vecmem.sh 2>&1 | tail -30
echo "== vecmem done at $(( $(date +%s) - t0 )) s"
OUT="$OUT/launches" timeout 90 bash bench/h200_launches.sh > /dev/null 2>&1; echo "launches rc=$?"
grep -E "FAILED|PASS|fail" "$OUT/launches/log-launches.txt" | tail -12
echo "== launches done at $(( $(date +%s) - t0 )) s"
left=$(( 540 - ($(date +%s) - t0) ))
if [ $left -gt 120 ]; then
  timeout $left python3 bench/conformance/run.py --tilec .devbin/tilec --corpus .corpus --gpu -j 12 \
    --timeout 100 --interp-timeout 100 --gpu-timeout 150 --label h200 \
    --out "$OUT/conf/conformance-h200-$(date -u +%F)-d.json" > "$OUT/conf/log.txt" 2>&1
  echo "conformance rc=$? (left was $left s)"; tail -20 "$OUT/conf/log.txt"
fi
echo "== total $(( $(date +%s) - t0 )) s"
tar czf "$OUT/all.tgz" -C "$OUT" vecmem launches conf 2>/dev/null
