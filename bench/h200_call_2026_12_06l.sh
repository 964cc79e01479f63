#!/usr/bin/env bash
# 2026-12-06, fourth session: the online softmax's rescale skipped when every alpha of a thread
# is exactly 1.0 (codegen/UnitScale.h; TILESCOPE_UNIT_SCALE_SKIP=0 = the code before).
#   bash bench/h200_payload.sh; run(command="bash .h200/h200_call_2026_12_06l.sh", carry=[".h200", ".tl"])
# (Sections 1-2 come from bench/attn_switch_ab_lib.sh since 2026-12-06; the call as run also had two
# sm_80 checks that passed a second --target by mistake.)
# 1. correctness on the GPU against float64 with the guard (tilec run: ragged, causal, GQA, bf16,
#    flash_decode, mha_bwd's forward);
# 2. A/B timing, interleaved (skip on, off, on, off), tilec bench median of 50: attention fwd
#    fp16 / bf16 and causal at 128x64 / 2 stages / 256 threads (the fastest form);
# 3. bench/h200_attention.sh quick at B (skip on) with TileLang's example and torch SDPA (cuDNN,
#    flash) in the same call: vs_cudnn / vs_tilelang.
. "$(dirname "$0")/attn_switch_ab_lib.sh"
attn_checks
attn_switch_ab TILESCOPE_UNIT_SCALE_SKIP skip noskip
echo "== 3. attention speed with baselines ($(el) s)"
ATTN_DIR=$A ATTN_QUICK=1 ATTN_CFGS="B" ATTN_BF16_CFGS="B" ATTN_BUDGET_S=200 OUT=$OUT/attn timeout 330 bash $A/h200_attention.sh 2>&1 | tail -14
cd "$OUT" && tar czf "$RES/call-06l.tgz" .
echo "done in $(el) s"
