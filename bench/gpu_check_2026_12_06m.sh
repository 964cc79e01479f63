#!/usr/bin/env bash
# 2026-12-06, sixth session: conversions to 16/8-bit floats round once on the GPU (the device
# header's round-to-odd float, resources/ts_device/portable.cuh) -- tests/e2e/programs/
# conversion_ties.py against float64 (the hand-derived 0/0/1 columns) and against the interpreter;
# plus the fifth session's unrun check (c_conversions.py, bench/gpu_check_2026_12_06i.sh) and, as
# the prelude changed for every kernel, flash_attn_fwd / gemm / mha_bwd samples against float64.
#   cp bench/gpu_check_2026_12_06m.sh bench/gpu_check_lib.sh tests/e2e/programs/{conversion_ties,c_conversions,narrow_minmax_loop64,int_width_semantics}.py samples/{flash_attn_fwd,gemm,mha_bwd}.py .h200/
#   run(command="OUT=$OUT bash .h200/gpu_check_2026_12_06m.sh", carry=[".h200"])
. "$(dirname "$0")/gpu_check_lib.sh"
for tgt in cuda:sm_80 cuda:sm_90a; do
  rseeds 2 $A/conversion_ties.py --target $tgt
  rseeds 3 $A/c_conversions.py --target $tgt
  for p in conversion_ties c_conversions narrow_minmax_loop64 int_width_semantics; do r 0 $A/$p.py --target $tgt --check interp; done
  r 0 $A/gemm.py --target $tgt
  r 0 $A/flash_attn_fwd.py --target $tgt -p seq_len=1000 -p is_causal=True -p groups=4
done
r 0 $A/mha_bwd.py --target cuda:sm_90a --chain mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess --ref bwd_ref -p seq_len=1000 -p is_causal=True
gpu_check_summary
