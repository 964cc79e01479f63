"""Same-run baselines for tilec bench figures: cuBLAS GEMM (torch.matmul), torch softmax and add.
Median of CUDA-event timings after warm-up, rotating input sets larger than L2.
Usage: python3 bench/torch_baselines.py OUT.json"""
import json, sys, time
import torch

def bench(fn, sets, reps=50, warmup=10):
    for i in range(warmup):
        fn(*sets[i % len(sets)])
    torch.cuda.synchronize()
    times = []
    for i in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        args = sets[i % len(sets)]
        s.record(); fn(*args); e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    return times[len(times) // 2]

out = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "device": torch.cuda.get_device_name(),
       "torch": torch.__version__, "results": []}
for dt, name in [(torch.float16, "float16"), (torch.bfloat16, "bfloat16")]:
    for n in (4096, 1000):
        sets = [(torch.rand(n, n, device="cuda", dtype=dt) * 2 - 1, torch.rand(n, n, device="cuda", dtype=dt) * 2 - 1) for _ in range(4)]
        ms = bench(torch.matmul, sets)
        out["results"].append({"op": "gemm", "dtype": name, "M": n, "N": n, "K": n, "median_ms": ms, "tflops": 2 * n ** 3 / ms / 1e9})
for m, n in ((4096, 8192), (4096, 1000)):
    sets = [(torch.rand(m, n, device="cuda"),) for _ in range(4)]
    ms = bench(lambda x: torch.softmax(x, dim=-1), sets)
    out["results"].append({"op": "softmax", "dtype": "float32", "M": m, "N": n, "median_ms": ms, "gbps": 2 * m * n * 4 / ms / 1e6})
sets = [(torch.rand(4096, 4096, device="cuda"), torch.rand(4096, 4096, device="cuda")) for _ in range(4)]
ms = bench(torch.add, sets)
out["results"].append({"op": "add", "dtype": "float32", "M": 4096, "N": 4096, "median_ms": ms, "gbps": 3 * 4096 * 4096 * 4 / ms / 1e6})
json.dump(out, open(sys.argv[1], "w"), indent=2)
for r in out["results"]:
    print(r)
