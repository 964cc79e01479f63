#!/usr/bin/env bash
# Issue 8 item 5 on the H200: every file in samples/ runs unchanged under TileLang 0.1.15 and gives
# the same results as under TileScope (both against the sample's ref_program in float64; see
# bench/samples_tilelang.py). One call, writes $OUT/samples-tilelang.json and $OUT/samples-tilelang.log.
# Before (dev box, project root): bash ../shared/tools/tilelang-device/prepare.sh   (-> .tl/)
#                                 mkdir -p .devbin && strip -o .devbin/tilec build/tilec
# Device tool: carry [".tl", ".devbin"], command: bash bench/samples_tilelang.sh
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache
source .tl/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import tilelang, torch; print('tilelang', tilelang.__version__, 'torch', torch.__version__)"
python3 bench/samples_tilelang.py --tilec .devbin/tilec --out "$OUT/samples-tilelang.json" 2>&1 | tee "$OUT/samples-tilelang.log"
exit "${PIPESTATUS[0]}"
