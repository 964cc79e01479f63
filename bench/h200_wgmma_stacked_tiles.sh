#!/usr/bin/env bash
# Not yet run (written 2026-12-04 night without a device): the GPU side of the stacked-tile wgmma
# change (SelectHopperFragment.cpp; bench/results/ptxas-survey-2026-12-04/). Sixteen corpus kernels
# moved from mma.sync to wgmma on the fragment layouts (hand-written double buffers
# KV_shared[stage, :, :], one-warpgroup gemms without FullRow, tiles copied out, hand cp.async):
#  1. correctness on the H200: each of them on the GPU against the float64 reference where the
#     catalogue has one, else against the interpreter (run.py --gpu --gpu-sizes small --only);
#  2. speed, same call: tilec bench of the three MLA kernels and TileLang's MHA backward main
#     kernel under the old binary (.devbin-old/tilec, mma.sync path) and the new one, and TileLang
#     0.1.15 on the same files (.tl).
# Dev box, before:
#   bash bench/conformance/prepare_device.sh          # .corpus, .devbin/tilec (this commit)
#   mkdir -p .devbin-old && cp <a tilec built before 2026-12-04 night, e.g. af8c03a> .devbin-old/tilec
#   bash ../shared/tools/tilelang-device/prepare.sh   # .tl
# Device: run(command="bash bench/h200_wgmma_stacked_tiles.sh", carry=[".corpus", ".devbin", ".devbin-old", ".tl"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/wgs"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
ONLY='deepseek_mla/example_mla_decode_ws|sparse_mla_fwd_(pipelined|seesaw)|example_mha_bwd_bshd.py:flashattn_bwd$|gdn/example_(chunk_delta_bwd|chunk_delta_h|chunk_o|wy_fast|wy_fast_bwd_split)|grouped_gemm_bwd|kda/(chunk_bwd_gla_dA|chunk_delta_h_fwd|wy_fast)|mamba_chunk_scan|vertical_slash_sparse_attn'
timeout 300 python3 bench/conformance/run.py --tilec .devbin/tilec --corpus .corpus --gpu --gpu-sizes small --only "$ONLY" -j 8 \
  --timeout 60 --interp-timeout 90 --gpu-timeout 90 --ref-timeout 150 --label wgmma-stacked --out "$OUT/wgs/conformance-wgmma-stacked.json" 2>&1 | tail -20
echo "correctness done ($(el) s)"
[ -f .tl/setup.sh ] && source .tl/setup.sh > /dev/null 2>&1
bench() {  # name file kernel params...
  local name=$1 file=$2 k=$3; shift 3
  for b in old new old new; do
    tc=.devbin/tilec; [ $b = old ] && tc=.devbin-old/tilec
    timeout 90 $tc bench "$file" --kernel "$k" --target cuda:sm_90a "$@" --no-check --reps 30 --json "$OUT/wgs/$name-$b-$(el).json" > /dev/null 2>&1 || echo "$name $b failed"
  done
  timeout 150 python3 .tl/run_tilelang.py "$file" --kernel "$k" "$@" --json "$OUT/wgs/$name-tilelang.json" > /dev/null 2>&1 || echo "$name tilelang failed"
}
bench mla_decode_ws .corpus/examples/deepseek_mla/example_mla_decode_ws.py flashattn --param batch=132 --param heads=128 --param kv_head_num=1 --param seqlen_kv=8192 --param dim=512 --param pe_dim=64 --param block_N=64 --param block_H=64 --param num_split=1 --param softmax_scale=0.041666666666666664
bench mha_bwd_main .corpus/examples/flash_attention/example_mha_bwd_bshd.py flashattn_bwd --param batch=8 --param heads=32 --param seq_len=1024 --param dim=64 --param is_causal=False --param block_M=64 --param block_N=64
for f in "$OUT"/wgs/*.json; do python3 -c "import json,sys;d=json.load(open('$f'));print('$(basename $f)', d.get('median_ms'))" 2>/dev/null; done
cd "$OUT" && tar czf all.tgz wgs && ls -la all.tgz
echo "done in $(el) s"
