#!/usr/bin/env bash
# Session 2026-12-03f, second device call, after the fixes: (1) the persistent MLA decode at
# the file's real size (batch 128, heads 128, seqlen 8192, block_N=64), --no-check, now that host
# tensors round/encode by integer arithmetic (before: > 150 s of host time); (2) the plain TMA
# copy sweep (bench/h200_tma_plain.sh, loop=0, int32 and float16) with the start-alignment rule:
# every point must copy bit-exactly and TMA must be chosen exactly where the rule allows it.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=/tmp/tscache
echo "payload $(cat .devbin/commit 2>/dev/null)"
MLA=.corpus/examples/deepseek_mla/example_mla_decode_persistent.py
s=$(date +%s)
timeout 110 .devbin/tilec bench "$MLA" -q --target cuda:sm_90a --param block_N=64 --param batch=128 --param heads=128 \
  --param seqlen_kv=8192 --no-check --reps 10 --warmup 2 --timeout 105 > "$OUT/mla-real.log" 2>&1
echo "mla real rc=$? $(( $(date +%s) - s ))s: $(grep -h 'median\|error' "$OUT/mla-real.log" | head -2)"
LOOPS=0 DTYPES="int32 float16" TUNE_LIMIT=110 timeout 300 bash bench/h200_tma_plain.sh > "$OUT/tma.log" 2>&1
echo "tma sweep rc=$?"; tail -5 "$OUT/tma.log"
