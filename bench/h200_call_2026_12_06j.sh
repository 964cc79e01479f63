#!/usr/bin/env bash
# 2026-12-06, third session: the issue-10 figures on one payload (bench/h200_payload.sh -> .h200).
#   run(command="bash .h200/h200_call_2026_12_06j.sh 1", carry=[".h200", ".tl"])   attention
#   run(command="bash .h200/h200_call_2026_12_06j.sh 2", carry=[".h200", ".tl"])   MHA bwd, SwiGLU, RMSNorm
# Part 1: the warpgroup ping-pong with P V in flight across the turn (TILESCOPE_HOPPER_PINGPONG=2,
#   InjectPipelineTmaFragment.cpp pingPongInflightApplies): correctness on the GPU against float64
#   (tilec run: ragged, causal, GQA, bf16, trip counts 1-3) under the worker's watchdog, then the
#   attention speed section (bench/h200_attention.sh, quick) at E D B F with =2, the first form (=1)
#   and the lockstep (=0) at E, bf16 at B and E, TileLang's example and torch SDPA in the same call.
# Part 2: MHA backward (quick: 2 variants, TileLang's example, cuDNN, flash), SwiGLU (configs g e),
#   RMSNorm -> matmul and RMSNorm MLP (the best configurations of 2026-12-03 only).
# Results: $OUT/part<N>.tgz.
set -u
PART=${1:-1}; A=.h200; T=$A/tilec
RES=${OUT:-/tmp/out}; OUT=/tmp/w$PART; mkdir -p "$OUT" "$RES"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
[ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== part $PART, payload $(cat $A/commit), tree $(git log -1 --format=%h 2>/dev/null)"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>&1 | head -1
if [ "$PART" = 1 ]; then
  echo "== 1a. ping-pong with P V in flight: GPU vs float64"
  export TILESCOPE_WORKER_TIMEOUT=60
  ok=0; bad=0
  r() { echo "-- $*" >> "$OUT/checks.txt"; if timeout 90 $T run $A/flash_attn_fwd.py --target cuda:sm_90a "$@" -q >> "$OUT/checks.txt" 2>&1; then ok=$((ok+1)); echo "PASS $*"; else bad=$((bad+1)); echo "FAIL($?) $*"; tail -3 "$OUT/checks.txt"; fi; }
  E="-p block_M=128 -p block_N=128 -p num_stages=3 -p threads=256"
  D="-p block_M=128 -p block_N=64 -p num_stages=3 -p threads=256"
  F="-p block_M=128 -p block_N=64 -p num_stages=4 -p threads=256"
  export TILESCOPE_HOPPER_PINGPONG=2
  r -p batch=1 -p heads=16 -p seq_len=4096 -p dim=128 $E
  r -p batch=1 -p heads=16 -p seq_len=4097 -p dim=128 -p is_causal=True $E
  r -p batch=2 -p heads=16 -p seq_len=1000 -p dim=128 $D
  r -p batch=1 -p heads=32 -p seq_len=1000 -p dim=128 -p groups=4 -p is_causal=True -p dtype=bfloat16 $D
  r -p batch=1 -p heads=32 -p seq_len=4097 -p dim=128 -p groups=8 $E
  r -p batch=1 -p heads=2 -p seq_len=100 -p dim=128 $E
  r -p batch=1 -p heads=2 -p seq_len=128 -p dim=128 -p is_causal=True $F
  r -p batch=1 -p heads=4 -p seq_len=300 -p dim=64 -p block_M=128 -p block_N=64 -p num_stages=3 -p threads=256 -p dtype=bfloat16
  echo "checks: $ok pass, $bad fail ($(el) s)"
  if [ "$bad" -gt 0 ]; then export TILESCOPE_HOPPER_PINGPONG=1; echo "!! P V in flight failed: timing =1 instead"; fi
  echo "== 1b. attention speed ($(el) s)"
  ATTN_DIR=$A ATTN_QUICK=1 ATTN_CFGS="E D B F" ATTN_BF16_CFGS="B E" ATTN_BUDGET_S=330 OUT=$OUT/attn timeout 480 bash $A/h200_attention.sh 2>&1 | tail -22
  cd "$OUT" && tar czf "$RES/part1.tgz" checks.txt attn
else
  echo "== 2a. MHA backward ($(el) s)"
  MHAB_DIR=$A MHAB_QUICK=1 MHAB_BUDGET_S=0 MHAB_VARIANTS="m128n128ds default" OUT=$OUT/mhab timeout 200 bash $A/h200_mha_bwd_perf.sh 2>&1 | tail -16
  echo "== 2b. swiglu ($(el) s)"
  SW_DIR=$A SW_CFGS="g e" SW_INF=1 OUT=$OUT/sw timeout 200 bash $A/h200_swiglu.sh 2>&1 | tail -16
  echo "== 2c. rmsnorm ($(el) s)"
  mkdir -p .rms && cp $T .rms/tilec && cp $A/commit .rms/commit
  RMS_MM_CFGS="D" RMS_GU_CFGS="s4" RMS_FU_CFGS="n256" RMS_FM_CFGS="k64s4" RMS_RN_CFGS="r1t256" OUT=$OUT/rms timeout 240 bash bench/h200_rmsnorm.sh 2>&1 | tail -12
  echo "== 2d. ncu: attention B (lockstep, 2 CTAs/SM?) and MHA bwd main ($(el) s)"
  NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null); mkdir -p $OUT/ncu
  if [ -n "$NCU" ]; then
    SEC="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis"
    timeout 120 $NCU $SEC --target-processes all -k regex:flash_attn --launch-skip 3 -c 1 $T bench $A/flash_attn_fwd.py --target cuda:sm_90a \
      -p batch=1 -p heads=16 -p seq_len=4096 -p dim=128 -p block_M=128 -p block_N=64 -p num_stages=2 -p threads=256 --no-check --reps 5 > $OUT/ncu/attn-B.txt 2>&1
    tail -60 $OUT/ncu/attn-B.txt | grep -E "Throughput|Occupancy|Block Limit|Registers|Stall|Issued|Eligible|No Eligible|Duration|Active Warps" | head -30
    timeout 120 $NCU $SEC --target-processes all -k regex:mha_bwd_main --launch-skip 3 -c 1 $T bench $A/mha_bwd.py --target cuda:sm_90a --kernel mha_bwd_main \
      -p batch=8 -p heads=32 -p seq_len=1024 -p dim=64 -p block_M=128 -p block_N=128 -p threads=256 -p ds_regs=True --no-check --reps 5 > $OUT/ncu/mhab-main.txt 2>&1
    grep -E "Duration|Throughput|Achieved Occupancy|Block Limit Reg|Registers Per" $OUT/ncu/mhab-main.txt | head -12
  else echo "no ncu"; fi
  cd "$OUT" && tar czf "$RES/part2.tgz" mhab sw rms ncu
fi
echo "done part $PART in $(el) s"
