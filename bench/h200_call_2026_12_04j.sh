#!/usr/bin/env bash
# Second device call of the 2026-12-04 evening session (at most ~580 s), two jobs side by side
# (correctness only, nothing timed):
#  1. issue 8 item 5: every kernel and documented chain of every sample under TileLang 0.1.15 and
#     under `tilec run` on the GPU, each against the same float64 reference (bench/samples_tilelang.sh);
#  2. issue 14: compute-sanitizer memcheck/racecheck/synccheck/initcheck over every sample kernel
#     and the regression kernels (bench/h200_sanitizer.sh all), the samples as they are now
#     (flash_attn_fwd's diagonal-only masking is newer than the 2026-12-03 table).
# Before (dev box): bash ../shared/tools/tilelang-device/prepare.sh; mkdir -p .devbin && strip -o .devbin/tilec build/tilec
#   run(command="bash bench/h200_call_2026_12_04j.sh", carry=[".tl", ".devbin"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/san"
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== tilec $(cat .devbin/commit 2>/dev/null)"
( OUT="$OUT/san" timeout 560 bash bench/h200_sanitizer.sh all > "$OUT/san/run.log" 2>&1; echo "sanitizer rc=$?" >> "$OUT/san/run.log" ) &
san=$!
timeout 560 bash bench/samples_tilelang.sh; echo "samples_tilelang rc=$? ($(el) s)"
wait $san; tail -40 "$OUT/san/run.log"; echo "== done ($(el) s)"
