#!/usr/bin/env bash
# Puts what bench/h200_hopper_gemm.sh needs into <main checkout>/.hopper (git-ignored): the device
# tool sends the session's main checkout, not this worktree. Run from the hopper worktree after
# building build/tilec:  bash bench/hopper_payload.sh [/work/main]
set -euo pipefail
root=$(git rev-parse --show-toplevel); main=${1:-/work/main}
excl="$(git rev-parse --git-common-dir)/info/exclude"
grep -qx '/.hopper/' "$excl" || echo '/.hopper/' >> "$excl"
mkdir -p "$main/.hopper"
strip -o "$main/.hopper/tilec" "$root/build/tilec"
cp "$root/samples/gemm.py" "$root/bench/h200_hopper_gemm.sh" "$root/bench/h200_hopper_check.sh" "$main/.hopper/"
echo "$(git -C "$root" rev-parse --short HEAD) $(git -C "$root" status --porcelain | wc -l) uncommitted" > "$main/.hopper/commit"
du -sh "$main/.hopper"
