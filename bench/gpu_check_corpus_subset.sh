#!/usr/bin/env bash
# Copies the corpus files bench/gpu_check_2026_12_07e.sh runs on the GPU into .h200/corpus (the
# corpus lives outside the repository; the device sees only the tree and the carried folders).
set -euo pipefail
src=${1:-../shared/tilelang-corpus}
for f in examples/flash_attention/example_gqa_bwd_tma_reduce.py examples/block_causal_attention/block_causal_attention.py \
         examples/flash_attention/example_mha_bwd_bshd.py examples/deepseek_mla/example_mla_decode_paged.py \
         examples/gdn/example_chunk_delta_bwd.py examples/attention_sink/example_mha_sink_bwd_bhsd.py; do
  mkdir -p ".h200/corpus/$(dirname $f)" && cp "$src/$f" ".h200/corpus/$f"
done
# Files they import from their own folders.
for d in gdn deepseek_mla attention_sink block_causal_attention flash_attention; do
  cp "$src/examples/$d"/*.py ".h200/corpus/examples/$d/" 2>/dev/null || true
done
du -sh .h200/corpus
