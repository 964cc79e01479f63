#!/usr/bin/env bash
# T.gemm dtypes on the GPU (device tool): tests/e2e/programs/gemm_trans.py for each dtype
# combination (fp16 -> fp16 accumulator, fp8 e4m3 / e5m2 -> fp32, int8 -> int32, float32 as tf32)
# with every transpose_A/transpose_B combination at 2048^3 and one ragged size, `tilec run`
# against the float64 ref_program (PASS/FAIL, rel-L2 or integer mismatches per output), then
# `tilec bench` once per combination (TFLOP/s). tf32 runs with --rtol 2e-3: tf32 keeps 10
# mantissa bits, so a float32 output is ~3e-4 from float64. The default target is the GPU's
# (sm_90: fp8 takes the native m16n8k32 e4m3/e5m2 mma.sync); TARGET=cuda:sm_80 runs the sm_80
# code on the same GPU instead (fp8 widened to f16 in registers, two m16n8k16 per atom).
# Usage: bash bench/gemm_dtypes_check.sh [TILEC]   (default build/tilec; OUT=dir keeps logs)
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
T=${1:-$root/build/tilec}
OUT=${OUT:-$(mktemp -d)}
P=$root/tests/e2e/programs/gemm_trans.py
tgt=()
[ -n "${TARGET:-}" ] && tgt=(--target "$TARGET")
fails=0
run() {  # label args...
    local label=$1
    shift
    if "$T" run "$P" "${tgt[@]}" "$@" > "$OUT/$label.log" 2>&1; then
        printf '%-40s PASS  %s\n' "$label" "$(grep -m1 -E '^  C:' "$OUT/$label.log" | sed 's/^ *//')"
    else
        fails=$((fails + 1))
        printf '%-40s FAIL  %s\n' "$label" "$(tail -3 "$OUT/$label.log" | tr '\n' ' ')"
    fi
}
combos=(
    "f16acc --param dtype=float16 --param accum_dtype=float16 --param out_dtype=float16 --param block_K=32"
    "e4m3 --param dtype=float8_e4m3 --param out_dtype=float32 --param block_K=64"
    "e5m2 --param dtype=float8_e5m2 --param out_dtype=float32 --param block_K=64"
    "int8 --param dtype=int8 --param accum_dtype=int32 --param out_dtype=int32 --param block_K=64"
    "tf32 --param dtype=float32 --param out_dtype=float32 --param block_K=32 --rtol 2e-3"
)
for spec in "${combos[@]}"; do
    set -- $spec
    name=$1
    shift
    for ta in False True; do
        for tb in False True; do
            run "$name-2048-ta$ta-tb$tb" "$@" --param M=2048 --param N=2048 --param K=2048 \
                --param transpose_a=$ta --param transpose_b=$tb
        done
    done
    run "$name-ragged-1000x1064x1000" "$@" --param M=1000 --param N=1064 --param K=1000
    bargs=()
    for a in "$@"; do [ "$a" = "--rtol" ] && break; bargs+=("$a"); done
    "$T" bench "$P" "${tgt[@]}" "${bargs[@]}" --param M=2048 --param N=2048 --param K=2048 \
        --param transpose_b=True --no-check > "$OUT/$name-bench.log" 2>&1
    printf '%-40s %s\n' "$name-2048-tb bench" "$(grep -m1 -iE 'TFLOP' "$OUT/$name-bench.log")"
done
echo "failures: $fails (logs in $OUT)"
[ "$fails" -eq 0 ]
