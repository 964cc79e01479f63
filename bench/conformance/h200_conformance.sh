#!/usr/bin/env bash
# Issue 8 item 6 on the H200: every catalogued corpus kernel compiled for sm_90a, run on the
# interpreter at small sizes and on the GPU at the file's real sizes (bench/conformance/run.py).
# Before (dev box): bash bench/conformance/prepare_device.sh
# Device tool: carry [".corpus", ".devbin"], command: bash bench/conformance/h200_conformance.sh
# Writes $OUT/conformance-h200-<date>.json/.md (copy them to bench/results/).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# --gpu-timeout bounds the launch (NVRTC + kernel), --ref-timeout the float64 reference after it.
sizes=${SIZES:-small}   # small: the GPU runs the interpreter's sizes (same problem, fast reference)
out="$OUT/conformance-h200-$sizes-$(date -u +%F).json"
timeout ${CONF_TIMEOUT:-560} python3 bench/conformance/run.py --tilec .devbin/tilec --corpus .corpus --gpu --gpu-sizes "$sizes" -j 16 \
  --timeout 60 --interp-timeout 90 --gpu-timeout 90 --ref-timeout 150 --label h200-$sizes \
  --out "$out" 2>&1 | tail -25
# killed at the time limit: what finished is in $out.partial
[ -f "$out" ] || { [ -f "$out.partial" ] && python3 bench/conformance/run.py --resummarize "$out.partial"; }
