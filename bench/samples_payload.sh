#!/usr/bin/env bash
# Puts what bench/h200_samples.sh needs beyond the tracked tree into <checkout>/.samp (git-ignored
# through the repository's info/exclude): the stripped tilec of this worktree's build. The samples
# and the scripts travel with the tree, so build tilec from the commit the device run uses.
# Run from a worktree after building build/tilec:
#   bash bench/samples_payload.sh [/work/main]
# then: run(command="bash bench/h200_samples.sh", carry=[".samp", ".tl"], timeout_s=540)
# (.tl: bash ../shared/tools/tilelang-device/prepare.sh in that checkout, if it is not there.)
set -euo pipefail
root=$(git rev-parse --show-toplevel); main=${1:-/work/main}
excl="$(git rev-parse --git-common-dir)/info/exclude"
grep -qx '/.samp/' "$excl" || echo '/.samp/' >> "$excl"
mkdir -p "$main/.samp"
strip -o "$main/.samp/tilec" "$root/build/tilec"
echo "$(git -C "$root" rev-parse --short HEAD) $(git -C "$root" status --porcelain | wc -l) uncommitted" > "$main/.samp/commit"
[ -f "$main/.tl/setup.sh" ] || echo "no $main/.tl: TileLang is not timed (bash ../shared/tools/tilelang-device/prepare.sh)" >&2
du -sh "$main/.samp"
