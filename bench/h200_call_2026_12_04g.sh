#!/usr/bin/env bash
# Fifth device call of the 2026-12-04 afternoon session (~150 s): split barriers in the
# attention TMA pipeline (TILESCOPE_HOPPER_SPLIT_BARRIERS=1, InjectPipelineTmaFragment.cpp: the
# one full/empty ring per group of tiles with the same first reader: Q K^T waits for K only, K released after Q K^T)
# against the default, same call, alternating, at configuration B (128x64 / 2 stages / 256
# threads) and C (128x128 / 2 stages); correctness on the GPU vs float64; MHA backward (samples/mha_bwd.py, whose main kernel also
# takes the split) B8 H32 S1024 D64 main kernel, split on/off, and its chain vs float64 with the split.
#   bash bench/attention_payload.sh /work/main /work/.mirror/tile-ai+tilelang/repo
#   cp bench/h200_call_2026_12_04g.sh .attn/
#   run(command="bash .attn/h200_call_2026_12_04g.sh", carry=[".attn"])
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
export TILESCOPE_HOPPER_SPLIT_BARRIERS=1
for a in "$FWD $cfgB" "--param batch=1 --param heads=16 --param dim=128 --param seq_len=4097 --param is_causal=True $cfgB" "--param batch=1 --param heads=32 --param dim=128 --param seq_len=1000 --param groups=4 --param dtype=bfloat16 $cfgC" "--param batch=1 --param heads=2 --param dim=128 --param seq_len=128 --param is_causal=True $cfgB"; do
  timeout 90 $T run $F $TGT -q $a > "$OUT/attn/chk.txt" 2>&1 && echo "PASS split $a" || { echo "FAIL split $a"; tail -3 "$OUT/attn/chk.txt"; }
done
unset TILESCOPE_HOPPER_SPLIT_BARRIERS
for i in 1 2 3; do for c in B C; do eval cfg=\$cfg$c
  for o in 1 0; do
    TILESCOPE_HOPPER_SPLIT_BARRIERS=$o timeout 60 $T bench $F $TGT $FWD $cfg --no-check --reps 50 --json "$OUT/attn/sb-fwd-$c-$o-$i.json" > /dev/null 2>&1
  done
done; done
for o in 1 0 1 0; do
  TILESCOPE_HOPPER_SPLIT_BARRIERS=$o timeout 90 $T bench $F $TGT $CAUSAL $cfgB --no-check --reps 30 --json "$OUT/attn/sb-causal-B-$o-$(el).json" > /dev/null 2>&1
done
M=.attn/mha_bwd.py; BWD=mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess
BIG="--param batch=8 --param heads=32 --param seq_len=1024 --param dim=64"
for a in "$BIG" "--param batch=2 --param heads=8 --param seq_len=1000 --param dim=64 --param is_causal=True"; do
  TILESCOPE_HOPPER_SPLIT_BARRIERS=1 timeout 150 $T run $M $TGT -q --chain $BWD --ref bwd_ref $a > "$OUT/attn/chk.txt" 2>&1 && echo "PASS split mha_bwd $a" || { echo "FAIL split mha_bwd $a"; tail -4 "$OUT/attn/chk.txt"; }
done
for i in 1 2; do for o in 1 0; do
  TILESCOPE_HOPPER_SPLIT_BARRIERS=$o timeout 90 $T bench $M $TGT --kernel mha_bwd_main $BIG --no-check --warmup 10 --reps 50 --json "$OUT/attn/sb-bwd-$o-$i.json" > /dev/null 2>&1
done; done
for f in "$OUT"/attn/sb-*.json; do med "$(basename $f .json)" "$f"; done
cd "$OUT" && tar czf all.tgz attn && ls -la all.tgz
echo "done at $(el) s"
