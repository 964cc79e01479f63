#!/usr/bin/env bash
# GPU check of this session's new test programs: float64 reference and the tile-level interpreter.
# Payload: bash bench/h200_payload.sh; run(command="OUT=$OUT bash .h200/newprog.sh", carry=[".h200"]) (a copy of this file).
A=.h200; T=$A/tilec; [ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
nvidia-smi --query-gpu=name --format=csv,noheader
ok=0; bad=0
r() { if timeout 60 $T run "$@" -q > /tmp/o.txt 2>&1; then ok=$((ok+1)); echo "PASS $*"; else bad=$((bad+1)); echo "FAIL $*"; tail -5 /tmp/o.txt; fi; { echo "-- $*"; cat /tmp/o.txt; } >> $OUT/newprog-log.txt; }
for t in cuda:sm_90a cuda:sm_80; do
  for p in global_view_dtype global_view_outputs timeline_nested_pipeline timeline_conditional_copy; do
    r tests/e2e/programs/$p.py --target $t
    r tests/e2e/programs/$p.py --target $t --check interp
  done
done
echo "new programs gpu checks: $ok pass, $bad fail"
