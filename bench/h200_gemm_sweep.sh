#!/usr/bin/env bash
# GEMM 4096^3 sweep of sample parameters through tilec bench + the same-run cuBLAS baseline.
# Usage (device tool): bash bench/h200_gemm_sweep.sh  -> $OUT/sweep.txt, $OUT/*.json
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=.devbin/tilec
export TILESCOPE_CACHE_DIR=/tmp/tscache
S="--param M=4096 --param N=4096 --param K=4096"
for dt in float16 bfloat16; do
  for cfg in "block_K=32 num_stages=3" "block_K=32 num_stages=4" "block_K=64 num_stages=3" "block_M=128 block_N=256 block_K=32 num_stages=3 threads=256" "block_M=256 block_N=128 block_K=32 num_stages=3 threads=256"; do
    args=""; for kv in $cfg; do args="$args --param $kv"; done
    name=$(echo "$dt $cfg" | tr ' =' '_-')
    echo "== $dt $cfg"
    $T bench samples/gemm.py $S --param dtype=$dt $args --no-check --json "$OUT/$name.json" | grep -E "TFLOP|median|registers"
  done
done
echo "== correctness of the default config after the changes (fp16 4096^3, 1000^3)"
$T run samples/gemm.py $S
$T run samples/gemm.py --param M=1000 --param N=1000 --param K=1000 --param dtype=bfloat16
python3 bench/torch_baselines.py "$OUT/torch-baselines.json" | grep gemm
