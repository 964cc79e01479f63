#!/usr/bin/env bash
# GPU checks of the lang-dtype work (issue 8): what the dev box (no GPU) cannot check.
#  1. T.rng_*: tests/e2e/programs/rng_parallel.py and rng_threads.py on the GPU, every output
#     compared with the tile-level interpreter (`tilec run --check interp`; uint32 outputs must be
#     equal bit for bit, the uniform floats too: --rtol 1e-12), for sm_90a and the sm_80 code.
#  2. TileScope's Philox against cuRAND itself: bench/lang_dtype/curand_check.cu (needs nvcc on
#     the GPU machine; skipped otherwise) draws curand / curand_uniform(_double) /
#     curand_normal(_double) and ts::rng_* side by side in 6144 threads x 40 draws.
#  3. float4_e2m1fn: tests/e2e/programs/fp4_convert.py (register conversion, packed fp4 in shared
#     and global memory written nibble by nibble by neighbouring threads) against the interpreter,
#     exactly (--rtol 1e-12), at 3 sizes and scales.
#     tests/e2e/programs/nibble_unpack.py (tilelang.quantize-style helpers) on random bytes.
#  4. If the TileLang corpus is present (CORPUS, default ../shared/tilelang-corpus), its
#     rand_uint.py and act_quant.py fp4_quant_kernel against the interpreter.
# Usage: bash bench/h200_lang_dtype.sh [TILEC]   (default build/tilec; OUT=dir keeps the logs)
# Device tool: run(command="bash bench/h200_lang_dtype.sh", carry=["build/tilec"]) from a
# checkout with build/tilec built.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
T=${1:-$root/build/tilec}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
CORPUS=${CORPUS:-$root/../shared/tilelang-corpus}
export TILESCOPE_CACHE_DIR=${TILESCOPE_CACHE_DIR:-/tmp/tscache}
[ -x "$T" ] || { echo "no $T"; exit 2; }
nvidia-smi --query-gpu=name --format=csv,noheader 2>&1 | head -1
fails=0
run() {  # label file args...
    local label=$1 file=$2
    shift 2
    local log="$OUT/$(echo "$label" | tr ' :=()^' '______').log"
    if timeout 300 "$T" run "$file" --check interp --seed 1 "$@" > "$log" 2>&1 && ! grep -q "NOT CHECKED" "$log"; then
        printf '%-44s PASS  %s\n' "$label" "$(grep -m1 -iE 'mismatching|rel-L2' "$log" | sed 's/^ *//' | cut -c1-100)"
    else
        fails=$((fails + 1))
        printf '%-44s FAIL  %s\n' "$label" "$(tail -4 "$log" | tr '\n' ' ' | cut -c1-300)"
    fi
}
P=$root/tests/e2e/programs
for tgt in cuda:sm_90a cuda:sm_80; do
    run "rng_parallel $tgt" "$P/rng_parallel.py" --target $tgt --rtol 1e-12
    run "rng_parallel M=1000 seed=2^40+5 $tgt" "$P/rng_parallel.py" --target $tgt --rtol 1e-12 --param M=1000 --param seed=1099511627781
    run "rng_threads $tgt" "$P/rng_threads.py" --target $tgt --rtol 1e-12
    run "rng_threads 8x256x5 $tgt" "$P/rng_threads.py" --target $tgt --rtol 1e-12 --param blocks=8 --param threads=256 --param draws=5
    run "fp4_convert $tgt" "$P/fp4_convert.py" --target $tgt --rtol 1e-12
    run "fp4_convert M=64 scale=3 $tgt" "$P/fp4_convert.py" --target $tgt --rtol 1e-12 --param M=64 --param scale=3.0
    run "fp4_convert N=128 bM=16 t=256 $tgt" "$P/fp4_convert.py" --target $tgt --rtol 1e-12 --param M=32 --param N=128 --param block_M=16 --param threads=256
    run "nibble_unpack (all bytes) $tgt" "$P/nibble_unpack.py" --target $tgt --param M=64 --input B=int:0:255
done
if command -v nvcc > /dev/null 2>&1; then
    if nvcc -O2 -arch=native "$root/bench/lang_dtype/curand_check.cu" -o "$OUT/curand_check" > "$OUT/nvcc.log" 2>&1; then
        if "$OUT/curand_check" > "$OUT/curand.log" 2>&1; then
            echo "curand cross-check                           PASS  $(cat "$OUT/curand.log")"
        else
            fails=$((fails + 1)); echo "curand cross-check                           FAIL  $(cat "$OUT/curand.log")"
        fi
    else
        echo "curand cross-check: nvcc failed ($(tail -2 "$OUT/nvcc.log" | tr '\n' ' '))"
    fi
else
    echo "curand cross-check: skipped (no nvcc on this machine)"
fi
if [ -d "$CORPUS/examples" ]; then
    run "corpus rand_uint M=1024 seed=42" "$CORPUS/examples/rand/rand_uint.py" --kernel tilelang_rand_1d --rtol 1e-12
    run "corpus rand_uint M=512 seed=123" "$CORPUS/examples/rand/rand_uint.py" --kernel tilelang_rand_1d --rtol 1e-12 --param M=512 --param seed=123
    run "corpus act_quant fp4_quant_kernel" "$CORPUS/examples/deepseek_v4/act_quant.py" --kernel fp4_quant_kernel --param N=256 --param M=64
else
    echo "corpus checks: skipped (no $CORPUS)"
fi
echo "failures: $fails (logs in $OUT)"
[ "$fails" -eq 0 ]
