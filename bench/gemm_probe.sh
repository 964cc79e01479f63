#!/usr/bin/env bash
# Builds and runs the GEMM probe (bench/gemm_sm80_probe.cu) on a machine with a GPU, in one go:
# NVRTC check of resources/ts_device.cuh (sm_80, sm_90a), nvcc build with -Xptxas -v (fails on
# any stack frame or spill), header self-tests, correctness and timing vs cuBLAS. Writes
# gemm-probe-<date>.json and the logs into $OUT (default bench/results). Never changes GPU
# settings: nvidia-smi is only queried.
# Usage: [OUT=dir] [PROBE_ARCH=sm_90a] bench/gemm_probe.sh [extra nvcc flags]. The swept
# configurations are the CFG(...) list in sweep() of bench/gemm_sm80_probe.cu.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/results}
mkdir -p "$OUT"
CUDA=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA/bin/nvcc}
DATE=$(date -u +%Y-%m-%d)
BUILD=$(mktemp -d)
ARCH=${PROBE_ARCH:-sm_90a}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit --format=csv || true

echo "== NVRTC check of resources/ts_device.cuh"
if command -v g++ >/dev/null; then
    g++ -std=c++17 -O1 bench/gemm_nvrtc_check.cpp -I"$CUDA/include" -L"$CUDA/lib64" -lnvrtc -o "$BUILD/nvrtc_check"
    LD_LIBRARY_PATH="$CUDA/lib64:${LD_LIBRARY_PATH:-}" "$BUILD/nvrtc_check" resources/ts_device.cuh bench/gemm_header_test.cu sm_80 sm_90a
else
    echo "no g++ here: NVRTC check skipped"
fi

echo "== nvcc build ($ARCH)"
T0=$(date +%s)
"$NVCC" -std=c++17 -O3 -gencode=arch=compute_${ARCH#sm_},code=$ARCH -Xptxas -v -Iresources \
    bench/gemm_sm80_probe.cu -lcublas -o "$BUILD/gemm_probe" "$@" > "$OUT/gemm-probe-$DATE-ptxas.log" 2>&1 \
    || { tail -40 "$OUT/gemm-probe-$DATE-ptxas.log"; exit 1; }
echo "build took $(( $(date +%s) - T0 )) s"
if grep "stack frame" "$OUT/gemm-probe-$DATE-ptxas.log" | grep -v " 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"; then
    echo "FAIL: stack frame or spills (above)"; exit 1
fi
echo "ptxas: $(grep -c ' 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads' "$OUT/gemm-probe-$DATE-ptxas.log") kernels, no stack, no spills"

echo "== run"
CMD="bench/gemm_probe.sh $*"
"$BUILD/gemm_probe" "$OUT/gemm-probe-$DATE.json" "$DATE" "$CMD" | tee "$OUT/gemm-probe-$DATE.txt"
rc=${PIPESTATUS[0]}
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv || true
rm -rf "$BUILD"
exit $rc
