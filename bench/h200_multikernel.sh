#!/usr/bin/env bash
# Programs with several kernels on the GPU (issue 8, item 2 and 4): every kernel of
# tests/e2e/programs/multi_kernel.py selected with --kernel and checked against its own float64
# reference (--ref: the module-level ref_program, a reference nested in a test function by its
# dotted path, a module-level one with a non-tensor parameter from the factory), at the default
# sizes and at sizes with a partial last block, for sm_80 and sm_90a; then `compile --kernel all`
# (NVRTC for every kernel) and the pragma's @kernel/@ref selecting the kernel and reference.
# Expects .devbin/tilec (stripped, built on the dev box). Usage (device tool):
#   OUT=... bash bench/h200_multikernel.sh   -> $OUT/multikernel.txt (one PASS/FAIL line per run)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-.devbin/tilec}
F=tests/e2e/programs/multi_kernel.py
export TILESCOPE_CACHE_DIR=/tmp/tscache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
fail=0
run() {
  if "$T" run "$@" > "$OUT/run.log" 2>&1 && grep -q "^PASS" "$OUT/run.log"; then echo "PASS $*"; else echo "FAIL $*"; tail -6 "$OUT/run.log"; fail=$((fail+1)); fi
  grep -E "^kernel|rel-L2" "$OUT/run.log" | sed 's/^/    /'
}
{
for target in cuda:sm_80 cuda:sm_90a; do
  run $F --target $target --kernel affine_fwd --ref ref_program
  run $F --target $target --kernel affine_fwd --ref ref_program --param M=4100 --param N=256
  run $F --target $target --kernel row_mean --ref run_row_mean.ref_program
  run $F --target $target --kernel row_mean --ref run_row_mean.ref_program --param M=4096 --param N=512 --param block_M=32
  run $F --target $target --kernel scale_cols --ref scale_ref
  run $F --target $target --kernel scale_cols --ref scale_ref --param halve=True --param M=1024 --param N=4096
  if "$T" compile $F --target $target --kernel all > "$OUT/all.log" 2>&1 && grep -q "3 of 3 kernels compiled" "$OUT/all.log"; then
    echo "PASS compile --kernel all $target"; else echo "FAIL compile --kernel all $target"; fail=$((fail+1)); fi
  sed 's/^/    /' "$OUT/all.log"
done
# The pragma selects kernel and reference like --kernel/--ref.
{ echo "# tilescope: @kernel=row_mean @ref=run_row_mean.ref_program M=2048"; cat $F; } > "$OUT/pragma.py"
run "$OUT/pragma.py"
echo "failed: $fail"
} | tee "$OUT/multikernel.txt"
