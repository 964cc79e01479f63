#!/usr/bin/env bash
# One device call for the session's H200 checks that other scripts define (each keeps its own
# meaning; this only runs them in turn and packs their logs): the debugger's named-barrier
# programs (bench/debugger_gpu_check.sh), the device header's conversions
# (bench/h200_conversions.sh), the exported nvcc projects (bench/h200_export.sh),
# compute-sanitizer on the samples (bench/h200_sanitizer.sh samples) and, when present, the
# profiler/worker checks (bench/h200_profile.sh).
# Before (dev box): cmake --build build --target tilec && mkdir -p .devbin && strip -o .devbin/tilec build/tilec
# Device tool: carry [".devbin"], command: bash bench/h200_session_checks.sh [parts...]
# Writes $OUT/summary.txt (one line per part: exit status, seconds) and $OUT/logs.tgz.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILEC=${TILEC:-.devbin/tilec}
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(debugger conversions export sanitizer profile)
W=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/summary.txt"
for p in "${parts[@]}"; do
  case $p in
    debugger) cmd="bash bench/debugger_gpu_check.sh" ;;
    conversions) cmd="bash bench/h200_conversions.sh" ;;
    export) cmd="bash bench/h200_export.sh" ;;
    sanitizer) cmd="bash bench/h200_sanitizer.sh samples" ;;
    profile) [ -f bench/h200_profile.sh ] || { echo "$p: no script" >> "$OUT/summary.txt"; continue; }
             cmd="bash bench/h200_profile.sh" ;;
    *) echo "$p: unknown part" >> "$OUT/summary.txt"; continue ;;
  esac
  mkdir -p "$W/$p"
  t0=$(date +%s)
  OUT="$W/$p" timeout 300 $cmd > "$W/$p/stdout.log" 2>&1
  rc=$?
  echo "$p: exit $rc, $(( $(date +%s) - t0 )) s  ($cmd)" | tee -a "$OUT/summary.txt"
  tail -4 "$W/$p/stdout.log" | sed 's/^/    /' >> "$OUT/summary.txt"
done
tar -C "$W" -czf "$OUT/logs.tgz" .
cat "$OUT/summary.txt"
