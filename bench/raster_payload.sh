#!/usr/bin/env bash
# Puts what bench/h200_raster.sh needs into <main checkout>/.raster (git-ignored): the device tool
# sends the session's main checkout. Run from a worktree with build/tilec: bash bench/raster_payload.sh [/work/main]
set -euo pipefail
root=$(git rev-parse --show-toplevel); main=${1:-/work/main}
excl="$(git rev-parse --git-common-dir)/info/exclude"
grep -qx '/.raster/' "$excl" || echo '/.raster/' >> "$excl"
mkdir -p "$main/.raster"
strip -o "$main/.raster/tilec" "$root/build/tilec"
cp "$root/samples/gemm.py" "$root/bench/h200_raster.sh" "$main/.raster/"
# The same file with an explicit T.use_swizzle(4, order="col") as the kernel's first statement.
sed 's/^\(\s*\)A_shared = T.alloc_shared/\1T.use_swizzle(4, order="col")\n\1A_shared = T.alloc_shared/' \
  "$root/samples/gemm.py" > "$main/.raster/gemm_swizzle_col.py"
grep -q 'use_swizzle(4, order="col")' "$main/.raster/gemm_swizzle_col.py"
echo "$(git -C "$root" rev-parse --short HEAD) $(git -C "$root" status --porcelain | wc -l) uncommitted" > "$main/.raster/commit"
du -sh "$main/.raster"
