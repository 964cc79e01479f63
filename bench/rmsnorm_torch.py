"""Third part of bench/h200_rmsnorm.sh: torch eager and torch.compile of RMSNorm -> matmul and the
RMSNorm MLP (bf16, issue 10's shapes) in the same device call as the tilec bench figures the shell
part wrote, and the summary $OUT/rmsnorm.json.

  python3 rmsnorm_torch.py OUT PASS FAIL "MM_CFGS" "GU_CFGS" "FU_CFGS" "RN_CFGS" "FM_CFGS" COMMIT

torch timing: CUDA events around one call, median of 50 after 10 warm-up calls (torch.compile:
after its compile), 4 input sets used in turn (together larger than the 50 MB L2). TileScope: the
tilec bench medians of OUT/ts-<name>.json; a chain is the sum of its kernels' medians.
vs_* = their median / ours (the best configuration), this run."""
import json
import sys
import time

import torch
import torch.nn.functional as F

out, npass, nfail = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
mm_cfgs, gu_cfgs, fu_cfgs, rn_cfgs = sys.argv[4].split(), sys.argv[5].split(), sys.argv[6].split(), sys.argv[7].split()
fm_cfgs = sys.argv[8].split()
commit = sys.argv[9] if len(sys.argv) > 9 else ""
t0 = time.time()


def ms(name):
    try:
        return json.load(open(f"{out}/ts-{name}.json")).get("median_ms")
    except Exception:
        return None


def best(names):
    got = [(ms(n), n) for n in names if ms(n)]
    return min(got) if got else (None, None)


def time_ms(fn, sets, reps=50, warmup=10):
    it = [0]

    def call():
        fn(*sets[it[0] % len(sets)])
        it[0] += 1

    for _ in range(warmup):
        call()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        call()
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e))
    return sorted(ts)[len(ts) // 2]


def guarded(what, fn):
    try:
        return fn()
    except Exception as ex:
        print(f"{what}: {type(ex).__name__}: {str(ex)[:300]}")
        return None


def rmsnorm(x, g, eps=1e-6):  # the usual model code: fp32 statistics, back to the input dtype
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype) * g


def rmsnorm_matmul(x, g, w):
    return rmsnorm(x, g) @ w


def rmsnorm_mlp(x, g, wg, wu, wd):
    xn = rmsnorm(x, g)
    return (F.silu(xn @ wg) * (xn @ wu)) @ wd


dev, bf = "cuda", torch.bfloat16
r = lambda *s: torch.randn(*s, device=dev, dtype=bf) * 0.1  # noqa: E731
M, D, N = 4096, 4096, 11008
res = {"date": time.strftime("%Y-%m-%d"), "device": torch.cuda.get_device_name(), "torch": torch.__version__,
       "command": "bash bench/h200_rmsnorm.sh (carry .rms from bench/rmsnorm_payload.sh)", "commit": commit,
       "correctness": {"pass": npass, "fail": nfail, "log": "log.txt"},
       "configs": {"def": "file defaults", "k64": "block_K=64", "B": "128x256x64, 3 stages, 256 thr",
                   "D": "128x256x64, 4 stages, 256 thr", "F": "128x128x64, 3 stages, 256 thr",
                   "H": "128x256x32, 6 stages, 256 thr", "s3": "128x128x64, 3 stages", "s4": "128x128x64, 4 stages",
                   "n64": "128x64x64, 4 stages", "k64s4": "128x128x64, 4 stages", "n256": "128x256x64, 3 stages", "r1t128": "rms_norm: 1 row per block, 128 threads",
                   "r1t256": "rms_norm: 1 row, 256 threads", "r2t256": "rms_norm: 2 rows, 256 threads"},
       "method": "tilescope: tilec bench median of 50, inputs rotated past L2, each kernel alone; a chain = the sum "
                 "of its kernels' medians (launch gaps not counted). torch: CUDA events, median of 50 after 10 "
                 "warm-up, 4 rotating input sets. vs_* = their median / ours (best configuration), same call. "
                 "fused = the one-kernel samples (X * G written to shared memory in the loop; sm_90a keeps one wgmma group "
                 "in flight since InjectPipelineWgmmaGeneric.cpp, *-inflight-off-* = TILESCOPE_HOPPER_INFLIGHT=0); chain = rms_norm "
                 "kernel writing Xn, then GEMM kernels whose loops take the sm_90a TMA + in-flight wgmma schedule"}

