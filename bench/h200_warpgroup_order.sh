#!/usr/bin/env bash
# Not yet run (written 2026-12-05 without a device): the GPU side of the warpgroup-order change
# and of the TMA reduce-add (T.atomic_add(dst, shared_tile, use_tma=True): ops/CopyTma.cpp)
# (SelectHopperFragment.cpp, analysis/Layouts.h WarpPartition::byWarpgroup, commit 5d19bea): gemms
# whose accumulator is not 16 rows per warp of one warp column moved from mma.sync to wgmma
# (several m64 tiles per warpgroup: wgmma_gemm_ss<128, ...>; warpgroups side by side along N:
# wgmma_gemm_ss<..., WGN = 2>; register A with several m64 tiles: wgmma_gemm_rs<128, ...>).
# Verified on both interpreters only (bench/results/warpgroup-order-2026-12-05/): the thread-level
# interpreter reads the accumulator through wgmma's own fragment, not the compiler's layout, but
# the descriptors' WGN column offsets and the rs MI loop run for the first time here.
#  1. correctness: the 19 corpus kernels whose generated CUDA changed (prev vs new tilec, every
#     catalogue kernel compared at its real parameters), on the GPU against float64 where the
#     catalogue has a reference, else against the interpreter (run.py --gpu --gpu-sizes small);
#     the test program and the attention sample at the new shapes against float64 (tilec run);
#  2. speed, same call: old (.devbin-prev, ca0a740: mma.sync for these) vs new tilec on quickstart,
#     MLA decode, grouped GEMM, convolution, and the attention sample at
#     block_M=128/threads=128 against its best earlier config (128x64 tiles on 256 threads).
# Dev box, before:
#   bash bench/conformance/prepare_device.sh                    # .corpus, .devbin/tilec (this commit)
#   git worktree add /work/wt-prev ca0a740 && (cd /work/wt-prev && cmake -S . -B build -G Ninja \
#     -DTILESCOPE_GUI=OFF && cmake --build build --target tilec)
#   mkdir -p .devbin-prev && strip -o .devbin-prev/tilec /work/wt-prev/build/tilec
#   bash ../shared/tools/tilelang-device/prepare.sh              # .tl
# 2026-12-05 (later): .devbin at dd262c0 also pairs wgmma gemms across statements between them
# (InjectPipeline.cpp mayRunBesideWgmma): 9 more corpus kernels (MHA/GQA backward, sink,
# block-causal) are checked and TileLang's own MHA backward example is timed prev vs new.
# Device: run(command="bash bench/h200_warpgroup_order.sh", carry=[".corpus", ".devbin", ".devbin-prev", ".tl"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/wgo"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
ONLY='analyze/example_conv_analyze|blocksparse_gemm/example_blocksparse_gemm|convolution/example_convolution_autotune|deepseek_mla/example_mla_decode.py|example_mla_decode_paged|example_mla_decode_kv_fp8|deepseek_v32/sparse_mla_fwd.py|deepseek_v4/sparse_attn_fwd_sm90|example_dequant_gemm_bf16_fp4_hopper|dsa_sparse_finetune/sparse_mla_fwd.py|gdn/example_chunk_delta_(bwd|h)\.py|gemm_splitk_vectorize_atomicadd|grouped_gemm/example_grouped_gemm_fwd.py|kda/chunk_delta_(h_fwd|bwd)|examples/quickstart|example_warp_specialize_gemm_copy_(0_gemm_1|1_gemm_0)|gqa_bwd_tma_reduce|attention_sink/example_(gqa|mha)_sink_bwd|block_causal_attention/block_causal_attention.py|flash_attention/example_mha_bwd_bshd'
timeout 300 python3 bench/conformance/run.py --tilec .devbin/tilec --corpus .corpus --gpu --gpu-sizes small --only "$ONLY" -j 8 \
  --timeout 60 --interp-timeout 90 --gpu-timeout 90 --ref-timeout 150 --label wg-order --out "$OUT/wgo/conformance-wg-order.json" 2>&1 | tail -30
echo "corpus correctness done ($(el) s)"
P=tests/e2e/programs/gemm_warpgroup_order.py; A=samples/flash_attn_fwd.py
for args in "" "-p block_M=128 -p threads=128" "-p tf32_tail=1" "-p M=1000 -p N=640 -p K=192"; do
  echo "== $P $args"; timeout 60 .devbin/tilec run $P --target cuda:sm_90a $args 2>&1 | tail -3
