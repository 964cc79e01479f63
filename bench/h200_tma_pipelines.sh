#!/usr/bin/env bash
# Issues 9/10, ONE device call (< 300 s): pipelined copies on TMA (InjectPipelineTmaLoads.cpp) on
# the H200, cuda:sm_90a, bf16.
#  1. correctness on the GPU vs the files' float64 references (tilec run: fresh random inputs,
#     NaN-poisoned outputs): samples/swiglu.py, rmsnorm_matmul.py (fused), rmsnorm_mlp.py
#     (norm_gate_up + down_proj chain), each at a ragged size (M, N, K not multiples of the tiles;
#     N = 300 also makes W's rows 600 bytes, so W keeps cp.async next to TMA-loaded X), and at one
#     size that is; the fused kernels with TMA off too (TILESCOPE_PIPELINE_TMA=0);
#  2. speed: tilec bench (median of 50, inputs rotated past L2, its own CUDA events after warm-up)
#     of swiglu M4096 K4096 N11008 at a few configs, the fused rmsnorm_matmul (M=K=N=4096) and
#     norm_gate_up + down_proj (M4096 D4096 N11008) with pipelined TMA on and off;
#  3. torch eager and torch.compile of the same three functions in the same call (CUDA events,
#     10 warm-up, median of 50, 4 rotating input sets > L2); one JSON: $OUT/tma_pipelines.json
#     with vs_torch_compile / vs_torch_eager = their median / ours (best config), same call.
# Dev box first (tilec at the commit to measure):  bash bench/rmsnorm_payload.sh   (-> .rms/tilec)
# Device tool: run(command="bash bench/h200_tma_pipelines.sh", carry=[".rms"], timeout_s=300)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
T=.rms/tilec; S=samples; TGT="--target cuda:sm_90a"
[ -x "$T" ] || { echo "no $T: run bench/rmsnorm_payload.sh on the dev box first"; exit 2; }
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== tree: $(git log -1 --oneline 2>/dev/null) payload: $(cat .rms/commit 2>/dev/null)"
LOG=$OUT/log.txt; : > "$LOG"
SW=swiglu.py; RM=rmsnorm_matmul.py; ML=rmsnorm_mlp.py; BF="--param dtype=bfloat16"

echo "== 1. correctness ($(el) s)"
pass=0; fail=0
chk() {  # label, file, args...
  local l=$1 f=$2; shift 2
  echo "--- $l: $f $*" >> "$LOG"
  if timeout 60 $T run $S/$f $TGT "$@" >> "$LOG" 2>&1; then pass=$((pass+1)); echo "PASS $l"
  else fail=$((fail+1)); echo "FAIL $l"; tail -3 "$LOG"; fi
}
chk "swiglu ragged" $SW --param M=1000 --param K=520 --param N=1000 $BF
chk "swiglu ragged k64s4" $SW --param M=1000 --param K=200 --param N=296 $BF --param block_K=64 --param num_stages=4
chk "swiglu 192x128 384thr ragged" $SW --param M=1000 --param K=520 --param N=1000 $BF --param block_M=192 --param threads=384 --param block_K=64 --param num_stages=4
chk "swiglu 512" $SW --param M=512 --param K=512 --param N=512 $BF
chk "rmsnorm_matmul ragged" $RM --param M=300 --param K=1000 --param N=520 $BF
chk "rmsnorm_matmul ragged, W cp.async" $RM --param M=1000 --param K=200 --param N=300 $BF
chk "rmsnorm_matmul ragged k64s4" $RM --param M=300 --param K=1000 --param N=520 $BF --param block_K=64 --param num_stages=4
chk "rmsnorm_matmul one trip" $RM --param M=130 --param K=40 --param N=136 $BF --param block_K=64 --param num_stages=4
chk "rmsnorm_matmul 512" $RM --param M=512 --param K=512 --param N=512 $BF
chk "norm_gate_up ragged" $ML --kernel norm_gate_up --param M=300 --param D=1000 --param N=520 $BF
chk "norm_gate_up ragged k64s4" $ML --kernel norm_gate_up --param M=300 --param D=1000 --param N=520 $BF --param block_K=64 --param num_stages=4
chk "mlp chain ragged" $ML --chain norm_gate_up,down_proj --ref mlp_ref --param M=300 --param D=200 --param N=520 $BF
chk "mlp chain 512" $ML --chain norm_gate_up,down_proj --ref mlp_ref --param M=512 --param D=512 --param N=1024 $BF
TILESCOPE_PIPELINE_TMA=0 chk "rmsnorm_matmul ragged, TMA off" $RM --param M=300 --param K=1000 --param N=520 $BF
echo "correctness: $pass pass, $fail fail ($(el) s)"

