#!/bin/bash
# Compile every file of TileLang's testing/python (../shared/tilelang-corpus, read-only) with
# `tilec compile FILE --kernel all --target cuda:sm_90a -q`: one line per file, "rc<TAB>file<TAB>
# first error". 2026-12-06 seventh session: 64 of 256 files rc 0 (28 before the call-site work);
# bench/results/testing-compile-sweep-2026-12-06g.tsv. Eighth session: 71 of 256 (op-valued parameters,
# nan_propagate, T.isnan/isinf/isfinite, T.grid, T.Kernel without a grid, tilelang.disable_cache);
# bench/results/testing-compile-sweep-2026-12-06h.tsv (two files that timed out under load re-run alone).
# Ninth session (2026-12-07): 74 of 256 (nested test kernels, macro-eager jit, T.empty extents, fragment TMA
# coordinates); bench/results/testing-compile-sweep-2026-12-07.tsv.
#   bash bench/conformance/testing_compile_sweep.sh [TILEC] [OUT.tsv]
T=${1:-build/tilec}; OUT=${2:-/tmp/testing-compile-sweep.tsv}; : > "$OUT"
corpus=$(cd "$(dirname "$0")/../../../shared/tilelang-corpus" && pwd)
for f in $(find "$corpus/testing/python" -name '*.py' | sort); do
  timeout 60 "$T" compile "$f" --kernel all --target cuda:sm_90a -q > /tmp/sweep_one.txt 2>&1; rc=$?
  first=$(grep -m1 "error:" /tmp/sweep_one.txt | sed 's/^[^ ]* //' | cut -c1-120)
  echo "$rc	${f#$corpus/}	$first" >> "$OUT"
done
awk -F'\t' '{print $1}' "$OUT" | sort | uniq -c
