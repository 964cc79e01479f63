#!/usr/bin/env bash
# The lang-tail constructs on the GPU (issue 8): what the dev box can only check on the
# interpreters. Every line is a `tilec run` checked against the program's float64 ref_program:
#  1. tests/e2e/programs/grid_linearized.py: T.Kernel(2, 65537): a y extent above CUDA's 65535,
#     launched as one x extent and decoded in the kernel (codegen/GridShape.h); B = 2A + row.
#  2. tests/e2e/programs/persistent_sm_count.py: a persistent grid of driver.get_num_sms()
#     blocks (132 on sm_90a, 108 on sm_80).
#  3. tests/e2e/programs/autotuner_api.py: AutoTuner factories at their first config.
#  4. tests/e2e/programs/main_guard_globals.py, sparse_meta_factor.py, mma_swizzle_annotated.py.
# Expects .devbin/tilec (stripped, built on the dev box) and the corpus at ../shared. Usage:
#   OUT=... bash bench/h200_lang_tail.sh   -> $OUT/lang_tail.txt (one PASS/FAIL line per run)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-.devbin/tilec}
export TILESCOPE_CACHE_DIR=/tmp/tscache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
fail=0
run() {
  if "$T" run "$@" > "$OUT/run.log" 2>&1; then echo "PASS $*"; else echo "FAIL $*"; tail -6 "$OUT/run.log"; fail=$((fail+1)); fi
  grep -E "rel-L2|grid" "$OUT/run.log" | sed 's/^/    /'
}
{
for target in cuda:sm_80 cuda:sm_90a; do
  run tests/e2e/programs/grid_linearized.py --target $target
  run tests/e2e/programs/grid_linearized.py --target $target --param M=70001 --param N=128
  run tests/e2e/programs/persistent_sm_count.py --target $target --param M=100000
  for k in tuner tuned tuner_tuple make_tunable; do
    run tests/e2e/programs/autotuner_api.py --target $target --kernel $k
  done
  run tests/e2e/programs/main_guard_globals.py --target $target
  run tests/e2e/programs/sparse_meta_factor.py --target $target
  run tests/e2e/programs/mma_swizzle_annotated.py --target $target --param M=4096
  run tests/e2e/programs/mma_swizzle_annotated.py --target $target --param cols=24
done
echo "failures: $fail"
} | tee "$OUT/lang_tail.txt"
