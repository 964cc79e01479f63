#!/usr/bin/env bash
# 2026-12-06: the test programs added or changed this session and last, on the GPU against float64
# (tilec run: NaN-poisoned outputs, fresh inputs): sink_tma_waits.py modes 0-3 (mode 3: a copied
# tile in flight over a scratch tile's life, the plan-smem fix) with the pass on and off, and
# top_fence_tail.py (2026-12-05d, never run on a GPU) modes 0/1, sm_90a and sm_80.
#   run(command="bash bench/h200_call_2026_12_06e.sh", carry=[".devbin"], timeout_s=150)
set -u
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=60
T=.devbin/tilec
nvidia-smi --query-gpu=name --format=csv,noheader; echo "payload $(cat .devbin/commit)"
r() { echo "== $*"; timeout 60 $T run "$@" -q 2>&1 | grep -E "PASS|FAIL|rror|ran on" | tail -4; }
for m in 0 1 2 3; do
  r tests/e2e/programs/sink_tma_waits.py --target cuda:sm_90a -p mode=$m
  TILESCOPE_SINK_TMA_WAITS=0 r tests/e2e/programs/sink_tma_waits.py --target cuda:sm_90a -p mode=$m
  r tests/e2e/programs/sink_tma_waits.py --target cuda:sm_80 -p mode=$m
done
for m in 0 1; do for t in cuda:sm_90a cuda:sm_80; do r tests/e2e/programs/top_fence_tail.py --target $t -p mode=$m; done; done
