#!/usr/bin/env bash
# 2026-12-06, fifth session (fourth check): a fresh-user trial's findings (helper-113) on the GPU
# (tilec run: against float64 and against the interpreter), sm_80 and sm_90a code on the device's
# sm_90: tests/e2e/programs/narrow_minmax_loop64.py -- T.max/T.min of int8/uint8/int16/uint32 beside
# a literal (NVRTC rejected them), a serial loop from 2**40 with k // -7 (int32 variable before),
# T.floor/ceil/sin/cos; plus int_width_semantics.py and float_to_int.py again as controls.
#   cp bench/gpu_check_2026_12_06h.sh bench/gpu_check_lib.sh tests/e2e/programs/{narrow_minmax_loop64,int_width_semantics,float_to_int}.py .h200/
#   run(command="OUT=$OUT bash .h200/gpu_check_2026_12_06h.sh", carry=[".h200"])
. "$(dirname "$0")/gpu_check_lib.sh"
for tgt in cuda:sm_80 cuda:sm_90a; do
  rseeds 3 $A/narrow_minmax_loop64.py --target $tgt
  for p in narrow_minmax_loop64 int_width_semantics float_to_int; do r 0 $A/$p.py --target $tgt --check interp; done
done
gpu_check_summary
