#!/usr/bin/env bash
# 2026-12-06: GPU correctness of sink-tma-waits (compiler/transforms/SinkTmaWaits.cpp: a plain TMA
# copy's mbarrier wait moves down to the tile's first use), one call (correctness only):
#  a. corpus: the 34 files whose sm_90a code the pass changes (39 of the 146 catalogue kernels;
#     /work/notes/diffk.py with TILESCOPE_SINK_TMA_WAITS=0 against the default), run.py --gpu
#     --gpu-sizes small: each kernel on the GPU against float64 where the catalogue has a
#     reference, else the interpreter;
#  (the mha_bwd chains with the pass on ran in bench/h200_mha_bwd_perf.sh's correctness section:
#  19/19 vs float64 on the H100, 2026-12-06);
#  c. the g14_row_spread GPU mismatch of 2026-12-05 (bench/h200_call_2026_12_05i.sh: ptxas -O1).
# Dev box: bash bench/conformance/prepare_device.sh    (.corpus, .devbin/tilec)
#   run(command="bash bench/h200_call_2026_12_06c.sh", carry=[".corpus", ".devbin"], timeout_s=480)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/s"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
export TILESCOPE_WORKER_TIMEOUT=60
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
echo "payload $(cat .devbin/commit 2>/dev/null)"
ONLY='examples/attention_sink/example_gqa_sink_bwd_bhsd\.py|examples/attention_sink/example_gqa_sink_bwd_varlen\.py|examples/attention_sink/example_mha_sink_bwd_bhsd\.py|examples/block_causal_attention/block_causal_attention\.py|examples/blocksparse_attention/example_tilelang_block_sparse_attn\.py|examples/blocksparse_attention/example_tilelang_sparse_gqa_decode_paged\.py|examples/blocksparse_attention/example_tilelang_sparse_gqa_decode_varlen_indice\.py|examples/blocksparse_attention/example_tilelang_sparse_gqa_decode_varlen_mask\.py|examples/deepseek_mla/example_mla_decode\.py|examples/deepseek_mla/example_mla_decode_paged\.py|examples/deepseek_mla/experimental/example_mla_decode_kv_fp8\.py|examples/deepseek_v4/sparse_attn_fwd_sm90\.py|examples/dsa_hisa/block_sparse_mqa_fp8\.py|examples/dsa_hisa/pool_mqa_fp8\.py|examples/flash_attention/example_gqa_bwd_tma_reduce\.py|examples/flash_attention/example_gqa_bwd_tma_reduce_varlen\.py|examples/flash_attention/example_mha_bwd_bshd\.py|examples/gdn/example_chunk_delta_bwd\.py|examples/gdn/example_chunk_delta_h\.py|examples/gdn/example_chunk_o_bwd\.py|examples/gdn/example_wy_fast\.py|examples/gdn/example_wy_fast_bwd_split\.py|examples/kda/chunk_bwd_dqkwg\.py|examples/kda/chunk_bwd_intra\.py|examples/kda/chunk_delta_bwd\.py|examples/kda/chunk_delta_h_fwd\.py|examples/kda/chunk_inter_solve_fused\.py|examples/kda/chunk_intra_token_parallel\.py|examples/kda/chunk_o\.py|examples/kda/wy_fast\.py|examples/kda/wy_fast_bwd\.py|examples/linear_attention/example_mamba_chunk_scan\.py|examples/linear_attention/example_retention_fwd\.py|examples/seer_attention/block_sparse_attn_tilelang\.py'
( timeout 360 python3 bench/conformance/run.py --tilec .devbin/tilec --corpus .corpus --gpu --gpu-sizes small --only "$ONLY" -j 6 \
    --timeout 60 --interp-timeout 90 --gpu-timeout 60 --ref-timeout 120 --label gpu-06c --out "$OUT/s/conformance-06c.json" > "$OUT/s/a.txt" 2>&1
  echo "a done ($(el) s)" >> "$OUT/s/a.txt" ) &
( bash bench/h200_call_2026_12_05i.sh; echo "c done ($(el) s)" ) > "$OUT/s/c.txt" 2>&1 &
wait
echo "== a. corpus"; tail -25 "$OUT/s/a.txt"
echo "== c. g14"; cat "$OUT/s/c.txt"
(cd "$OUT" && tar czf s06c.tgz s g14.tgz 2>/dev/null && rm -rf s)
echo "done in $(el) s"
