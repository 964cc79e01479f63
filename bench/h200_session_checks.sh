#!/usr/bin/env bash
# One device call for the session's H200 checks that other scripts define (each keeps its own
# meaning; this only runs them in turn and packs their logs): the debugger's named-barrier
# programs (bench/debugger_gpu_check.sh), the device header's conversions
# (bench/h200_conversions.sh), the exported nvcc projects (bench/h200_export.sh),
# compute-sanitizer on the samples (bench/h200_sanitizer.sh samples) and, when present, the
# profiler/worker checks (bench/h200_profile.sh); and the checks left over from sessions whose
# device time ran out: interpdiff (bench/h200_interp_gpu_diff.sh, needs .corpus), nested
# (bench/h200_nested_pipelined.sh), tmasweep (bench/h200_tma_plain.sh, loop=0 int32 by default:
# TMA_LOOPS/TMA_DTYPES widen it), syncgrid (bench/h200_sync_grid.sh), ptr (bench/h200_ptr.sh).
# PART_LIMIT (s, default 300) bounds each part; an absent script is reported, not run.
# Before (dev box): cmake --build build --target tilec && mkdir -p .devbin && strip -o .devbin/tilec build/tilec
# Device tool: carry [".devbin"] (+ ".corpus" for interpdiff: bash bench/conformance/prepare_device.sh),
#   command: bash bench/h200_session_checks.sh [parts...]
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
    interpdiff) cmd="bash bench/h200_interp_gpu_diff.sh" ;;
    nested) cmd="bash bench/h200_nested_pipelined.sh" ;;
    tmasweep) cmd="env LOOPS=${TMA_LOOPS:-0} DTYPES=${TMA_DTYPES:-int32} TUNE_LIMIT=${PART_LIMIT:-300} bash bench/h200_tma_plain.sh" ;;
    syncgrid|ptr) f=bench/h200_${p/syncgrid/sync_grid}.sh
             [ -f "$f" ] || { echo "$p: no script $f" >> "$OUT/summary.txt"; continue; }
             cmd="bash $f" ;;
    *) echo "$p: unknown part" >> "$OUT/summary.txt"; continue ;;
  esac
  mkdir -p "$W/$p"
  t0=$(date +%s)
  OUT="$W/$p" timeout $(( ${PART_LIMIT:-300} + 60 )) $cmd > "$W/$p/stdout.log" 2>&1
  rc=$?
  echo "$p: exit $rc, $(( $(date +%s) - t0 )) s  ($cmd)" | tee -a "$OUT/summary.txt"
  tail -4 "$W/$p/stdout.log" | sed 's/^/    /' >> "$OUT/summary.txt"
done
tar -C "$W" -czf "$OUT/logs.tgz" .
cat "$OUT/summary.txt"
