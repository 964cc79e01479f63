#!/usr/bin/env bash
# Dev-box half of the differential table (bench/differential.py): strips this worktree's tilec into
# <checkout>/.devbin/tilec and runs every kernel on the tile-level and the lowered interpreter
# (outputs dumped to <checkout>/.diff, ~30 MB), so the device only adds the GPU column.
#   bash bench/differential_payload.sh [CHECKOUT]   (default: this worktree; build build/tilec first)
# then: run(command="bash bench/h200_differential.sh", carry=[".devbin", ".diff"], timeout_s=560)
set -euo pipefail
root=$(git rev-parse --show-toplevel); dest=${1:-$root}
mkdir -p "$dest/.devbin"
strip -o "$dest/.devbin/tilec" "$root/build/tilec"
echo "$(git -C "$root" rev-parse --short HEAD) $(git -C "$root" status --porcelain | wc -l) uncommitted" > "$dest/.devbin/commit"
rm -rf "$dest/.diff"
cd "$dest"
nice python3 bench/differential.py run --engines tile,lowered --tilec .devbin/tilec --work .diff -j 2 --fresh | tail -3
python3 bench/differential.py table --work .diff --out .diff/local | tail -4
du -sh "$dest/.devbin" "$dest/.diff"
