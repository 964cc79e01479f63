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
python3 bench/conformance/run.py --tilec .devbin/tilec --corpus .corpus --gpu -j 12 \
  --timeout 120 --interp-timeout 120 --gpu-timeout 200 --label h200 \
  --out "$OUT/conformance-h200-$(date -u +%F).json" 2>&1 | tail -25
