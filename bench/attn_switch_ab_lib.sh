# Shared by bench/h200_call_2026_12_06{l,m}.sh (source it; it sits beside them in .h200/): an A/B
# of one codegen switch on the attention sample, interleaved, with the payload's tilec.
#   attn_checks             section 1: the sample on the GPU against float64 (9 shapes: ragged,
#                           causal, GQA, bf16, flash_decode, mha_bwd's forward)
#   attn_switch_ab VAR ON OFF   section 2: tilec bench (median of 50) of fwd fp16 / bf16 and causal
#                           at 128x64 / 2 stages / 256 threads with VAR=1 and VAR=0, two rounds; the
#                           medians go to $OUT/ab.json under ON_ms / OFF_ms, speedup_ON = min(OFF)/min(ON)
set -u
A=.h200; T=$A/tilec
RES=${OUT:-/tmp/out}; OUT=/tmp/wl; mkdir -p "$OUT" "$RES"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
[ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== payload $(cat $A/commit)"; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader | head -1
export TILESCOPE_WORKER_TIMEOUT=60
B="-p block_M=128 -p block_N=64 -p num_stages=2 -p threads=256"
attn_checks() {
  local ok=0 bad=0
  r() { local f=$1; shift; echo "-- $f $*" >> "$OUT/checks.txt"; if timeout 90 $T run $f --target cuda:sm_90a "$@" -q >> "$OUT/checks.txt" 2>&1; then ok=$((ok+1)); else bad=$((bad+1)); echo "FAIL($?) $f $*"; tail -3 "$OUT/checks.txt"; fi; }
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
}
attn_switch_ab() {
  local var=$1 on=$2 off=$3
  echo "== 2. A/B $var ($(el) s)"
  local FWD="-p batch=1 -p heads=16 -p seq_len=4096 -p dim=128" CAU="-p batch=4 -p heads=32 -p seq_len=4096 -p dim=128 -p is_causal=True"
  tb() { local o=$1 sw=$2; shift 2; env "$var=$sw" timeout 120 $T bench $A/flash_attn_fwd.py --target cuda:sm_90a "$@" --no-check --reps 50 --json "$OUT/$o.json" >> "$OUT/bench-log.txt" 2>&1 || echo "bench $o failed"; }
  for round in 1 2; do
    for sw in 1 0; do
      tb fwd16-s$sw-r$round $sw $FWD $B
      tb fwd16bf-s$sw-r$round $sw $FWD $B -p dtype=bfloat16
      tb causal-s$sw-r$round $sw $CAU $B
    done
  done
  python3 - "$OUT" "$on" "$off" <<'PY'
import json, sys, glob, os
out, on_l, off_l = sys.argv[1:4]; rows = {}
for f in sorted(glob.glob(out + '/*-r[12].json')):
    n = os.path.basename(f)[:-5]; w, s, r = n.split('-'); d = json.load(open(f))
    rows.setdefault((w, s), []).append(d['median_ms'])
res = {}
for w in ['fwd16', 'fwd16bf', 'causal']:
    on, off = rows.get((w, 's1'), []), rows.get((w, 's0'), [])
    if on and off:
        res[w] = {on_l + '_ms': on, off_l + '_ms': off, 'speedup_' + on_l: round(min(off) / min(on), 4)}
        print(w, on_l, [round(x, 4) for x in on], off_l, [round(x, 4) for x in off], 'speedup', res[w]['speedup_' + on_l])
json.dump(res, open(out + '/ab.json', 'w'), indent=1)
PY
}
