#!/usr/bin/env bash
# 2026-12-06 (second session): GPU checks of this session's compiler changes, one call (~400 s):
#  1. test programs never run on a GPU, by tilec run vs float64 (or --check interp: the GPU
#     against the tile-level interpreter, bit-exact for integer outputs): sink_tma_waits.py modes
#     0-3 (pass on/off, sm_80), top_fence_tail.py, shared_view_alias.py and
#     shared_view_gemm_operand.py (views of shared tiles: one set of bytes; a view's layout
#     placing its tile's bytes), TileLang's swizzled reshape/view tests;
#  2. the samples whose code the vectorized swizzled shared stores changed (rmsnorm_matmul,
#     dequant_gemm, flash_decode, the mha_bwd chain on sm_80) vs float64;
#  3. the 30 catalogue kernels whose code that change touched (bench/conformance/
#     changed-2026-12-06-vecstore.rx), on the GPU by the conformance runner (references where
#     callable, else against the interpreter).
#   bash bench/conformance/prepare_device.sh && cp <view tests> .devbin/corpus
#   run(command="bash bench/h200_call_2026_12_06g.sh", carry=[".corpus", ".devbin"], timeout_s=600)
set -u
RES=${OUT:-/tmp/out}; OUT=/tmp/wg; mkdir -p "$OUT" "$RES"
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=90
T=.devbin/tilec; t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== payload $(cat .devbin/commit), tree $(git log -1 --format=%h 2>/dev/null)"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | head -1
pass=0; fail=0
r() { echo "-- $*" >> "$OUT/programs.txt"; if timeout 90 $T run "$@" -q >> "$OUT/programs.txt" 2>&1; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL($?) $*"; fi; }
echo "== 1. test programs ($(el) s)"
for m in 0 1 2 3; do
  r tests/e2e/programs/sink_tma_waits.py --target cuda:sm_90a -p mode=$m
  TILESCOPE_SINK_TMA_WAITS=0 r tests/e2e/programs/sink_tma_waits.py --target cuda:sm_90a -p mode=$m
  r tests/e2e/programs/sink_tma_waits.py --target cuda:sm_80 -p mode=$m
done
for m in 0 1; do for t in cuda:sm_90a cuda:sm_80; do r tests/e2e/programs/top_fence_tail.py --target $t -p mode=$m; done; done
for t in cuda:sm_90a cuda:sm_80; do
  for sw in False True; do r tests/e2e/programs/shared_view_alias.py --target $t -p swizzled=$sw --check interp; done
  for m in 0 1 2; do r tests/e2e/programs/shared_view_gemm_operand.py --target $t -p mode=$m --check interp; done
  C=.devbin/corpus
  for dt in float16 float32; do r $C/test_tilelang_language_reshape.py --target $t --kernel reshape_layout_transform_shared -p N=1024 -p M=32 -p dtype=$dt --check interp; done
  for sw in False True; do r $C/test_tilelang_language_view.py --target $t --kernel shared_reinterpret_view_test -p "shape=(64,128)" -p dtype=bfloat16 -p "new_shape=(64,64)" -p new_dtype=float32 -p swizzled=$sw --check interp; done
done
echo "programs: $pass pass, $fail fail ($(el) s)"; grep -h "ran on" "$OUT/programs.txt" | sort | uniq -c | head -3
echo "== 2. samples ($(el) s)"
for t in cuda:sm_90a cuda:sm_80; do
  r samples/rmsnorm_matmul.py --target $t
  r samples/dequant_gemm.py --target $t
  r samples/flash_decode.py --target $t --chain flash_decode_split,flash_decode_combine --ref decode_ref --param seqlen_kv=1000
  r samples/mha_bwd.py --target $t --chain mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess --ref bwd_ref --param batch=2 --param heads=4 --param seq_len=1000 --param dim=64 --param is_causal=True
done
echo "programs+samples: $pass pass, $fail fail ($(el) s)"
echo "== 3. catalogue kernels the vector stores changed ($(el) s)"
timeout 420 python3 bench/conformance/run.py --gpu --no-interp --tilec $T --corpus .corpus --only "$(cat bench/conformance/changed-2026-12-06-vecstore.rx)" \
  --label gpu-vecstore --out "$OUT/conformance-gpu-vecstore.json" -j1 2>&1 | tail -4
cd "$OUT" && tar czf "$RES/g.tgz" . && echo "done in $(el) s"
