#!/usr/bin/env bash
# Second device call of the 2026-12-04 session, at most ~560 s, every ratio from this call:
#  1. attention: samples/flash_attn_fwd.py now masks only the key tiles that reach past the
#     diagonal (causal) or past seq_len (a uniform branch; the other tiles start from 0), against
#     the sample before (.attn/flash_attn_fwd_nosplit.py) at causal B4 H32 S4096 D128, configs B
#     and C, alternating; correctness of the new sample causal/ragged on the GPU; then the quick
#     attention table (B, C; bf16 B) with TileLang's example and cuDNN (bench/h200_attention.sh);
#  2. SwiGLU M4096 K4096 N11008 bf16 at 192x128x64/3 stages/384 threads with the block
#     rasterization panel auto / 0 / 8 / 32 (TILESCOPE_RASTER_PANEL), torch eager and torch.compile;
#  3. GEMM 4096^3 fp16 and bf16 at 128x256x64/4 stages/256 threads, panels auto / 8 / 32, against
#     TileLang 0.1.15 on the same file (128x256x64/3 stages, its best config) and cuBLAS.
#   run(command="bash bench/h200_call_2026_12_04b.sh", carry=[".attn", ".tl"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"/{attn,sw,gemm}; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
T=.attn/tilec; TGT="--target cuda:sm_90a"
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== payload $(cat .attn/commit)"
med() { python3 -c "import json;print('$1', round(json.load(open('$2'))['median_ms'],4))" 2>/dev/null || echo "$1 missing"; }
echo "== 1. attention ($(el) s)"
cfgB="--param block_M=128 --param block_N=64 --param num_stages=2 --param threads=256"
cfgC="--param block_M=128 --param block_N=128 --param num_stages=2 --param threads=256"
CAUSAL="--param batch=4 --param heads=32 --param seq_len=4096 --param dim=128 --param is_causal=True"
F=.attn/flash_attn_fwd.py
for a in "--param seq_len=4097 --param is_causal=True $cfgB" "--param seq_len=1000 --param is_causal=True --param groups=4 --param heads=32 --param dtype=bfloat16 $cfgC" "--param seq_len=1000 $cfgB" "--param seq_len=100 --param is_causal=True $cfgC"; do
  timeout 90 $T run $F $TGT -q --param batch=1 --param heads=16 --param dim=128 $a > "$OUT/attn/chk.txt" 2>&1 && echo "PASS split $a" || { echo "FAIL split $a"; tail -3 "$OUT/attn/chk.txt"; }
done
for i in 1 2; do for c in B C; do eval cfg=\$cfg$c
  timeout 90 $T bench $F $TGT $CAUSAL $cfg --no-check --reps 50 --json "$OUT/attn/ab-split-$c-$i.json" > /dev/null 2>&1
  timeout 90 $T bench .attn/flash_attn_fwd_nosplit.py $TGT $CAUSAL $cfg --no-check --reps 50 --json "$OUT/attn/ab-nosplit-$c-$i.json" > /dev/null 2>&1
done; done
for f in "$OUT"/attn/ab-*.json; do med "$(basename $f .json)" "$f"; done
ATTN_QUICK=1 ATTN_BUDGET_S=60 ATTN_CFGS="B C" ATTN_BF16_CFGS="B" OUT=$OUT/attn timeout 240 bash .attn/h200_attention.sh > "$OUT/attn/stdout.txt" 2>&1
echo "attention rc=$? ($(el) s)"; grep -E "^(fwd|causal)" "$OUT/attn/stdout.txt" | python3 -c "
import sys,json
for line in sys.stdin:
    k,v=line.split(':',1); d=json.loads(v); print(k, 'best', d['tilescope_best_config'], d['tilescope_best_ms'], 'cudnn', d['cudnn_ms'], 'vs_cudnn', d['vs_cudnn'], 'vs_tilelang', d['vs_tilelang'])"
