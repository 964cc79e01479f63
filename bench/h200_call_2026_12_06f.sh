#!/usr/bin/env bash
# 2026-12-06, second session: the issue-10 figures on one payload (bench/h200_payload.sh -> .h200,
# one tilec for all) in two calls chained while the machine is warm:
#   run(command="bash .h200/h200_call_2026_12_06f.sh 1", carry=[".h200", ".tl"], timeout_s=600)
#   run(command="bash .h200/h200_call_2026_12_06f.sh 2", carry=[".h200", ".tl"], timeout_s=600)
#   run(command="bash .h200/h200_call_2026_12_06f.sh 3", carry=[".h200", ".tl"])  (view re-check + SwiGLU)
# Results: $OUT/part<N>.tgz (the only file the call leaves there).
# Part 1: (a) the test programs never run on a GPU (sink_tma_waits.py modes 0-3 with the pass on
#   and off and on sm_80; top_fence_tail.py modes 0/1) by tilec run vs float64; shared_view_alias.py
#   and TileLang's swizzled reshape/view tests against the tile-level interpreter (bit-exact); (b) attention
#   forward, speed section of bench/h200_attention.sh at E D B (ATTN_QUICK) with TileLang's example
#   and torch SDPA cuDNN/flash in the same call; (c) the causal shape with the query blocks of each
#   head started heaviest first (a copy of the sample, q0 reversed) against the sample, same call.
# Part 2: (a) MHA backward quick (the 3 variants, TileLang's example, cuDNN, flash); (b) SwiGLU
#   M4096 K4096 N11008 bf16 at 192x128x64/3 and /4 stages/384 threads and 128x192x64/3/256 (waves:
#   1892 tiles = 14.3 per SM against 1856 = 14.06): correctness at ragged sizes,
#   tilec bench, TileLang, torch eager and torch.compile.
set -u
PART=${1:-1}; A=.h200; T=$A/tilec
RES=${OUT:-/tmp/out}; OUT=/tmp/w$PART; mkdir -p "$OUT" "$RES"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
[ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== part $PART, payload $(cat $A/commit), tree $(git log -1 --format=%h 2>/dev/null)"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>&1 | head -1
if [ "$PART" = 1 ]; then
  echo "== 1a. test programs on the GPU vs float64"
  r() { echo "-- $*" >> "$OUT/programs.txt"; TILESCOPE_WORKER_TIMEOUT=60 timeout 60 $T run "$@" -q >> "$OUT/programs.txt" 2>&1 && echo "PASS $*" || echo "FAIL($?) $*"; }
  for m in 0 1 2 3; do
    r tests/e2e/programs/sink_tma_waits.py --target cuda:sm_90a -p mode=$m
    TILESCOPE_SINK_TMA_WAITS=0 r tests/e2e/programs/sink_tma_waits.py --target cuda:sm_90a -p mode=$m
    r tests/e2e/programs/sink_tma_waits.py --target cuda:sm_80 -p mode=$m
  done
  for m in 0 1; do for t in cuda:sm_90a cuda:sm_80; do r tests/e2e/programs/top_fence_tail.py --target $t -p mode=$m; done; done
  # Views of shared tiles (row-major and swizzled): the GPU against the tile-level interpreter, bit-exact outputs.
  for sw in False True; do for t in cuda:sm_90a cuda:sm_80; do r tests/e2e/programs/shared_view_alias.py --target $t -p swizzled=$sw --check interp; done; done
  C=/work/shared/tilelang-corpus/testing/python/language
  [ -d "$C" ] || C=.h200/corpus
  for dt in float16 float32; do r $C/test_tilelang_language_reshape.py --kernel reshape_layout_transform_shared -p N=1024 -p M=32 -p dtype=$dt --check interp; done
  for sw in False True; do r $C/test_tilelang_language_view.py --kernel shared_reinterpret_view_test -p "shape=(64,128)" -p dtype=bfloat16 -p "new_shape=(64,64)" -p new_dtype=float32 -p swizzled=$sw --check interp; done
  grep -h "ran on" "$OUT/programs.txt" | sort | uniq -c | head -3
  echo "== 1b. attention ($(el) s)"
  ATTN_DIR=$A ATTN_QUICK=1 ATTN_BUDGET_S=240 OUT=$OUT/attn timeout 470 bash $A/h200_attention.sh 2>&1 | tail -25
  echo "== 1c. causal, heaviest query block first ($(el) s)"
  python3 - "$A/flash_attn_fwd.py" "$OUT/fa_rev.py" <<'PY'
import sys
s = open(sys.argv[1]).read()
old = "            q0 = qb * block_M  # first query row of this block\n"
assert old in s
s = s.replace(old, "            q0 = (T.ceildiv(seq_len, block_M) - 1 - qb) * block_M if is_causal else qb * block_M\n")
open(sys.argv[2], "w").write(s)
PY
  CAUSAL="--param batch=4 --param heads=32 --param seq_len=4096 --param dim=128 --param is_causal=True"
  cfgE="--param block_M=128 --param block_N=128 --param num_stages=3 --param threads=256"
  cfgB="--param block_M=128 --param block_N=64 --param num_stages=2 --param threads=256"
  TILESCOPE_WORKER_TIMEOUT=90 timeout 60 $T run "$OUT/fa_rev.py" --target cuda:sm_90a --param batch=1 --param heads=16 --param dim=128 --param seq_len=4097 --param is_causal=True $cfgE -q 2>&1 | tail -1
  for c in E B; do eval cfg=\$cfg$c; for f in "$A/flash_attn_fwd.py:sample" "$OUT/fa_rev.py:rev"; do
    TILESCOPE_WORKER_TIMEOUT=90 timeout 120 $T bench ${f%%:*} --target cuda:sm_90a $CAUSAL $cfg --no-check --reps 50 --json "$OUT/causal-${f##*:}-$c.json" > /dev/null 2>&1
    python3 -c "import json;print('causal ${f##*:} $c', round(json.load(open('$OUT/causal-${f##*:}-$c.json'))['median_ms'],4))" 2>/dev/null || echo "causal ${f##*:} $c missing"
  done; done
  cd "$OUT" && tar czf "$RES/part1.tgz" programs.txt attn causal-*.json fa_rev.py
elif [ "$PART" = 3 ]; then
  # The view fixes after call 06g (a gemm-operand view's tile aligned to 1024 bytes), then SwiGLU.
  for t in cuda:sm_90a cuda:sm_80; do for m in 0 1 2; do
    timeout 60 $T run tests/e2e/programs/shared_view_gemm_operand.py --target $t -p mode=$m --check interp -q > "$OUT/v.txt" 2>&1 && echo "PASS view mode $m $t" || { echo "FAIL view mode $m $t"; tail -4 "$OUT/v.txt"; }
  done; done
  echo "== 3b. swiglu ($(el) s)"
  SW_DIR=$A SW_CFGS="${SW3_CFGS:-e f g}" SW_INF=1 OUT=$OUT/sw timeout 330 bash $A/h200_swiglu.sh 2>&1 | tail -25
  cd "$OUT" && tar czf "$RES/part3.tgz" sw
else
  echo "== 2a. MHA backward ($(el) s)"
  MHAB_DIR=$A MHAB_QUICK=1 MHAB_BUDGET_S=0 MHAB_VARIANTS="default m128n128ds m128n128ds3" OUT=$OUT/mhab timeout 300 bash $A/h200_mha_bwd_perf.sh 2>&1 | tail -25
  echo "== 2b. swiglu ($(el) s)"
  SW_DIR=$A SW_CFGS="e f g" SW_INF=1 OUT=$OUT/sw timeout 280 bash $A/h200_swiglu.sh 2>&1 | tail -25
  cd "$OUT" && tar czf "$RES/part2.tgz" mhab sw
fi
echo "done part $PART in $(el) s"
