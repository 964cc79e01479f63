#!/usr/bin/env bash
# Device call 3 (session 2026-12-04 night): stage-epilogue on every sample it now applies to
# (samples whose final store is a tensor-core accumulator or a fragment in its layout: dequant_gemm,
# flash_attention, flash_attn_fwd, mha_bwd's mha_fwd and main, rmsnorm_matmul, rmsnorm_mlp,
# swiglu, gemm).
#  1. correctness on sm_90a against float64: each sample's documented commands (chains included)
#     at default and ragged sizes;
#  2. speed, same call: swiglu M4096 K4096 N11008 bf16 (192x128x64, 3 stages, 384 threads),
#     the RMSNorm->matmul chain (rms_norm r1t256 + matmul_xn 128x256x64/4) and the RMSNorm-MLP
#     chain (rms_norm + gate_up s4 + down_proj 128x256x64/4) against torch eager and
#     torch.compile; attention forward B1 H16 S4096 D128 fp16 (config B) against cuDNN and
#     TileLang 0.1.15 on its own example; GEMM 4096^3 fp16 again against TileLang on gemm.py.
# Before (dev box): bash bench/attention_payload.sh (.attn: tilec, TileLang's examples); prepare.sh (.tl)
#   run(command="bash bench/h200_call_2026_12_05c.sh", carry=[".attn", ".tl"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"/{chk,t}; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
T=.attn/tilec; TGT="--target cuda:sm_90a"; S=samples
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== tilec $(cat .attn/commit 2>/dev/null)"
np=0; nf=0
chk() { local name=$1; shift; timeout 150 $T run "$@" $TGT --timeout 120 > "$OUT/chk/$name.log" 2>&1; local rc=$?
  local st=$(grep -c "goes through a shared tile" "$OUT/chk/$name.log")
  if [ $rc = 0 ] && grep -q "^PASS" "$OUT/chk/$name.log"; then np=$((np+1)); echo "PASS $name staged=$st"; else nf=$((nf+1)); echo "FAIL $name rc=$rc staged=$st"; tail -4 "$OUT/chk/$name.log"; fi; }
