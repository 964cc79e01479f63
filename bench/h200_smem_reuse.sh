#!/usr/bin/env bash
# plan-smem's shared-memory reuse on the H200: kernels that fit sm_90a's 227 KiB per block only
# because buffers with disjoint live ranges share bytes. The interpreters keep each shared buffer
# in its own storage, so an aliasing bug (a missing barrier, a wrong live range) shows only here.
#  1. tests/e2e/programs/smem_reuse.py (two 128 KiB tiles at offset 0): PASS against ref_program
#     in float64, several seeds.
#  2. the six corpus kernels of the conformance class "shared memory over the per-block limit",
#     real catalogue params: they launch (the MLA decode ones are checked against their
#     ref_program where our reference evaluator can run it; a reference failure is not a kernel
#     failure, read the log).
# Expects .devbin/tilec and .corpus/examples (bench/conformance/prepare_device.sh). Device tool:
# carry [".devbin", ".corpus"], command: bash bench/h200_smem_reuse.sh
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export TILESCOPE_CACHE_DIR=/tmp/tscache
T=${TILEC:-.devbin/tilec}; C=${CORPUS:-.corpus}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for seed in 1 2 3; do
  timeout 60 $T run tests/e2e/programs/smem_reuse.py --target cuda:sm_90a --seed $seed 2>&1 | tail -3
  echo "== smem_reuse seed $seed rc=${PIPESTATUS[0]}"
done
k() { local f=$1 kern=$2; shift 2; local args=(); for p in "$@"; do args+=(--param "$p"); done
  timeout 120 $T run "$C/examples/$f" --kernel "$kern" --target cuda:sm_90a --seed 1 "${args[@]}" > "$OUT/$(basename $f .py)-$kern.log" 2>&1
  echo "== $f:$kern rc=$? $(grep -E 'PASS|FAIL|error' "$OUT/$(basename $f .py)-$kern.log" | head -2 | tr '\n' ' ')"; }
k attention_sink/example_gqa_sink_bwd_varlen.py flashattn_bwd batch_size=8 groups=16 UQ=16384 UKV=16384 N_CTX=2048 heads=64 max_seq_len=2048 dim=128 is_causal=False window_size=None
k deepseek_mla/example_mla_decode.py flashattn batch=132 heads=128 kv_head_num=1 seqlen_kv=8192 dim=512 pe_dim=64 block_N=64 block_H=64 num_split=1 softmax_scale=0.041666666666666664
k deepseek_mla/example_mla_decode_paged.py mla_decode_tilelang batch=128 h_q=128 h_kv=1 max_seqlen_pad=8192 dv=512 dpe=64 block_N=64 block_H=64 num_split=1 block_size=64 softmax_scale=0.041666666666666664
k deepseek_mla/experimental/example_mla_decode_kv_fp8.py flashattn batch=128 heads=128 kv_head_num=1 seqlen_kv=8192 dim=512 pe_dim=64 block_N=64 block_H=64
k flash_attention/example_gqa_bwd_tma_reduce.py flashattn_bwd_atomic_add batch=8 heads=32 seq_len=1024 dim_qk=192 dim_v=128 is_causal=False block_M=128 block_N=32 threads=256 num_stages=2 groups=16
k flash_attention/example_gqa_bwd_tma_reduce_varlen.py flashattn_bwd_atomic_add batch=8 total_q=8192 total_kv=8192 N_CTX=1024 heads=32 max_seq_len=1024 dim_qk=192 dim_v=128 is_causal=False block_M=128 block_N=32 threads=256 num_stages=2 groups=16
