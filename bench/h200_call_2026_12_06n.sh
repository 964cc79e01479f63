#!/usr/bin/env bash
# 2026-12-06, sixth session: attention fwd at block_N=32 (3 and 4 stages: 80 / 96 KB, still two
# blocks per SM, the refill 2-3 tiles of 32 keys ahead) against B (128x64, 2 stages), interleaved,
# late tiles off (TILESCOPE_HOPPER_LATE_WAIT=0, measured slower in call 06m). Correctness first.
#   run(command="bash .h200/h200_call_2026_12_06n.sh", carry=[".h200"])
set -u
A=.h200; T=$A/tilec; OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=60 TILESCOPE_HOPPER_LATE_WAIT=0
[ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
FWD="-p batch=1 -p heads=16 -p seq_len=4096 -p dim=128"; CAU="-p batch=4 -p heads=32 -p seq_len=4096 -p dim=128 -p is_causal=True"
for c in "32 3" "32 4"; do set -- $c
  timeout 90 $T run $A/flash_attn_fwd.py --target cuda:sm_90a -p batch=1 -p heads=4 -p seq_len=1000 -p dim=128 -p is_causal=True \
    -p block_M=128 -p block_N=$1 -p num_stages=$2 -p threads=256 -q 2>&1 | tail -1
done
tb() { local o=$1; shift; timeout 120 $T bench $A/flash_attn_fwd.py --target cuda:sm_90a "$@" --no-check --reps 50 --json "$OUT/$o.json" > "$OUT/$o.txt" 2>&1 || echo "bench $o failed"; python3 -c "import json;print('$o', round(json.load(open('$OUT/$o.json'))['median_ms'],4))"; }
for round in 1 2; do
  for c in "64 2" "32 3" "32 4"; do set -- $c
    tb fwd-n$1s$2-r$round $FWD -p block_M=128 -p block_N=$1 -p num_stages=$2 -p threads=256
    tb cau-n$1s$2-r$round $CAU -p block_M=128 -p block_N=$1 -p num_stages=$2 -p threads=256
  done
done
grep -h "ptxas\|registers" $OUT/fwd-*-r1.txt | sort -u | head
