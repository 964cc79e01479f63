#!/usr/bin/env bash
# The device header's conversions (resources/ts_device.cuh: float16, bfloat16, float8 e4m3/e5m2,
# 8/16/32-bit ints; rounding, saturation, inf/NaN) on the H200 against the host encodings that
# both interpreters use (compiler/support/HostTensor.cpp), for every 8- and 16-bit input pattern
# and the rounding ties of float32 inputs (bench/conversions/ConvCheck.cu says what exactly).
# Builds ConvCheck.cu with nvcc for sm_90a (hardware cvt paths) and sm_80 (the software paths of
# the header, run on the same GPU), runs both and writes $OUT/conversions-<arch>.txt/.json.
# Exit 0 only if every in-range conversion agrees bit for bit on both builds.
# Device tool: carry [] (needs only the source tree and nvcc), command: bash bench/h200_conversions.sh
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
NVCC=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc 2>/dev/null | head -1)
[ -z "$NVCC" ] && { echo "h200_conversions: nvcc not found"; exit 2; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
status=0
for arch in sm_90a sm_80; do
  # sm_80 code does not load on sm_90 without PTX: embed PTX for compute_80 so the driver JITs it.
  gencode="-arch=$arch"
  [ "$arch" = sm_80 ] && gencode="-gencode arch=compute_80,code=compute_80"
  bin=/tmp/convcheck-$arch
  if ! "$NVCC" -std=c++20 -O2 $gencode -I. -Iresources bench/conversions/ConvCheck.cu \
      compiler/support/HostTensor.cpp compiler/ir/DType.cpp -o "$bin" > "$OUT/build-$arch.log" 2>&1; then
    echo "== $arch: build FAILED"; tail -20 "$OUT/build-$arch.log"; status=1; continue
  fi
  "$bin" "$OUT/conversions-$arch.json" > "$OUT/conversions-$arch.txt" 2>&1
  rc=$?
  echo "== $arch rc=$rc"
  cat "$OUT/conversions-$arch.txt"
  [ $rc -ne 0 ] && status=1
done
exit $status
