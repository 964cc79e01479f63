# Shared by bench/gpu_check_2026_12_06{e..p}.sh (source it; it sits beside them in .h200/): the
# payload's tilec unpacked, `r WANT ARGS...` runs `tilec run ARGS` and counts it OK when its exit
# status is WANT (the log in $OUT/gpu-check.txt), `r2 ARGS...` runs ARGS against float64 and then
# against the interpreter (--check interp), `rseeds N ARGS...` against float64 at seeds 1..N,
# `gpu_check_summary` prints the verdict lines.
set -u
A=.h200; T=$A/tilec; OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
[ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
ok=0; bad=0
r() { local want=$1; shift; echo "-- $* (want rc $want)" >> "$OUT/gpu-check.txt"; timeout 120 $T run "$@" >> "$OUT/gpu-check.txt" 2>&1; local rc=$?
  if [ $rc -eq $want ]; then ok=$((ok+1)); echo "OK rc=$rc $*"; else bad=$((bad+1)); echo "BAD rc=$rc (want $want) $*"; tail -4 "$OUT/gpu-check.txt"; fi; }
r2() { r 0 "$@"; r 0 "$@" --check interp; }
rseeds() { local n=$1 s; shift; for s in $(seq 1 "$n"); do r 0 "$@" --seed "$s"; done; }
gpu_check_summary() {
  grep -E "PASS|FAIL|ran on" "$OUT/gpu-check.txt" | sort | uniq -c | head -20
  echo "gpu check: $ok ok, $bad bad"
}
nvidia-smi --query-gpu=name --format=csv,noheader
$T --version
