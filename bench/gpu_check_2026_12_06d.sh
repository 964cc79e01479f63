#!/usr/bin/env bash
# 2026-12-06, fourth session: the new programs on the GPU (tilec run: GPU against float64 and
# against the interpreter), sm_80 and sm_90a code on the device's sm_90:
#  - bench/gpu_progs_2026_12_06d/symbolic_view.py: n = 10 runs, n = 9 is refused at launch
#    (the view covers 128 of 144 bytes) -- the check is host-side, before the launch;
#  - same_dtype_view.py: a write through a same-dtype view read through a uint8 view;
#  - tests' global_view_dtype.py at 1024 x 1024 (the interpreter's view sync, now filtered);
#  - sibling_views.py: a store through one view read through another view of the same tensor.
#   cp -r bench/gpu_progs_2026_12_06d bench/gpu_check_2026_12_06d.sh .h200/
#   run(command="OUT=$OUT bash .h200/gpu_check_2026_12_06d.sh", carry=[".h200"])
set -u
A=.h200; T=$A/tilec; P=$A/gpu_progs_2026_12_06d; OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
[ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
ok=0; bad=0
r() { local want=$1; shift; echo "-- $* (want rc $want)" >> "$OUT/gpu-check.txt"; timeout 120 $T run "$@" >> "$OUT/gpu-check.txt" 2>&1; local rc=$?
  if [ $rc -eq $want ]; then ok=$((ok+1)); echo "OK rc=$rc $*"; else bad=$((bad+1)); echo "BAD rc=$rc (want $want) $*"; tail -4 "$OUT/gpu-check.txt"; fi; }
nvidia-smi --query-gpu=name --format=csv,noheader
for tgt in cuda:sm_80 cuda:sm_90a; do
  r 0 $P/symbolic_view.py --target $tgt --param n=10
  r 0 $P/symbolic_view.py --target $tgt --param n=4098
  r 1 $P/symbolic_view.py --target $tgt --param n=9
  r 0 $P/symbolic_view.py --target $tgt --param n=10 --check interp
  r 0 $P/same_dtype_view.py --target $tgt
  r 0 $P/same_dtype_view.py --target $tgt --check interp
  r 0 $A/global_view_dtype.py --target $tgt --param M=1024 --param N=1024
  r 0 $P/sibling_views.py --target $tgt
  r 0 $P/sibling_views.py --target $tgt --check interp
done
grep -E "refus|covers|PASS|FAIL" "$OUT/gpu-check.txt" | sort | uniq -c | head -20
echo "gpu check: $ok ok, $bad bad"
