#!/usr/bin/env bash
# Nested T.Pipelined on the GPU (issue 14): tests/e2e/programs/pipelined_nested_same_var.py has
# a T.Pipelined loop (num_stages=2) inside a T.Pipelined loop that reuses its variable; both are
# cp.async-pipelined now (the outer one used to stay serial). The dev box checks both
# interpreters against float64 (tests/e2e/NestedPipelinedE2ETest.cpp); here the sm_80 and
# sm_90a code runs on the H200 against the interpreter (--check interp: the file's ref_program
# is not what the kernel computes, 4x the column sums, to which the e2e test pins both
# interpreters), plus a variant whose inner loop has its own variable.
# Expects .devbin/tilec (TILEC=...). Usage:
#   OUT=... bash bench/h200_nested_pipelined.sh   -> $OUT/nested_pipelined.txt (PASS/FAIL lines)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-.devbin/tilec}
export TILESCOPE_CACHE_DIR=/tmp/tscache
P=tests/e2e/programs/pipelined_nested_same_var.py
awk '/for k in T.Pipelined/ { n++; if (n == 2) { sub(/for k /, "for kk "); inner = 1 } }
     inner && /T.copy\(X\[k \*/ { sub(/X\[k \*/, "X[kk *"); inner = 0 } { print }' "$P" > "$OUT/nested_distinct.py"
fail=0
run() {
  if "$T" run "$@" > "$OUT/run.log" 2>&1; then echo "PASS $*"; else echo "FAIL $*"; tail -6 "$OUT/run.log"; fail=$((fail+1)); fi
  grep -E "rel-L2|max-abs" "$OUT/run.log" | sed 's/^/    /'
}
{
for target in cuda:sm_80 cuda:sm_90a; do
  run "$P" --target $target --check interp --seed 1
  run "$OUT/nested_distinct.py" --target $target --check interp --seed 1
done
echo "failures: $fail"
} 2>&1 | tee "$OUT/nested_pipelined.txt"
