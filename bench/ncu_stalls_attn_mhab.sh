#!/usr/bin/env bash
# Warp stall reasons (Nsight Compute raw metrics) of attention B and the MHA backward main kernel.
A=.h200; T=$A/tilec; [ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
M="--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"
timeout 150 $NCU $M --target-processes all -k regex:flash_attn --launch-skip 3 -c 1 $T bench $A/flash_attn_fwd.py --target cuda:sm_90a \
  -p batch=1 -p heads=16 -p seq_len=4096 -p dim=128 -p block_M=128 -p block_N=64 -p num_stages=2 -p threads=256 --no-check --reps 5 > $OUT/ncu-stalls-attn-B.txt 2>&1
timeout 150 $NCU $M --target-processes all -k regex:mha_bwd_main --launch-skip 3 -c 1 $T bench $A/mha_bwd.py --target cuda:sm_90a --kernel mha_bwd_main \
  -p batch=8 -p heads=32 -p seq_len=1024 -p dim=64 -p block_M=128 -p block_N=128 -p threads=256 -p ds_regs=True --no-check --reps 5 > $OUT/ncu-stalls-mhab.txt 2>&1
for f in $OUT/ncu-stalls-*.txt; do echo "== $f"; grep -E "stalled|tensor|pipe|inst_executed" $f | awk '{ if ($NF+0 > 0.05 || $0 ~ /tensor|pipe|inst_executed.sum/) print }' | sed 's/smsp__average_warps_issue_stalled_//' | head -30; done
