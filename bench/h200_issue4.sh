#!/usr/bin/env bash
# Issue #4 on the H200, plus a regression check of the samples after the day's compiler changes:
#  1. the layout-width sweep on the GPU: tests/e2e/programs/affine_row.py (X(1,N) -> fragment ->
#     2x+1 -> Y, 128 threads) for every N in 1..520, each checked by `tilec run` against its
#     float64 ref_program with fresh random inputs and NaN-poisoned outputs;
#  2. every user-layout e2e program (tests/e2e/programs/*.py) on the GPU;
#  3. samples at ragged sizes, and GEMM 4096^3 fp16 timed next to torch.matmul in the same run.
# Expects .devbin/tilec (stripped, built on the dev box). Usage (device tool):
#   OUT=... bash bench/h200_issue4.sh   -> $OUT/sweep.txt, $OUT/programs.txt, $OUT/summary.json
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-.devbin/tilec}
export TILESCOPE_CACHE_DIR=/tmp/tscache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
# 1. sweep, 8 at a time (NVRTC compiles dominate)
seq 1 520 | xargs -P 8 -I{} sh -c "'$T' run tests/e2e/programs/affine_row.py --param N={} --param threads=128 --seed {} > $OUT/sweep-{}.log 2>&1; echo {} \$?" | sort -n > "$OUT/sweep.txt"
sweep_fail=$(awk '$2 != 0' "$OUT/sweep.txt" | wc -l)
echo "sweep: $(wc -l < "$OUT/sweep.txt") widths, $sweep_fail failed"
awk '$2 != 0 {print $1}' "$OUT/sweep.txt" | head -5 | while read n; do tail -5 "$OUT/sweep-$n.log"; done
tail -4 "$OUT/sweep-520.log"
rm -f "$OUT"/sweep-*.log
# 2. user-layout programs
prog_fail=0
: > "$OUT/programs.txt"
for f in tests/e2e/programs/*.py; do
  if "$T" run "$f" >> "$OUT/programs.txt" 2>&1; then echo "PASS $f"; else echo "FAIL $f"; prog_fail=$((prog_fail+1)); fi
done | tee "$OUT/programs-verdicts.txt"
# 3. samples (ragged) + gemm timing
samp_fail=0
for a in "samples/gemm.py --param M=1000 --param N=1000 --param K=1000" \
         "samples/gemm.py --param M=1000 --param N=1000 --param K=1000 --param dtype=bfloat16" \
         "samples/softmax.py --param M=4096 --param N=1000" \
         "samples/add.py --param M=1000 --param N=999"; do
  if "$T" run $a > "$OUT/sample.log" 2>&1; then echo "PASS $a"; else echo "FAIL $a"; tail -5 "$OUT/sample.log"; samp_fail=$((samp_fail+1)); fi
done | tee "$OUT/samples.txt"
"$T" bench samples/gemm.py --param M=4096 --param N=4096 --param K=4096 --json "$OUT/tilec-gemm-4096.json" | tail -3
python3 - "$OUT" <<'PY'
import json, sys, torch
out = sys.argv[1]
a = torch.randn(4096, 4096, device="cuda", dtype=torch.float16); b = torch.randn_like(a)
for _ in range(10): a @ b
ts = []
for _ in range(50):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); a @ b; e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
ts.sort(); med = ts[len(ts) // 2]
t = json.load(open(f"{out}/tilec-gemm-4096.json"))
print(json.dumps({"torch_matmul_ms": med, "torch_tflops": 2 * 4096**3 / med / 1e9, "tilec": t}, indent=1))
json.dump({"torch_matmul_ms": med, "tilec": t}, open(f"{out}/gemm-vs-torch.json", "w"), indent=1)
PY
echo "sweep_fail=$sweep_fail"
