#!/usr/bin/env bash
# GPU check of views of a kernel tensor with another dtype (tests/e2e/programs/global_view_dtype.py,
# TileLang's view_test with new_dtype): the GPU's outputs against float64 references and against the
# tile-level interpreter (bit-exact), sm_90a and sm_80.
# Payload: bash bench/h200_payload.sh, then copy the corpus view test into .h200/c/; run(command="OUT=$OUT bash .h200/gv.sh", carry=[".h200"]).
A=.h200; T=$A/tilec; [ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
nvidia-smi --query-gpu=name --format=csv,noheader
ok=0; bad=0
r() { if timeout 60 $T run "$@" -q > /tmp/o.txt 2>&1; then ok=$((ok+1)); echo "PASS $*"; else bad=$((bad+1)); echo "FAIL $*"; tail -5 /tmp/o.txt; fi; cat /tmp/o.txt >> $OUT/gv-log.txt; }
for t in cuda:sm_90a cuda:sm_80; do
  r tests/e2e/programs/global_view_dtype.py --target $t
  r tests/e2e/programs/global_view_dtype.py --target $t --check interp
  for dt in "float32 float16" "float16 float32" "float16 int8" "float16 bfloat16"; do set -- $dt
    r $A/c/test_tilelang_language_view.py --kernel view_test -p N=2048 -p M=64 -p dtype=$1 -p new_dtype=$2 --target $t
    r $A/c/test_tilelang_language_view.py --kernel view_test -p N=2048 -p M=64 -p dtype=$1 -p new_dtype=$2 --target $t --check interp
  done
done
echo "gpu checks: $ok pass, $bad fail"
