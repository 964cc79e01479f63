#!/usr/bin/env bash
# Session 2026-12-03f device calls (each keeps its own meaning; logs under $OUT):
#   mla   the corpus persistent MLA decode at block_N=64, --no-check, growing sizes up to the
#         file's real batch 128 / seqlen 8192 (bench/h200_sync_grid.sh's real-size run, with the
#         float64 host reference, ran past its 90 s), each under its own timeout, so a hang and a
#         slow host reference are told apart;
#   then bench/h200_session_checks.sh with the parts given after "mla" (default: none).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache
MLA=.corpus/examples/deepseek_mla/example_mla_decode_persistent.py
mla() {  # label, timeout, params...
  local l=$1 lim=$2; shift 2; local s=$(date +%s)
  timeout "$lim" .devbin/tilec bench "$MLA" -q --target cuda:sm_90a --param block_N=64 "$@" --no-check --reps 5 --warmup 1 --timeout $((lim - 5)) > "$OUT/mla-$l.log" 2>&1
  echo "mla $l rc=$? $(( $(date +%s) - s ))s: $(grep -h 'median\|error\|killed' "$OUT/mla-$l.log" | head -2)" | tee -a "$OUT/mla-summary.txt"
}
if [ "${1:-}" = mla ]; then
  shift
  mla b8s1024 40 --param batch=8 --param heads=128 --param seqlen_kv=1024
  mla b32s8192 60 --param batch=32 --param heads=128 --param seqlen_kv=8192
  mla b128s1024 60 --param batch=128 --param heads=128 --param seqlen_kv=1024
  mla b128s8192 150 --param batch=128 --param heads=128 --param seqlen_kv=8192
fi
[ $# -gt 0 ] && PART_LIMIT=${PART_LIMIT:-100} bash bench/h200_session_checks.sh "$@"
exit 0
