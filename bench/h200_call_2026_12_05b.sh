#!/usr/bin/env bash
# Device call 2 (session 2026-12-04 night): the stage-epilogue pass on the H200.
#  1. correctness: samples/gemm.py (its direct epilogue now staged through a swizzled shared tile
#     and TMA) fp16/bf16 at 4096^3, 4000^3, 1000^3 and at ragged sizes, the pass's own test
#     program (staged / direct / not applicable), the hand-staged file, the rmsnorm_matmul chain
#     GEMM, the pipeline matrix (trips 1..3 x stages 1..3, plain and warp-specialized, watchdog);
#  2. compute-sanitizer memcheck/racecheck/synccheck/initcheck on the staged kernels;
#  3. tilec trace on the Hopper GEMM (trace + overhead);
#  4. timing, interleaved ours / TileLang 0.1.15 on samples/gemm.py / ours / TileLang: 4096^3 and
#     8192^3, fp16 and bf16, ours at the default raster and at panels of 8; cuBLAS in the same call.
# Before (dev box): prepare.sh (.tl), strip -o .devbin/tilec build/tilec
#   run(command="bash bench/h200_call_2026_12_05b.sh", carry=[".tl", ".devbin"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"/{chk,gemm,san}; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
T=.devbin/tilec; TGT="--target cuda:sm_90a"
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== tilec $(cat .devbin/commit 2>/dev/null)"
G=samples/gemm.py; E=tests/e2e/programs/gemm_epilogue_staging.py; H=tests/e2e/programs/gemm_smem_epilogue.py
S4="--param M=4096 --param N=4096 --param K=4096"; S8="--param M=8192 --param N=8192 --param K=8192"
cfgO="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256"
cfgT="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=3 --param threads=256"
echo "== 1. correctness ($(el) s)"
np=0; nf=0
chk() { local name=$1; shift; timeout 120 $T run "$@" $TGT --timeout 60 > "$OUT/chk/$name.log" 2>&1; local rc=$?
  local st=$(grep -c "goes through a shared tile" "$OUT/chk/$name.log")
  if [ $rc = 0 ] && grep -q "^PASS" "$OUT/chk/$name.log"; then np=$((np+1)); echo "PASS $name staged=$st"; else nf=$((nf+1)); echo "FAIL $name rc=$rc staged=$st"; tail -3 "$OUT/chk/$name.log"; fi; }
for dt in float16 bfloat16; do
  chk gemm-4096-$dt $G $S4 $cfgO --param dtype=$dt
  chk gemm-4000-$dt $G --param M=4000 --param N=4000 --param K=4000 $cfgO --param dtype=$dt
  chk gemm-1000-$dt $G --param M=1000 --param N=1000 --param K=1000 $cfgO --param dtype=$dt
  chk gemm-1000-t128-$dt $G --param M=1000 --param N=1000 --param K=1000 --param dtype=$dt
  chk gemm-ragged-$dt $G --param M=200 --param N=136 --param K=96 --param dtype=$dt
  chk gemm-ragged2-$dt $G --param M=130 --param N=264 --param K=72 $cfgT --param dtype=$dt
  chk gemm-1000x1001-$dt $G --param M=1000 --param N=1001 --param K=1000 --param dtype=$dt
done
chk gemm-default $G
chk gemm-8192-fp16 $G $S8 $cfgO
for v in "" "--param direct=True" "--param after=True" "--param block_K=16 --param num_stages=2" "--param threads=256 --param M=512 --param N=1000"; do
  chk "stagingprog$(echo $v | tr -d ' =-' | tr -d '"')" $E $v
done
chk hand-staged-4096 $H $S4 $cfgO
chk hand-staged-200 $H --param M=200 --param N=136 --param K=96
chk rmsnorm-matmul-xn samples/rmsnorm_matmul.py --kernel matmul_xn --ref matmul_ref --param M=130 --param N=200 --param K=136
echo "correctness: $np pass, $nf fail"
echo "== 1b. pipeline matrix ($(el) s)"
OUT=$OUT TILEC=$T timeout 300 bash bench/h200_pipeline_matrix.sh > "$OUT/chk/pipeline-matrix.log" 2>&1; echo "pipeline matrix rc=$?"; grep -c "pass=true" "$OUT/chk/pipeline-matrix.log"; grep "pass=false" "$OUT/chk/pipeline-matrix.log" | head
echo "== 2. sanitizer ($(el) s)"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for k in "gemm|$G|--param M=256 --param N=512 --param K=256 $cfgT" "gemmdef|$G|--param M=200 --param N=136 --param K=96" "staging|$E|--param threads=256"; do
  IFS='|' read -r id f p <<< "$k"
  for tool in memcheck racecheck synccheck initcheck; do
    extra=(); [ $tool = racecheck ] && extra=(--racecheck-report all)
    timeout 200 "$CS" --tool $tool --target-processes all "${extra[@]}" --print-limit 20 --error-exitcode 99 $T run $f $TGT $p --seed 1 > "$OUT/san/$id-$tool.log" 2>&1
    echo "san $id $tool rc=$? $(grep -oE 'ERROR SUMMARY: [0-9]+ errors|RACECHECK SUMMARY: [0-9]+ hazards[^)]*\)' "$OUT/san/$id-$tool.log" | tail -1)"
  done
