#!/usr/bin/env bash
# Device call of the 2026-12-04 afternoon session (at most ~560 s), every ratio from this call:
#  1. correctness of the softmax-overlap schedule (InjectPipelineTmaFragment.cpp: P V of key tile
#     k-1 in flight while the softmax of tile k runs; the default now) on the GPU against the
#     float64 ref_program: trip counts 1 and 2, 1/2/3 stages, causal, ragged S, GQA, bf16;
#  2. speed A/B in this call: samples/flash_attn_fwd.py at B1 H16 S4096 D128 fp16 and causal
#     B4 H32 S4096 D128, configurations B (128x64/2 stages), C (128x128/2), E (128x128/3), each
#     with the overlap (default) and without (TILESCOPE_HOPPER_SOFTMAX_OVERLAP=0), alternating;
#  3. the attention table with TileLang's example and torch SDPA cuDNN/flash
#     (bench/h200_attention.sh, quick: configs C E with the overlap, bf16 C).
#   bash bench/attention_payload.sh /work/main /work/.mirror/tile-ai+tilelang/repo
#   run(command="bash bench/h200_call_2026_12_04c.sh", carry=[".attn", ".tl"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"/attn; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=90
T=.attn/tilec; TGT="--target cuda:sm_90a"; F=.attn/flash_attn_fwd.py
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== payload $(cat .attn/commit)"
med() { python3 -c "import json;print('$1', round(json.load(open('$2'))['median_ms'],4))" 2>/dev/null || echo "$1 missing"; }
cfgB="--param block_M=128 --param block_N=64 --param num_stages=2 --param threads=256"
cfgC="--param block_M=128 --param block_N=128 --param num_stages=2 --param threads=256"
cfgE="--param block_M=128 --param block_N=128 --param num_stages=3 --param threads=256"
FWD="--param batch=1 --param heads=16 --param seq_len=4096 --param dim=128"
CAUSAL="--param batch=4 --param heads=32 --param seq_len=4096 --param dim=128 --param is_causal=True"
echo "== 1. correctness, overlap on ($(el) s)"
pass=0; fail=0
chk() {
  if timeout 90 $T run $F $TGT -q "$@" > "$OUT/attn/chk.txt" 2>&1; then pass=$((pass+1)); echo "PASS $*"
  else fail=$((fail+1)); echo "FAIL $*"; tail -3 "$OUT/attn/chk.txt"; fi
}
chk $FWD $cfgC
chk $FWD $cfgB
chk --param batch=1 --param heads=16 --param dim=128 --param seq_len=4097 --param is_causal=True $cfgE
chk --param batch=1 --param heads=32 --param dim=128 --param seq_len=1000 --param groups=4 --param is_causal=True --param dtype=bfloat16 $cfgC
chk --param batch=1 --param heads=32 --param dim=128 --param seq_len=4097 --param groups=8 $cfgB
chk --param batch=1 --param heads=2 --param dim=128 --param seq_len=100 $cfgC
chk --param batch=1 --param heads=2 --param dim=128 --param seq_len=128 --param is_causal=True --param block_M=128 --param block_N=64 --param num_stages=3 --param threads=256
chk --param batch=2 --param heads=4 --param dim=64 --param seq_len=300 --param block_M=64 --param block_N=64 --param num_stages=1 --param threads=128
chk --param batch=2 --param heads=4 --param dim=64 --param seq_len=64 --param is_causal=True --param block_M=64 --param block_N=32 --param num_stages=2 --param threads=128
for g in samples/flash_attention.py tests/e2e/programs/attention_gqa_bshd.py tests/e2e/programs/attention_kv_window.py .attn/tl/example_mha_fwd_bshd.py .attn/tl/example_gqa_fwd_bshd.py; do
  if timeout 90 $T run $g $TGT -q > "$OUT/attn/chk.txt" 2>&1; then pass=$((pass+1)); echo "PASS $g"
  else fail=$((fail+1)); echo "FAIL $g"; tail -3 "$OUT/attn/chk.txt"; fi
done
echo "correctness: $pass pass, $fail fail ($(el) s)"
echo "== 2. A/B overlap on/off ($(el) s)"
for i in 1 2; do for c in C E B; do eval cfg=\$cfg$c
  for o in 1 0; do
    TILESCOPE_HOPPER_SOFTMAX_OVERLAP=$o timeout 60 $T bench $F $TGT $FWD $cfg --no-check --reps 50 --json "$OUT/attn/ab-fwd-$c-ov$o-$i.json" > /dev/null 2>&1
  done
done; done
for c in C E; do eval cfg=\$cfg$c
  for o in 1 0; do
    TILESCOPE_HOPPER_SOFTMAX_OVERLAP=$o timeout 90 $T bench $F $TGT $CAUSAL $cfg --no-check --reps 30 --json "$OUT/attn/ab-causal-$c-ov$o.json" > /dev/null 2>&1
  done
done
for f in "$OUT"/attn/ab-*.json; do med "$(basename $f .json)" "$f"; done
echo "== 3. attention table ($(el) s)"
ATTN_QUICK=1 ATTN_BUDGET_S=40 ATTN_CFGS="C E" ATTN_BF16_CFGS="C" TILESCOPE_HOPPER_PINGPONG=0 OUT=$OUT/attn timeout 260 bash .attn/h200_attention.sh > "$OUT/attn/stdout.txt" 2>&1
echo "attention rc=$? ($(el) s)"; grep -E "^(fwd|causal)" "$OUT/attn/stdout.txt" | python3 -c "
import sys,json
for line in sys.stdin:
    k,v=line.split(':',1); d=json.loads(v); print(k, 'best', d['tilescope_best_config'], d['tilescope_best_ms'], 'cudnn', d['cudnn_ms'], 'vs_cudnn', d['vs_cudnn'], 'vs_tilelang', d['vs_tilelang'])"
tail -5 "$OUT/attn/stdout.txt"
cd "$OUT" && tar czf all.tgz attn && ls -la all.tgz
echo "done at $(el) s"
