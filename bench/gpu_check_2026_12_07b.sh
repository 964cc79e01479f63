#!/usr/bin/env bash
# 2026-12-07 (tenth session; no device time was left to run it): GPU check of the ninth and tenth
# sessions' programs, sm_90a and sm_80, each against its float64 reference and the interpreter:
# the nested test kernels and factories, the two-kernel chain of one test (--bind with dotted
# names), T.copy prefer_instruction (TMA load on sm_90a for "tma" only), T.Select / T.assume (the
# launch assumption must stop the GPU run at N = 1022: rc 1), the TMA fragment coordinate, and
# TileLang's let_layout / eager_jit / assume / select tests against the interpreter.
#   bash bench/h200_payload.sh; cp bench/gpu_check_2026_12_07b.sh bench/gpu_check_lib.sh \
#      tests/e2e/programs/{nested_test_kernels,nested_test_factories,nested_chain,nested_chain_ref,copy_prefer_instruction,select_assume,tma_fragment_coordinate}.py \
#      ../shared/tilelang-corpus/testing/python/language/test_tilelang_language_{let_layout,eager_jit,assume,select}.py .h200/
#   run(command="OUT=/tmp/o bash .h200/gpu_check_2026_12_07b.sh 2>&1 | tail -30; mkdir -p $OUT/chk && cp /tmp/o/gpu-check.txt $OUT/chk/", carry=[".h200", ".tl"])
. "$(dirname "$0")/gpu_check_lib.sh"
for tgt in cuda:sm_90a cuda:sm_80; do
  r 0 $A/test_tilelang_language_let_layout.py --target $tgt --check interp
  r2 $A/nested_test_kernels.py --target $tgt --ref ref_scale
  r2 $A/nested_test_kernels.py --target $tgt -k test_scale_half.scale --ref ref_half
  r 0 $A/nested_test_kernels.py --target $tgt -k test_scale_half.scale --ref ref_half -p N=4097
  r2 $A/nested_test_factories.py --target $tgt -k test_add.add --ref ref_add
  r 0 $A/nested_test_factories.py --target $tgt -k add --ref ref_add -p N=4097
  r2 $A/nested_test_factories.py --target $tgt -k test_mul.mul --ref ref_mul
  r 0 $A/nested_chain.py --target $tgt --chain test_affine.double,test_affine.shift --bind test_affine.shift.A=test_affine.double.Y --ref $A/nested_chain_ref.py::chain_ref
  for first in tma cp_async; do for second in sync tma; do
    r2 $A/copy_prefer_instruction.py --target $tgt -p first="'$first'" -p second="'$second'"
  done; done
  r2 $A/select_assume.py --target $tgt -p N=1000
  r 1 $A/select_assume.py --target $tgt -p N=1022
  r2 $A/tma_fragment_coordinate.py --target $tgt
  r 0 $A/test_tilelang_language_eager_jit.py -k test_jit2_return.copy2 --target $tgt --check interp
  r 0 $A/test_tilelang_language_assume.py -k test_assume_complex_indexing.kernel_complex --target $tgt --check interp
  r 0 $A/test_tilelang_language_select.py -k get_select_kernel_2 --target $tgt --check interp
done
gpu_check_summary
