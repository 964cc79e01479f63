#!/usr/bin/env bash
# Fourth device call of the 2026-12-04 afternoon session (~150 s): the late refill of the
# attention TMA pipeline (TILESCOPE_HOPPER_LATE_REFILL=1, InjectPipelineTmaFragment.cpp: the
# elected thread waits for the previous tile's release after the first gemm instead of before it)
# against the default, same call, alternating, at configuration B (128x64 / 2 stages / 256
# threads) and C (128x128 / 2 stages); correctness of the late refill on the GPU vs float64.
#   bash bench/attention_payload.sh /work/main /work/.mirror/tile-ai+tilelang/repo
#   cp bench/h200_call_2026_12_04f.sh .attn/
#   run(command="bash .attn/h200_call_2026_12_04f.sh", carry=[".attn"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"/attn; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=90
T=.attn/tilec; TGT="--target cuda:sm_90a"; F=.attn/flash_attn_fwd.py
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== payload $(cat .attn/commit)"
med() { python3 -c "import json;print('$1', round(json.load(open('$2'))['median_ms'],4))" 2>/dev/null || echo "$1 missing"; }
cfgB="--param block_M=128 --param block_N=64 --param num_stages=2 --param threads=256"
cfgC="--param block_M=128 --param block_N=128 --param num_stages=2 --param threads=256"
FWD="--param batch=1 --param heads=16 --param seq_len=4096 --param dim=128"
CAUSAL="--param batch=4 --param heads=32 --param seq_len=4096 --param dim=128 --param is_causal=True"
export TILESCOPE_HOPPER_LATE_REFILL=1
for a in "$FWD $cfgB" "--param batch=1 --param heads=16 --param dim=128 --param seq_len=4097 --param is_causal=True $cfgB" "--param batch=1 --param heads=32 --param dim=128 --param seq_len=1000 --param groups=4 --param dtype=bfloat16 $cfgC" "--param batch=1 --param heads=2 --param dim=128 --param seq_len=128 --param is_causal=True $cfgB"; do
  timeout 90 $T run $F $TGT -q $a > "$OUT/attn/chk.txt" 2>&1 && echo "PASS late-refill $a" || { echo "FAIL late-refill $a"; tail -3 "$OUT/attn/chk.txt"; }
done
unset TILESCOPE_HOPPER_LATE_REFILL
for i in 1 2 3; do for c in B C; do eval cfg=\$cfg$c
  for o in 1 0; do
    TILESCOPE_HOPPER_LATE_REFILL=$o timeout 60 $T bench $F $TGT $FWD $cfg --no-check --reps 50 --json "$OUT/attn/lr-fwd-$c-$o-$i.json" > /dev/null 2>&1
  done
done; done
for o in 1 0 1 0; do
  TILESCOPE_HOPPER_LATE_REFILL=$o timeout 90 $T bench $F $TGT $CAUSAL $cfgB --no-check --reps 30 --json "$OUT/attn/lr-causal-B-$o-$(el).json" > /dev/null 2>&1
done
for f in "$OUT"/attn/lr-*.json; do med "$(basename $f .json)" "$f"; done
cd "$OUT" && tar czf all.tgz attn && ls -la all.tgz
echo "done at $(el) s"
