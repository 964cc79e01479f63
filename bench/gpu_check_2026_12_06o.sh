#!/usr/bin/env bash
# 2026-12-06, sixth session (second check): helper-115's findings and the float32 math fold on
# the GPU, sm_80 and sm_90a code: tests/e2e/programs/reduce_int_edges.py (int64 reduce_min, a
# clear=False reduce into 3 rows over 128 threads, T.abs of int32's minimum) at both of its shapes
# against float64 and against the tile-level interpreter; float32_math_fold.py; an fp8 atomic_max is
# a compile error (rc 1) before any launch; pipelined_gemm_in_loop.py (a TMA GEMM loop inside an
# outer loop retires its wgmma before the next trip: helper-116) at both outer forms.
#   cp bench/gpu_check_2026_12_06o.sh bench/gpu_check_lib.sh tests/e2e/programs/{reduce_int_edges,float32_math_fold,pipelined_gemm_in_loop}.py tests/errors/atomic_max_fp8.py .h200/
#   run(command="OUT=$OUT bash .h200/gpu_check_2026_12_06o.sh", carry=[".h200"])
. "$(dirname "$0")/gpu_check_lib.sh"
for tgt in cuda:sm_80 cuda:sm_90a; do
  for shape in "" "-p M=2 -p N=64 -p threads=32"; do
    rseeds 2 $A/reduce_int_edges.py --target $tgt $shape
    r 0 $A/reduce_int_edges.py --target $tgt --check interp $shape
  done
  r2 $A/float32_math_fold.py --target $tgt
  r 1 $A/atomic_max_fp8.py --target $tgt
  for o in 0 1; do r 0 $A/pipelined_gemm_in_loop.py --target $tgt -p outer=$o; r 0 $A/pipelined_gemm_in_loop.py --target $tgt -p outer=$o -p M=256 -p N=256 -p K=1024 --seed 2; done
done
gpu_check_summary
