#!/usr/bin/env bash
# T.gemm operands that are sub-regions of shared tiles, read in place (issue 8, branch
# smem-slices), on the H200: what the dev box can only check on the interpreters and NVRTC.
#  1. tests/e2e/programs/gemm_shared_view.py (mma.sync path: gemm_ss / gemm_rs with the parent's
#     row length and the slice's origin as template arguments) for cuda:sm_80 and cuda:sm_90a,
#     fp16 and bf16, column offsets 0, 64 (in place) and 4 (copied: the fallback), each by
#     `tilec run` against the float64 ref_program, and once per target against the interpreter
#     (--check interp: the thread-level interpreter's result for the same inputs);
#  2. tests/e2e/programs/gemm_shared_view_wgmma.py on cuda:sm_90a: off=64 (wgmma reads the
#     slices in place: the descriptors' start address moves by whole 128-byte swizzle atoms) and
#     off=Dt=32 (inside an atom: mma.sync in place), fp16 and bf16, against the float64 reference;
#     and gemm_shared_view_pipelined.py (a T.Pipelined loop whose TMA-loaded stages wgmma reads
#     at panel offsets on sm_90a; mma.sync on sm_80);
#  3. the four corpus kernels that overflowed shared memory before (deepseek_mla
#     example_mla_decode_ws.py:flashattn, deepseek_v32 sparse_mla_bwd.py:bwd,
#     sparse_mla_fwd_pipelined.py and sparse_mla_fwd_seesaw.py:sparse_mla_fwd) through
#     bench/conformance/run.py --gpu: compiled for sm_90a at the file's real sizes, run on the
#     interpreter at the catalogue's small sizes and on the GPU (kernels without a callable
#     reference are checked against the interpreter at small sizes).
# Before (dev box, from the worktree): bash bench/conformance/prepare_device.sh (.corpus, .devbin)
# Device tool: carry [".corpus", ".devbin"], command: bash bench/h200_smem_slices.sh
# Writes $OUT/smem_slices.txt (one PASS/FAIL line per run) and $OUT/conformance-smem-slices-*.json/.md.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-.devbin/tilec}
export TILESCOPE_CACHE_DIR=/tmp/tscache
[ -x "$T" ] || { echo "no $T: run bench/conformance/prepare_device.sh on the dev box first"; exit 2; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
fail=0
run() {
  if timeout 120 "$T" run "$@" > "$OUT/run.log" 2>&1; then echo "PASS $*"; else echo "FAIL $*"; tail -6 "$OUT/run.log"; fail=$((fail+1)); fi
  grep -E "rel-L2|shared;" "$OUT/run.log" | sed 's/^/    /'
}
V=tests/e2e/programs/gemm_shared_view.py
W=tests/e2e/programs/gemm_shared_view_wgmma.py
P=tests/e2e/programs/gemm_shared_view_pipelined.py
{
for target in cuda:sm_80 cuda:sm_90a; do
  for dtype in float16 bfloat16; do
    for off in 0 64 4; do run $V --target $target --param dtype=$dtype --param off=$off --seed 7; done
  done
  run $V --target $target --param off=64 --check interp --seed 7
  # Larger tiles: 128-row accumulators over 256 threads, 128-column slices at columns 64 and 192.
  run $V --target $target --param M=128 --param D=128 --param off=64 --param threads=256 --seed 7
done
for dtype in float16 bfloat16; do
  run $W --target cuda:sm_90a --param dtype=$dtype --param off=64 --seed 7
  run $W --target cuda:sm_90a --param dtype=$dtype --param off=0 --seed 7
  run $W --target cuda:sm_90a --param dtype=$dtype --param off=32 --param Dt=32 --seed 7
done
run $W --target cuda:sm_90a --param off=64 --check interp --seed 7
# A T.Pipelined loop: TMA-loaded stages read by wgmma at panel offsets (sm_90a), mma.sync (sm_80).
for target in cuda:sm_80 cuda:sm_90a; do
  for dtype in float16 bfloat16; do run $P --target $target --param dtype=$dtype --param KT=64 --seed 7; done
  run $P --target $target --param KT=8 --param stages=3 --check interp --seed 7
done
echo "failures: $fail"
} | tee "$OUT/smem_slices.txt"
# 3. The four corpus kernels (compile at real sizes, interpreter at small sizes, GPU).
if [ -d .corpus ]; then
  timeout 400 python3 bench/conformance/run.py --tilec "$T" --corpus .corpus --gpu -j 4 \
    --timeout 60 --interp-timeout 120 --gpu-timeout 90 --ref-timeout 150 --label smem-slices \
    --only 'example_mla_decode_ws\.py:flashattn|deepseek_v32/sparse_mla_(bwd\.py:bwd|fwd_pipelined\.py|fwd_seesaw\.py)' \
    --out "$OUT/conformance-smem-slices-$(date -u +%F).json" 2>&1 | tail -20
else
  echo "no .corpus: skipped the corpus kernels (bench/conformance/prepare_device.sh)"
fi