# RMSNorm -> matmul, M = K = N = 4096.
sets = [(r(M, D), r(D) + 1, r(D, 4096)) for _ in range(4)]
eager = guarded("eager mm", lambda: time_ms(rmsnorm_matmul, sets))
comp_f = torch.compile(rmsnorm_matmul)
comp = guarded("compile mm", lambda: time_ms(comp_f, sets))
norm, norm_cfg = best([f"mm-rms_norm-{c}" for c in rn_cfgs])
mm_best = best([f"mm-matmul_xn-{c}" for c in mm_cfgs])
chain = norm + mm_best[0] if norm and mm_best[0] else None
fused = best([f"mm-fused-{c}" for c in fu_cfgs])
ours = min(v for v in (chain, fused[0]) if v) if (chain or fused[0]) else None
res["rmsnorm_matmul"] = {
    "shape": "M4096 K4096 N4096 bf16", "torch_eager_ms": eager, "torch_compile_ms": comp,
    "tilescope_chain_ms": chain, "chain": {"rms_norm": norm, "rms_norm_config": norm_cfg, "matmul_xn": mm_best[0], "matmul_xn_config": mm_best[1]},
    "tilescope_fused_ms": fused[0], "fused_config": fused[1],
    "tilescope_ms": {**{f"rms_norm-{c}": ms(f"mm-rms_norm-{c}") for c in rn_cfgs}, **{f"matmul_xn-{c}": ms(f"mm-matmul_xn-{c}") for c in mm_cfgs},
                     **{f"fused-{c}": ms(f"mm-fused-{c}") for c in fu_cfgs},
                     **{f"fused-inflight-off-{c}": ms(f"mm-fusedoff-{c}") for c in ("def", "k64s4")}},
    "tilescope_best_ms": ours, "tilescope_best": "chain" if ours and ours == chain else "fused",
    "vs_torch_compile": comp / ours if comp and ours else None, "vs_torch_eager": eager / ours if eager and ours else None,
    "fused_vs_torch_compile": comp / fused[0] if comp and fused[0] else None}
print("rmsnorm_matmul", json.dumps(res["rmsnorm_matmul"]), f"({time.time() - t0:.0f} s)", flush=True)
del sets

# RMSNorm MLP, M = 4096, D = 4096, N = 11008.
sets = [(r(M, D), r(D) + 1, r(D, N), r(D, N), r(N, D)) for _ in range(4)]
eager = guarded("eager mlp", lambda: time_ms(rmsnorm_mlp, sets))
comp_f = torch.compile(rmsnorm_mlp)
comp = guarded("compile mlp", lambda: time_ms(comp_f, sets))
norm, norm_cfg = best([f"mlp-rms_norm-{c}" for c in rn_cfgs])
gu = best([f"mlp-gate_up-{c}" for c in gu_cfgs])
dp = best([f"mlp-down_proj-{c}" for c in mm_cfgs + ["def"]])
chain = norm + gu[0] + dp[0] if norm and gu[0] and dp[0] else None
fu = best([f"mlp-fused-{c}" for c in fm_cfgs])
fused = fu[0] + dp[0] if fu[0] and dp[0] else None
ours = min(v for v in (chain, fused) if v) if (chain or fused) else None
res["rmsnorm_mlp"] = {
    "shape": "M4096 D4096 N11008 bf16", "torch_eager_ms": eager, "torch_compile_ms": comp,
    "tilescope_chain_ms": chain, "chain": {"rms_norm": norm, "rms_norm_config": norm_cfg, "gate_up": gu[0], "gate_up_config": gu[1],
                                           "down_proj": dp[0], "down_proj_config": dp[1]},
    "tilescope_fused_ms": fused, "fused": {"norm_gate_up": fu[0], "config": fu[1], "down_proj": dp[0]},
    "tilescope_ms": {**{f"rms_norm-{c}": ms(f"mlp-rms_norm-{c}") for c in rn_cfgs}, **{f"gate_up-{c}": ms(f"mlp-gate_up-{c}") for c in gu_cfgs},
                     **{f"down_proj-{c}": ms(f"mlp-down_proj-{c}") for c in mm_cfgs + ["def"]},
                     **{f"norm_gate_up-{c}": ms(f"mlp-fused-{c}") for c in fm_cfgs},
                     **{f"norm_gate_up-inflight-off-{c}": ms(f"mlp-fusedoff-{c}") for c in ("def", "k64s4")}},
    "tilescope_best_ms": ours, "tilescope_best": "chain" if ours and ours == chain else "fused",
    "vs_torch_compile": comp / ours if comp and ours else None, "vs_torch_eager": eager / ours if eager and ours else None,
    "fused_vs_torch_compile": comp / fused if comp and fused else None}
print("rmsnorm_mlp", json.dumps(res["rmsnorm_mlp"]), f"({time.time() - t0:.0f} s)", flush=True)
json.dump(res, open(f"{out}/rmsnorm.json", "w"), indent=1)
