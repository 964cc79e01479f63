#!/usr/bin/env bash
# 2026-12-06, fifth session: integer arithmetic that was right on the interpreters and wrong in
# the generated CUDA (helper-111), on the GPU (tilec run: against float64 and against the
# interpreter), sm_80 and sm_90a code on the device's sm_90:
#  - tests/e2e/programs/int64_index_arith.py: int64 // and % of negatives, T.max of int64 and an
#    int64 %, int32 variables beside literals past int32, (i - 2) // 65536 // 65536 in int32;
#  - tests/e2e/programs/index_fold_overflow.py: (bx * 2**62) * 4 left unfolded (was wrapped to 0);
#  - tests/e2e/programs/large_index.py at 64 x 256 (ordinary offsets) as a control.
#   cp bench/gpu_check_2026_12_06e.sh bench/gpu_check_lib.sh tests/e2e/programs/{int64_index_arith,index_fold_overflow,large_index}.py .h200/
#   run(command="OUT=$OUT bash .h200/gpu_check_2026_12_06e.sh", carry=[".h200"])
. "$(dirname "$0")/gpu_check_lib.sh"
for tgt in cuda:sm_80 cuda:sm_90a; do
  for p in int64_index_arith index_fold_overflow; do r2 $A/$p.py --target $tgt; done
  r 0 $A/int64_index_arith.py --target $tgt --param blocks=300
  r 0 $A/large_index.py --target $tgt
done
gpu_check_summary
