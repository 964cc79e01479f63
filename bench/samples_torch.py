"""Second half of bench/h200_samples.sh: times torch (eager and torch.compile; SDPA backends for
the attention workloads) in the same device call as the tilec / TileLang figures the shell part
wrote, and writes one JSON per workload.

  python3 samples_torch.py OUT PASS FAIL

Reads OUT/ts-<name>.json (tilec bench) and OUT/tl-<name>.json (TileLang on the same file); a
workload made of several kernels (MLP, decode, backward) is the sum of its kernels' medians.
Writes OUT/samples-<workload>.json with vs_torch_eager / vs_torch_compile / vs_tilelang / vs_cudnn
(their median / ours, this run) and OUT/samples-summary.json. Timing of torch: CUDA events around
one call, median of 50 after 10 warm-up calls (torch.compile: after its compile)."""
import json
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_timing import guarded, time_ms  # noqa: E402

out, npass, nfail = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
t_start = time.time()
# torch.compile's compiles cost most of the time; past this many seconds later workloads skip it
BUDGET_S = float(os.environ.get("SAMPLES_TORCH_BUDGET_S", "250"))


def median_ms(name, prefix):
    try:
        return json.load(open(f"{out}/{prefix}-{name}.json")).get("median_ms")
    except Exception:
        return None


def total(names, prefix):
    ms = [median_ms(n, prefix) for n in names]
    return sum(ms) if ms and all(ms) else None

def eager_and_compiled(f, *args):
    eager = guarded("eager", lambda: time_ms(lambda: f(*args)))
    if time.time() - t_start > BUDGET_S:
        print("torch.compile skipped: time budget")
        return eager, None
    cf = torch.compile(f)
    return eager, guarded("torch.compile", lambda: time_ms(lambda: cf(*args)))


def rmsnorm(x, g, eps=1e-6):  # the usual model code: fp32 statistics, back to the input dtype
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype) * g


def swiglu(x, wg, wu):
    return F.silu(x @ wg) * (x @ wu)


def rmsnorm_matmul(x, g, w):
    return rmsnorm(x, g) @ w


def rmsnorm_mlp(x, g, wg, wu, wd):
    return swiglu(rmsnorm(x, g), wg, wu) @ wd


def decode(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)


def dequant_matmul(a, b, scale, group=128):
    n, k = b.shape[0], b.shape[1] * 2
    q = torch.stack([b & 15, b >> 4], dim=-1).reshape(n, k).to(a.dtype) - 8
    return a @ (q * scale.repeat_interleave(group, dim=1)).T


dev, bf, fp = "cuda", torch.bfloat16, torch.float16
r = lambda *s, dt=bf: torch.randn(*s, device=dev, dtype=dt) * 0.1  # noqa: E731
results = {}


def record(name, shape, ts_names, extra):
    ours = total(ts_names, "ts")
    tl = total(ts_names, "tl")
    rec = {"date": time.strftime("%Y-%m-%d"), "device": torch.cuda.get_device_name(), "torch": torch.__version__,
           "command": "bash bench/h200_samples.sh", "workload": name, "shape": shape,
           "correctness": {"pass": npass, "fail": nfail, "log": "samples-log.txt"},
           "tilescope_ms": ours, "tilescope_kernels_ms": {n: median_ms(n, "ts") for n in ts_names},
           "tilelang_ms": tl, "tilelang_kernels_ms": {n: median_ms(n, "tl") for n in ts_names}}
    rec.update(extra)
    for key, base in (("vs_torch_eager", "torch_eager_ms"), ("vs_torch_compile", "torch_compile_ms"),
                      ("vs_cudnn", "cudnn_ms"), ("vs_flash", "flash_ms")):
        if rec.get(base) and ours:
            rec[key] = rec[base] / ours
    if tl and ours:
        rec["vs_tilelang"] = tl / ours
    results[name] = rec
    json.dump(rec, open(f"{out}/samples-{name}.json", "w"), indent=1)
    print(name, json.dumps({k: v for k, v in rec.items() if k.startswith("vs_") or k.endswith("_ms")}))


