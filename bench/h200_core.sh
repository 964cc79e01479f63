#!/usr/bin/env bash
# Issue #2 acceptance on the H200: correctness of every sample (fp16/bf16 GEMM at 4096^3 and
# 1000^3, softmax 4096x8192 and 4096x1000, add), tilec bench figures, and same-run torch/cuBLAS
# baselines. Expects stripped binaries in .devbin/ (tilec, ts_unit_tests) built on the dev box.
# Usage (device tool): bash bench/h200_core.sh   -> writes $OUT/*.json and $OUT/log.txt
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=.devbin/tilec
export TILESCOPE_CACHE_DIR=/tmp/tscache
log() { echo "== $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
fails=0
run() { log "tilec run $*"; "$T" run "$@" || { echo "!! FAILED: $*"; fails=$((fails+1)); }; }
for dt in float16 bfloat16; do
  run samples/gemm.py --param M=4096 --param N=4096 --param K=4096 --param dtype=$dt
  run samples/gemm.py --param M=1000 --param N=1000 --param K=1000 --param dtype=$dt
done
run samples/gemm.py --param M=1000 --param N=1000 --param K=1000 --param block_K=64 --param num_stages=4
run samples/softmax.py --param M=4096 --param N=8192
run samples/softmax.py --param M=4096 --param N=1000
run samples/add.py
run samples/add.py --param M=4096 --param N=4096
run samples/add.py --param M=1000 --param N=999
log "bench"
for dt in float16 bfloat16; do
  "$T" bench samples/gemm.py --param M=4096 --param N=4096 --param K=4096 --param dtype=$dt --json "$OUT/tilec-gemm-$dt-4096.json" || fails=$((fails+1))
  "$T" bench samples/gemm.py --param M=4096 --param N=4096 --param K=4096 --param dtype=$dt --param block_K=64 --json "$OUT/tilec-gemm-$dt-4096-bk64.json" || fails=$((fails+1))
done
"$T" bench samples/softmax.py --param M=4096 --param N=8192 --json "$OUT/tilec-softmax-4096x8192.json" || fails=$((fails+1))
"$T" bench samples/softmax.py --param M=4096 --param N=1000 --json "$OUT/tilec-softmax-4096x1000.json" || fails=$((fails+1))
"$T" bench samples/add.py --param M=4096 --param N=4096 --json "$OUT/tilec-add-4096.json" || fails=$((fails+1))
log "torch baselines (same run)"
python3 bench/torch_baselines.py "$OUT/torch-baselines.json" || fails=$((fails+1))
log "GPU unit tests"
.devbin/ts_unit_tests --gtest_filter='RuntimeGpu*' 2>&1 | tail -15 || fails=$((fails+1))
log "failures: $fails"
