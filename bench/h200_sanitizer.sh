#!/usr/bin/env bash
# compute-sanitizer over every sample kernel on the H200 (issue 14): memcheck, racecheck,
# synccheck and initcheck on `tilec run` of EVERY kernel of every samples/ file (multi-kernel files:
# each kernel; sizes and variants as in bench/differential.py, which lists them), plus the issue-14
# regression kernels of tests/e2e/programs/. Each run must report 0 errors/hazards and the run
# itself must PASS its check (ref_program, else the tile-level interpreter).
# Writes $OUT/sanitizer.md (table), $OUT/sanitizer.json and one log per run in $OUT/logs/.
#   bash bench/h200_sanitizer.sh [all|samples|regressions] [K/N]
# K/N: every N-th kernel from the K-th (split a long run over device calls). all: 28 kernels x 4
# tools, 4 sanitizer processes at a time, ~4-6 min; if it runs long, use two calls (1/2, 2/2) and
# merge the tables.
# Device tool: carry [".devbin"], command: bash bench/h200_sanitizer.sh
# (.devbin/tilec: a stripped build of tilec, e.g. bash bench/differential_payload.sh, whose .diff
# is not needed here).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/logs" "$OUT/cells"
export TILESCOPE_CACHE_DIR=/tmp/tscache
T=${TILEC:-.devbin/tilec}
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -z "$CS" ]; then echo "h200_sanitizer: compute-sanitizer not found" | tee "$OUT/sanitizer.md"; exit 2; fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$CS" --version | tail -1

# id|file|kernel|params
runs=()
if [ "${1:-all}" != regressions ]; then
  while IFS= read -r l; do runs+=("$l"); done < <(python3 bench/differential.py cases --samples-only --tilec "$T")
fi
if [ "${1:-all}" != samples ]; then
  runs+=(
    "atomic_scalar_issuers|tests/e2e/programs/atomic_scalar_issuers.py||"
    "cast_e5m2_special|tests/e2e/programs/cast_e5m2_special.py||"
    "reduce_max_fp8_e5m2|tests/e2e/programs/reduce_max_fp8.py||dtype=\"float8_e5m2\""
    "int_minmax_int8|tests/e2e/programs/int_minmax.py||"
  )
fi
case "${1:-all}" in all|samples|regressions) ;; *) echo "usage: $0 [all|samples|regressions] [K/N]" >&2; exit 2 ;; esac
if [ -n "${2:-}" ]; then
  k=${2%/*} n=${2#*/} sel=()
  for i in "${!runs[@]}"; do [ $(( i % n )) -eq $(( k - 1 )) ] && sel+=("${runs[$i]}"); done
  runs=("${sel[@]}")
fi
tools=(memcheck racecheck synccheck initcheck)
echo "h200_sanitizer: ${#runs[@]} kernels x ${#tools[@]} tools"

one() {  # one kernel under one tool: writes $OUT/cells/<id>.<tool>
  local r=$1 t=$2 id file kernel params
  IFS='|' read -r id file kernel params <<< "$r"
  local args=(run "$file" --target cuda:sm_90a --seed 1)
  [ -n "$kernel" ] && args+=(--kernel "$kernel")
  for p in $params; do args+=(--param "$p"); done
  local log="$OUT/logs/$id-$t.log" extra=()
  [ "$t" = racecheck ] && extra=(--racecheck-report all)
  timeout 240 "$CS" --tool "$t" --target-processes all "${extra[@]}" --print-limit 20 --error-exitcode 99 \
    "$T" "${args[@]}" > "$log" 2>&1
  local rc=$? errs run
  errs=$(grep -oE 'ERROR SUMMARY: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')
  # racecheck ends with "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)" (CUDA 13).
  [ -z "$errs" ] && errs=$(grep -oE 'RACECHECK SUMMARY: [0-9]+ hazards' "$log" | tail -1 | grep -oE '[0-9]+')
  [ -z "$errs" ] && errs="?"
  run=$(grep -oE '^(PASS|FAIL)' "$log" | tail -1)
  echo "$id|$file|$kernel|$params|$t|$errs|$rc|$run" > "$OUT/cells/$id.$t"
  echo "== $id $t: rc=$rc errors=$errs run=$run"
}
export -f one; export OUT CS T
for r in "${runs[@]}"; do for t in "${tools[@]}"; do printf '%s\t%s\n' "$r" "$t"; done; done |
  xargs -P 4 -d '\n' -n 1 bash -c 'IFS=$'"'"'\t'"'"' read -r r t <<< "$0"; one "$r" "$t"'

{
  printf '| kernel | params |'; for t in "${tools[@]}"; do printf ' %s |' "$t"; done; printf ' check |\n'
  printf '|---|---|'; for t in "${tools[@]}"; do printf -- '---|'; done; printf -- '---|\n'
} > "$OUT/sanitizer.md"
echo "[" > "$OUT/sanitizer.json"
first=1 bad=0 clean=0
for r in "${runs[@]}"; do
  IFS='|' read -r id file kernel params <<< "$r"
  row="| ${file}${kernel:+:$kernel} | ${params:--} |" check="-"
  for t in "${tools[@]}"; do
    c="$OUT/cells/$id.$t"
    if [ ! -f "$c" ]; then row="$row not run |"; bad=1; continue; fi
    IFS='|' read -r _ _ _ _ _ errs rc run < "$c"
    if [ "$rc" -eq 124 ]; then cell="timeout"; bad=1
    elif [ "$errs" = "0" ]; then cell="0"
    else cell="$errs errors (rc $rc)"; bad=1; fi
    [ "$t" = memcheck ] && check="${run:-rc=$rc}"
    row="$row $cell |"
    [ $first -eq 0 ] && echo "," >> "$OUT/sanitizer.json"; first=0
    printf '  {"id": "%s", "file": "%s", "kernel": "%s", "params": "%s", "tool": "%s", "errors": "%s", "rc": %d, "run": "%s"}' \
      "$id" "$file" "$kernel" "${params//\"/\\\"}" "$t" "$errs" "$rc" "$run" >> "$OUT/sanitizer.json"
  done
  echo "$row $check |" >> "$OUT/sanitizer.md"
  [ "$check" != "PASS" ] && bad=1
done
echo "]" >> "$OUT/sanitizer.json"
cat "$OUT/sanitizer.md"
[ $bad -eq 0 ] && echo "h200_sanitizer: all clean (${#runs[@]} kernels)" || echo "h200_sanitizer: PROBLEMS (see $OUT/logs)"
exit $bad
