#!/usr/bin/env bash
# 2026-12-06, seventh session, third call (device budget short: call 06r without its section 1 and
# with one A/B round): 0. GPU check of inplace_int_add.py (--inout B), bool_scalar_arg.py and
# TileLang's clamp test; 2. A/B of TILESCOPE_HOPPER_LATE_REFILL (refill after the first gemm), one
# interleaved round of fwd fp16 and causal, tilec bench median of 50.
#   bash bench/h200_payload.sh; cp bench/h200_call_2026_12_06{r,s}.sh bench/gpu_check_lib.sh tests/e2e/programs/{inplace_int_add,inplace_int_via_shared,bool_scalar_arg}.py \
#     ../shared/tilelang-corpus/testing/python/language/test_tilelang_language_clamp.py .h200/
#   run(command="bash .h200/h200_call_2026_12_06s.sh", carry=[".h200", ".tl"])
. "$(dirname "$0")/attn_switch_ab_lib.sh"
echo "== 0. gpu check ($(el) s)"
sed -n '/^cat > \/tmp\/chk.sh/,/^CHK$/p' $A/h200_call_2026_12_06r.sh | sed '1d;$d' > /tmp/chk.sh
OUT=$RES/check bash /tmp/chk.sh > $RES/check.txt 2>&1; grep -A3 ^BAD $RES/check.txt; tail -2 $RES/check.txt
echo "== 2. A/B late refill ($(el) s)"
FWD="-p batch=1 -p heads=16 -p seq_len=4096 -p dim=128"; CAU="-p batch=4 -p heads=32 -p seq_len=4096 -p dim=128 -p is_causal=True"
tb() { local o=$1 sw=$2; shift 2; env TILESCOPE_HOPPER_LATE_REFILL=$sw timeout 100 $T bench $A/flash_attn_fwd.py --target cuda:sm_90a "$@" --no-check --reps 50 --json "$OUT/$o.json" >> "$OUT/bench-log.txt" 2>&1 || echo "bench $o failed"; }
for sw in 1 0 1 0; do tb fwd16-s$sw-$(date +%s%N) $sw $FWD $B; done
for sw in 1 0; do tb causal-s$sw $sw $CAU $B; done
python3 - "$OUT" <<'PY'
import json, sys, glob, os
rows = {}
for f in sorted(glob.glob(sys.argv[1] + '/*-s[01]*.json')):
    n = os.path.basename(f)[:-5].split('-'); rows.setdefault((n[0], n[1]), []).append(json.load(open(f))['median_ms'])
for w in ['fwd16', 'causal']:
    on, off = rows.get((w, 's1'), []), rows.get((w, 's0'), [])
    if on and off: print(w, 'late refill', on, 'top', off, 'speedup', round(min(off) / min(on), 4))
json.dump({f'{w}-{s}': v for (w, s), v in rows.items()}, open(sys.argv[1] + '/ab.json', 'w'), indent=1)
PY
cp $OUT/ab.json $RES/ab-late-refill.json 2>/dev/null
cd "$OUT" && tar czf "$RES/call-06s.tgz" .
echo "done in $(el) s"
