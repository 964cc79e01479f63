"""Timing helpers shared by the torch halves of the device benchmarks (samples_torch.py,
mha_bwd_torch.py): CUDA-event median of `reps` launches after `warmup`, and a guard that turns a
baseline's failure into one printed line instead of ending the benchmark."""
import torch


def time_ms(fn, reps=50, warmup=10):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
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
