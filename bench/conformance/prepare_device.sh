#!/usr/bin/env bash
# Dev box, from the project root: what bench/conformance/h200_conformance.sh needs on the GPU
# machine, in git-ignored folders to carry: .corpus/ (the read-only TileLang corpus, ~5 MB; it is
# input, never committed) and .devbin/tilec (stripped).
set -euo pipefail
root=$(git rev-parse --show-toplevel); cd "$root"
rm -rf .corpus && mkdir -p .corpus && cp -r ../shared/tilelang-corpus/examples .corpus/
mkdir -p .devbin && strip -o .devbin/tilec build/tilec
# The commit of the build (run.py reports it; the device's checkout copy may say another).
echo "$(git rev-parse --short HEAD) $(git status --porcelain --untracked-files=no | wc -l) uncommitted" > .devbin/commit
du -sh .corpus .devbin/tilec
