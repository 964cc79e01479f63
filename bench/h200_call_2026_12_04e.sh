#!/usr/bin/env bash
# Third device call of the 2026-12-04 afternoon session (at most ~560 s):
#  1. Nsight Compute warp-stall breakdown of the attention forward (samples/flash_attn_fwd.py,
#     B1 H16 S4096 D128 fp16, 128x64 / 2 stages / 256 threads): every
#     smsp__average_warps_issue_stalled_*_per_issue_active metric this ncu knows;
#  2. softmax 4096x8192 fp32 (samples/softmax.py) at 128 / 512 / 1024 threads, ours and TileLang
#     0.1.15 on the same file (issue 9: >= 1.0x TileLang at the best configuration of both; 256
#     threads measured 0.993x in call d);
#  3. attention table at configuration B with bf16 (the last two calls lost their bf16 row to the
#     time guard): bench/h200_attention.sh quick, TileLang's example, cuDNN;
#  4. while time is left: issue 9's TMA eligibility sweep for plain copies with loop=1 (the copy in
#     a T.serial loop, the mbarrier parity flips) on the H200 (bench/h200_tma_plain.sh; loop=0 was
#     3510/3510 exact on 2026-12-03).
#   bash bench/attention_payload.sh /work/main /work/.mirror/tile-ai+tilelang/repo
#   cp samples/softmax.py bench/h200_call_2026_12_04e.sh .attn/
#   run(command="bash .attn/h200_call_2026_12_04e.sh", carry=[".attn", ".tl"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"/{ncu,smx,attn,tma}; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=90
T=.attn/tilec; TGT="--target cuda:sm_90a"
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== payload $(cat .attn/commit)"
med() { python3 -c "import json;print('$1', round(json.load(open('$2'))['median_ms'],5))" 2>/dev/null || echo "$1 missing"; }
echo "== 1. ncu stalls ($(el) s)"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
FWD="--param batch=1 --param heads=16 --param seq_len=4096 --param dim=128 --param block_M=128 --param block_N=64 --param num_stages=2 --param threads=256"
if [ -n "$NCU" ]; then
  $NCU --query-metrics-mode suffix --query-metrics 2>/dev/null | grep -o "smsp__average_warps_issue_stalled_[a-z_]*_per_issue_active" | sort -u > "$OUT/ncu/stall-metrics.txt"
  [ -s "$OUT/ncu/stall-metrics.txt" ] || $NCU --query-metrics 2>/dev/null | grep -o "smsp__average_warps_issue_stalled_[a-z_]*_per_issue_active" | sort -u > "$OUT/ncu/stall-metrics.txt"
  M=$(sed 's/$/.ratio/' "$OUT/ncu/stall-metrics.txt" | paste -sd, -)
  echo "$(wc -l < "$OUT/ncu/stall-metrics.txt") stall metrics"
  [ -n "$M" ] && timeout 150 $NCU --target-processes all -k regex:flash_attn -c 1 --metrics "$M,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__inst_executed_pipe_uniform.avg.pct_of_peak_sustained_active" \
    $T bench .attn/flash_attn_fwd.py $TGT $FWD --no-check --reps 1 --warmup 0 > "$OUT/ncu/attn-B-stalls.txt" 2>&1
  echo "ncu rc=$?"; grep -E "stalled|gmma|uniform" "$OUT/ncu/attn-B-stalls.txt" | awk '{print $1, $NF}' | sort -k2 -g -r | head -14
else echo "no ncu"; fi
echo "== 2. softmax threads ($(el) s)"
X=.attn/softmax.py; SX="--param M=4096 --param N=8192"
for th in 128 512 1024; do
  timeout 60 $T bench $X $TGT $SX --param threads=$th --no-check --json "$OUT/smx/ts-t$th.json" > /dev/null 2>&1; med ts-t$th "$OUT/smx/ts-t$th.json"
  ( source .tl/setup.sh >/dev/null 2>&1; timeout 100 python3 .tl/run_tilelang.py $X $SX --param threads=$th --json "$OUT/smx/tl-t$th.json" > "$OUT/smx/tl-t$th.log" 2>&1 ); med tl-t$th "$OUT/smx/tl-t$th.json"
done
timeout 60 $T bench $X $TGT $SX --no-check --json "$OUT/smx/ts-t256.json" > /dev/null 2>&1; med ts-t256 "$OUT/smx/ts-t256.json"
echo "== 3. attention B with bf16 ($(el) s)"
ATTN_QUICK=1 ATTN_BUDGET_S=400 ATTN_CFGS="B" ATTN_BF16_CFGS="B" TILESCOPE_HOPPER_PINGPONG=0 OUT=$OUT/attn timeout 200 bash .attn/h200_attention.sh > "$OUT/attn/stdout.txt" 2>&1
echo "attention rc=$? ($(el) s)"; grep -E "^(fwd|causal)" "$OUT/attn/stdout.txt" | python3 -c "
import sys,json
for line in sys.stdin:
    k,v=line.split(':',1); d=json.loads(v); print(k, 'best', d['tilescope_best_config'], d['tilescope_best_ms'], 'cudnn', d['cudnn_ms'], 'vs_cudnn', d['vs_cudnn'], 'vs_tilelang', d['vs_tilelang'])"
echo "== 4. TMA plain loop=1 ($(el) s)"
if [ "$(el)" -lt 300 ]; then
  OUT=$OUT/tma TILEC=$T LOOPS=1 TUNE_LIMIT=150 timeout $(( 540 - $(el) )) bash bench/h200_tma_plain.sh > "$OUT/tma/stdout.txt" 2>&1
  echo "tma rc=$?"; tail -4 "$OUT/tma/stdout.txt"
else echo "skipped (time)"; fi
cd "$OUT" && tar czf all.tgz ncu smx attn tma && ls -la all.tgz
echo "done at $(el) s"
