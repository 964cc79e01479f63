#!/usr/bin/env bash
# FlashAttention forward, same-call speed ratios on the H200: samples/flash_attention.py at B1 H16
# S4096 D128 fp16 (non-causal and causal) under tilec bench, under TileLang 0.1.15 compiling the
# same file (.tl/run_tilelang.py: TileLang's profiler), and torch SDPA (cuDNN/flash backend, CUDA
# events, median of 50 after warm-up). Expects .devbin/tilec and .tl (prepare.sh).
# Device tool: carry [".devbin", ".tl"], command: bash bench/h200_attn_ratio.sh -> $OUT/attn-ratio.json
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=/tmp/tscache
source .tl/setup.sh >/dev/null 2>&1
P="--param batch=1 --param heads=16 --param seq_len=4096 --param dim=128"
for c in False True; do
  .devbin/tilec bench samples/flash_attention.py $P --param is_causal=$c --json $OUT/ts-causal-$c.json > /dev/null 2>&1
  timeout 200 python3 .tl/run_tilelang.py samples/flash_attention.py $P --param is_causal=$c --json $OUT/tl-causal-$c.json > /dev/null 2>&1
done
python3 - "$OUT" <<'PY'
import json, sys, torch, torch.nn.functional as F
out = sys.argv[1]
q, k, v = (torch.randn(1, 16, 4096, 128, device="cuda", dtype=torch.float16) for _ in range(3))
res = {"date": "2026-12-01", "device": torch.cuda.get_device_name(), "shape": "B1 H16 S4096 D128 fp16",
       "command": "bash bench/h200_attn_ratio.sh"}
for causal in (False, True):
    for _ in range(10): F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    ts_ = []
    for _ in range(50):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); F.scaled_dot_product_attention(q, k, v, is_causal=causal); e.record(); torch.cuda.synchronize()
        ts_.append(s.elapsed_time(e))
    torch_ms = sorted(ts_)[len(ts_) // 2]
    def rd(p, key):
        try: return json.load(open(p))[key]
        except Exception as ex: return None
    ours = rd(f"{out}/ts-causal-{causal}.json", "median_ms"); tl = rd(f"{out}/tl-causal-{causal}.json", "median_ms")
    r = {"tilescope_ms": ours, "tilelang_ms": tl, "torch_sdpa_ms": torch_ms,
         "vs_cudnn": (torch_ms / ours) if ours else None, "vs_tilelang": (tl / ours) if (ours and tl) else None}
    res["causal" if causal else "non_causal"] = r
    print(("causal " if causal else "non-causal ") + json.dumps(r))
json.dump(res, open(f"{out}/attn-ratio.json", "w"), indent=1)
PY