M, D, N = 4096, 4096, 11008
x, g = r(M, D), r(D) + 1
e, c = eager_and_compiled(rmsnorm, x, g)
record("rmsnorm", "M4096 N4096 bf16", ["rmsnorm"], {"torch_eager_ms": e, "torch_compile_ms": c})
wg, wu = r(D, N), r(D, N)
e, c = eager_and_compiled(swiglu, x, wg, wu)
sw = [n for n in ("swiglu", "swiglu-n64") if median_ms(n, "ts")]
best = min(sw, key=lambda n: median_ms(n, "ts")) if sw else "swiglu"
record("swiglu", "M4096 K4096 N11008 bf16", [best], {"torch_eager_ms": e, "torch_compile_ms": c, "config": best})
w = r(D, 4096)
e, c = eager_and_compiled(rmsnorm_matmul, x, g, w)
record("rmsnorm_matmul", "M4096 K4096 N4096 bf16", ["rmsnorm_matmul"], {"torch_eager_ms": e, "torch_compile_ms": c})
wd = r(N, D)
e, c = eager_and_compiled(rmsnorm_mlp, x, g, wg, wu, wd)
record("rmsnorm_mlp", "M4096 D4096 N11008 bf16", ["mlp-norm_gate_up", "mlp-down_proj"],
       {"torch_eager_ms": e, "torch_compile_ms": c})
del x, wg, wu, w, wd

q, k, v = r(8, 32, 1, 128, dt=fp), r(8, 4, 8192, 128, dt=fp), r(8, 4, 8192, 128, dt=fp)
e, c = eager_and_compiled(decode, q, k, v)
record("flash_decode", "B8 H32 KV-heads 4 S8192 D128 fp16, 8 splits", ["decode-split", "decode-combine"],
       {"torch_eager_ms": e, "torch_compile_ms": c})

for m in (16, 4096):
    a = r(m, 4096, dt=fp)
    b = torch.randint(0, 256, (4096, 2048), device=dev, dtype=torch.uint8)
    s = r(4096, 32, dt=fp)
    e, c = eager_and_compiled(dequant_matmul, a, b, s)
    wfp = r(4096, 4096, dt=fp)
    cublas = guarded("fp16 matmul", lambda: time_ms(lambda: a @ wfp.T))
    record(f"dequant_gemm-m{m}", f"M{m} N4096 K4096 int4 g128 fp16", [f"dequant-m{m}"],
           {"torch_eager_ms": e, "torch_compile_ms": c, "fp16_cublas_ms": cublas})

# MHA backward B8 H32 S1024 D64 fp16: the backward pass alone (gradients of SDPA's output).
from torch.nn.attention import SDPBackend, sdpa_kernel  # noqa: E402
qb, kb, vb = (r(8, 32, 1024, 64, dt=fp).requires_grad_() for _ in range(3))
do = r(8, 32, 1024, 64, dt=fp)


def bwd_ms(backend):
    with sdpa_kernel(backend):
        o = F.scaled_dot_product_attention(qb, kb, vb)
        return time_ms(lambda: torch.autograd.grad(o, (qb, kb, vb), do, retain_graph=True))


extra = {"cudnn_ms": guarded("cudnn", lambda: bwd_ms(SDPBackend.CUDNN_ATTENTION)),
         "flash_ms": guarded("flash", lambda: bwd_ms(SDPBackend.FLASH_ATTENTION)),
         "torch_eager_ms": guarded("math", lambda: bwd_ms(SDPBackend.MATH))}
record("mha_bwd", "B8 H32 S1024 D64 fp16 (backward kernels, forward excluded)",
       ["bwd-preprocess", "bwd-main", "bwd-postprocess"], extra)
json.dump(results, open(f"{out}/samples-summary.json", "w"), indent=1)
print(f"torch part done in {time.time() - t_start:.0f} s")
