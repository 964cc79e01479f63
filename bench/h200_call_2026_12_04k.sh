#!/usr/bin/env bash
# Third device call of the 2026-12-04 evening session: issue 8's GPU checks re-run on the current
# binary (last full run 2026-12-01/02 on older ones), FlashAttention and MHA backward first:
# the corpus FlashAttention forward files (bshd/bhsd, causal and not, GQA, sink) at S=4096 and at
# S=1000/333/1300 (not multiples of the block) and the sample (bench/attn_check.sh corpus), the
# MHA backward chain of the corpus and the sample against float64 (bench/h200_chain.sh), several
# kernels per file, symbolic sizes + atomics, gemm dtypes at sm_90a and sm_80 code.
# Before (dev box): bash bench/conformance/prepare_device.sh
#   run(command="bash bench/h200_call_2026_12_04k.sh", carry=[".corpus", ".devbin"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache TILEC=.devbin/tilec CORPUS=.corpus
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== tilec $(cat .devbin/commit 2>/dev/null)"
L=/tmp/logs; mkdir -p $L/chain $L/attn $L/gemm90 $L/gemm80 $L/frontend $L/multi
T0=$SECONDS
run() { local name=$1 lim=$2; shift 2; local t0=$SECONDS left=$(( 585 - SECONDS + T0 ))
  [ $left -lt 20 ] && { echo "== $name skipped (time)"; return; }
  [ $lim -gt $left ] && lim=$left
  OUT=$L/$name timeout $lim "$@" > "$OUT/$name.log" 2>&1; echo "== $name rc=$? ($((SECONDS-t0)) s)"; }
run attn 150 bash bench/attn_check.sh corpus
run chain 140 bash bench/h200_chain.sh
run multi 50 bash bench/h200_multikernel.sh
run frontend 80 bash bench/h200_frontend.sh
run gemm90 90 bash bench/gemm_dtypes_check.sh .devbin/tilec
export TARGET=cuda:sm_80; run gemm80 90 bash bench/gemm_dtypes_check.sh .devbin/tilec; unset TARGET
for f in "$OUT"/*.log; do echo "$(basename $f): PASS $(grep -c '^PASS' $f) FAIL $(grep -cE '^FAIL|FAIL$' $f)"; done
tar czf $OUT/issue8-checks.tgz -C /tmp logs
