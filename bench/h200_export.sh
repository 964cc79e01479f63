#!/usr/bin/env bash
# Issue 15, "export that builds": the nvcc projects TileScope exports (app/cli/ProjectExport.h,
# the IDE's File › Export = `tilec export`) for samples/gemm.py and samples/softmax.py, built with
# nvcc on the GPU box and run: each launcher uploads its data/ inputs, launches once, compares
# every output with the CPU reference TileScope wrote (ref_program in float64), exits 1 on a
# mismatch, then times launches. Per sample:
#   - sm_90a through the Makefile (nvcc -arch=sm_90a) and through CMake (the CMakeLists sets
#     CMAKE_CUDA_ARCHITECTURES=90a before project(); the verbose build line must name sm_90a),
#     each binary run: must print PASS and exit 0;
#   - sm_80 through the Makefile (PTX JIT-compiled for the H200), run: must pass;
#   - a negative control: the sm_90a binary against a corrupted reference (data/ copy with every
#     expected value doubled) must FAIL with exit status 1 — the check really checks.
# Builds nothing of TileScope: expects build/tilec (TILEC=... to change); nvcc from PATH or
# /usr/local/cuda/bin (NVCC=...). One device command, a few minutes (six nvcc builds).
# Usage (device tool): bash bench/h200_export.sh   -> $OUT/h200_export.log, exit status = failures
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
T=${TILEC:-build/tilec}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
export PATH="$(dirname "$NVCC"):$PATH"
W=${TMPDIR:-/tmp}/h200_export.$$
mkdir -p "$W"
exec > >(tee "$OUT/h200_export.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
"$NVCC" --version | tail -2
fails=0
ok() { echo "ok: $*"; }
bad() { echo "!! FAILED: $*"; fails=$((fails+1)); }

for s in gemm softmax; do
  for arch in sm_90a sm_80; do
    d="$W/$s-$arch"
    echo "== $s $arch: tilec export"
    "$T" export "samples/$s.py" --target "cuda:$arch" --out "$d" --name "$s" || { bad "$s $arch export"; continue; }
    grep -q "ARCH ?= $arch" "$d/Makefile" || bad "$s $arch: Makefile arch"
    echo "== $s $arch: make"
    if make -C "$d" NVCC="$NVCC" >"$d/make.log" 2>&1; then
      grep -- "-arch=$arch" "$d/make.log" | head -1
      echo "== $s $arch: run"
      if (cd "$d" && "./$s" 20); then ok "$s $arch (Makefile build) passes its check"; else bad "$s $arch run (exit $?)"; fi
    else
      cat "$d/make.log"; bad "$s $arch make"
    fi
    if [ "$arch" = sm_90a ]; then
      echo "== $s $arch: cmake"
      if cmake -S "$d" -B "$d/build" -DCMAKE_CUDA_COMPILER="$NVCC" >"$d/cmake.log" 2>&1 &&
         cmake --build "$d/build" -v >>"$d/cmake.log" 2>&1; then
        if grep -q "sm_90a" "$d/cmake.log" && ! grep -qE "sm_75|sm_52" "$d/cmake.log"; then
          ok "$s cmake build names sm_90a only"
        else
          grep -E "nvcc.*main.cu" "$d/cmake.log" | head -2; bad "$s cmake architecture"
        fi
        if "$d/build/$s" 20; then ok "$s $arch (CMake build) passes its check"; else bad "$s cmake run (exit $?)"; fi
      else
        tail -30 "$d/cmake.log"; bad "$s cmake build"
      fi
      echo "== $s $arch: negative control (corrupted reference must fail)"
      cp -r "$d/data" "$d/bad"
      for f in "$d"/bad/*.ref.f32; do
        python3 - "$f" <<'PY'
import array, sys
a = array.array("f"); f = open(sys.argv[1], "rb"); a.frombytes(f.read()); f.close()
a = array.array("f", [2.0 * x + 1.0 for x in a]); open(sys.argv[1], "wb").write(a.tobytes())
PY
      done
      (cd "$d" && "./$s" 0 "$d/bad"); rc=$?
      if [ $rc -eq 1 ]; then ok "$s: corrupted reference detected (exit 1)"; else bad "$s: corrupted reference gave exit $rc"; fi
    fi
  done
done
echo "== failures: $fails"
rm -rf "$W"
exit $fails
