#!/usr/bin/env python3
"""NVRTC compile time of a sample as `tilec compile --no-cache` reports it (no GPU needed).

usage: bench/compile_time.py [--tilec build/tilec] [-n 5] [--target cuda:sm_90a] samples/gemm.py

Runs tilec n times and prints one JSON object: the median NVRTC wall time (tilec's
"nvrtc ARCH: X ms" line), the median CPU time of the whole tilec process (user + sys of the child;
front end and passes are ~10 ms of it) and the 1-minute load average before and after. On the
2-core dev box the wall time is mostly waiting for a core when other builds run; compare CPU times.
"""
import argparse, json, os, re, resource, statistics, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("sample")
ap.add_argument("--tilec", default="build/tilec")
ap.add_argument("--target", default="cuda:sm_90a")
ap.add_argument("-n", type=int, default=5)
a = ap.parse_args()
wall, cpu = [], []
load0 = os.getloadavg()[0]
for _ in range(a.n):
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([a.tilec, "compile", a.sample, "--target", a.target, "--no-cache"],
                         capture_output=True, text=True)
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    m = re.search(r"nvrtc \S+: ([0-9.]+) ms", out.stdout + out.stderr)
    if out.returncode != 0 or not m:
        sys.exit("tilec failed:\n" + out.stdout + out.stderr)
    wall.append(float(m.group(1)))
    cpu.append(1000 * (c1.ru_utime - c0.ru_utime + c1.ru_stime - c0.ru_stime))
print(json.dumps({"sample": a.sample, "target": a.target, "runs": a.n,
                  "nvrtc_wall_ms_median": round(statistics.median(wall), 1),
                  "tilec_cpu_ms_median": round(statistics.median(cpu), 1),
                  "nvrtc_wall_ms": wall, "tilec_cpu_ms": [round(c, 1) for c in cpu],
                  "load1_before": round(load0, 2), "load1_after": round(os.getloadavg()[0], 2)}))
