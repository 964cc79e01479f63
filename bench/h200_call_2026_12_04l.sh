#!/usr/bin/env bash
# Fourth device call of the 2026-12-04 evening session:
#  1. issue 9, TMA stores on the GPU (bench/h200_tma_store.sh: shared -> global copies over
#     offsets/tails/dtypes and a GEMM whose epilogue goes through shared memory; PASS + the CUDA
#     uses cp.async.bulk.tensor ... global.shared);
#  2. issue 9, a fourth same-call measurement of GEMM 4096^3 (fp16, bf16) and softmax 4096x8192
#     against TileLang 0.1.15 on the same file, interleaved ours / TileLang / ours / TileLang so
#     that neither side gets the quieter half of the call; ratio = mean of TileLang's two medians /
#     mean of ours (not best-of), cuBLAS = torch.matmul in the same call.
# Before (dev box): prepare.sh (.tl), strip -o .devbin/tilec build/tilec
#   run(command="bash bench/h200_call_2026_12_04l.sh", carry=[".tl", ".devbin"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"/{tma,gemm,smx}; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
T=.devbin/tilec; TGT="--target cuda:sm_90a"
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== tilec $(cat .devbin/commit 2>/dev/null)"
echo "== 1. TMA store ($(el) s)"
if [ -f bench/h200_tma_store.sh ]; then OUT=$OUT/tma TILEC=$T timeout 240 bash bench/h200_tma_store.sh > "$OUT/tma/run.log" 2>&1; echo "tma_store rc=$?"; tail -8 "$OUT/tma/run.log"; fi
echo "== 2. gemm 4096 + softmax ($(el) s)"
med() { python3 -c "import json;print('$1', round(json.load(open('$2'))['median_ms'],5))" 2>/dev/null || echo "$1 missing"; }
G=samples/gemm.py; S4="--param M=4096 --param N=4096 --param K=4096"
cfgO="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256"
cfgT="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=3 --param threads=256"
tl() { ( source .tl/setup.sh >/dev/null 2>&1; timeout 100 python3 .tl/run_tilelang.py "$@" ); }
for dt in float16 bfloat16; do for i in 1 2; do
  TILESCOPE_RASTER_PANEL=8 timeout 60 $T bench $G $TGT $S4 --param dtype=$dt $cfgO --no-check --json "$OUT/gemm/ts-$dt-$i.json" > /dev/null 2>&1; med ts-$dt-$i "$OUT/gemm/ts-$dt-$i.json"
  tl $G $S4 --param dtype=$dt $cfgT --json "$OUT/gemm/tl-$dt-$i.json" > "$OUT/gemm/tl-$dt-$i.log" 2>&1; med tl-$dt-$i "$OUT/gemm/tl-$dt-$i.json"
done; done
X=samples/softmax.py; SX="--param M=4096 --param N=8192 --param threads=512"
for i in 1 2; do
  timeout 60 $T bench $X $TGT $SX --no-check --json "$OUT/smx/ts-$i.json" > /dev/null 2>&1; med smx-ts-$i "$OUT/smx/ts-$i.json"
  tl $X $SX --json "$OUT/smx/tl-$i.json" > "$OUT/smx/tl-$i.log" 2>&1; med smx-tl-$i "$OUT/smx/tl-$i.json"
done
python3 - "$OUT" <<'PY'
import json, sys, time, torch
out = sys.argv[1]
def load(p):
    try: return json.load(open(p))["median_ms"]
    except Exception: return None
def mean(xs):
    xs = [x for x in xs if x]; return sum(xs) / len(xs) if xs else None
def time_ms(fn, sets, reps=50, warmup=10):
    it = [0]
    def call(): fn(*sets[it[0] % len(sets)]); it[0] += 1
    for _ in range(warmup): call()
    torch.cuda.synchronize(); ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); call(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    return sorted(ts)[len(ts) // 2]
res = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "device": torch.cuda.get_device_name(),
       "torch": torch.__version__, "command": 'run(command="bash bench/h200_call_2026_12_04l.sh", carry=[".tl", ".devbin"])',
       "method": "ours and TileLang interleaved twice each; ratio = mean of TileLang's two medians / mean of ours; cuBLAS median over 4 rotating input sets",
       "gemm4096": {}}
for dt, tdt in (("float16", torch.float16), ("bfloat16", torch.bfloat16)):
    s = [(torch.randn(4096, 4096, device="cuda", dtype=tdt), torch.randn(4096, 4096, device="cuda", dtype=tdt)) for _ in range(4)]
    cub = time_ms(torch.matmul, s)
    ts = [load(f"{out}/gemm/ts-{dt}-{i}.json") for i in (1, 2)]; tl = [load(f"{out}/gemm/tl-{dt}-{i}.json") for i in (1, 2)]
    m, t = mean(ts), mean(tl)
    res["gemm4096"][dt] = {"tilescope_ms": ts, "tilelang_ms": tl, "cublas_ms": cub, "tilescope_tflops": 2 * 4096**3 / m / 1e9 if m else None,
                           "vs_tilelang": t / m if t and m else None, "vs_cublas": cub / m if m else None}
ts = [load(f"{out}/smx/ts-{i}.json") for i in (1, 2)]; tl = [load(f"{out}/smx/tl-{i}.json") for i in (1, 2)]
m, t = mean(ts), mean(tl)
res["softmax_4096x8192_t512"] = {"tilescope_ms": ts, "tilelang_ms": tl, "vs_tilelang": t / m if t and m else None,
                                  "tilescope_tb_per_s": 2 * 4096 * 8192 * 4 / m / 1e9 if m else None}
json.dump(res, open(f"{out}/summary.json", "w"), indent=1); print(json.dumps(res, indent=1))
PY
echo "== done ($(el) s)"
