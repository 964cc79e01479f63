#!/usr/bin/env bash
# 2026-12-07 (eleventh session): A/B of the cleared gemm (T.clear(C) + T.gemm(.., C) folded into
# one gemm with clear_accum; on sm_90a the wgmma's first k-step takes scale-d = 0, so the score
# registers are not zeroed each iteration) and of the sample's one-division-per-row epilogue.
#   attention: old = the sample before (flash_attn_fwd_old.py: T.clear + gemm, acc_o /= l) with
#   TILESCOPE_FOLD_CLEAR_GEMM=0 -- the code of the last measurement; new = samples/flash_attn_fwd.py
#   (clear_accum=True, masks after the gemm, l = 1 / l then acc_o *= l).
#   MHA backward main (128x128, dS in registers): TILESCOPE_FOLD_CLEAR_GEMM=1 vs 0 (three T.clear
#   + T.gemm pairs per iteration: qkT, dpT, dq).
# Correctness first (float64): the attention sample at 9 shapes, the MHA backward chain at S=1000
# causal and S=1024 (fold on). Then medians of 50, two rounds interleaved; cuDNN in the same call.
#   bash bench/h200_payload.sh; cp bench/clear_gemm_ab_2026_12_07d.sh bench/attn_switch_ab_lib.sh bench/ab_cudnn_summary.py .h200/;
#   git show 3b46dba:samples/flash_attn_fwd.py > .h200/flash_attn_fwd_old.py
#   run(command="bash .h200/clear_gemm_ab_2026_12_07d.sh", carry=[".h200", ".tl"])
set -u
. "$(dirname "$0")/attn_switch_ab_lib.sh"
W=$OUT
attn_checks
M=$A/mha_bwd.py; BWD=mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess
MB="-p block_M=128 -p block_N=128 -p threads=256 -p ds_regs=True"
for shape in "-p batch=2 -p heads=8 -p seq_len=1000 -p dim=64 -p is_causal=True" "-p batch=8 -p heads=32 -p seq_len=1024 -p dim=64"; do
  echo "-- mha chain $shape" >> $W/checks.txt
  timeout 150 $T run $M --target cuda:sm_90a --chain $BWD --ref bwd_ref $shape $MB -q >> $W/checks.txt 2>&1 && echo "mha chain ok: $shape" || { echo "FAIL mha chain $shape"; tail -4 $W/checks.txt; }
done
echo "== 2. timing ($(el) s)"
FWD="-p batch=1 -p heads=16 -p seq_len=4096 -p dim=128"; CAU="-p batch=4 -p heads=32 -p seq_len=4096 -p dim=128 -p is_causal=True"
ab() { local o=$1 f=$2 fold=$3; shift 3; TILESCOPE_FOLD_CLEAR_GEMM=$fold timeout 120 $T bench $f --target cuda:sm_90a "$@" --no-check --reps 50 --json $W/$o.json >> $W/bench.txt 2>&1 || echo "bench $o failed"; }
for r in 1 2; do
  ab fwd16-old-r$r $A/flash_attn_fwd_old.py 0 $FWD $B; ab fwd16-new-r$r $A/flash_attn_fwd.py 1 $FWD $B
  ab fwdbf-old-r$r $A/flash_attn_fwd_old.py 0 $FWD $B -p dtype=bfloat16; ab fwdbf-new-r$r $A/flash_attn_fwd.py 1 $FWD $B -p dtype=bfloat16
  ab causal-old-r$r $A/flash_attn_fwd_old.py 0 $CAU $B; ab causal-new-r$r $A/flash_attn_fwd.py 1 $CAU $B
  ab mhab-old-r$r $M 0 -k mha_bwd_main -p batch=8 -p heads=32 -p seq_len=1024 -p dim=64 $MB
  ab mhab-new-r$r $M 1 -k mha_bwd_main -p batch=8 -p heads=32 -p seq_len=1024 -p dim=64 $MB
done
echo "timed ($(el) s)"
python3 "$(dirname "$0")/ab_cudnn_summary.py" "$W"
cd $W && tar czf /tmp/clear-ab.tgz *.json *.txt 2>/dev/null; mkdir -p "$RES" && cp /tmp/clear-ab.tgz $W/ab.json "$RES/" 2>/dev/null
echo "done ($(el) s)"
