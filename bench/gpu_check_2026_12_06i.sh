#!/usr/bin/env bash
# 2026-12-06, fifth session (fifth check): a break-test's findings (helper-114) on the GPU (tilec
# run: against float64 and against the interpreter), sm_80 and sm_90a code on the device's sm_90:
# tests/e2e/programs/c_conversions.py -- T.cast(-1, "uint32"), 8/16-bit T.max in int, uint8
# (U - 200) // 3, int8/uint8 mixed either way round, T.floor of an int, a 1e40 float32 literal;
# plus narrow_minmax_loop64.py and int_width_semantics.py against the interpreter as controls.
#   cp bench/gpu_check_2026_12_06i.sh tests/e2e/programs/{c_conversions,narrow_minmax_loop64,int_width_semantics}.py .h200/
#   run(command="OUT=$OUT bash .h200/gpu_check_2026_12_06i.sh", carry=[".h200"])
set -u
A=.h200; T=$A/tilec; OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
[ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
ok=0; bad=0
r() { local want=$1; shift; echo "-- $* (want rc $want)" >> "$OUT/gpu-check.txt"; timeout 120 $T run "$@" >> "$OUT/gpu-check.txt" 2>&1; local rc=$?
  if [ $rc -eq $want ]; then ok=$((ok+1)); echo "OK rc=$rc $*"; else bad=$((bad+1)); echo "BAD rc=$rc (want $want) $*"; tail -4 "$OUT/gpu-check.txt"; fi; }
nvidia-smi --query-gpu=name --format=csv,noheader
$T --version
for tgt in cuda:sm_80 cuda:sm_90a; do
  for s in 1 2 3; do r 0 $A/c_conversions.py --target $tgt --seed $s; done
  r 0 $A/c_conversions.py --target $tgt --check interp
  r 0 $A/narrow_minmax_loop64.py --target $tgt --check interp
  r 0 $A/int_width_semantics.py --target $tgt --check interp
done
grep -E "PASS|FAIL" "$OUT/gpu-check.txt" | sort | uniq -c | head -20
echo "gpu check: $ok ok, $bad bad"