echo "== 1. correctness ($(el) s)"
chk dequant-16 $S/dequant_gemm.py --param M=16 --param N=4096 --param K=4096
chk dequant-100 $S/dequant_gemm.py --param M=100 --param N=200 --param K=256 --param group_size=64
chk flashattn-def $S/flash_attention.py
chk flashattn-s1000c $S/flash_attention.py --param seq_len=1000 --param is_causal=True
chk fafwd-4096 $S/flash_attn_fwd.py --param batch=1 --param heads=16 --param seq_len=4096 --param dim=128 --param block_M=128 --param block_N=64 --param num_stages=2 --param threads=256
chk fafwd-1000cg4 $S/flash_attn_fwd.py --param seq_len=1000 --param is_causal=True --param groups=4
chk fafwd-4097c-bf16 $S/flash_attn_fwd.py --param seq_len=4097 --param is_causal=True --param dtype=bfloat16
chk mhabwd-100 $S/mha_bwd.py --chain mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess --ref bwd_ref --param seq_len=100
chk mhabwd-1000c $S/mha_bwd.py --chain mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess --ref bwd_ref --param seq_len=1000 --param is_causal=True
chk rmm-fused $S/rmsnorm_matmul.py --param M=1000 --param K=200 --param N=300
chk rmm-chain $S/rmsnorm_matmul.py --chain rms_norm,matmul_xn --param M=200 --param K=72 --param N=136
chk rmm-chain-4096 $S/rmsnorm_matmul.py --chain rms_norm,matmul_xn --param M=4096 --param K=4096 --param N=4096 --param dtype=bfloat16 --param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256
chk mlp-fused $S/rmsnorm_mlp.py --chain norm_gate_up,down_proj --ref mlp_ref --param M=200 --param D=72 --param N=136
chk mlp-chain $S/rmsnorm_mlp.py --chain rms_norm,gate_up,down_proj --ref mlp_ref --param M=200 --param D=72 --param N=136
chk swiglu-1000 $S/swiglu.py --param M=1000 --param K=200 --param N=300
chk swiglu-ragged-192 $S/swiglu.py --param M=1000 --param K=520 --param N=1000 --param dtype=bfloat16 --param block_M=192 --param block_N=128 --param block_K=64 --param threads=384
chk swiglu-1024x11008 $S/swiglu.py --param M=1024 --param K=4096 --param N=11008 --param dtype=bfloat16 --param block_M=192 --param block_N=128 --param block_K=64 --param threads=384
echo "correctness: $np pass, $nf fail ($(el) s)"
echo "== 2. speed ($(el) s)"
med() { python3 -c "import json;print('$1', round(json.load(open('$2'))['median_ms'],5))" 2>/dev/null || echo "$1 missing"; }
bn() { local name=$1; shift; timeout 90 $T bench "$@" $TGT --no-check --json "$OUT/t/$name.json" > "$OUT/t/$name.log" 2>&1; med $name "$OUT/t/$name.json"; }
tl() { local name=$1; shift; ( source .tl/setup.sh >/dev/null 2>&1; timeout 150 python3 .tl/run_tilelang.py "$@" --json "$OUT/t/$name.json" > "$OUT/t/$name.log" 2>&1 ); med $name "$OUT/t/$name.json"; }
SW="--param M=4096 --param K=4096 --param N=11008 --param dtype=bfloat16 --param block_M=192 --param block_N=128 --param block_K=64 --param num_stages=3 --param threads=384"
D="--param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256"
for i in 1 2; do
  bn swiglu-$i $S/swiglu.py $SW
  bn rmm-rms-$i $S/rmsnorm_matmul.py --kernel rms_norm --param M=4096 --param K=4096 --param N=4096 --param dtype=bfloat16 --param rows=1 --param norm_threads=256
  bn rmm-mm-$i $S/rmsnorm_matmul.py --kernel matmul_xn --param M=4096 --param K=4096 --param N=4096 --param dtype=bfloat16 $D
  bn mlp-gu-$i $S/rmsnorm_mlp.py --kernel gate_up --param M=4096 --param D=4096 --param N=11008 --param dtype=bfloat16 --param block_K=64 --param num_stages=4
  bn mlp-down-$i $S/rmsnorm_mlp.py --kernel down_proj --param M=4096 --param D=4096 --param N=11008 --param dtype=bfloat16 $D
done
FWD="--param batch=1 --param heads=16 --param seq_len=4096 --param dim=128"
cfgB="--param block_M=128 --param block_N=64 --param num_stages=2 --param threads=256"
EX=.attn/tl/example_mha_fwd_bshd.py
G=$S/gemm.py; S4="--param M=4096 --param N=4096 --param K=4096"
for i in 1 2; do
  bn attn-fwd-$i $S/flash_attn_fwd.py $FWD $cfgB
  tl tl-attn-fwd-$i $EX $FWD --param is_causal=False --param block_M=128 --param block_N=128 --param num_stages=2 --param threads=256
  bn gemm-$i $G $S4 --param block_M=128 $D
  tl tl-gemm-$i $G $S4 --param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=3 --param threads=256
done
echo "== 3. torch ($(el) s)"
python3 - "$OUT" "$np" "$nf" <<'PY'
import json, sys, time, torch, torch.nn.functional as F
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
       "command": 'run(command="bash bench/h200_call_2026_12_05c.sh", carry=[".attn", ".tl"])',
       "correctness": {"pass": npass, "fail": nfail},
       "method": "tilec bench median of 50 (inputs rotated past L2), each kernel twice, mean of the two; a chain = sum of its kernels' means; torch: CUDA events, median of 50 after 10 warm-up, 4 rotating input sets; vs_* = their median / ours, same call"}
bf = torch.bfloat16
r = lambda *s, dt=bf: torch.randn(*s, device="cuda", dtype=dt) * 0.1
def swiglu(x, wg, wu): return F.silu(x @ wg) * (x @ wu)
sets = [(r(4096, 4096), r(4096, 11008), r(4096, 11008)) for _ in range(4)]
e, c = time_ms(swiglu, sets), time_ms(torch.compile(swiglu), sets)
m = mean([load("swiglu-1"), load("swiglu-2")])
res["swiglu"] = {"shape": "M4096 K4096 N11008 bf16", "config": "192x128x64, 3 stages, 384 threads", "tilescope_ms": m, "torch_eager_ms": e, "torch_compile_ms": c,
                 "vs_torch_compile": c / m if m else None, "vs_torch_eager": e / m if m else None}
