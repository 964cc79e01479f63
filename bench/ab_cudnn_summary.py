"""Summary of an interleaved A/B call (bench/clear_gemm_ab_2026_12_07d.sh, pair_cast_ab_2026_12_07g.sh):
reads W/<workload>-<old|new>-r<round>.json (tilec bench), times cuDNN (torch SDPA, CUDA events,
median of 50 after 10 warm-up calls) on the attention shapes in the same process, and writes
W/ab.json: per workload the medians, speedup_new = min(old) / min(new), vs_cudnn = cuDNN / ours.
  python3 ab_cudnn_summary.py W
"""
import json, glob, os, sys, torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
w = sys.argv[1]
def med(fn):
    for _ in range(10): fn()
    ts = []
    for _ in range(50):
        a, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); e.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(e))
    ts.sort(); return ts[len(ts) // 2]
def cudnn(b, h, s, d, causal, dt=torch.float16):
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=dt) for _ in range(3))
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        return med(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
base = {"fwd16": cudnn(1, 16, 4096, 128, False), "fwdbf": cudnn(1, 16, 4096, 128, False, torch.bfloat16), "causal": cudnn(4, 32, 4096, 128, True)}
rows = {}
for f in sorted(glob.glob(w + "/*-r[12].json")):
    wl, v, r = os.path.basename(f)[:-5].split("-")
    rows.setdefault(wl, {}).setdefault(v, []).append(json.load(open(f))["median_ms"])
res = {"device": torch.cuda.get_device_name(), "cudnn_ms": base, "workloads": {}}
for wl, d in rows.items():
    old, new = d.get("old", []), d.get("new", [])
    e = {"old_ms": old, "new_ms": new}
    if old and new: e["speedup_new"] = round(min(old) / min(new), 4)
    if wl in base and new: e["vs_cudnn_new"] = round(base[wl] / min(new), 4); e["vs_cudnn_old"] = round(base[wl] / min(old), 4) if old else None
    res["workloads"][wl] = e
    print(wl, e)
json.dump(res, open(w + "/ab.json", "w"), indent=1)