done
echo "== 3. trace ($(el) s)"
timeout 120 $T trace $G $TGT $S4 $cfgO --out "$OUT/chk/trace.json" --reps 20 > "$OUT/chk/trace.log" 2>&1; echo "trace rc=$?"; tail -5 "$OUT/chk/trace.log"
python3 -c "import json;d=json.load(open('$OUT/chk/trace.json'));print('trace events', len(d.get('traceEvents',d)))" 2>&1 | tail -1
echo "== 4. timing ($(el) s)"
med() { python3 -c "import json;print('$1', round(json.load(open('$2'))['median_ms'],5))" 2>/dev/null || echo "$1 missing"; }
tl() { ( source .tl/setup.sh >/dev/null 2>&1; timeout 150 python3 .tl/run_tilelang.py "$@" ); }
bn() { local name=$1; shift; timeout 90 $T bench "$@" $TGT --no-check --json "$OUT/gemm/$name.json" > "$OUT/gemm/$name.log" 2>&1; med $name "$OUT/gemm/$name.json"; }
for sz in 4096 8192; do S="--param M=$sz --param N=$sz --param K=$sz"
for dt in float16 bfloat16; do for i in 1 2; do
  bn ts-$sz-$dt-$i $G $S --param dtype=$dt $cfgO
  TILESCOPE_RASTER_PANEL=8 bn ts8-$sz-$dt-$i $G $S --param dtype=$dt $cfgO
  tl $G $S --param dtype=$dt $cfgT --json "$OUT/gemm/tl-$sz-$dt-$i.json" > "$OUT/gemm/tl-$sz-$dt-$i.log" 2>&1; med tl-$sz-$dt-$i "$OUT/gemm/tl-$sz-$dt-$i.json"
done; done; done
echo "== 5. summary ($(el) s)"
python3 - "$OUT" <<'PY'
import json, sys, time, torch
out = sys.argv[1]
def load(p):
    try: return json.load(open(p))["median_ms"]
    except Exception: return None
def mean(xs):
    xs = [x for x in xs if x]; return sum(xs) / len(xs) if xs else None
def time_ms(fn, sets, reps=30, warmup=10):
    it = [0]
    def call(): fn(*sets[it[0] % len(sets)]); it[0] += 1
    for _ in range(warmup): call()
    torch.cuda.synchronize(); ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); call(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    return sorted(ts)[len(ts) // 2]
res = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "device": torch.cuda.get_device_name(), "torch": torch.__version__,
       "command": 'run(command="bash bench/h200_call_2026_12_05b.sh", carry=[".tl", ".devbin"])',
       "method": "samples/gemm.py under both compilers, interleaved twice (ours default raster, ours panels of 8, TileLang); ratio = TileLang's mean median / ours; cuBLAS (torch.matmul) median over rotating input sets, same call",
       "config": {"tilescope": "128x256x64, 4 stages, 256 threads", "tilelang": "128x256x64, 3 stages, 256 threads"}}
for sz in (4096, 8192):
    for dt, tdt in (("float16", torch.float16), ("bfloat16", torch.bfloat16)):
        n = 4 if sz == 4096 else 2
        sets = [(torch.randn(sz, sz, device="cuda", dtype=tdt), torch.randn(sz, sz, device="cuda", dtype=tdt)) for _ in range(n)]
        cub = time_ms(torch.matmul, sets); del sets
        tlm = mean([load(f"{out}/gemm/tl-{sz}-{dt}-{i}.json") for i in (1, 2)])
        r = {"cublas_ms": cub, "tilelang_ms": tlm}
        for v, tag in (("default_raster", "ts"), ("panels_8", "ts8")):
            m = mean([load(f"{out}/gemm/{tag}-{sz}-{dt}-{i}.json") for i in (1, 2)])
            r[v] = {"tilescope_ms": m, "tflops": 2 * sz**3 / m / 1e9 if m else None,
                    "vs_tilelang": tlm / m if tlm and m else None, "vs_cublas": cub / m if m else None}
        res[f"gemm{sz}_{dt}"] = r
        torch.cuda.empty_cache()
json.dump(res, open(f"{out}/summary.json", "w"), indent=1); print(json.dumps(res, indent=1))
PY
cd "$OUT" && tar czf all.tgz chk gemm san summary.json pipeline-matrix-h200.json 2>/dev/null; echo "== done ($(el) s)"
