#!/usr/bin/env bash
# 2026-12-06, fifth session (third check): integer and float64 element semantics that was right on the interpreters and wrong in
# the generated CUDA (helper-111), on the GPU (tilec run: against float64 and against the
# interpreter), sm_80 and sm_90a code on the device's sm_90:
#  - tests/e2e/programs/int64_index_arith.py: int64 // and % of negatives, T.max of int64 and an
#    int64 %, int32 variables beside literals past int32, (i - 2) // 65536 // 65536 in int32;
#  - tests/e2e/programs/index_fold_overflow.py: (bx * 2**62) * 4 left unfolded (was wrapped to 0);
#  - tests/e2e/programs/int_width_semantics.py: uint32 // and % past 2^31, uint32 0 - 1 > 5, T.abs of
#    a uint32, uint64 past 2^63 shifted and compared, float64 max/abs/pow/floor at 1e300 (helper-112);
#  - tests/e2e/programs/float_to_int.py, int_promotions.py: out-of-range float -> int, C's integer
#    promotions of 8/16-bit operands, int64 -> float32 (GPU against the interpreter);
#  - tests/e2e/programs/large_index.py at 64 x 256 (ordinary offsets) as a control.
#   cp bench/gpu_check_2026_12_06g.sh bench/gpu_check_2026_12_06f.sh bench/gpu_check_lib.sh tests/e2e/programs/{int64_index_arith,index_fold_overflow,int_width_semantics,int_promotions,float_to_int,large_index}.py .h200/
#   run(command="OUT=$OUT bash .h200/gpu_check_2026_12_06g.sh", carry=[".h200"])
. "$(dirname "$0")/gpu_check_2026_12_06f.sh"  # the library and index_checks
for tgt in cuda:sm_80 cuda:sm_90a; do
  index_checks $tgt
  # uint16 * uint16 in C's int (65535^2 -> -131071), int64 -> float32 in one rounding.
  r 0 $A/int_promotions.py --target $tgt --check interp
done
gpu_check_summary
