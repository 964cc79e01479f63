#!/usr/bin/env bash
# Sixth device call of the 2026-12-04 afternoon session (~150 s): a third same-call measurement of
# GEMM 4096^3 against TileLang and cuBLAS and of swiglu against torch.compile (sections 2 and 3 of
# bench/h200_call_2026_12_04h.sh; its ncu and softmax sections are left out). From call d's header:
#  1. where the attention forward spends its time: Nsight Compute on samples/flash_attn_fwd.py
#     B1 H16 S4096 D128 fp16 at 128x64/2 stages/256 threads (one launch): tensor (wgmma) pipe,
#     XU (MUFU: ex2) pipe, FMA pipe, issue-slot use and the warp stall reasons;
#  2. SwiGLU M4096 K4096 N11008 bf16 at 192x128x64, 3 and 4 stages x raster panels 8 and 16,
#     torch eager and torch.compile (issue 10 asks >= 1.1x torch.compile);
#  3. GEMM 4096^3 fp16/bf16 at 128x256x64/4 stages, panel 8, timed before and after TileLang 0.1.15
#     on the same file (128x256x64/3 stages, its best) and cuBLAS (issue 9 asks >= 1.05x TileLang);
#  4. softmax 4096x8192 fp32 (samples/softmax.py) against TileLang on the same file (>= 1.0x).
#   bash bench/attention_payload.sh /work/main /work/.mirror/tile-ai+tilelang/repo
#   cp samples/swiglu.py samples/softmax.py bench/h200_call_2026_12_04h.sh .attn/
#   run(command="bash .attn/h200_call_2026_12_04h.sh", carry=[".attn", ".tl"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"/{ncu,sw,gemm,smx}; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=90
T=.attn/tilec; TGT="--target cuda:sm_90a"
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== payload $(cat .attn/commit)"
med() { python3 -c "import json;print('$1', round(json.load(open('$2'))['median_ms'],4))" 2>/dev/null || echo "$1 missing"; }
echo "== 2. swiglu ($(el) s)"
S=.attn/swiglu.py; SW="--param M=4096 --param K=4096 --param N=11008 --param dtype=bfloat16 --param block_M=192 --param block_N=128 --param threads=384 --param block_K=64"
for st in 3; do for p in 8 16; do
  TILESCOPE_RASTER_PANEL=$p timeout 60 $T bench $S $TGT $SW --param num_stages=$st --no-check --json "$OUT/sw/sw-s$st-p$p.json" > "$OUT/sw/sw-s$st-p$p.log" 2>&1; med sw-s$st-p$p "$OUT/sw/sw-s$st-p$p.json"
done; done
echo "== 3. gemm 4096 ($(el) s)"
G=.attn/gemm.py; S4="--param M=4096 --param N=4096 --param K=4096"
cfgD="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256"
cfgTB="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=3 --param threads=256"
for dt in float16 bfloat16; do
  TILESCOPE_RASTER_PANEL=8 timeout 60 $T bench $G $TGT $S4 --param dtype=$dt $cfgD --no-check --json "$OUT/gemm/ts-$dt-D-1.json" > /dev/null 2>&1; med ts-$dt-D-1 "$OUT/gemm/ts-$dt-D-1.json"
  ( source .tl/setup.sh >/dev/null 2>&1; timeout 100 python3 .tl/run_tilelang.py $G $S4 --param dtype=$dt $cfgTB --json "$OUT/gemm/tl-$dt-B.json" > "$OUT/gemm/tl-$dt.log" 2>&1 ) ; med tl-$dt-B "$OUT/gemm/tl-$dt-B.json"
  TILESCOPE_RASTER_PANEL=8 timeout 60 $T bench $G $TGT $S4 --param dtype=$dt $cfgD --no-check --json "$OUT/gemm/ts-$dt-D-2.json" > /dev/null 2>&1; med ts-$dt-D-2 "$OUT/gemm/ts-$dt-D-2.json"
done
echo "== torch ($(el) s)"
python3 - "$OUT" <<'PY'
import json, sys, glob, os, time
import torch, torch.nn.functional as F
out = sys.argv[1]
def time_ms(fn, sets, reps=50, warmup=10):
    it = [0]
    def call():
        fn(*sets[it[0] % len(sets)]); it[0] += 1
    for _ in range(warmup): call()
    torch.cuda.synchronize(); ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); call(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    return sorted(ts)[len(ts) // 2]
def load(p):
    try: return json.load(open(p))["median_ms"]
    except Exception: return None
res = {"date": time.strftime("%Y-%m-%d"), "device": torch.cuda.get_device_name(), "torch": torch.__version__,
       "command": 'run(command="bash .attn/h200_call_2026_12_04h.sh", carry=[".attn", ".tl"])'}
def swiglu(x, wg, wu): return F.silu(x @ wg) * (x @ wu)
r = lambda *s, dt=torch.bfloat16: torch.randn(*s, device="cuda", dtype=dt) * 0.1
sets = [(r(4096, 4096), r(4096, 11008), r(4096, 11008)) for _ in range(4)]
sw = {os.path.basename(p)[3:-5]: load(p) for p in glob.glob(f"{out}/sw/sw-*.json")}
eager = time_ms(swiglu, sets); comp = time_ms(torch.compile(swiglu), sets)
ok = [(v, k) for k, v in sw.items() if v]
best = min(ok) if ok else (None, None)
res["swiglu"] = {"shape": "M4096 K4096 N11008 bf16, 192x128x64, 384 threads", "tilescope_ms": sw, "torch_eager_ms": eager,
                 "torch_compile_ms": comp, "tilescope_best": best[1], "tilescope_best_ms": best[0],
                 "vs_torch_compile": comp / best[0] if best[0] else None, "vs_torch_eager": eager / best[0] if best[0] else None}
del sets; torch.cuda.empty_cache()
res["gemm4096"] = {}
for dt, tdt in (("float16", torch.float16), ("bfloat16", torch.bfloat16)):
    s = [(r(4096, 4096, dt=tdt), r(4096, 4096, dt=tdt)) for _ in range(4)]
    cub = time_ms(torch.matmul, s)
    ts = [load(f"{out}/gemm/ts-{dt}-D-{i}.json") for i in (1, 2)]
    ts = [t for t in ts if t]
    tl = load(f"{out}/gemm/tl-{dt}-B.json")
    m = sorted(ts)[0] if ts else None
    res["gemm4096"][dt] = {"tilescope_ms_runs": ts, "tilescope_best_ms": m, "tilelang_B_ms": tl, "cublas_ms": cub,
                           "vs_tilelang": tl / m if tl and m else None, "vs_cublas": cub / m if m else None}
json.dump(res, open(f"{out}/call-h-summary.json", "w"), indent=1); print(json.dumps(res, indent=1))
PY
cd "$OUT" && tar czf all.tgz sw gemm call-h-summary.json && ls -la all.tgz
echo "done at $(el) s"
