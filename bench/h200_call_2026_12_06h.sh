#!/usr/bin/env bash
# 2026-12-06: the 30 catalogue kernels whose code the vectorized swizzled shared stores changed
# (bench/conformance/changed-2026-12-06-vecstore.rx) on the GPU at the catalogue's small sizes
# (references where callable, else the interpreter), 4 at a time; call 06g ran them at real sizes
# and its 420 s limit cut the runner before it wrote anything.
#   run(command="bash bench/h200_call_2026_12_06h.sh", carry=[".corpus", ".devbin"], timeout_s=280)
set -u
RES=${OUT:-/tmp/out}; mkdir -p "$RES"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=60
echo "payload $(cat .devbin/commit)"; nvidia-smi --query-gpu=name --format=csv,noheader
timeout 230 python3 -u bench/conformance/run.py --gpu --gpu-sizes small --no-interp --tilec .devbin/tilec --corpus .corpus \
  --only "$(cat bench/conformance/changed-2026-12-06-vecstore.rx)" --label gpu-vecstore-small --out "$RES/conformance-gpu-vecstore-small.json" -j4 > "$RES/conformance-log.txt" 2>&1
echo "rc $?"; tail -3 "$RES/conformance-log.txt"
