#!/usr/bin/env bash
# 2026-12-06, seventh session, second call:
# 0. GPU check of this session's new program and fixes: tests/e2e/programs/inplace_int_add.py
#    (--inout B, sm_80 and sm_90a, against float64 and the interpreter), bool_scalar_arg.py and TileLang's clamp test
#    (testing/python/language/test_tilelang_language_clamp.py: its nested ref_program now sees the
#    kernel's min_val/max_val) on the GPU against float64;
# 1. attention correctness on the GPU with TILESCOPE_HOPPER_LATE_REFILL=1 (the refill after the
#    first gemm: InjectPipelineTmaFragment.cpp) -- attn_checks' 9 shapes;
# 2. A/B, interleaved, tilec bench median of 50: LATE_REFILL on/off for fwd fp16/bf16 and causal.
#   bash bench/h200_payload.sh; cp bench/h200_call_2026_12_06r.sh bench/gpu_check_lib.sh tests/e2e/programs/{inplace_int_add,inplace_int_via_shared,bool_scalar_arg}.py \
#     ../shared/tilelang-corpus/testing/python/language/test_tilelang_language_clamp.py .h200/
#   run(command="bash .h200/h200_call_2026_12_06r.sh", carry=[".h200", ".tl"])
. "$(dirname "$0")/attn_switch_ab_lib.sh"
echo "== 0. gpu check ($(el) s)"
cat > /tmp/chk.sh <<'CHK'
. .h200/gpu_check_lib.sh
for tgt in cuda:sm_80 cuda:sm_90a; do
  r2 $A/inplace_int_add.py --target $tgt --inout B
  r 1 $A/inplace_int_add.py --target $tgt
  r2 $A/inplace_int_via_shared.py --target $tgt --inout B
  r 0 $A/test_tilelang_language_clamp.py --target $tgt --kernel clamp_within_bounds
  r 0 $A/test_tilelang_language_clamp.py --target $tgt --kernel clamp_within_bounds -p min_val=-0.5 -p max_val=0.25
  r 0 $A/test_tilelang_language_clamp.py --target $tgt --kernel clamp_within_bounds --check interp
  r2 $A/bool_scalar_arg.py --target $tgt -p flag=1
  r 0 $A/bool_scalar_arg.py --target $tgt -p flag=0
done
gpu_check_summary
CHK
OUT=$RES/check bash /tmp/chk.sh > $RES/check.txt 2>&1; grep -A3 ^BAD $RES/check.txt; tail -2 $RES/check.txt
export TILESCOPE_HOPPER_LATE_REFILL=1
attn_checks
unset TILESCOPE_HOPPER_LATE_REFILL
attn_switch_ab TILESCOPE_HOPPER_LATE_REFILL lr top
cp $OUT/ab.json $RES/ab-late-refill.json 2>/dev/null
cd "$OUT" && tar czf "$RES/call-06r.tgz" .
echo "done in $(el) s"
