#!/usr/bin/env bash
# Puts what bench/h200_rmsnorm.sh needs beyond the tracked tree into <checkout>/.rms (git-ignored
# through the repository's info/exclude): the stripped tilec of this worktree's build and the
# commit it was built from. The samples and the scripts travel with the tree, so build tilec from
# the commit the device run uses. Run from a worktree after building build/tilec:
#   bash bench/rmsnorm_payload.sh [/work/main]
# then: run(command="bash bench/h200_rmsnorm.sh", carry=[".rms"], timeout_s=560)
set -euo pipefail
root=$(git rev-parse --show-toplevel); main=${1:-/work/main}
excl="$(git rev-parse --git-common-dir)/info/exclude"
grep -qx '/.rms/' "$excl" || echo '/.rms/' >> "$excl"
mkdir -p "$main/.rms"
strip -o "$main/.rms/tilec" "$root/build/tilec"
echo "$(git -C "$root" rev-parse --short HEAD) $(git -C "$root" status --porcelain | wc -l) uncommitted" > "$main/.rms/commit"
du -sh "$main/.rms"
