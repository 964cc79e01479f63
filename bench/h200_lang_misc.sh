#!/usr/bin/env bash
# The lang-misc constructs on the GPU (issue 8): TileLang's dequantize helpers through
# T.import_source/T.call_extern, TVM's thread allreduce, and the corpus kernels they unblock.
# What the dev box checks on the interpreters (tests/e2e/DequantExternE2ETest.cpp), here on the
# H200 for sm_80 and sm_90a code:
#  1. tests/e2e/programs/dequant_extern.py: fp4_decode (decode_fp4_to_bf16_twiddling) and
#     i4_decode (decode_i4u/i4s_to_f16): GPU output vs the interpreter (--check interp; the
#     interpreter's decode is pinned to hand-derived tables by the e2e test).
#  2. tests/e2e/programs/thread_allreduce.py: row sums over 32 / 16 lanes vs float64 ref_program.
#  3. corpus: example_dequant_gemm_bf16_fp4_hopper.py (matmul, fast_dequant=True) and
#     example_dequant_gemv_fp16xint4.py (dequantize_gemv, fast_decoding=True): the GEMM against
#     the file's own ref_program_twiddling (float64, via Tensor.view(torch.bfloat16)), the GEMV
#     (no reference of its own) GPU vs the interpreter.
#  4. tests/e2e/programs/large_index.py at 32769 x 65536 float16 (2147549184 elements, just
#     above 2^31-1: int64 offsets) vs its float64 ref_program. Heavy on the host (HostTensor keeps
#     doubles: ~17 GB per tensor), so it runs last with a long timeout; and the corpus'
#     analyze/example_conv_analyze.py (a 2^32-element input) through the conformance runner.
#  5. corpus: deepseek_nsa/benchmark/benchmark_nsa_fwd.py through bench/conformance/run.py --gpu
#     (its BlockIndices rule, 524288 values, now travels as --input NAME=@FILE: was E2BIG).
# Expects .devbin/tilec (TILEC=...) and the corpus at .corpus, else ../shared/tilelang-corpus
# (CORPUS=...). Usage:
#   OUT=... bash bench/h200_lang_misc.sh   -> $OUT/lang_misc.txt (one PASS/FAIL line per run)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-.devbin/tilec}
C=${CORPUS:-.corpus}; [ -d "$C/examples" ] || C=../shared/tilelang-corpus
export TILESCOPE_CACHE_DIR=/tmp/tscache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
fail=0
run() {
  if "$T" run "$@" > "$OUT/run.log" 2>&1; then echo "PASS $*"; else echo "FAIL $*"; tail -6 "$OUT/run.log"; fail=$((fail+1)); fi
  grep -E "rel-L2|max-abs" "$OUT/run.log" | sed 's/^/    /'
}
D=$C/examples/dequantize_gemm
GEMM="--kernel matmul --param in_dtype=bfloat16 --param out_dtype=bfloat16 --param accum_dtype=float32 --param fast_dequant=True"
GEMV="--kernel dequantize_gemv --param M=1 --param in_dtype=float16 --param out_dtype=float16 --param accum_dtype=float16 --param fast_decoding=True"
{
for target in cuda:sm_80 cuda:sm_90a; do
  run tests/e2e/programs/dequant_extern.py --target $target --kernel fp4_decode --check interp --seed 1
  run tests/e2e/programs/dequant_extern.py --target $target --kernel fp4_decode --param G=128 --check interp --seed 2
  run tests/e2e/programs/dequant_extern.py --target $target --kernel i4_decode --check interp --seed 1
  run tests/e2e/programs/dequant_extern.py --target $target --kernel i4_decode --param signed=True --check interp --seed 1
  run tests/e2e/programs/thread_allreduce.py --target $target --param W=32 --seed 1
  run tests/e2e/programs/thread_allreduce.py --target $target --param W=16 --param M=8 --seed 1
  run $D/example_dequant_gemv_fp16xint4.py --target $target $GEMV --param N=256 --param K=256 --check interp --seed 1
  run $D/example_dequant_gemv_fp16xint4.py --target $target $GEMV --param N=1024 --param K=1024 --check interp --seed 1
done
# The Hopper GEMM (wgmma path on sm_90a; its catalogue size and a smaller tile).
run $D/example_dequant_gemm_bf16_fp4_hopper.py --target cuda:sm_90a $GEMM --param M=256 --param N=256 --param K=256 --param block_M=256 --param block_N=128 --param block_K=128 --param num_stages=2 --param threads=256 --param split=1 --ref ref_program_twiddling --seed 1 --timeout 300
run $D/example_dequant_gemm_bf16_fp4_hopper.py --target cuda:sm_90a $GEMM --param M=128 --param N=128 --param K=256 --param block_M=64 --param block_N=64 --param block_K=128 --param num_stages=0 --param threads=128 --param split=1 --ref ref_program_twiddling --seed 1
run $D/example_dequant_gemm_bf16_fp4_hopper.py --target cuda:sm_80 $GEMM --param M=128 --param N=128 --param K=256 --param block_M=64 --param block_N=64 --param block_K=128 --param num_stages=2 --param threads=128 --param split=1 --ref ref_program_twiddling --seed 1
for target in cuda:sm_80 cuda:sm_90a; do
  run tests/e2e/programs/large_index.py --target $target --param M=64 --param N=256 --seed 1
done
# SKIP_LARGE=1 leaves out the 2^31-element run (minutes and ~70 GB of host memory) when a call is short.
[ "${SKIP_LARGE:-0}" = 1 ] || run tests/e2e/programs/large_index.py --target cuda:sm_90a --param M=32769 --param N=65536 --seed 1 --timeout 900
echo "failures: $fail"
} | tee "$OUT/lang_misc.txt"
# 4/5. The conformance runner on the four corpus kernels (compile, interpreter, GPU at real sizes).
python3 bench/conformance/run.py --gpu --tilec "$T" --corpus "$C" -j2 \
  --only 'dequant_gemm_bf16_fp4_hopper|dequant_gemv_fp16xint4|benchmark_nsa_fwd|example_conv_analyze' \
  --label lang-misc --out "$OUT/conformance-lang-misc.json" 2>&1 | tail -6 | tee -a "$OUT/lang_misc.txt"
