#!/usr/bin/env bash
# Issue 8 item 5 on the H200: every kernel of every file in samples/, and every chain the sample
# headers document, runs unchanged under TileLang 0.1.15 and gives the same results as under
# TileScope (`tilec run --kernel K --ref R` / `--chain ... --ref R`), both against the same float64
# reference (the sample's own, or bench/samples_refs.py for the two mha_bwd steps without one):
# the case table (49 cases; 47 under --small) and the binding rules are in
# bench/samples_tilelang.py. Writes $OUT/samples-tilelang.json and $OUT/samples-tilelang.log.
# Before (dev box, project root): bash ../shared/tools/tilelang-device/prepare.sh   (-> .tl/)
#                                 mkdir -p .devbin && strip -o .devbin/tilec build/tilec
# Device tool: carry [".tl", ".devbin"], command: bash bench/samples_tilelang.sh [--part K/N]
# Each case runs in its own process (ISOLATE=6 at a time): a CUDA error of one TileLang case (a
# misaligned address) leaves that process's CUDA context unusable for every later case.
# (--part 1/2 and 2/2 split the table over two calls when one would pass the 10-minute limit;
# $OUT/samples-tilelang[-K-of-N].json is rewritten after every case, so a cut call keeps its rows)
# Without a GPU (TileLang compile + chain binding + reference shapes; tilec on its interpreter):
#   TILELANG_DEFAULT_TARGET='{"kind": "cuda", "arch": "sm_90a"}' ~/.cache/tilescope-tlvenv/bin/python \
#     bench/samples_tilelang.py --dry --small --interp --tilec build/tilec --out /tmp/samples-dry.json
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache
source .tl/setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c "import tilelang, torch; print('tilelang', tilelang.__version__, 'torch', torch.__version__)"
tag=samples-tilelang
[ "${1:-}" = --part ] && tag=samples-tilelang-${2/\//-of-}
python3 bench/samples_tilelang.py --tilec .devbin/tilec --isolate ${ISOLATE:-6} --out "$OUT/$tag.json" "$@" 2>&1 | tee "$OUT/$tag.log"
exit "${PIPESTATUS[0]}"