del sets; torch.cuda.empty_cache()
def rmsnorm(x, g, eps=1e-6):
    xf = x.float(); return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype) * g
def rmm(x, g, w): return rmsnorm(x, g) @ w
sets = [(r(4096, 4096), r(4096) + 1, r(4096, 4096)) for _ in range(4)]
e, c = time_ms(rmm, sets), time_ms(torch.compile(rmm), sets)
k = {n: mean([load(f"{n}-1"), load(f"{n}-2")]) for n in ("rmm-rms", "rmm-mm")}
m = sum(k.values()) if all(k.values()) else None
res["rmsnorm_matmul"] = {"shape": "M4096 K4096 N4096 bf16", "form": "chain rms_norm (1 row/block, 256 thr) -> matmul_xn (128x256x64, 4 stages)", "kernels_ms": k,
                         "tilescope_ms": m, "torch_eager_ms": e, "torch_compile_ms": c, "vs_torch_compile": c / m if m else None, "vs_torch_eager": e / m if m else None}
del sets; torch.cuda.empty_cache()
def mlp(x, g, wg, wu, wd):
    xn = rmsnorm(x, g); return (F.silu(xn @ wg) * (xn @ wu)) @ wd
sets = [(r(4096, 4096), r(4096) + 1, r(4096, 11008), r(4096, 11008), r(11008, 4096)) for _ in range(2)]
e, c = time_ms(mlp, sets), time_ms(torch.compile(mlp), sets)
k = {"rms_norm": mean([load("rmm-rms-1"), load("rmm-rms-2")]), "gate_up": mean([load("mlp-gu-1"), load("mlp-gu-2")]), "down_proj": mean([load("mlp-down-1"), load("mlp-down-2")])}
m = sum(k.values()) if all(k.values()) else None
res["rmsnorm_mlp"] = {"shape": "M4096 D4096 N11008 bf16", "form": "chain rms_norm -> gate_up (128x128x64, 4 stages) -> down_proj (128x256x64, 4 stages); rms_norm timed as rmsnorm_matmul's (same shape M4096 x 4096)",
                      "kernels_ms": k, "tilescope_ms": m, "torch_eager_ms": e, "torch_compile_ms": c, "vs_torch_compile": c / m if m else None, "vs_torch_eager": e / m if m else None}
del sets; torch.cuda.empty_cache()
from torch.nn.attention import SDPBackend, sdpa_kernel
q, kk, v = (torch.randn(1, 16, 4096, 128, device="cuda", dtype=torch.float16) for _ in range(3))
with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
    cud = time_ms(lambda a, b, c: F.scaled_dot_product_attention(a, b, c), [(q, kk, v)])
m = mean([load("attn-fwd-1"), load("attn-fwd-2")]); t = mean([load("tl-attn-fwd-1"), load("tl-attn-fwd-2")])
res["attention_fwd_fp16_B1_H16_S4096_D128"] = {"config": "128x64, 2 stages, 256 threads (B)", "tilescope_ms": m, "cudnn_ms": cud, "tilelang_example_ms": t,
    "vs_cudnn": cud / m if m else None, "vs_tilelang": t / m if t and m else None}
s = [(torch.randn(4096, 4096, device="cuda", dtype=torch.float16), torch.randn(4096, 4096, device="cuda", dtype=torch.float16)) for _ in range(4)]
cub = time_ms(torch.matmul, s)
m = mean([load("gemm-1"), load("gemm-2")]); t = mean([load("tl-gemm-1"), load("tl-gemm-2")])
res["gemm4096_fp16"] = {"tilescope_ms": m, "tilelang_ms": t, "cublas_ms": cub, "vs_tilelang": t / m if t and m else None, "vs_cublas": cub / m if m else None}
json.dump(res, open(f"{out}/summary.json", "w"), indent=1); print(json.dumps(res, indent=1))
PY
cd "$OUT" && tar czf all.tgz chk t summary.json 2>/dev/null; echo "== done ($(el) s)"