done
for args in "-p block_M=128 -p threads=128 -p is_causal=True -p seq_len=4097" "-p block_M=128 -p threads=128 -p seq_len=1000" "-p threads=256 -p is_causal=True -p seq_len=4097"; do
  echo "== $A $args"; timeout 60 .devbin/tilec run $A --target cuda:sm_90a -p batch=1 -p heads=4 -p dim=128 $args 2>&1 | tail -3
done
for args in "" "-p use_tma=False" "-p M=1000 -p N=256 -p S=8"; do  # TMA reduce-add (T.atomic_add use_tma=True)
  echo "== atomic_tma_reduce $args"; timeout 60 .devbin/tilec run tests/e2e/programs/atomic_tma_reduce.py --target cuda:sm_90a $args 2>&1 | tail -3
done
echo "== the stress session's 50 configurations (bench/warpgroup_order_sweep/gpu_check.sh)"
timeout 240 bash bench/warpgroup_order_sweep/gpu_check.sh .devbin/tilec 2>&1 | tee "$OUT/wgo/gpu_check.txt" | grep -c '^PASS' | sed 's/^/PASS lines: /'
grep -A8 '^FAIL' "$OUT/wgo/gpu_check.txt" | head -40
echo "sample correctness done ($(el) s)"
[ -f .tl/setup.sh ] && source .tl/setup.sh > /dev/null 2>&1
bench() {  # name file kernel params...
  local name=$1 file=$2 k=$3; shift 3
  for b in prev new prev new; do
    tc=.devbin/tilec; [ $b = prev ] && tc=.devbin-prev/tilec
    timeout 90 $tc bench "$file" --kernel "$k" --target cuda:sm_90a "$@" --no-check --reps 30 --json "$OUT/wgo/$name-$b-$(el).json" > /dev/null 2>&1 || echo "$name $b failed"
  done
  [ -f "$file" ] && [[ "$file" == .corpus/* ]] && { timeout 150 python3 .tl/run_tilelang.py "$file" --kernel "$k" "$@" --json "$OUT/wgo/$name-tilelang.json" > /dev/null 2>&1 || echo "$name tilelang failed"; }
}
bench quickstart .corpus/examples/quickstart.py matmul --param M=8192 --param N=8192 --param K=8192 --param block_M=128 --param block_N=128 --param block_K=32
bench mla_decode .corpus/examples/deepseek_mla/example_mla_decode.py flashattn --param batch=132 --param heads=128 --param kv_head_num=1 --param seqlen_kv=8192 --param dim=512 --param pe_dim=64 --param block_N=64 --param block_H=64 --param num_split=1 --param softmax_scale=0.041666666666666664
bench grouped_gemm .corpus/examples/grouped_gemm/example_grouped_gemm_fwd.py grouped_gemm --param 'batch_sizes_list=[4096, 4096]' --param block_M=64 --param block_N=128 --param block_K=64 --param trans_b=False --param num_stages=2 --param threads=256 --param K=8192 --param N=8192
bench conv .corpus/examples/convolution/example_convolution_autotune.py convolution --param S=1 --param D=1 --param P=1 --param block_M=128 --param block_N=256 --param block_K=64 --param num_stages=3 --param thread_num=256 --param enable_rasteration=True --param N=128 --param C=128 --param H=64 --param W=64 --param F=128 --param K=3
bench gqa_bwd_tma_reduce .corpus/examples/flash_attention/example_gqa_bwd_tma_reduce.py flashattn_bwd_atomic_add --param batch=8 --param heads=32 --param seq_len=1024 --param dim_qk=192 --param dim_v=128 --param is_causal=False --param block_M=128 --param block_N=32 --param threads=256 --param num_stages=2 --param groups=16
bench mha_bwd_tl_example .corpus/examples/flash_attention/example_mha_bwd_bshd.py flashattn_bwd --param batch=8 --param heads=32 --param seq_len=1024 --param dim=64 --param is_causal=False --param block_M=64 --param block_N=64
bench mha_bwd_sample_dsregs samples/mha_bwd.py mha_bwd_main --param batch=8 --param heads=32 --param seq_len=1024 --param dim=64 --param ds_regs=True
bench attn_m128_t128 $A flash_attn_fwd --param batch=1 --param heads=16 --param seq_len=4096 --param dim=128 --param block_M=128 --param block_N=64 --param threads=128
bench attn_m128_t256 $A flash_attn_fwd --param batch=1 --param heads=16 --param seq_len=4096 --param dim=128 --param block_M=128 --param block_N=64 --param threads=256
for f in "$OUT"/wgo/*.json; do python3 -c "import json,sys;d=json.load(open('$f'));print('$(basename $f)', d.get('median_ms'))" 2>/dev/null; done
cd "$OUT" && tar czf all.tgz wgo && ls -la all.tgz
echo "done in $(el) s"
