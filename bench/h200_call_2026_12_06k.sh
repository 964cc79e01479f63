#!/usr/bin/env bash
# 2026-12-06, fourth session: MHA backward with dS^T computed from the fp16 P^T (qkT's 64 fp32
# registers die at the copy into pT: 202 registers and no spills at 128x128 against 255 + spills).
#   bash bench/h200_payload.sh; cp <variant sample> .h200/mha_bwd_p.py
#   run(command="bash .h200/h200_call_2026_12_06k.sh 1", carry=[".h200", ".tl"])
# Part 1: the variant's chain on the GPU against float64 (tilec run --chain), its main kernel at
#   several schedules, then the sample's fastest form with TileLang's example and torch SDPA
#   (cuDNN, flash) in the same call. Results: $OUT/part1.tgz.
set -u
PART=${1:-1}; A=.h200; T=$A/tilec
RES=${OUT:-/tmp/out}; OUT=/tmp/w$PART; mkdir -p "$OUT" "$RES"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
[ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== part $PART, payload $(cat $A/commit), tree $(git log -1 --format=%h 2>/dev/null)"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>&1 | head -1
if [ "$PART" = 1 ]; then
  export TILESCOPE_WORKER_TIMEOUT=90
  ok=0; bad=0; SP=$A/mha_bwd_p.py
  BWD=mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess
  BIG="-p batch=8 -p heads=32 -p seq_len=1024 -p dim=64"; RAG="-p batch=2 -p heads=8 -p seq_len=1000 -p dim=64"
  C="-p block_M=128 -p block_N=128 -p threads=256 -p ds_regs=True"
  r() { echo "-- $*" >> "$OUT/checks.txt"; if timeout 150 $T run $SP --target cuda:sm_90a --chain $BWD --ref bwd_ref "$@" >> "$OUT/checks.txt" 2>&1; then ok=$((ok+1)); echo "PASS $* ($(el) s)"; else bad=$((bad+1)); echo "FAIL($?) $*"; tail -4 "$OUT/checks.txt"; fi; }
  echo "== 1a. dS from fp16 P: chain on the GPU vs float64"
  r $BIG $C
  r $RAG $C -p is_causal=True
  TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_WS=1 r $BIG $C
  TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_WS=1 r $RAG $C -p is_causal=True
  r $RAG -p is_causal=True -p ds_regs=True
  echo "checks: $ok pass, $bad fail ($(el) s)"
  grep -o 'rel-L2 [^ ]*' "$OUT/checks.txt" | sort | uniq -c | sort -rn | head -8
  echo "== 1b. main kernel, dS from fp16 P ($(el) s)"
  MHAB_DIR=$A MHAB_SAMPLE=$SP MHAB_QUICK=1 MHAB_NO_BASELINES=1 MHAB_BUDGET_S=0 \
    MHAB_VARIANTS="m128n128ds m128n128ds3 m128n128dswo m128n128wsds m128n128wsds3 m128n128dstma" OUT=$OUT/mhab-p timeout 200 bash $A/h200_mha_bwd_perf.sh 2>&1 | grep -v "^main kernel" | tail -10
  echo "== 1c. the sample's fastest form + baselines ($(el) s)"
  MHAB_DIR=$A MHAB_QUICK=1 MHAB_BUDGET_S=0 MHAB_VARIANTS="m128n128ds" OUT=$OUT/mhab timeout 220 bash $A/h200_mha_bwd_perf.sh 2>&1 | tail -14
  cd "$OUT" && tar czf "$RES/part1.tgz" checks.txt mhab-p mhab
fi
echo "done in $(el) s"
