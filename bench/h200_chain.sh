#!/usr/bin/env bash
# Issue 8, MHA backward on the GPU: the four kernels of the corpus' example_mha_bwd_bshd.py
# (flashattn_fwd -> flashattn_bwd_preprocess -> flashattn_bwd -> flashattn_bwd_postprocess) run
# as one `tilec run --chain` on the GPU, outputs feeding inputs (fwd's Output -> preprocess's O by
# --bind; lse, Delta, dQ and the free inputs Q, K, V, dO by name), and the final outputs dK, dV,
# dQ_out checked against our float64 reference tests/e2e/programs/attn_bwd_ref.py::attn_bwd_ref
# (rel-L2 1e-2, float16 outputs). Sizes: B1 H16 S1024 D64 causal and not, and S=1000 (not a
# multiple of the 64-row blocks / 32-row preprocess blocks), block_M=block_N=64 as the file's
# backward() uses for D<=64.
# Builds nothing: expects .devbin/tilec (TILEC=... to change) and .corpus/examples (CORPUS=...).
# Usage (device tool): bash bench/h200_chain.sh   -> $OUT/log-chain.txt; exit 1 if any case failed.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-.devbin/tilec}
C=${CORPUS:-.corpus}; [ -d "$C/examples" ] || C=../shared/tilelang-corpus
export TILESCOPE_CACHE_DIR=${TILESCOPE_CACHE_DIR:-/tmp/tscache}
exec > >(tee "$OUT/log-chain.txt") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
F="$C/examples/flash_attention/example_mha_bwd_bshd.py"
CHAIN="flashattn_fwd,flashattn_bwd_preprocess,flashattn_bwd,flashattn_bwd_postprocess"
REF="tests/e2e/programs/attn_bwd_ref.py::attn_bwd_ref"
fails=0
for S in 1024 1000; do
  for causal in False True; do
    echo "== S=$S is_causal=$causal"
    "$T" run "$F" --chain "$CHAIN" --bind flashattn_bwd_preprocess.O=flashattn_fwd.Output \
      --ref "$REF" --param batch=1 --param heads=16 --param seq_len=$S --param dim=64 \
      --param is_causal=$causal --param block_M=64 --param block_N=64 \
      || { echo "!! FAILED S=$S is_causal=$causal"; fails=$((fails+1)); }
  done
done
echo "== GPU chain vs the same chain on the tile interpreter (no --ref), S=128 causal"
"$T" run "$F" --chain "$CHAIN" --bind flashattn_bwd_preprocess.O=flashattn_fwd.Output \
  --param batch=1 --param heads=2 --param seq_len=128 --param dim=64 --param is_causal=True \
  --param block_M=64 --param block_N=64 || { echo "!! FAILED vs interp"; fails=$((fails+1)); }
echo "== $fails failed"
[ "$fails" = 0 ]
