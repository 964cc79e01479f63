#!/usr/bin/env bash
# Puts what bench/h200_tune4096.sh needs into <main checkout>/.tune (git-ignored).
# Run from a checkout with build/tilec: bash bench/tune_payload.sh [/work/main]
set -euo pipefail
root=$(git rev-parse --show-toplevel); main=${1:-/work/main}
excl="$(git rev-parse --git-common-dir)/info/exclude"
grep -qx '/.tune/' "$excl" || echo '/.tune/' >> "$excl"
mkdir -p "$main/.tune"
rm -f "$main/.tune/tilec" "$main/.tune/tilec.xz"
# xz: the stripped tilec (8 MB) with the TileLang pack (.tl, 32.9 MB) and the tree passed the
# device tool's 64 MiB (2026-12-06); the scripts unpack it on the device.
strip -o "$main/.tune/tilec" "$root/build/tilec" && xz -9 "$main/.tune/tilec"
cp "$root/samples/gemm.py" "$root/samples/softmax.py" "$root/samples/swiglu.py" "$root/bench/h200_tune4096.sh" "$root/bench/h200_swiglu.sh" "$main/.tune/"
echo "$(git -C "$root" rev-parse --short HEAD) $(git -C "$root" status --porcelain | wc -l) uncommitted" > "$main/.tune/commit"
du -sh "$main/.tune"
