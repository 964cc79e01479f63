#!/usr/bin/env bash
# Issue 8, several T.Kernel blocks in one kernel function, on the GPU: each block is its own
# launch, run in order on the same tensors (compiler/KernelLaunches.h). Checks, for sm_90a and
# sm_80 code: tests/e2e/programs/sequential_kernels.py (split_mean: launch 2 reads launch 1's
# Partial, both outputs against ref_program in float64, M=64 and the ragged M=40; split_mean_ws:
# Partial is a workspace argument outside out_idx, handed from launch 1 to launch 2 through the
# host, checked with --ref ws_ref), then the corpus' two-launch split-KV decode
# (blocksparse_attention/example_tilelang_sparse_gqa_decode_varlen_indice.py, flashattn: split
# kernel + combine kernel) against its ref_program, and the GPU result of the paged variant
# against the tile interpreter.
# Builds nothing: expects .devbin/tilec (TILEC=... to change) and .corpus/examples (CORPUS=...).
# Usage (device tool): bash bench/h200_launches.sh  -> $OUT/log-launches.txt; exit 1 on a failure.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-.devbin/tilec}
C=${CORPUS:-.corpus}; [ -d "$C/examples" ] || C=../shared/tilelang-corpus
export TILESCOPE_CACHE_DIR=${TILESCOPE_CACHE_DIR:-/tmp/tscache}
exec > >(tee "$OUT/log-launches.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
P=tests/e2e/programs/sequential_kernels.py
fails=0
run() { echo "== $*"; "$T" run "$@" --seed 5 || { echo "!! FAILED: $*"; fails=$((fails+1)); }; }
# An sm_80 cubin loads only on an 8.x GPU (cubins run within one major version: CUDA C++
# Programming Guide, "Binary Compatibility"); on the H200 the sm_80 lowering is checked by the CPU
# interpreters and NVRTC in CI, not here.
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1)
targets="cuda:sm_90a"; case "$cc" in 8.*) targets="cuda:sm_80";; esac
echo "compute capability $cc: targets $targets"
for target in $targets; do
  run "$P" --target $target --kernel split_mean
  run "$P" --target $target --kernel split_mean --param M=40
  run "$P" --target $target --kernel split_mean_ws --ref ws_ref
done
D="$C/examples/blocksparse_attention"
Q="--param batch=1 --param heads=32 --param heads_kv=8 --param dim=128 --param dim_v=128 --param block_N=32 --param block_H=64 --param num_stages=2 --param threads=128"
# Valid inputs: the kernel masks only the first selected block of a split by cache_seqlens (it
# assumes the indices sorted in reverse order), so a block entirely past the sequence gives
# -inf - -inf = NaN, and a repeated index is summed twice where ref_program counts it once -- on
# the GPU and on both CPU interpreters alike (plain random integers fail everywhere). So: 8
# distinct block indices per row (max_selected_blocks=8) and cache_seqlens in [225, 256], which
# keeps each of the 8 blocks of the 256-token cache (block_N 32) partly valid.
run "$D/example_tilelang_sparse_gqa_decode_varlen_indice.py" --target cuda:sm_90a --kernel flashattn --ref ref_program_torch $Q \
  --param max_selected_blocks=8 --input block_indices=distinct:8 --input cache_seqlens=int:225:256
run "$D/example_tilelang_sparse_gqa_decode_paged.py" --target cuda:sm_90a --kernel flashattn --check interp $Q --param page_block_size=256 --param num_pages=8
echo "== $fails failed"
[ "$fails" = 0 ]
