#!/usr/bin/env bash
# GPU check of branch h99: shared operand tiles written only in part or under a condition keep one
# copy (tests/e2e/programs/written_operand_partial.py modes 1-3; mode 0, the whole tile every
# iteration, keeps the two-copy schedules), for the default cp.async in-flight schedule
# (num_stages=3) and the fragment-path TMA schedule (TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1), and
# warp-specialized tma_written_operand.py mode 1 (an mma.sync gemm in the consumers' branch),
# each on the device against its float64 reference on cuda:sm_90a. With .devbin/tilec-old (a tilec
# from main before h99) the partial-write runs are repeated on it: modes 1-3 should FAIL there
# (the second copy holds tile k-2's values or uninitialised shared memory), not by timing.
# Before (dev box): mkdir -p .devbin && strip -o .devbin/tilec build/tilec
#                   [strip -o .devbin/tilec-old /work/main/build/tilec]
#   run(command="bash bench/gpu_written_operand_check.sh", carry=[".devbin"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/chk"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
P=tests/e2e/programs
np=0; nf=0; i=0
check() {  # check BIN ENV... -- ARGS...
  local bin=$1; shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  i=$((i+1))
  env "${envs[@]}" timeout 150 "$bin" run "$@" --target cuda:sm_90a > "$OUT/chk/case$i.log" 2>&1; local rc=$?
  if [ $rc = 0 ] && grep -q "^PASS" "$OUT/chk/case$i.log"; then np=$((np+1)); echo "PASS $bin ${envs[*]}: $*"
  else nf=$((nf+1)); echo "FAIL $bin ${envs[*]} rc=$rc: $*"; tail -4 "$OUT/chk/case$i.log"; fi
}
for bin in .devbin/tilec .devbin/tilec-old; do
  [ -x "$bin" ] || continue
  for wo in 0 1; do
    for mode in 0 1 2 3; do
      for st in 2 3; do
        check "$bin" TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=$wo -- $P/written_operand_partial.py --param mode=$mode --param num_stages=$st --param T_tiles=8
      done
    done
  done
done
for th in 128 256; do
  check .devbin/tilec TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_WS=1 -- $P/tma_written_operand.py --param mode=1 --param T_tiles=4 --param threads=$th
done
echo "written-operand GPU check: $np pass, $nf fail"
