#!/usr/bin/env bash
# 2026-12-06, fourth session: the online softmax's rescale skipped when every alpha of a thread
# is exactly 1.0 (codegen/UnitScale.h; TILESCOPE_UNIT_SCALE_SKIP=0 = the code before).
#   bash bench/h200_payload.sh; run(command="bash .h200/h200_call_2026_12_06l.sh", carry=[".h200", ".tl"])
# 1. correctness on the GPU against float64 with the guard (tilec run: ragged, causal, GQA, bf16,
#    flash_decode, mha_bwd's forward);
# 2. A/B timing, interleaved (skip on, off, on, off), tilec bench median of 50: attention fwd
#    fp16 / bf16 and causal at 128x64 / 2 stages / 256 threads (the fastest form);
# 3. bench/h200_attention.sh quick at B (skip on) with TileLang's example and torch SDPA (cuDNN,
#    flash) in the same call: vs_cudnn / vs_tilelang.
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
r $A/flash_attn_fwd.py -p batch=1 -p heads=4 -p seq_len=300 -p dim=64 --target cuda:sm_80
r $A/flash_decode.py
r $A/flash_decode.py --target cuda:sm_80
r $A/mha_bwd.py --kernel mha_fwd -p seq_len=1000 -p is_causal=True
echo "checks: $ok pass, $bad fail ($(el) s)"
echo "== 2. A/B ($(el) s)"
FWD="-p batch=1 -p heads=16 -p seq_len=4096 -p dim=128"; CAU="-p batch=4 -p heads=32 -p seq_len=4096 -p dim=128 -p is_causal=True"
tb() { local o=$1 sw=$2; shift 2; TILESCOPE_UNIT_SCALE_SKIP=$sw timeout 120 $T bench $A/flash_attn_fwd.py --target cuda:sm_90a "$@" --no-check --reps 50 --json "$OUT/$o.json" >> "$OUT/bench-log.txt" 2>&1 || echo "bench $o failed"; }
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
        res[w] = {'skip_ms': on, 'noskip_ms': off, 'ratio_noskip_over_skip': round(min(off) / min(on), 4)}
        print(w, 'skip', [round(x, 4) for x in on], 'no skip', [round(x, 4) for x in off], 'speedup', res[w]['ratio_noskip_over_skip'])
json.dump(res, open(out + '/ab.json', 'w'), indent=1)
PY
echo "== 3. attention speed with baselines ($(el) s)"
ATTN_DIR=$A ATTN_QUICK=1 ATTN_CFGS="B" ATTN_BF16_CFGS="B" ATTN_BUDGET_S=200 OUT=$OUT/attn timeout 330 bash $A/h200_attention.sh 2>&1 | tail -14
cd "$OUT" && tar czf "$RES/call-06l.tgz" .
echo "done in $(el) s"
