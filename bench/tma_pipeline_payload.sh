#!/usr/bin/env bash
# Payload of bench/h200_tma_sweep.sh and bench/h200_pipeline_matrix.sh: the stripped tilec of
# this tree into <checkout>/.devbin (git-ignored, ~7 MB; the programs travel with the tracked
# tree). Run from the worktree that built build/tilec:  bash bench/tma_pipeline_payload.sh [/work/main]
set -euo pipefail
root=$(git rev-parse --show-toplevel); dest=${1:-/work/main}
mkdir -p "$dest/.devbin"
strip -o "$dest/.devbin/tilec" "$root/build/tilec"
echo "tilec $(git -C "$root" rev-parse --short HEAD) ($(git -C "$root" status --porcelain | wc -l) uncommitted)" > "$dest/.devbin/commit"
du -sh "$dest/.devbin"
