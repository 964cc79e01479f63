#!/usr/bin/env bash
# Shrinks .tl/tilelang.tar.xz (made by ../shared/tools/tilelang-device/prepare.sh, ~37 MB) to
# ~34.6 MB so the device tool's tree + carries stay under its 64 MiB (counted in 4 KiB blocks;
# the tracked tree is ~35 MB of blocks with docs/screenshots moved out during a call): drops
# tilelang/src except tl_templates (and its ascend part) and torch_c_dlpack_ext's CPU addons, none
# of which TileLang needs to compile and time CUDA kernels; recompresses with xz -9e (~10 min on
# 2 cores, run it niced beside a build).
#   bash bench/tl_prune.sh            (from the checkout root, after prepare.sh)
set -euo pipefail
root=$(git rev-parse --show-toplevel); tar_xz=$root/.tl/tilelang.tar.xz
[ -f "$tar_xz" ] || { echo "no $tar_xz: run ../shared/tools/tilelang-device/prepare.sh first"; exit 2; }
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
tar xJf "$tar_xz" -C "$w"
find "$w" -maxdepth 4 -type d -path '*tilelang/src' | while read -r d; do
  for x in "$d"/*; do [ "$(basename "$x")" = tl_templates ] || rm -rf "$x"; done
  rm -rf "$d/tl_templates/ascend"
done
find "$w" -name '*cpu.so' -path '*torch_c_dlpack_ext*' -delete || true
(cd "$w" && tar cf - .) | xz -9e -T2 > "$tar_xz.new"
mv "$tar_xz.new" "$tar_xz"
ls -la "$tar_xz"
