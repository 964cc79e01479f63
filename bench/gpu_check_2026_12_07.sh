#!/usr/bin/env bash
# 2026-12-07 (ninth session): GPU check of this session's compiler changes, sm_90a and sm_80:
# TileLang's let_layout test (a TMA box coordinate read from a replicated fragment: before,
# NVRTC rejected the code, an undefined `block_mask_f_1`), against the tile interpreter; the
# nested test kernels (tests/e2e/programs/nested_test_kernels.py) against their float64
# references and the interpreter; tests/e2e/programs/tma_fragment_coordinate.py (the same pattern,
# pipelined and plain TMA) against float64 and the interpreter.
#   cp bench/gpu_check_2026_12_07.sh bench/gpu_check_lib.sh tests/e2e/programs/{nested_test_kernels,tma_fragment_coordinate}.py \
#      ../shared/tilelang-corpus/testing/python/language/test_tilelang_language_{let_layout,eager_jit}.py .h200/
#   run(command="bash .h200/gpu_check_2026_12_07.sh", carry=[".h200", ".tl"])
. "$(dirname "$0")/gpu_check_lib.sh"
for tgt in cuda:sm_90a cuda:sm_80; do
  r 0 $A/test_tilelang_language_let_layout.py --target $tgt --check interp
  r 0 $A/test_tilelang_language_let_layout.py --target $tgt --check interp --seed 7
  r2 $A/nested_test_kernels.py --target $tgt --ref ref_scale
  r2 $A/nested_test_kernels.py --target $tgt -k test_scale_half.scale --ref ref_half
  r 0 $A/nested_test_kernels.py --target $tgt -k test_scale_half.scale --ref ref_half -p N=4097
  r2 $A/tma_fragment_coordinate.py --target $tgt
  r2 $A/tma_fragment_coordinate.py --target $tgt -p guarded=True
  # Eager kernels whose T.Kernel is in a @T.macro (TileLang's eager_jit test, now eager).
  r 0 $A/test_tilelang_language_eager_jit.py -k test_jit2_return.copy2 --target $tgt --check interp
  r 0 $A/test_tilelang_language_eager_jit.py -k test_jit2_gemm.gemm --target $tgt --check interp -p M=256 -p N=128 -p K=192
done
gpu_check_summary
