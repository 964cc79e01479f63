#!/usr/bin/env bash
# Payload: bash bench/h200_payload.sh; run(command="OUT=$OUT bash .h200/newprog2.sh", carry=[".h200"]) (a copy of this file).
# The 4-bit views and the copy-twice program on the GPU against the interpreter (and float64).
A=.h200; T=$A/tilec; [ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
nvidia-smi --query-gpu=name --format=csv,noheader
ok=0; bad=0
r() { if timeout 60 $T run "$@" -q > /tmp/o.txt 2>&1; then ok=$((ok+1)); echo "PASS $*"; else bad=$((bad+1)); echo "FAIL $*"; tail -5 /tmp/o.txt; fi; { echo "-- $*"; cat /tmp/o.txt; } >> $OUT/newprog2-log.txt; }
for t in cuda:sm_90a cuda:sm_80; do
  r tests/e2e/programs/global_view_4bit.py --target $t --check interp
  r tests/e2e/programs/timeline_copy_twice.py --target $t
  r tests/e2e/programs/timeline_copy_twice.py --target $t --check interp
  r tests/e2e/programs/global_view_dtype.py --target $t --check interp
done
echo "gpu checks: $ok pass, $bad fail"
