#!/usr/bin/env bash
# 2026-12-07, ninth session: bench/h200_call_2026_12_06t.sh (the issue-10 acceptance figures with
# every baseline in the same call; parts q, 0, 1, 2, 3) with part 2 also timing m128n128ds3, the
# fastest MHA backward form on the H100. The figures of bench/results/h100-2026-12-07/.
#   bash bench/h200_payload.sh; cp bench/h200_call_2026_12_06{r,t}.sh bench/h200_call_2026_12_07a.sh bench/gpu_check_lib.sh \
#     tests/e2e/programs/{inplace_int_add,inplace_int_via_shared,bool_scalar_arg,reduce_nan_propagate,float_class,grid_loops}.py \
#     ../shared/tilelang-corpus/testing/python/language/test_tilelang_language_clamp.py .h200/
#   run(command="bash .h200/h200_call_2026_12_07a.sh 1", carry=[".h200", ".tl"])   (then 2, 3)
MHAB_VARIANTS=${MHAB_VARIANTS:-m128n128ds m128n128ds3 default} exec bash "$(dirname "$0")/h200_call_2026_12_06t.sh" "$@"
