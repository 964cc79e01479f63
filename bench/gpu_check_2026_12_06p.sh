#!/usr/bin/env bash
# 2026-12-06, sixth session (third check): helper-117's findings on the GPU, sm_80 and sm_90a code:
# tests/e2e/programs/pipelined_tiles_reused_after.py (a pipelined GEMM whose tiles a later loop loads
# again: the TMA schedules decline it) and atomic_uint32_add.py (CUDA's atomicAdd on unsigned), each
# against float64 and against the interpreter; and 544da6c's block barrier after an sm_80 cp.async
# pipelined loop inside an outer loop (pipelined_gemm_in_loop.py at 3 inner trips, K=192).
#   cp bench/gpu_check_2026_12_06p.sh bench/gpu_check_lib.sh tests/e2e/programs/{pipelined_tiles_reused_after,atomic_uint32_add,pipelined_gemm_in_loop}.py .h200/
#   run(command="OUT=$OUT bash .h200/gpu_check_2026_12_06p.sh", carry=[".h200"])
. "$(dirname "$0")/gpu_check_lib.sh"
for tgt in cuda:sm_80 cuda:sm_90a; do
  for f in pipelined_tiles_reused_after atomic_uint32_add; do r2 $A/$f.py --target $tgt; done
  r 0 $A/atomic_uint32_add.py --target $tgt -p N=65536 --input A=int:0:4294967295
  for k in 192 256; do r2 $A/pipelined_gemm_in_loop.py --target $tgt -p K=$k; rseeds 3 $A/pipelined_gemm_in_loop.py --target $tgt -p K=$k -p outer=1; done
done
gpu_check_summary
