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
set -u
A=.h200; T=$A/tilec
RES=${OUT:-/tmp/out}; OUT=/tmp/wl; mkdir -p "$OUT" "$RES"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
[ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== payload $(cat $A/commit)"; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader | head -1
export TILESCOPE_WORKER_TIMEOUT=60
ok=0; bad=0
r() { local f=$1; shift; echo "-- $f $*" >> "$OUT/checks.txt"; if timeout 90 $T run $f --target cuda:sm_90a "$@" -q >> "$OUT/checks.txt" 2>&1; then ok=$((ok+1)); else bad=$((bad+1)); echo "FAIL($?) $f $*"; tail -3 "$OUT/checks.txt"; fi; }
B="-p block_M=128 -p block_N=64 -p num_stages=2 -p threads=256"
echo "== 1. correctness ($(el) s)"
r $A/flash_attn_fwd.py -p batch=1 -p heads=16 -p seq_len=4096 -p dim=128 $B
r $A/flash_attn_fwd.py -p batch=1 -p heads=16 -p seq_len=4097 -p dim=128 -p is_causal=True $B
r $A/flash_attn_fwd.py -p batch=2 -p heads=16 -p seq_len=1000 -p dim=128 $B
r $A/flash_attn_fwd.py -p batch=1 -p heads=32 -p seq_len=1000 -p dim=128 -p groups=4 -p is_causal=True -p dtype=bfloat16 $B
r $A/flash_attn_fwd.py -p batch=1 -p heads=32 -p seq_len=4097 -p dim=128 -p groups=8 $B
r $A/flash_attn_fwd.py -p batch=1 -p heads=2 -p seq_len=100 -p dim=128 $B
r $A/flash_attn_fwd.py -p batch=1 -p heads=4 -p seq_len=300 -p dim=64 -p dtype=bfloat16
r $A/flash_decode.py
r $A/mha_bwd.py --kernel mha_fwd -p seq_len=1000 -p is_causal=True
echo "checks: $ok pass, $bad fail ($(el) s)"
echo "== 2. A/B ($(el) s)"
FWD="-p batch=1 -p heads=16 -p seq_len=4096 -p dim=128"; CAU="-p batch=4 -p heads=32 -p seq_len=4096 -p dim=128 -p is_causal=True"
tb() { local o=$1 sw=$2; shift 2; TILESCOPE_HOPPER_LATE_WAIT=$sw timeout 120 $T bench $A/flash_attn_fwd.py --target cuda:sm_90a "$@" --no-check --reps 50 --json "$OUT/$o.json" >> "$OUT/bench-log.txt" 2>&1 || echo "bench $o failed"; }
for round in 1 2; do
  for sw in 1 0; do
    tb fwd16-s$sw-r$round $sw $FWD $B
    tb fwd16bf-s$sw-r$round $sw $FWD $B -p dtype=bfloat16
    tb causal-s$sw-r$round $sw $CAU $B
  done
done
python3 - "$OUT" <<'PY'
import json, sys, glob, os, statistics
out = sys.argv[1]; rows = {}
for f in sorted(glob.glob(out + '/*-r[12].json')):
    n = os.path.basename(f)[:-5]; w, s, r = n.split('-'); d = json.load(open(f))
    rows.setdefault((w, s), []).append(d['median_ms'])
res = {}
for w in ['fwd16', 'fwd16bf', 'causal']:
    on, off = rows.get((w, 's1'), []), rows.get((w, 's0'), [])
    if on and off:
        res[w] = {'late_ms': on, 'nolate_ms': off, 'speedup_late': round(min(off) / min(on), 4)}
        print(w, 'late', [round(x, 4) for x in on], 'no late', [round(x, 4) for x in off], 'speedup', res[w]['speedup_late'])
json.dump(res, open(out + '/ab.json', 'w'), indent=1)
PY
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
