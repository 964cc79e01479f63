#!/usr/bin/env bash
# Symbolic sizes, scalar kernel arguments and tile atomics on the GPU (issue 8, the front-end
# surface). Every line is a `tilec run` whose outputs are checked (float64 ref_program, or the
# tile interpreter where the program has none); a kernel's scalar arguments come from --param:
#  1. tests/e2e/programs/dynamic_gemm.py: M = T.dynamic("M") and `scale: T.float32` passed by
#     value through cuLaunchKernel; one program at M = 1000 and M = 4096 (grid from T.ceildiv).
#  2. tests/e2e/programs/splitk_gemm.py: split-K GEMM whose partial tiles are added with
#     T.atomic_add (fragment region, per element in T.Parallel, from shared memory); the output
#     starts at zero (tilec zero-fills outputs only atomics write); small and 1024x1024x4096.
#  3. tests/e2e/programs/atomic_minmax.py: T.atomic_max/min CAS loops in float32/float16/bf16.
#  4. tests/e2e/programs/atomic_prev.py: histogram with T.atomic_add(..., return_prev=True); the
#     Hist counts must match the interpreter exactly (Slot, the returned previous values, depends
#     on the order threads run in, so its elementwise check is expected to differ: not counted).
# Expects .devbin/tilec (stripped, built on the dev box). Usage (device tool):
#   OUT=... bash bench/h200_frontend.sh   -> $OUT/frontend.txt (one PASS/FAIL line per run)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-.devbin/tilec}
export TILESCOPE_CACHE_DIR=/tmp/tscache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
fail=0
run() {
  if "$T" run "$@" > "$OUT/run.log" 2>&1; then echo "PASS $*"; else echo "FAIL $*"; tail -6 "$OUT/run.log"; fail=$((fail+1)); fi
  grep -E "scalar argument|starts at zero|rel-L2" "$OUT/run.log" | sed 's/^/    /'
}
{
for target in cuda:sm_80 cuda:sm_90a; do
  run tests/e2e/programs/dynamic_gemm.py --target $target --param M=1000 --param scale=0.5
  run tests/e2e/programs/dynamic_gemm.py --target $target --param M=4096 --param scale=-2 --param N=256 --param K=512
  for m in region parallel shared; do
    run tests/e2e/programs/splitk_gemm.py --target $target --param mode="'$m'"
    run tests/e2e/programs/splitk_gemm.py --target $target --param mode="'$m'" --param M=1024 --param N=1024 --param K=4096 --param block_M=128 --param block_N=128 --param split_k=4
  done
  for od in float16 bfloat16; do  # dtype conversion: fp32 partials added into a 16-bit output
    run tests/e2e/programs/splitk_gemm.py --target $target --param mode="'parallel'" --param out_dtype="'$od'"
  done
  for dt in float32 float16 bfloat16; do
    for m in region parallel; do
      run tests/e2e/programs/atomic_minmax.py --target $target --param dtype="'$dt'" --param mode="'$m'"
    done
  done
  for m in global shared; do
    "$T" run tests/e2e/programs/atomic_prev.py --target $target --param mode="'$m'" > "$OUT/run.log" 2>&1
    if grep -q "Hist: .*PASS" "$OUT/run.log"; then echo "PASS atomic_prev $m $target (Hist)"; else echo "FAIL atomic_prev $m $target"; tail -6 "$OUT/run.log"; fail=$((fail+1)); fi
  done
done
echo "failed: $fail"
} | tee "$OUT/frontend.txt"
