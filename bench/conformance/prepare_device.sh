#!/usr/bin/env bash
# Dev box, from the project root: what bench/conformance/h200_conformance.sh needs on the GPU
# machine, in git-ignored folders to carry: .corpus/ (the read-only TileLang corpus, ~5 MB; it is
# input, never committed) and .devbin/tilec (stripped).
set -euo pipefail
root=$(git rev-parse --show-toplevel); cd "$root"
rm -rf .corpus && mkdir -p .corpus && cp -r ../shared/tilelang-corpus/examples .corpus/
mkdir -p .devbin && strip -o .devbin/tilec build/tilec
du -sh .corpus .devbin/tilec
