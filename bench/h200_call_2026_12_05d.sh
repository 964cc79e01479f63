#!/usr/bin/env bash
# Device call 4 (session 2026-12-04 night), on the final compiler:
#  1. GPU checks of the cases the fresh-user trial of stage-epilogue asked for (bench/h200_05d_cases.txt:
#     one `tilec run` argument list per line, sm_90a, against float64);
#  2. issue 9 reliability, interleaved ours / TileLang 0.1.15 / ours / TileLang on the same files:
#     softmax 4096x8192 (512 threads) and GEMM 4096^3 bf16; cuBLAS in the same call;
#  (2b) swiglu at 192x128 / 384 threads and 128x128 / 256 threads against torch.compile.
# Before (dev box): prepare.sh (.tl), strip -o .devbin/tilec build/tilec
#   run(command="bash bench/h200_call_2026_12_05d.sh", carry=[".tl", ".devbin"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"/{chk,t,san}; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
T=.devbin/tilec; TGT="--target cuda:sm_90a"
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== tilec $(cat .devbin/commit 2>/dev/null)"
echo "== 1. trial cases ($(el) s)"
np=0; nf=0; i=0
if [ -f bench/h200_05d_cases.txt ]; then
  while IFS= read -r line; do
    [ -z "$line" ] && continue; case "$line" in \#*) continue;; esac
    i=$((i+1)); eval "set -- $line"
    timeout 150 $T run "$@" $TGT --timeout 120 > "$OUT/chk/case$i.log" 2>&1; rc=$?
    st=$(grep -c "goes through a shared tile" "$OUT/chk/case$i.log")
    if [ $rc = 0 ] && grep -q "^PASS" "$OUT/chk/case$i.log"; then np=$((np+1)); echo "PASS case$i staged=$st: $line"; else nf=$((nf+1)); echo "FAIL case$i rc=$rc staged=$st: $line"; tail -3 "$OUT/chk/case$i.log"; fi
  done < bench/h200_05d_cases.txt
fi
echo "trial cases: $np pass, $nf fail"
echo "== 2. timing ($(el) s)"
med() { python3 -c "import json;print('$1', round(json.load(open('$2'))['median_ms'],5))" 2>/dev/null || echo "$1 missing"; }
bn() { local name=$1; shift; timeout 90 $T bench "$@" $TGT --no-check --json "$OUT/t/$name.json" > "$OUT/t/$name.log" 2>&1; med $name "$OUT/t/$name.json"; }
tl() { local name=$1; shift; ( source .tl/setup.sh >/dev/null 2>&1; timeout 150 python3 .tl/run_tilelang.py "$@" --json "$OUT/t/$name.json" > "$OUT/t/$name.log" 2>&1 ); med $name "$OUT/t/$name.json"; }
X=samples/softmax.py; SX="--param M=4096 --param N=8192 --param threads=512"
G=samples/gemm.py; S4="--param M=4096 --param N=4096 --param K=4096 --param dtype=bfloat16"
for i in 1 2; do
  bn smx-$i $X $SX; tl tl-smx-$i $X $SX
  bn gemm-$i $G $S4 --param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256
  tl tl-gemm-$i $G $S4 --param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=3 --param threads=256
done
SW="--param M=4096 --param K=4096 --param N=11008 --param dtype=bfloat16 --param block_K=64"
bn sw-192-s3 samples/swiglu.py $SW --param block_M=192 --param block_N=128 --param num_stages=3 --param threads=384
bn sw-128-s4 samples/swiglu.py $SW --param block_M=128 --param block_N=128 --param num_stages=4 --param threads=256
bn sw-128-s3 samples/swiglu.py $SW --param block_M=128 --param block_N=128 --param num_stages=3 --param threads=256
bn sw-192-s3b samples/swiglu.py $SW --param block_M=192 --param block_N=128 --param num_stages=3 --param threads=384
python3 - "$OUT" "$np" "$nf" <<'PY'
import json, sys, time, torch
out, npass, nfail = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def load(n):
    try: return json.load(open(f"{out}/t/{n}.json"))["median_ms"]
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
res = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "device": torch.cuda.get_device_name(), "torch": torch.__version__,
       "command": 'run(command="bash bench/h200_call_2026_12_05d.sh", carry=[".tl", ".devbin"])', "trial_cases": {"pass": npass, "fail": nfail},
       "method": "ours and TileLang 0.1.15 on the same file interleaved twice; ratio = TileLang's mean median / ours; torch in the same call"}
m, t = mean([load("smx-1"), load("smx-2")]), mean([load("tl-smx-1"), load("tl-smx-2")])
xs = [torch.randn(4096, 8192, device="cuda") for _ in range(4)]
ts = time_ms(lambda x: torch.softmax(x, -1), [(x,) for x in xs])
res["softmax_4096x8192_fp32_t512"] = {"tilescope_ms": m, "tilelang_ms": t, "torch_ms": ts, "vs_tilelang": t / m if t and m else None,
                                      "vs_torch": ts / m if m else None, "tilescope_tb_per_s": 2 * 4096 * 8192 * 4 / m / 1e9 if m else None}
m, t = mean([load("gemm-1"), load("gemm-2")]), mean([load("tl-gemm-1"), load("tl-gemm-2")])
s = [(torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16), torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)) for _ in range(4)]
cub = time_ms(torch.matmul, s)
res["gemm4096_bf16"] = {"tilescope_ms": m, "tilelang_ms": t, "cublas_ms": cub, "vs_tilelang": t / m if t and m else None, "vs_cublas": cub / m if m else None}
import torch.nn.functional as F
def swiglu(x, wg, wu): return F.silu(x @ wg) * (x @ wu)
r = lambda *s: torch.randn(*s, device="cuda", dtype=torch.bfloat16) * 0.1
del s; torch.cuda.empty_cache()
sets = [(r(4096, 4096), r(4096, 11008), r(4096, 11008)) for _ in range(4)]
e, c = time_ms(swiglu, sets), time_ms(torch.compile(swiglu), sets)
sw = {k: load(k) for k in ("sw-192-s3", "sw-128-s4", "sw-128-s3", "sw-192-s3b")}
res["swiglu_M4096_K4096_N11008_bf16"] = {"tilescope_ms": sw, "torch_eager_ms": e, "torch_compile_ms": c,
    "vs_torch_compile": {k: c / v for k, v in sw.items() if v}, "configs": {"192-s3": "192x128x64, 3 stages, 384 threads (timed twice)", "128-s4": "128x128x64, 4 stages, 256 threads", "128-s3": "128x128x64, 3 stages, 256 threads"}}
json.dump(res, open(f"{out}/summary.json", "w"), indent=1); print(json.dumps(res, indent=1))
PY
cd "$OUT" && tar czf all.tgz chk t summary.json 2>/dev/null; echo "== done ($(el) s)"
