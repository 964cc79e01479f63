#!/usr/bin/env bash
# 2026-12-07 (eleventh session): attention forward schedules not timed together before, against
# config B (128x64 / 2 stages / 256 threads, the default) and cuDNN in the same call: three or four
# consumer warpgroups per block (192x64 / 384, 256x64 / 512 threads), the softmax overlap at 192x64
# (146 registers, no spills: one block of 3 warpgroups per SM), the producer warpgroup with
# setmaxnreg at 128x128 (FlashAttention-3's block) with and without the warpgroup ping-pong.
# Each configuration is first checked against float64 (S=1000 causal GQA 4 bf16, S=4097), then
# timed (median of 50) on fwd fp16 B1 H16 S4096 D128 and causal B4 H32 S4096 D128, two rounds.
#   bash bench/h200_payload.sh; cp bench/attn_sweep_2026_12_07c.sh .h200/
#   run(command="bash .h200/attn_sweep_2026_12_07c.sh", carry=[".h200", ".tl"])
set -u
A=.h200; T=$A/tilec; F=$A/flash_attn_fwd.py
RES=${OUT:-/tmp/out}; W=/tmp/sw; mkdir -p "$W" "$RES"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=60
[ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== payload $(cat $A/commit)"; nvidia-smi --query-gpu=name --format=csv,noheader
declare -A CFG=(
  [B]="128 64 2 256|"
  [M192]="192 64 2 384|"
  [M192ov]="192 64 2 384|TILESCOPE_HOPPER_SOFTMAX_OVERLAP=1"
  [M256]="256 64 2 512|"
  [Cws]="128 128 2 256|TILESCOPE_HOPPER_WS=1"
  [Ews]="128 128 3 256|TILESCOPE_HOPPER_WS=1"
  [Ewspp]="128 128 3 256|TILESCOPE_HOPPER_WS=1 TILESCOPE_HOPPER_PINGPONG=1"
)
ORDER="B M192 M192ov M256 Cws Ews Ewspp"
args() { local c=${CFG[$1]}; set -- ${c%%|*}; echo "-p block_M=$1 -p block_N=$2 -p num_stages=$3 -p threads=$4"; }
envs() { local c=${CFG[$1]}; echo "${c#*|}"; }
FWD="-p batch=1 -p heads=16 -p seq_len=4096 -p dim=128"; CAU="-p batch=4 -p heads=32 -p seq_len=4096 -p dim=128 -p is_causal=True"
good=""
echo "== 1. correctness ($(el) s)"
for c in $ORDER; do
  ok=1
  for shape in "-p batch=1 -p heads=32 -p seq_len=1000 -p dim=128 -p groups=4 -p is_causal=True -p dtype=bfloat16" "-p batch=1 -p heads=16 -p seq_len=4097 -p dim=128"; do
    echo "-- $c $shape" >> $W/checks.txt
    env $(envs $c) timeout 90 $T run $F --target cuda:sm_90a $shape $(args $c) -q >> $W/checks.txt 2>&1 || { ok=0; echo "FAIL $c $shape"; tail -3 $W/checks.txt; }
  done
  [ $ok = 1 ] && good="$good $c"
done
echo "correct:$good ($(el) s)"
echo "== 2. speed ($(el) s)"
for round in 1 2; do for c in $good; do
  env $(envs $c) timeout 120 $T bench $F --target cuda:sm_90a $FWD $(args $c) --no-check --reps 50 --json $W/fwd-$c-r$round.json >> $W/bench.txt 2>&1 || echo "bench fwd $c failed"
  env $(envs $c) timeout 120 $T bench $F --target cuda:sm_90a $CAU $(args $c) --no-check --reps 50 --json $W/causal-$c-r$round.json >> $W/bench.txt 2>&1 || echo "bench causal $c failed"
done; done
echo "timed ($(el) s)"
python3 - "$W" <<'PY'
import json, glob, os, sys, torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
w = sys.argv[1]
def cudnn(b, h, s, d, causal):
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.float16) for _ in range(3))
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        for _ in range(10): F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        ts = []
        for _ in range(50):
            a, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record(); F.scaled_dot_product_attention(q, k, v, is_causal=causal); e.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(e))
    ts.sort(); return ts[len(ts) // 2]
base = {"fwd": cudnn(1, 16, 4096, 128, False), "causal": cudnn(4, 32, 4096, 128, True)}
rows = {}
for f in sorted(glob.glob(w + "/*-r[12].json")):
    wl, c, r = os.path.basename(f)[:-5].split("-")
    rows.setdefault((wl, c), []).append(json.load(open(f))["median_ms"])
res = {"device": torch.cuda.get_device_name(), "cudnn_ms": base, "configs": {}}
for (wl, c), ms in sorted(rows.items()):
    best = min(ms); res["configs"].setdefault(c, {})[wl] = {"median_ms": ms, "vs_cudnn": round(base[wl] / best, 4)}
    print(f"{wl:7s} {c:7s} {[round(x, 4) for x in ms]} vs cuDNN {base[wl]:.4f}: {base[wl] / best:.3f}x")
json.dump(res, open(w + "/sweep.json", "w"), indent=1)
PY
mkdir -p "$RES/sweep" && cp $W/*.json $W/*.txt "$RES/sweep/" 2>/dev/null
echo "done ($(el) s)"
