#!/usr/bin/env bash
# compute-sanitizer over every sample on the H200 (issue 14): memcheck, racecheck, synccheck and
# initcheck on `tilec run` of each sample (sm_90a target; the GPU run is in-process, so the
# sanitizer sees every launch), plus the issue-14 regression kernels of tests/e2e/programs/.
# Each run must report "ERROR SUMMARY: 0 errors" and the run itself must PASS its reference.
# Writes $OUT/sanitizer.md (table), $OUT/sanitizer.json and one log per run in $OUT/logs/.
# Usage: bash bench/h200_sanitizer.sh [all|samples|regressions]   (default all: 44 runs, ~5-8 min;
# split into two device calls if one takes too long)
# Device tool: carry [".devbin"], command: bash bench/h200_sanitizer.sh
# (.devbin/tilec: a stripped Release/RelWithDebInfo build of tilec, as for the other bench scripts).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/logs"
export TILESCOPE_CACHE_DIR=/tmp/tscache
T=${TILEC:-.devbin/tilec}
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -z "$CS" ]; then echo "h200_sanitizer: compute-sanitizer not found" | tee "$OUT/sanitizer.md"; exit 2; fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$CS" --version | tail -1

# file|label|params...
runs=(
  "samples/add.py|add|"
  "samples/gemm.py|gemm fp16|"
  "samples/gemm.py|gemm bf16|dtype=\"bfloat16\""
  "samples/softmax.py|softmax|"
  "samples/softmax.py|softmax N=1000|N=1000"
  "samples/flash_attention.py|flash_attention|"
  "samples/flash_attention.py|flash_attention causal|is_causal=True"
  "tests/e2e/programs/atomic_scalar_issuers.py|atomic_scalar_issuers|"
  "tests/e2e/programs/cast_e5m2_special.py|cast_e5m2_special|"
  "tests/e2e/programs/reduce_max_fp8.py|reduce_max_fp8 e5m2|dtype=\"float8_e5m2\""
  "tests/e2e/programs/int_minmax.py|int_minmax int8|"
)
case "${1:-all}" in
  samples) runs=("${runs[@]:0:7}") ;;
  regressions) runs=("${runs[@]:7}") ;;
  all) ;;
  *) echo "usage: $0 [all|samples|regressions]" >&2; exit 2 ;;
esac
tools=(memcheck racecheck synccheck initcheck)
{
  printf '| kernel |'; for t in "${tools[@]}"; do printf ' %s |' "$t"; done; printf ' check |\n'
  printf '|---|'; for t in "${tools[@]}"; do printf -- '---|'; done; printf -- '---|\n'
} > "$OUT/sanitizer.md"
echo "[" > "$OUT/sanitizer.json"
first=1; bad=0
for r in "${runs[@]}"; do
  IFS='|' read -r file label params <<< "$r"
  args=(run "$file" --target cuda:sm_90a --seed 1)
  for p in $params; do args+=(--param "$p"); done
  # Programs without a ref_program check against the tile interpreter.
  grep -q "^def ref_program" "$file" || args+=(--check interp)
  row="| $label |"; check="-"
  for t in "${tools[@]}"; do
    log="$OUT/logs/$(echo "$label" | tr ' =' '__')-$t.log"
    extra=()
    [ "$t" = racecheck ] && extra=(--racecheck-report all)
    timeout 150 "$CS" --tool "$t" "${extra[@]}" --print-limit 20 --error-exitcode 99 "$T" "${args[@]}" > "$log" 2>&1
    rc=$?
    errs=$(grep -oE 'ERROR SUMMARY: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')
    # racecheck ends with "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)" instead
    # (seen on the H200 with CUDA 13's compute-sanitizer): hazards count, errors and warnings alike.
    [ -z "$errs" ] && errs=$(grep -oE 'RACECHECK SUMMARY: [0-9]+ hazards' "$log" | tail -1 | grep -oE '[0-9]+')
    [ -z "$errs" ] && errs="?"
    if [ $rc -eq 124 ]; then cell="timeout"; bad=1
    elif [ "$errs" = "0" ]; then cell="0"
    else cell="$errs errors"; bad=1; fi
    run=$(grep -oE '^(PASS|FAIL)' "$log" | tail -1)
    [ "$t" = memcheck ] && check="${run:-rc=$rc}"
    row="$row $cell |"
    [ $first -eq 0 ] && echo "," >> "$OUT/sanitizer.json"; first=0
    printf '  {"kernel": "%s", "file": "%s", "params": "%s", "tool": "%s", "errors": "%s", "rc": %d, "run": "%s"}' \
      "$label" "$file" "${params//\"/\\\"}" "$t" "$errs" "$rc" "$run" >> "$OUT/sanitizer.json"
    echo "== $label $t: rc=$rc errors=$errs run=$run"
  done
  echo "$row $check |" >> "$OUT/sanitizer.md"
  [ "$check" != "PASS" ] && bad=1
done
echo "]" >> "$OUT/sanitizer.json"
cat "$OUT/sanitizer.md"
[ $bad -eq 0 ] && echo "h200_sanitizer: all clean" || echo "h200_sanitizer: PROBLEMS (see $OUT/logs)"
exit $bad
