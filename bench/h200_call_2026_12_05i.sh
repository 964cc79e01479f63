#!/usr/bin/env bash
# 2026-12-05 (fourth session): bench/warpgroup_order_sweep/g14_row_spread.py at threads=128
# block_M=128 W=12 gave wrong RS and Y on the GPU (H100, call h: RS[0] 27.74 against 22.14; C right)
# while both interpreters match float64. Narrowing it: repeats, neighbours (W, threads, policy),
# compute-sanitizer racecheck/synccheck on it, and ptxas -O1 (TILESCOPE_PTXAS_OPTIONS, tilec after 32a4957).   run(command="bash bench/h200_call_2026_12_05i.sh", carry=[".devbin"])
set -u
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=60
T=.devbin/tilec; F=bench/warpgroup_order_sweep/g14_row_spread.py
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
r() { echo "== $*"; timeout 40 $T run $F --target ${TGT:-cuda:sm_90a} -q "$@" 2>&1 | grep -E "FAIL|PASS|error" | head -4; }
r -p threads=128 -p block_M=128 -p W=12
r -p threads=128 -p block_M=128 -p W=12 --seed 7
# the suspected ptxas -O3 miscompile (README): the same kernel through ptxas -O1 (rs[0] and rs[64]
# in different registers in the SASS here) should PASS where -O3 fails
( export TILESCOPE_PTXAS_OPTIONS=-O1; r -p threads=128 -p block_M=128 -p W=12 )
r -p threads=128 -p block_M=128 -p W=8
r -p threads=128 -p block_M=128 -p W=3
r -p threads=256 -p block_M=128 -p W=12
r -p threads=128 -p block_M=64 -p W=12
r -p threads=128 -p block_M=128 -p W=12 -p policy=0
r -p threads=128 -p block_M=128 -p W=12 -p M=128
TGT=cuda:sm_80 r -p threads=128 -p block_M=128 -p W=12  # (ran as a duplicate --target on 2026-12-06: fixed)
# the outputs of a seeded run, to compare with the interpreter's at the same seed on the dev box
# (tilec run ... --interp=lowered --seed 1 --dump-outputs DIR): which rows/columns RS took
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/g14"
timeout 40 $T run $F --target cuda:sm_90a -q -p threads=128 -p block_M=128 -p W=12 --seed 1 --dump-outputs "$OUT/g14" 2>&1 | tail -3
(cd "$OUT" && tar czf g14.tgz g14 && rm -rf g14)
echo "sanitizer ($(el) s)"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -n "$CS" ]; then
  for tool in racecheck synccheck; do
    timeout 60 $CS --tool $tool --target-processes all $T run $F --target cuda:sm_90a -q -p threads=128 -p block_M=128 -p W=12 -p M=128 2>&1 | grep -vE "^\s*$" | grep -E "ERROR|Error|hazard|SUMMARY|Race|PASS|FAIL|at 0x|in " | head -12
  done
else echo "no compute-sanitizer"; fi
echo "done in $(el) s"