echo "== 2. speed ($(el) s)"
SWSZ="--param M=4096 --param K=4096 --param N=11008 $BF"
MMSZ="--param M=4096 --param K=4096 --param N=4096 $BF"
MLSZ="--param M=4096 --param D=4096 --param N=11008 $BF"
bn() {  # json-name, file, args...
  local n=$1 f=$2; shift 2
  [ "$(el)" -gt 190 ] && { echo "skip bench $n (time)"; return; }
  echo "--- bench $n: $f $*" >> "$LOG"
  timeout 60 $T bench $S/$f $TGT "$@" --no-check --json "$OUT/ts-$n.json" >> "$LOG" 2>&1 || echo "bench $n failed"
}
bn sw-k64s4 $SW $SWSZ --param block_K=64 --param num_stages=4
bn sw-k64s3 $SW $SWSZ --param block_K=64 --param num_stages=3
bn sw-m192 $SW $SWSZ --param block_M=192 --param threads=384 --param block_K=64 --param num_stages=4
bn sw-m192s3 $SW $SWSZ --param block_M=192 --param threads=384 --param block_K=64 --param num_stages=3
bn mm-fused-k64s4 $RM $MMSZ --param block_K=64 --param num_stages=4
bn mm-fused-def $RM $MMSZ
bn mlp-ngu-k64s4 $ML --kernel norm_gate_up $MLSZ --param block_K=64 --param num_stages=4
bn mlp-down-B $ML --kernel down_proj $MLSZ --param block_N=256 --param block_K=64 --param num_stages=3
export TILESCOPE_PIPELINE_TMA=0
bn mm-fused-k64s4-notma $RM $MMSZ --param block_K=64 --param num_stages=4
bn mlp-ngu-k64s4-notma $ML --kernel norm_gate_up $MLSZ --param block_K=64 --param num_stages=4
unset TILESCOPE_PIPELINE_TMA
echo "tilescope done ($(el) s)"

echo "== 3. torch ($(el) s)"
python3 - "$OUT" "$pass" "$fail" "$(cat .rms/commit 2>/dev/null)" <<'PY' || echo "torch part failed"
import json, sys, time
import torch, torch.nn.functional as F
out, npass, nfail, commit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
t0 = time.time()
def ms(n):
    try: return json.load(open(f"{out}/ts-{n}.json")).get("median_ms")
    except Exception: return None
def best(names):
    got = [(ms(n), n) for n in names if ms(n)]
    return min(got) if got else (None, None)
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
def guarded(what, fn):
    try: return fn()
    except Exception as ex:
        print(f"{what}: {type(ex).__name__}: {str(ex)[:200]}"); return None
def rmsnorm(x, g, eps=1e-6):
    xf = x.float(); return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype) * g
def swiglu(x, wg, wu): return F.silu(x @ wg) * (x @ wu)
def rms_mm(x, g, w): return rmsnorm(x, g) @ w
def rms_mlp(x, g, wg, wu, wd):
    xn = rmsnorm(x, g); return (F.silu(xn @ wg) * (xn @ wu)) @ wd
