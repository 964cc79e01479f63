#!/usr/bin/env bash
# 2026-12-06, sixth session: the V tile (read only by P V) on its own full barrier, waited right before P V
# (InjectPipelineTmaFragment.cpp late tiles; TILESCOPE_HOPPER_LATE_WAIT=0 = the code before).
#   bash bench/h200_payload.sh; run(command="bash .h200/h200_call_2026_12_06m.sh", carry=[".h200", ".tl"])
# 1. correctness on the GPU against float64 with the late wait (tilec run: ragged, causal, GQA,
#    bf16, flash_decode, mha_bwd's forward);
# 2. A/B timing, interleaved (late on, off, on, off), tilec bench median of 50: attention fwd
#    fp16 / bf16 and causal at 128x64 / 2 stages / 256 threads (the fastest form);
# 3. bench/h200_attention.sh quick at B (late on: the default) with TileLang's example and torch
#    SDPA (cuDNN, flash) in the same call: vs_cudnn / vs_tilelang.
. "$(dirname "$0")/attn_switch_ab_lib.sh"
attn_checks
attn_switch_ab TILESCOPE_HOPPER_LATE_WAIT late nolate
echo "== 3. attention speed with baselines ($(el) s)"
ATTN_DIR=$A ATTN_QUICK=1 ATTN_CFGS="B" ATTN_BF16_CFGS="B" ATTN_BUDGET_S=200 OUT=$OUT/attn timeout 330 bash $A/h200_attention.sh 2>&1 | tail -14
echo "== 4. MHA backward main, written-operand schedule with and without late tiles ($(el) s)"
if [ "$(el)" -lt 420 ]; then
  for round in 1 2; do
    MHAB_DIR=$A MHAB_QUICK=1 MHAB_NO_BASELINES=1 MHAB_BUDGET_S=0 MHAB_VARIANTS="m128n128ds m128n128dswo m128n128dswonolate" \
      OUT=$OUT/mhab-r$round timeout 90 bash $A/h200_mha_bwd_perf.sh 2>&1 | grep -v "^main kernel" | tail -5
  done
fi
cd "$OUT" && tar czf "$RES/call-06m.tgz" .
echo "done in $(el) s"
