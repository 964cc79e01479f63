#!/usr/bin/env bash
# Device check of the lang3a layout/view work (issue 8), under 500 s; carry [".devbin", ".corpus"]
# (.devbin/tilec built from this tree, .corpus = ../shared/tilelang-corpus):
#  1. the four e2e programs of tests/e2e/LayoutViewsE2ETest.cpp on the H200 (sm_90a and sm_80
#     code), each output against its float64 ref_program (tilec run, GPU);
#  2. the corpus kernels that compile since lang3a (layout conversions, permuted indices,
#     fragment reshape views, 3-D nests, chunked reductions, fragment B operands) at real sizes
#     on the GPU (bench/conformance/run.py --gpu --only ...), against their reference or the
#     interpreter.
# Everything is tarred to $OUT/all.tgz (the device tool returns at most 8 files).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/e2e" "$OUT/conf"; export TILESCOPE_CACHE_DIR=/tmp/tscache
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
TC=${TILEC:-.devbin/tilec}
echo "== tree $(git log -1 --oneline 2>/dev/null | cut -c1-60); tilec $TC"
for p in layout_conversion_nest fragment_view_3d gemm_fragment_b gemm_shared_slice; do
  for t in cuda:sm_90a cuda:sm_80; do
    echo "-- $p $t"
    timeout 60 "$TC" run tests/e2e/programs/$p.py --target $t --seed 1 > "$OUT/e2e/$p-${t#cuda:}.txt" 2>&1
    echo "rc=$?"; grep -E "PASS|FAIL|rel-L2|error" "$OUT/e2e/$p-${t#cuda:}.txt" | tail -5
  done
done
echo "== e2e done at $(el) s"
timeout 300 python3 bench/conformance/run.py --tilec "$TC" --corpus .corpus --gpu -j 4 \
  --timeout 100 --interp-timeout 100 --gpu-timeout 120 --label h200-lang3a \
  --only 'chunk_o_bwd|wy_fast_bwd|chunk_bwd_intra|mamba_chunk_scan|chunk_delta_bwd\.py|inference/kernel\.py:fp8_index|fp8_lighting_indexer\.py:mqa|block_sparse_mqa_fp8|pool_mqa_fp8|mhc_bwd|deepseek_v32/sparse_mla_fwd\.py' \
  --out "$OUT/conf/conformance-h200-lang3a.json" > "$OUT/conf/log.txt" 2>&1; echo "conformance rc=$?"
tail -16 "$OUT/conf/log.txt"
echo "== total $(el) s"
tar czf "$OUT/all.tgz" -C "$OUT" e2e conf 2>/dev/null
