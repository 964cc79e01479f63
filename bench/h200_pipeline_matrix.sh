#!/usr/bin/env bash
# Issue 9's pipeline matrix on the H200: tests/e2e/programs/pipeline_matrix_plain.py (T.Pipelined
# GEMM-like loop: TMA + mbarrier + wgmma on sm_90a) and pipeline_matrix_ws.py (warp-specialized
# producer/consumer ring with full/empty mbarriers and T.tma_copy) at trip counts 1, 2, 3 x
# num_stages 1, 2, 3, each at the default size (2 blocks) and a larger one (M=1024, N=512: 128
# blocks), fresh random inputs, poisoned outputs, checked against the float64 ref_program; each
# run under `timeout 60` (the watchdog: a hang is rc 124) with the worker's own --timeout 30.
# Payload: bash bench/tma_pipeline_payload.sh [/work/main], then
#   run(command="bash bench/h200_pipeline_matrix.sh", carry=[".devbin"])   (about 1-2 min)
# Output: $OUT/pipeline-matrix-h200.json (one record per run), logs under $OUT/pm/.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/pm"; export TILESCOPE_CACHE_DIR=/tmp/tscache
T=${TILEC:-.devbin/tilec}
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
echo "== tree $(git log -1 --oneline 2>/dev/null | cut -c1-70); $(cat .devbin/commit 2>/dev/null)"
recs=(); pass=0; fail=0
for v in plain ws; do
  for size in small large; do
    sz=(); [ $size = large ] && sz=(--param M=1024 --param N=512)
    for trips in 1 2 3; do
      for stages in 1 2 3; do
        tag="$v-$size-t$trips-s$stages"
        s0=$(date +%s.%N)
        timeout 60 "$T" run tests/e2e/programs/pipeline_matrix_$v.py --target cuda:sm_90a \
          --param trips=$trips --param stages=$stages "${sz[@]}" --timeout 30 > "$OUT/pm/$tag.txt" 2>&1
        rc=$?
        s1=$(date +%s.%N)
        relL2=$(grep -oE "rel-L2 [0-9.e+-]+" "$OUT/pm/$tag.txt" | head -1 | cut -d' ' -f2)
        ok=false; if [ $rc = 0 ] && grep -q "^PASS" "$OUT/pm/$tag.txt"; then ok=true; pass=$((pass+1)); else fail=$((fail+1)); fi
        echo "$tag rc=$rc pass=$ok rel-L2=${relL2:-?}"
        [ $ok = true ] || tail -4 "$OUT/pm/$tag.txt"
        recs+=("{\"variant\": \"$v\", \"size\": \"$size\", \"trips\": $trips, \"stages\": $stages, \"rc\": $rc, \"timed_out\": $([ $rc = 124 ] && echo true || echo false), \"pass\": $ok, \"rel_l2\": \"${relL2:-}\", \"wall_s\": $(awk "BEGIN{printf \"%.2f\", $s1 - $s0}")}")
      done
    done
  done
done
{ echo "{\"bench\": \"h200_pipeline_matrix\", \"watchdog_s\": 60, \"pass\": $pass, \"fail\": $fail, \"runs\": ["
  for i in "${!recs[@]}"; do [ $i -gt 0 ] && echo ","; echo "${recs[$i]}"; done
  echo "]}"; } > "$OUT/pipeline-matrix-h200.json"
echo "== pipeline matrix: $pass pass, $fail fail (36 runs: 18 cases x 2 sizes) in $(el) s"
