#!/usr/bin/env bash
# 2026-12-06, seventh session: (0) bench/gpu_check_2026_12_06p.sh (last session's unrun checks);
# (1) block order of causal attention: the sample as it is (blocks take query tiles in launch order
# through the automatic raster panels), the same file with the query tiles reversed (bx -> n-1-bx:
# the longest causal blocks start first, the short ones fill the tail), and the automatic panels
# off (TILESCOPE_RASTER_PANEL=0), interleaved, two rounds, tilec bench median of 50 at 128x64 / 2
# stages / 256 threads; non-causal fwd with panels on/off. (2) the reversed file against float64.
#   bash bench/h200_payload.sh; cp bench/h200_call_2026_12_06q.sh bench/gpu_check_2026_12_06p.sh bench/gpu_check_lib.sh \
#     tests/e2e/programs/{pipelined_tiles_reused_after,atomic_uint32_add,pipelined_gemm_in_loop}.py /tmp/flash_attn_fwd_rev.py .h200/
#   run(command="bash .h200/h200_call_2026_12_06q.sh", carry=[".h200", ".tl"])
. "$(dirname "$0")/attn_switch_ab_lib.sh"
echo "== 0. gpu check 06p ($(el) s)"
OUT=$RES/check bash $A/gpu_check_2026_12_06p.sh > $RES/check.txt 2>&1; grep -A3 ^BAD $RES/check.txt; tail -2 $RES/check.txt
echo "== 1. block order A/B ($(el) s)"
FWD="-p batch=1 -p heads=16 -p seq_len=4096 -p dim=128"; CAU="-p batch=4 -p heads=32 -p seq_len=4096 -p dim=128 -p is_causal=True"
tb() { local o=$1 f=$2 panel=$3; shift 3; env ${panel:+TILESCOPE_RASTER_PANEL=$panel} timeout 120 $T bench $A/$f --target cuda:sm_90a "$@" --no-check --reps 50 --json "$OUT/$o.json" >> "$OUT/bench-log.txt" 2>&1 || echo "bench $o failed"; }
for round in 1 2; do
  tb causal-base-r$round flash_attn_fwd.py "" $CAU $B
  tb causal-rev-r$round flash_attn_fwd_rev.py "" $CAU $B
  tb causal-nopanel-r$round flash_attn_fwd.py 0 $CAU $B
  tb causal-revnopanel-r$round flash_attn_fwd_rev.py 0 $CAU $B
  tb fwd16-base-r$round flash_attn_fwd.py "" $FWD $B
  tb fwd16-nopanel-r$round flash_attn_fwd.py 0 $FWD $B
done
python3 - "$OUT" <<'PY'
import json, sys, glob, os
out = sys.argv[1]; rows = {}
for f in sorted(glob.glob(out + '/*-r[12].json')):
    w, v, r = os.path.basename(f)[:-5].split('-'); rows.setdefault((w, v), []).append(json.load(open(f))['median_ms'])
for (w, v), ms in sorted(rows.items()):
    base = rows.get((w, 'base'))
    print(w, v, [round(x, 4) for x in ms], 'speedup vs base', round(min(base) / min(ms), 4) if base else '-')
json.dump({f'{w}-{v}': ms for (w, v), ms in rows.items()}, open(out + '/order.json', 'w'), indent=1)
PY
echo "== 2. reversed order against float64 ($(el) s)"
for a in "-p batch=1 -p heads=16 -p seq_len=4097 -p dim=128 -p is_causal=True $B" "-p batch=1 -p heads=32 -p seq_len=1000 -p dim=128 -p groups=4 -p is_causal=True -p dtype=bfloat16 $B" "-p batch=2 -p heads=8 -p seq_len=1000 -p dim=128 $B" "-p is_causal=True -p seq_len=300"; do
  timeout 90 $T run $A/flash_attn_fwd_rev.py --target cuda:sm_90a $a -q > /tmp/r.txt 2>&1 && echo "ok $a" || { echo "FAIL $a"; tail -3 /tmp/r.txt; }
done
cd "$OUT" && tar czf "$RES/call-06q.tgz" .
echo "done in $(el) s"