echo "== 2. swiglu raster panels ($(el) s)"
S=.attn/swiglu.py; SW="--param M=4096 --param K=4096 --param N=11008 --param dtype=bfloat16 --param block_M=192 --param threads=384 --param block_K=64 --param num_stages=3"
for p in auto 0 8 32; do
  if [ $p = auto ]; then e=""; else e="TILESCOPE_RASTER_PANEL=$p"; fi
  env $e timeout 60 $T bench $S $TGT $SW --no-check --json "$OUT/sw/sw-p$p.json" > /dev/null 2>&1; med sw-p$p "$OUT/sw/sw-p$p.json"
done
echo "== 3. gemm 4096 ($(el) s)"
G=.attn/gemm.py; S4="--param M=4096 --param N=4096 --param K=4096"
cfgD="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256"
cfgTB="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=3 --param threads=256"
for dt in float16 bfloat16; do
  for p in auto 8 32; do
    if [ $p = auto ]; then e=""; else e="TILESCOPE_RASTER_PANEL=$p"; fi
    env $e timeout 60 $T bench $G $TGT $S4 --param dtype=$dt $cfgD --no-check --json "$OUT/gemm/ts-$dt-D-p$p.json" > /dev/null 2>&1; med ts-$dt-D-p$p "$OUT/gemm/ts-$dt-D-p$p.json"
  done
  timeout 60 $T bench $G $TGT $S4 --param dtype=$dt $cfgTB --no-check --json "$OUT/gemm/ts-$dt-B.json" > /dev/null 2>&1; med ts-$dt-B "$OUT/gemm/ts-$dt-B.json"
  ( source .tl/setup.sh >/dev/null 2>&1; timeout 100 python3 .tl/run_tilelang.py $G $S4 --param dtype=$dt $cfgTB --json "$OUT/gemm/tl-$dt-B.json" > "$OUT/gemm/tl-$dt.log" 2>&1 ) ; med tl-$dt-B "$OUT/gemm/tl-$dt-B.json"
done
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
       "command": 'run(command="bash bench/h200_call_2026_12_04b.sh", carry=[".attn", ".tl"])'}
def swiglu(x, wg, wu): return F.silu(x @ wg) * (x @ wu)
M, K, N = 4096, 4096, 11008
r = lambda *s, dt=torch.bfloat16: torch.randn(*s, device="cuda", dtype=dt) * 0.1
sets = [(r(M, K), r(K, N), r(K, N)) for _ in range(4)]
sw = {os.path.basename(p)[3:-5]: load(p) for p in glob.glob(f"{out}/sw/sw-*.json")}
eager = time_ms(swiglu, sets); comp = time_ms(torch.compile(swiglu), sets)
best = min((v, k) for k, v in sw.items() if v)
res["swiglu"] = {"shape": "M4096 K4096 N11008 bf16, 192x128x64 3 stages 384 threads", "tilescope_ms_by_panel": sw,
                 "torch_eager_ms": eager, "torch_compile_ms": comp, "tilescope_best": best[1], "tilescope_best_ms": best[0],
                 "vs_torch_compile": comp / best[0], "vs_torch_eager": eager / best[0]}
del sets; torch.cuda.empty_cache()
res["gemm4096"] = {}
for dt, tdt in (("float16", torch.float16), ("bfloat16", torch.bfloat16)):
    s = [(r(4096, 4096, dt=tdt), r(4096, 4096, dt=tdt)) for _ in range(4)]
    cub = time_ms(torch.matmul, s)
    ts = {os.path.basename(p)[3 + len(dt) + 1:-5]: load(p) for p in glob.glob(f"{out}/gemm/ts-{dt}-*.json")}
    tl = load(f"{out}/gemm/tl-{dt}-B.json")
    b = min((v, k) for k, v in ts.items() if v)
    res["gemm4096"][dt] = {"tilescope_ms": ts, "tilescope_best": b[1], "tilescope_best_ms": b[0], "tilelang_B_ms": tl, "cublas_ms": cub,
                           "vs_tilelang": tl / b[0] if tl else None, "vs_cublas": cub / b[0]}
json.dump(res, open(f"{out}/call-b-summary.json", "w"), indent=1); print(json.dumps(res, indent=1))
PY
cd "$OUT" && tar czf all.tgz attn sw gemm call-b-summary.json && ls -la all.tgz
echo "done at $(el) s"
