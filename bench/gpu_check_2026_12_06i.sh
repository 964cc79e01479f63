#!/usr/bin/env bash
# 2026-12-06, fifth session (fifth check): a break-test's findings (helper-114) on the GPU (tilec
# run: against float64 and against the interpreter), sm_80 and sm_90a code on the device's sm_90:
# tests/e2e/programs/c_conversions.py -- T.cast(-1, "uint32"), 8/16-bit T.max in int, uint8
# (U - 200) // 3, int8/uint8 mixed either way round, T.floor of an int, a 1e40 float32 literal;
# plus narrow_minmax_loop64.py and int_width_semantics.py against the interpreter as controls.
#   cp bench/gpu_check_2026_12_06i.sh bench/gpu_check_lib.sh tests/e2e/programs/{c_conversions,narrow_minmax_loop64,int_width_semantics}.py .h200/
#   run(command="OUT=$OUT bash .h200/gpu_check_2026_12_06i.sh", carry=[".h200"])
. "$(dirname "$0")/gpu_check_lib.sh"
for tgt in cuda:sm_80 cuda:sm_90a; do
  rseeds 3 $A/c_conversions.py --target $tgt
  for p in c_conversions narrow_minmax_loop64 int_width_semantics; do r 0 $A/$p.py --target $tgt --check interp; done
done
gpu_check_summary
