#!/usr/bin/env bash
# Issue 8 on the H200 in one device call: the GPU checks of the language issue's pieces, each
# script's log as $OUT/<part>.log: MHA backward chain (h200_chain.sh), FlashAttention forward (attn_check.sh
# corpus + sample), gemm dtypes at sm_90a and sm_80 code (gemm_dtypes_check.sh), symbolic sizes and
# atomics (h200_frontend.sh), several kernels per file (h200_multikernel.sh). Expects .devbin/tilec
# and .corpus/examples (bench/conformance/prepare_device.sh). Device tool: carry [".devbin",
# ".corpus"], command: bash bench/h200_issue8_checks.sh
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache TILEC=.devbin/tilec CORPUS=.corpus
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
L=/tmp/logs; R=$OUT; mkdir -p $L
run() { local name=$1 lim=$2; shift 2; local t0=$SECONDS
  OUT=$L/$name timeout $lim "$@" > "$R/$name.log" 2>&1; echo "== $name rc=$? ($((SECONDS-t0)) s)"; }
mkdir -p $L/chain $L/attn $L/gemm90 $L/gemm80 $L/frontend $L/multi
run chain 140 bash bench/h200_chain.sh
run multi 50 bash bench/h200_multikernel.sh
run frontend 80 bash bench/h200_frontend.sh
run gemm90 90 bash bench/gemm_dtypes_check.sh .devbin/tilec
export TARGET=cuda:sm_80; run gemm80 90 bash bench/gemm_dtypes_check.sh .devbin/tilec; unset TARGET
run attn 130 bash bench/attn_check.sh corpus
grep -cE "FAIL" $OUT/*.log; grep -hE "TFLOP" $OUT/*.log | sort | uniq -c | sort -rn | head -30
tar czf $OUT/issue8-checks.tgz -C /tmp logs
