#!/usr/bin/env bash
# 2026-12-05 (fourth session): GPU correctness of what the last three sessions changed without a
# device, one call of at most ~420 s, sections in parallel (correctness only: no timings here).
#  a. corpus (run.py --gpu --gpu-sizes small, vs float64 where the catalogue has a reference, else
#     the interpreter): the warpgroup-order kernels (bench/h200_warpgroup_order.sh's list) and the
#     files whose code changed with the default 1-D row TMA loads (bench/results/row-tma-2026-12-05:
#     attention_sink bwd, block_causal bwd, gqa_bwd_tma_reduce(_varlen), mha_bwd_bshd, mamba
#     chunk_scan_fwd);
#  b. test programs: gemm_warpgroup_order, atomic_tma_reduce, the attention sample at the new
#     warpgroup shapes, and the 50 sweep configurations (bench/warpgroup_order_sweep/gpu_check.sh);
#  c. bench/gpu_view_storage_check.sh (view-storage fixes, sm_90a and sm_80);
#  d. bench/gpu_written_operand_check.sh (partial writes keep one copy; the written-operand TMA
#     schedule and its warp-specialized form, both behind switches).
# Dev box: bash bench/conformance/prepare_device.sh    (.corpus, .devbin/tilec)
#   run(command="bash bench/h200_call_2026_12_05g.sh", carry=[".corpus", ".devbin"], timeout_s=480)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/g"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
export TILESCOPE_WORKER_TIMEOUT=60
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
echo "payload $(cat .devbin/commit 2>/dev/null)"
ONLY='analyze/example_conv_analyze|blocksparse_gemm/example_blocksparse_gemm|convolution/example_convolution_autotune|deepseek_mla/example_mla_decode.py|example_mla_decode_paged|example_mla_decode_kv_fp8|deepseek_v32/sparse_mla_fwd.py|deepseek_v4/sparse_attn_fwd_sm90|example_dequant_gemm_bf16_fp4_hopper|dsa_sparse_finetune/sparse_mla_fwd.py|gdn/example_chunk_delta_(bwd|h)\.py|gemm_splitk_vectorize_atomicadd|grouped_gemm/example_grouped_gemm_fwd.py|kda/chunk_delta_(h_fwd|bwd)|examples/quickstart|example_warp_specialize_gemm_copy_(0_gemm_1|1_gemm_0)|gqa_bwd_tma_reduce|attention_sink/example_(gqa|mha)_sink_bwd|block_causal_attention/block_causal_attention.py|flash_attention/example_mha_bwd_bshd|mamba.*chunk_scan|attention_sink'
( timeout 330 python3 bench/conformance/run.py --tilec .devbin/tilec --corpus .corpus --gpu --gpu-sizes small --only "$ONLY" -j 6 \
    --timeout 60 --interp-timeout 90 --gpu-timeout 60 --ref-timeout 120 --label gpu-05g --out "$OUT/g/conformance-05g.json" > "$OUT/g/a.txt" 2>&1
  echo "a done ($(el) s)" >> "$OUT/g/a.txt" ) &
( P=tests/e2e/programs/gemm_warpgroup_order.py; A=samples/flash_attn_fwd.py
  for args in "" "-p block_M=128 -p threads=128" "-p tf32_tail=1" "-p M=1000 -p N=640 -p K=192"; do
    echo "== $P $args"; timeout 60 .devbin/tilec run $P --target cuda:sm_90a $args 2>&1 | tail -3
  done
  for args in "-p block_M=128 -p threads=128 -p is_causal=True -p seq_len=4097" "-p block_M=128 -p threads=128 -p seq_len=1000" "-p threads=256 -p is_causal=True -p seq_len=4097"; do
    echo "== $A $args"; timeout 60 .devbin/tilec run $A --target cuda:sm_90a -p batch=1 -p heads=4 -p dim=128 $args 2>&1 | tail -3
  done
  for args in "" "-p use_tma=False" "-p M=1000 -p N=256 -p S=8"; do
    echo "== atomic_tma_reduce $args"; timeout 60 .devbin/tilec run tests/e2e/programs/atomic_tma_reduce.py --target cuda:sm_90a $args 2>&1 | tail -3
  done
  echo "== sweep"; timeout 300 bash bench/warpgroup_order_sweep/gpu_check.sh .devbin/tilec
  echo "b done ($(el) s)" ) > "$OUT/g/b.txt" 2>&1 &
( OUT=$OUT/gc timeout 300 bash bench/gpu_view_storage_check.sh; echo "c done ($(el) s)" ) > "$OUT/g/c.txt" 2>&1 &
( OUT=$OUT/gd timeout 300 bash bench/gpu_written_operand_check.sh; echo "d done ($(el) s)" ) > "$OUT/g/d.txt" 2>&1 &
wait
echo "== a. corpus"; tail -25 "$OUT/g/a.txt"
echo "== b. programs + sweep"; grep -v '^PASS' "$OUT/g/b.txt" | head -60; echo "PASS lines: $(grep -c '^PASS' "$OUT/g/b.txt")"
echo "== c. view storage"; grep -v '^PASS' "$OUT/g/c.txt"; echo "PASS lines: $(grep -c '^PASS' "$OUT/g/c.txt")"
echo "== d. written operands"; grep -v '^PASS' "$OUT/g/d.txt"; echo "PASS lines: $(grep -c '^PASS' "$OUT/g/d.txt")"
# at most 8 files come back: one archive of the logs and the conformance JSON
(cd "$OUT" && tar czf g05g.tgz g gc gd && rm -rf g gc gd)
echo "done in $(el) s"
