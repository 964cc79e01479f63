#!/usr/bin/env bash
# One H200 call for the merge of 2026-12-03 (second session): the plain-copy TMA sweep (issue 9),
# the in-place shared-slice gemms (issue 8), and part 4 of the interpreter-match check (issue 8),
# each under its own time limit so one slow part cannot take the others' results with it.
# carry [".devbin", ".corpus"]; writes $OUT/{tma,slices,interp4}/ and $OUT/summary.txt.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/tma" "$OUT/slices" "$OUT/interp4"
t0=$(date +%s)
(OUT=$OUT/tma timeout 250 bash bench/h200_tma_plain.sh > "$OUT/tma/log.txt" 2>&1); echo "tma rc=$? at $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
(OUT=$OUT/slices timeout 150 bash bench/h200_smem_slices.sh > "$OUT/slices/log.txt" 2>&1); echo "slices rc=$? at $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
(OUT=$OUT/interp4 timeout 140 bash bench/h200_interp_match.sh 4 > "$OUT/interp4/log.txt" 2>&1); echo "interp4 rc=$? at $(( $(date +%s) - t0 )) s" | tee -a "$OUT/summary.txt"
tail -3 "$OUT/tma/log.txt" "$OUT/slices/log.txt" "$OUT/interp4/log.txt" | tee -a "$OUT/summary.txt"
