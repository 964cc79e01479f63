#!/usr/bin/env bash
# 2026-12-07 (eleventh session): GPU check of this session's changes, sm_90a and sm_80, each against
# its float64 reference and the interpreter: T.launch_thread (launch_thread.py), the clear/gemm
# fold (clear_gemm_fold.py), every test program whose T.clear now folds into its gemm (on sm_90a a
# wgmma with scale-d = 0), a GPU fault naming the interpreter command (TileLang's
# assume_complex_indexing kernel reads A[2, -1]: rc 1 and the hint), then the corpus kernels with a
# T.clear + T.gemm pair (MHA / GQA backward, block-causal attention, MLA decode, GDN) through
# bench/conformance/run.py --gpu at small sizes (float64 reference, else the interpreter).
#   bash bench/h200_payload.sh; cp bench/gpu_check_2026_12_07e.sh bench/gpu_check_lib.sh \
#     tests/e2e/programs/{launch_thread,clear_gemm_fold,gemm_fragment_a_transposed,gemm_shared_view_pipelined,fragment_convert,timeline_nested_pipeline,role_handoff_slice_gemm,gemm_shared_slice,tma_written_operand,warpgroup_order_independent,role_chain_slice_gemm,gemm_shared_view,gemm_row_stats}.py \
#     ../shared/tilelang-corpus/testing/python/language/test_tilelang_language_assume.py .h200/
#   bash bench/gpu_check_corpus_subset.sh   (copies the corpus files below into .h200/corpus)
#   run(command="OUT=/tmp/o bash .h200/gpu_check_2026_12_07e.sh", carry=[".h200", ".tl"])
. "$(dirname "$0")/gpu_check_lib.sh"
for tgt in cuda:sm_90a cuda:sm_80; do
  for f in launch_thread clear_gemm_fold gemm_fragment_a_transposed gemm_shared_view_pipelined fragment_convert timeline_nested_pipeline \
           role_handoff_slice_gemm gemm_shared_slice tma_written_operand warpgroup_order_independent role_chain_slice_gemm gemm_shared_view gemm_row_stats; do
    # role_handoff_slice_gemm waits on mbarrier phases: sm_90a only (an error on sm_80, as it should be).
    [ $f = role_handoff_slice_gemm ] && [ $tgt = cuda:sm_80 ] && { r 1 $A/$f.py --target $tgt; continue; }
    r2 $A/$f.py --target $tgt
  done
  r 1 $A/test_tilelang_language_assume.py -k test_assume_complex_indexing.kernel_complex --target $tgt
  if grep -q "hint: find the faulting access on the CPU: .tilec run .*--seed [0-9]* --interp" "$OUT/gpu-check.txt"; then ok=$((ok+1)); echo "OK fault hint ($tgt)"
  else bad=$((bad+1)); echo "BAD no fault hint ($tgt)"; fi
done
gpu_check_summary
if [ -d $A/corpus/examples ]; then
  timeout 300 python3 bench/conformance/run.py --tilec $T --corpus $A/corpus --gpu --gpu-sizes small -j 8 --timeout 60 --interp-timeout 90 \
    --gpu-timeout 90 --ref-timeout 120 --label fold-gpu --out "$OUT/conformance-fold-gpu.json" \
    --only 'flash_attention/example_gqa_bwd_tma_reduce\.py|block_causal_attention/block_causal_attention\.py|flash_attention/example_mha_bwd_bshd|deepseek_mla/example_mla_decode_paged|gdn/example_chunk_delta_bwd|attention_sink/example_mha_sink_bwd_bhsd' 2>&1 | tail -24
fi
