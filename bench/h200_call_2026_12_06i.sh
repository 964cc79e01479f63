#!/usr/bin/env bash
# 2026-12-06, last call of the session (~60 s): the test programs added after call 06g on the GPU
# against the tile-level interpreter (pipelined_copy_into_view.py: a pipelined copy into a view
# stays synchronous) and the view programs again with the final tilec.
#   bash bench/conformance/prepare_device.sh; run(command="bash bench/h200_call_2026_12_06i.sh", carry=[".devbin"], timeout_s=200)
set -u
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=60
T=.devbin/tilec; echo "payload $(cat .devbin/commit)"; nvidia-smi --query-gpu=name --format=csv,noheader
r() { if timeout 60 $T run "$@" -q > /tmp/r.txt 2>&1; then echo "PASS $*"; else echo "FAIL($?) $*"; tail -4 /tmp/r.txt; fi; }
for t in cuda:sm_90a cuda:sm_80; do
  for st in 2 3; do r tests/e2e/programs/pipelined_copy_into_view.py --target $t -p num_stages=$st --check interp; done
  for m in 0 1 2; do r tests/e2e/programs/shared_view_gemm_operand.py --target $t -p mode=$m --check interp; done
  for sw in False True; do r tests/e2e/programs/shared_view_alias.py --target $t -p swizzled=$sw --check interp; done
done
