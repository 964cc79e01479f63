#!/usr/bin/env bash
# Last device call of the 2026-12-02 (d) session, under 560 s; carry [".attn", ".tl", ".corpus"] (+ ".devbin" when the tree is small enough):
#  1. attention speed only (ATTN_QUICK=1), lockstep schedule (the default since 55e8d24):
#     configs B and C fwd fp16 + causal B4 H32 S4096 (not timed in the previous call: script
#     limits), bf16 at B, TileLang's example and torch SDPA cuDNN/flash in the same call;
#  2. the five corpus kernels that compile since the lang2 commits, on the GPU at real sizes
#     (bench/conformance/run.py --gpu --only ...), against their reference or the interpreter;
#  3. bench/h200_trace.sh when present (tilec trace on the Hopper GEMM: stage order, overhead).
# Everything is tarred to $OUT/all.tgz (the device tool returns at most 8 files).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=/tmp/tscache
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== tree $(git log -1 --oneline 2>/dev/null | cut -c1-60); attn $(cat .attn/commit 2>/dev/null); devbin $(cat .devbin/commit 2>/dev/null)"
mkdir -p "$OUT/attn" "$OUT/conf" "$OUT/trace"
# One tilec for all parts: .devbin/tilec when carried, else the attention payload's (same build).
TC=.devbin/tilec; [ -x "$TC" ] || TC=.attn/tilec
OUT="$OUT/attn" ATTN_QUICK=1 ATTN_CFGS="B C" ATTN_BF16_CFGS="B" ATTN_BUDGET_S=200 TILESCOPE_HOPPER_PINGPONG=0 \
  timeout 330 bash .attn/h200_attention.sh 2>&1 | tail -14
echo "== attention done at $(el) s"
timeout 150 python3 bench/conformance/run.py --tilec $TC --corpus .corpus --gpu -j 5 \
  --timeout 100 --interp-timeout 100 --gpu-timeout 120 --label h200-lang2 \
  --only 'topk_selector|act_quant\.py:fp8|clean_and_maintain|fp8_lighting_indexer\.py:clean|convolution_autotune' \
  --out "$OUT/conf/conformance-h200-lang2.json" > "$OUT/conf/log.txt" 2>&1; echo "conformance rc=$?"
tail -8 "$OUT/conf/log.txt"
echo "== conformance done at $(el) s"
left=$(( 545 - $(el) ))
if [ -f bench/h200_trace.sh ] && [ $left -gt 40 ]; then
  OUT="$OUT/trace" TILEC=$TC timeout $left bash bench/h200_trace.sh 2>&1 | tail -15
fi
echo "== total $(el) s"
tar czf "$OUT/all.tgz" -C "$OUT" attn conf trace 2>/dev/null
