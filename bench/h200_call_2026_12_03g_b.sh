#!/usr/bin/env bash
# Second device call of the 2026-12-03 (seventh) session: per-warp stage release (tl.mbarrier_arrive
# per_warp, 4f54784) on the H200, correctness first, then A/B timings in the same call
# (TILESCOPE_HOPPER_WARP_ARRIVE=0 = the per-thread arrivals of before), and the new GPU checks
# (T.shfl_xor/down/up, copy_scalar_offset with negative offsets).
# Dev box: bash bench/attention_payload.sh /work/main /work/.mirror/tile-ai+tilelang/repo (.attn),
#          bash ../shared/tools/tilelang-device/prepare.sh (.tl), then
#   run(command="bash bench/h200_call_2026_12_03g_b.sh", carry=[".attn", ".tl"], timeout_s=600)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
T=.attn/tilec; TGT="--target cuda:sm_90a"
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
LOG=$OUT/b-log.txt; : > "$LOG"
echo "== payload $(cat .attn/commit)"
pass=0; fail=0
chk() {  # label, args...
  local l=$1; shift
  echo "--- $l: $*" >> "$LOG"
  if timeout 60 $T run "$@" $TGT >> "$LOG" 2>&1; then pass=$((pass+1)); echo "PASS $l"; else fail=$((fail+1)); echo "FAIL $l (rc $?)"; tail -3 "$LOG"; fi
}
echo "== 1. new GPU checks + per-warp release correctness ($(el) s)"
for d in "1 32" "8 8" "3 16" "5 32"; do set -- $d
  chk "shfl_xor_down_up DELTA=$1 W=$2" tests/e2e/programs/shfl_xor_down_up.py --param DELTA=$1 --param W=$2
done
for off in -3 -1 0 5 64; do chk "copy_scalar_offset off=$off" tests/e2e/programs/copy_scalar_offset.py --param off=$off; done
chk "shfl_sync_broadcast" tests/e2e/programs/shfl_sync_broadcast.py
G=samples/gemm.py; S1k="--param M=1000 --param N=1000 --param K=1000"
cfgD="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256"
TILESCOPE_HOPPER_GEMM_SCHEDULE=empty chk "gemm empty-barrier D 1000^3" $G $S1k $cfgD
TILESCOPE_HOPPER_GEMM_SCHEDULE=empty TILESCOPE_HOPPER_WS=1 chk "gemm empty-barrier + producer WG D 1000^3" $G $S1k $cfgD
TILESCOPE_HOPPER_GEMM_SCHEDULE=empty TILESCOPE_HOPPER_WS=1 chk "gemm empty + WS bf16 4000^3 D" $G --param M=4000 --param N=4000 --param K=4000 --param dtype=bfloat16 $cfgD
for trips in 1 2 3; do for st in 3 4; do
  TILESCOPE_HOPPER_GEMM_SCHEDULE=empty chk "gemm empty trips=$trips stages=$st" $G --param M=256 --param N=264 --param K=$((64*trips)) --param block_K=64 --param num_stages=$st
done; done
chk "swiglu 192x128 ragged" samples/swiglu.py --param M=1000 --param K=520 --param N=1000 --param dtype=bfloat16 --param block_M=192 --param threads=384 --param block_K=64 --param num_stages=3
chk "rmsnorm_mlp chain ragged" samples/rmsnorm_mlp.py --chain norm_gate_up,down_proj --ref mlp_ref --param M=300 --param D=200 --param N=520 --param dtype=bfloat16
echo "correctness (part 1): $pass pass, $fail fail ($(el) s)"
echo "== 2. attention (bench/h200_attention.sh: correctness, E D B, TileLang's example, cuDNN) ($(el) s)"
ATTN_BUDGET_S=200 ATTN_CFGS="E B" ATTN_BF16_CFGS="E" timeout 330 bash bench/h200_attention.sh > "$OUT/attention-stdout.txt" 2>&1
echo "attention rc=$? ($(el) s)"; grep -E "PASS|FAIL|correctness|failed|cudnn|vs_" "$OUT/attention-stdout.txt" | head -30
echo "== 3. A/B per-thread arrivals, same call ($(el) s)"
FWD="--param batch=1 --param heads=16 --param seq_len=4096 --param dim=128"
CAUSAL="--param batch=4 --param heads=32 --param seq_len=4096 --param dim=128 --param is_causal=True"
cfgE="--param block_M=128 --param block_N=128 --param num_stages=3 --param threads=256"
cfgB="--param block_M=128 --param block_N=64 --param num_stages=2 --param threads=256"
bn() { local o=$1 f=$2; shift 2; [ "$(el)" -lt 540 ] || { echo "skip $o"; return; }
  timeout 60 $T bench $f $TGT "$@" --no-check --json "$OUT/$o.json" >> "$LOG" 2>&1 || echo "bench $o failed"; }
for wa in 0 1; do
  export TILESCOPE_HOPPER_WARP_ARRIVE=$wa
  bn ab-attn-fwd-E-wa$wa .attn/flash_attn_fwd.py $FWD $cfgE
  bn ab-attn-fwd-B-wa$wa .attn/flash_attn_fwd.py $FWD $cfgB
  bn ab-attn-causal-E-wa$wa .attn/flash_attn_fwd.py $CAUSAL $cfgE
  S4k="--param M=4096 --param N=4096 --param K=4096"
  TILESCOPE_HOPPER_GEMM_SCHEDULE=empty bn ab-gemm-empty-D-wa$wa $G $S4k $cfgD
  TILESCOPE_HOPPER_GEMM_SCHEDULE=empty TILESCOPE_HOPPER_WS=1 bn ab-gemm-emptyws-D-wa$wa $G $S4k $cfgD
  bn ab-swiglu-m192-wa$wa samples/swiglu.py --param M=4096 --param K=4096 --param N=11008 --param dtype=bfloat16 --param block_M=192 --param threads=384 --param block_K=64 --param num_stages=3
done
unset TILESCOPE_HOPPER_WARP_ARRIVE
bn ab-gemm-sync-D $G --param M=4096 --param N=4096 --param K=4096 $cfgD
python3 - "$OUT" <<'PY'
import json, glob, os, sys
out = sys.argv[1]; r = {}
for p in sorted(glob.glob(f"{out}/ab-*.json")):
    try: r[os.path.basename(p)[3:-5]] = json.load(open(p))["median_ms"]
    except Exception: pass
json.dump(r, open(f"{out}/ab-summary.json", "w"), indent=1); print(json.dumps(r, indent=1))
PY
echo "correctness total (part 1): $pass pass, $fail fail; done at $(el) s"
