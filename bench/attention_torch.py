"""Second half of bench/h200_attention.sh: times torch SDPA (cuDNN and flash backends) in the same
device call as the tilec / TileLang figures the shell part wrote, and writes one JSON per shape.

  python3 attention_torch.py OUT PASS FAIL

Reads OUT/ts-<shape>-<cfg>.json (tilec bench), OUT/tl-example-<shape>-*.json (TileLang on its own
example) and OUT/tl-ours-<shape>.json (TileLang on our file); writes OUT/attention-<shape>.json
with vs_cudnn = cuDNN median / ours, vs_flash = flash median / ours, vs_tilelang = TileLang's
best median / ours (its own example when it ran, else our file), ours = the best of our configs.
Timing of torch: CUDA events around one call, median of 50 after 10 warm-up calls, contiguous
(B, H, S, D) tensors (the layout SDPA prefers)."""
import glob
import json
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

out, npass, nfail = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
SHAPES = {  # name: (batch, heads, seq, dim, causal, dtype)
    "fwd-fp16": (1, 16, 4096, 128, False, torch.float16),
    "fwd-bf16": (1, 16, 4096, 128, False, torch.bfloat16),
    "causal-fp16": (4, 32, 4096, 128, True, torch.float16),
}
CONFIGS = {"A": "64x64, 2 stages, 128 threads", "B": "128x64, 2 stages, 256 threads (lockstep)",
           "C": "128x128, 2 stages, 256 threads (lockstep)", "D": "128x64, 3 stages, 256 threads (warpgroup ping-pong)",
           "E": "128x128, 3 stages, 256 threads (warpgroup ping-pong)",
           "F": "128x64, 4 stages, 256 threads (warpgroup ping-pong)"}


def median_ms(path):
    try:
        return json.load(open(path)).get("median_ms")
    except Exception:
        return None


def time_sdpa(backend, q, k, v, causal):
    try:
        with sdpa_kernel(backend):
            for _ in range(10):
                F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            ms = []
            for _ in range(50):
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                e.record()
                torch.cuda.synchronize()
                ms.append(s.elapsed_time(e))
        return sorted(ms)[len(ms) // 2]
    except Exception as ex:  # backend not available for this shape/dtype
        print(f"torch {backend}: {type(ex).__name__}: {str(ex)[:200]}")
        return None


for name, (b, h, s, d, causal, dt) in SHAPES.items():
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=dt) for _ in range(3))
    cudnn = time_sdpa(SDPBackend.CUDNN_ATTENTION, q, k, v, causal)
    flash = time_sdpa(SDPBackend.FLASH_ATTENTION, q, k, v, causal)
    ours = {c: median_ms(f"{out}/ts-{name}-{c}.json") for c in CONFIGS}
    lockstep = {c: median_ms(f"{out}/ts-lockstep-{name}-{c}.json") for c in CONFIGS if os.path.exists(f"{out}/ts-lockstep-{name}-{c}.json")}
    ws = {c: median_ms(f"{out}/ts-ws-{name}-{c}.json") for c in CONFIGS if os.path.exists(f"{out}/ts-ws-{name}-{c}.json")}
    cpasync = {c: median_ms(f"{out}/ts-cp-{name}-{c}.json") for c in CONFIGS if os.path.exists(f"{out}/ts-cp-{name}-{c}.json")}
    sm80 = {c: median_ms(f"{out}/ts80-{name}-{c}.json") for c in CONFIGS if os.path.exists(f"{out}/ts80-{name}-{c}.json")}
    best_cfg = min((c for c in ours if ours[c]), key=lambda c: ours[c], default=None)
    best = ours[best_cfg] if best_cfg else None
    tl_example = {os.path.basename(p)[:-5]: median_ms(p) for p in glob.glob(f"{out}/tl-example-{name}-*.json")}
    tl_ours = median_ms(f"{out}/tl-ours-{name}.json")
    tl_ex_best = min((v for v in tl_example.values() if v), default=None)
    tl_best = tl_ex_best or tl_ours
    flops = 4 * b * h * s * s * d / (2 if causal else 1)

    def ratio(x):
        return x / best if x and best else None

    r = {"date": __import__("datetime").date.today().isoformat(), "device": torch.cuda.get_device_name(), "torch": torch.__version__,
         "command": "bash .attn/h200_attention.sh (bench/h200_attention.sh)",
         "shape": f"B{b} H{h} S{s} D{d} {str(dt).split('.')[-1]}{' causal' if causal else ''}",
         "sample": "samples/flash_attn_fwd.py --target cuda:sm_90a",
         "correctness": {"pass": npass, "fail": nfail, "log": "attention-log.txt"},
         "tilescope_ms": ours, "tilescope_best_config": best_cfg, "configs": CONFIGS,
         "tilescope_sm80_path_ms": sm80, "tilescope_cpasync_schedule_ms": cpasync,
         "tilescope_warp_specialized_ms": ws, "tilescope_pingpong_off_ms": lockstep,
         "switches": {"TILESCOPE_HOPPER_PINGPONG": os.environ.get("TILESCOPE_HOPPER_PINGPONG")},
         "tilescope_best_ms": best, "tilescope_tflops": flops / best / 1e9 if best else None,
         "cudnn_ms": cudnn, "flash_ms": flash,
         "tilelang_example_ms": tl_example, "tilelang_on_our_file_ms": tl_ours,
         "tilelang_baseline": "own example" if tl_ex_best else ("our file" if tl_ours else None),
         "vs_cudnn": ratio(cudnn), "vs_flash": ratio(flash), "vs_tilelang": ratio(tl_best),
         "timing": "tilec bench / TileLang profiler: median of 50 (100 for TileLang); torch: CUDA events, median of 50"}
    json.dump(r, open(f"{out}/attention-{name}.json", "w"), indent=1)
    print(f"{name}: " + json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()
                                    if k in ("tilescope_best_ms", "tilescope_best_config", "tilescope_tflops", "tilescope_ms", "tilescope_cpasync_schedule_ms", "tilescope_warp_specialized_ms", "tilescope_pingpong_off_ms", "tilescope_sm80_path_ms", "cudnn_ms",
                                             "flash_ms", "tilelang_example_ms", "tilelang_on_our_file_ms",
                                             "vs_cudnn", "vs_flash", "vs_tilelang")}))

if not os.path.exists(f"{out}/ts-gemm-4096-fp16.json"):
    sys.exit(0)  # the GEMM is no longer timed by h200_attention.sh (bench/results/ has its runs)
# GEMM fp16 4096^3 (samples/gemm.py, 128x256x64, TMA path) against torch.matmul (cuBLAS).
g = median_ms(f"{out}/ts-gemm-4096-fp16.json")
a = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
bm = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
for _ in range(10):
    a @ bm
tt = []
for _ in range(50):
    s0, e0 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s0.record(); a @ bm; e0.record(); torch.cuda.synchronize(); tt.append(s0.elapsed_time(e0))
cub = sorted(tt)[len(tt) // 2]
gr = {"tilescope_ms": g, "cublas_ms": cub, "vs_cublas": cub / g if g else None,
      "tilescope_tflops": 2 * 4096 ** 3 / g / 1e9 if g else None, "config": "128x256x64, 3 stages, 256 threads"}
json.dump(gr, open(f"{out}/gemm-4096-fp16.json", "w"), indent=1)
print("gemm fp16 4096^3: " + json.dumps(gr))
