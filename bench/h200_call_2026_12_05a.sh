#!/usr/bin/env bash
# Device call (session 2026-12-04 night): does a swizzled, TMA-stored epilogue make the sm_90a
# GEMM faster? tests/e2e/programs/gemm_smem_epilogue.py stages C through shared memory; with this
# session's layout rule its tile is 128-byte swizzled (conflict-free pair stores) and stored by
# TMA in 64-column boxes. Timed beside samples/gemm.py (direct fragment -> global stores) and
# TileLang 0.1.15 on both files, interleaved; plus the exit wait switch (TILESCOPE_TMA_STORE_EXIT_WAIT=0:
# only wait_group.read before exit) and cuBLAS on randn vs uniform inputs (data sensitivity).
# Before (dev box): prepare.sh (.tl), strip -o .devbin/tilec build/tilec
#   run(command="bash bench/h200_call_2026_12_05a.sh", carry=[".tl", ".devbin"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"/{chk,gemm}; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
T=.devbin/tilec; TGT="--target cuda:sm_90a"
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
G=samples/gemm.py; E=tests/e2e/programs/gemm_smem_epilogue.py
S4="--param M=4096 --param N=4096 --param K=4096"
cfgO="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256"
cfgT="--param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=3 --param threads=256"
echo "== 1. correctness ($(el) s)"
chk() { local name=$1; shift; timeout 120 $T run "$@" $TGT -q > "$OUT/chk/$name.log" 2>&1; echo "$name rc=$? $(tail -1 "$OUT/chk/$name.log")"; }
for dt in float16 bfloat16; do
  chk epi-4096-$dt $E $S4 $cfgO --param dtype=$dt
  chk epi-1000-$dt $E --param M=1000 --param N=1000 --param K=1000 $cfgO --param dtype=$dt
  chk epi-1000x1001-$dt $E --param M=1000 --param N=1001 --param K=1000 $cfgO --param dtype=$dt
  TILESCOPE_TMA_STORE_EXIT_WAIT=0 chk epi-noexit-4096-$dt $E $S4 $cfgO --param dtype=$dt
  TILESCOPE_TMA_STORE_EXIT_WAIT=0 chk epi-noexit-1000-$dt $E --param M=1000 --param N=1000 --param K=1000 $cfgO --param dtype=$dt
done
chk epi-default $E
chk epi-4096-t128 $E $S4
echo "== 2. timing ($(el) s)"
med() { python3 -c "import json;print('$1', round(json.load(open('$2'))['median_ms'],5))" 2>/dev/null || echo "$1 missing"; }
tl() { ( source .tl/setup.sh >/dev/null 2>&1; timeout 120 python3 .tl/run_tilelang.py "$@" ); }
bn() { local name=$1; shift; timeout 60 $T bench "$@" $TGT --no-check --json "$OUT/gemm/$name.json" > "$OUT/gemm/$name.log" 2>&1; med $name "$OUT/gemm/$name.json"; }
for dt in float16 bfloat16; do for i in 1 2; do
  TILESCOPE_RASTER_PANEL=8 bn ts-gemm-$dt-$i $G $S4 --param dtype=$dt $cfgO
  TILESCOPE_RASTER_PANEL=8 bn ts-epi-$dt-$i $E $S4 --param dtype=$dt $cfgO
  TILESCOPE_RASTER_PANEL=8 TILESCOPE_TMA_STORE_EXIT_WAIT=0 bn ts-epinx-$dt-$i $E $S4 --param dtype=$dt $cfgO
  tl $G $S4 --param dtype=$dt $cfgT --json "$OUT/gemm/tl-gemm-$dt-$i.json" > "$OUT/gemm/tl-gemm-$dt-$i.log" 2>&1; med tl-gemm-$dt-$i "$OUT/gemm/tl-gemm-$dt-$i.json"
done
  tl $E $S4 --param dtype=$dt $cfgT --json "$OUT/gemm/tl-epi-$dt.json" > "$OUT/gemm/tl-epi-$dt.log" 2>&1; med tl-epi-$dt "$OUT/gemm/tl-epi-$dt.json"
done
echo "== 3. summary ($(el) s)"
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
res = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "device": torch.cuda.get_device_name(), "torch": torch.__version__,
       "command": 'run(command="bash bench/h200_call_2026_12_05a.sh", carry=[".tl", ".devbin"])',
       "method": "ours and TileLang interleaved twice each (TileLang on gemm_smem_epilogue once); ratio = TileLang's mean median / ours; cuBLAS median over 4 rotating input sets (randn and uniform[-1,1))",
       "gemm4096": {}}
for dt, tdt in (("float16", torch.float16), ("bfloat16", torch.bfloat16)):
    sn = [(torch.randn(4096, 4096, device="cuda", dtype=tdt), torch.randn(4096, 4096, device="cuda", dtype=tdt)) for _ in range(4)]
    su = [(torch.rand(4096, 4096, device="cuda", dtype=tdt) * 2 - 1, torch.rand(4096, 4096, device="cuda", dtype=tdt) * 2 - 1) for _ in range(4)]
    cn, cu = time_ms(torch.matmul, sn), time_ms(torch.matmul, su)
    r = {"cublas_randn_ms": cn, "cublas_uniform_ms": cu}
    tlg = mean([load(f"{out}/gemm/tl-gemm-{dt}-{i}.json") for i in (1, 2)])
    r["tilelang_gemm_ms"] = tlg; r["tilelang_epi_ms"] = load(f"{out}/gemm/tl-epi-{dt}.json")
    for v in ("gemm", "epi", "epinx"):
        m = mean([load(f"{out}/gemm/ts-{v}-{dt}-{i}.json") for i in (1, 2)])
        r[v] = {"tilescope_ms": m, "tflops": 2 * 4096**3 / m / 1e9 if m else None,
                "vs_tilelang_gemm_py": tlg / m if tlg and m else None, "vs_cublas_uniform": cu / m if m else None, "vs_cublas_randn": cn / m if m else None}
    res["gemm4096"][dt] = r
json.dump(res, open(f"{out}/summary.json", "w"), indent=1); print(json.dumps(res, indent=1))
PY
cd "$OUT" && tar czf all.tgz chk gemm summary.json 2>/dev/null; echo "== done ($(el) s)"