bf = torch.bfloat16
r = lambda *s: torch.randn(*s, device="cuda", dtype=bf) * 0.1
M, D, N = 4096, 4096, 11008
res = {"date": time.strftime("%Y-%m-%d"), "device": torch.cuda.get_device_name(), "torch": torch.__version__,
       "command": 'run(command="bash bench/h200_tma_pipelines.sh", carry=[".rms"]) after bench/rmsnorm_payload.sh', "commit": commit,
       "correctness": {"pass": npass, "fail": nfail, "log": "log.txt"},
       "method": "tilescope: tilec bench median of 50, inputs rotated past L2; a chain = sum of its kernels' medians. torch: CUDA "
                 "events, median of 50 after 10 warm-up, 4 rotating input sets. vs_* = their median / ours (best config), same call. "
                 "*-notma = TILESCOPE_PIPELINE_TMA=0 (the cp.async producers of before)"}
def entry(name, fn, sets, ours, cfg, extra):
    eager = guarded(f"eager {name}", lambda: time_ms(fn, sets))
    cf = torch.compile(fn)
    comp = guarded(f"compile {name}", lambda: time_ms(cf, sets))
    e = {"torch_eager_ms": eager, "torch_compile_ms": comp, "tilescope_best_ms": ours, "tilescope_best": cfg,
         "vs_torch_compile": comp / ours if comp and ours else None, "vs_torch_eager": eager / ours if eager and ours else None, **extra}
    res[name] = e
    print(name, json.dumps(e), f"({time.time() - t0:.0f} s)", flush=True)
sw = best(["sw-k64s4", "sw-k64s3", "sw-m192", "sw-m192s3"])
entry("swiglu", swiglu, [(r(M, D), r(D, N), r(D, N)) for _ in range(4)], sw[0], sw[1],
      {"shape": "M4096 K4096 N11008 bf16", "tilescope_ms": {n: ms(n) for n in ("sw-k64s4", "sw-k64s3", "sw-m192", "sw-m192s3")},
       "tflops": 4 * M * N * D / sw[0] / 1e9 if sw[0] else None})
fm = best(["mm-fused-k64s4", "mm-fused-def"])
entry("rmsnorm_matmul", rms_mm, [(r(M, D), r(D) + 1, r(D, 4096)) for _ in range(4)], fm[0], fm[1],
      {"shape": "M4096 K4096 N4096 bf16", "tilescope_ms": {n: ms(n) for n in ("mm-fused-k64s4", "mm-fused-def", "mm-fused-k64s4-notma")},
       "tma_speedup": (ms("mm-fused-k64s4-notma") / ms("mm-fused-k64s4")) if ms("mm-fused-k64s4-notma") and ms("mm-fused-k64s4") else None})
ngu, dn = ms("mlp-ngu-k64s4"), ms("mlp-down-B")
chain = ngu + dn if ngu and dn else None
if time.time() - t0 < 100:
    entry("rmsnorm_mlp", rms_mlp, [(r(M, D), r(D) + 1, r(D, N), r(D, N), r(N, D)) for _ in range(4)], chain, "norm_gate_up k64s4 + down_proj B",
          {"shape": "M4096 D4096 N11008 bf16", "tilescope_ms": {n: ms(n) for n in ("mlp-ngu-k64s4", "mlp-down-B", "mlp-ngu-k64s4-notma")},
           "tma_speedup_norm_gate_up": (ms("mlp-ngu-k64s4-notma") / ngu) if ms("mlp-ngu-k64s4-notma") and ngu else None})
else:
    res["rmsnorm_mlp"] = {"skipped": "time", "tilescope_ms": {n: ms(n) for n in ("mlp-ngu-k64s4", "mlp-down-B", "mlp-ngu-k64s4-notma")}}
json.dump(res, open(f"{out}/tma_pipelines.json", "w"), indent=1)
PY
echo "all done ($(el) s)"
cd "$OUT" && tar czf ts.tgz ts-*.json 2>/dev/null && rm -f ts-*.json; ls
