#!/usr/bin/env bash
# Shrinks .tl/tilelang.tar.xz (from ../shared/tools/tilelang-device/prepare.sh, ~36.8 MB) to
# ~33.3 MB so that it travels with a tilec payload (.mhab or .attn, ~2.7 MB) inside the device
# tool's 64 MiB: the tree is ~27 MiB, and a call with the 36.8 MB pack was refused (2026-12-05d).
# What goes, none of it used by TileLang's CUDA JIT on the device (the run of 2026-12-05d timed
# TileLang's MHA backward and attention examples with the slim pack):
#  - symbols of z3's shared library (strip --strip-unneeded);
#  - the cutlass/cute headers that no header of tilelang/src/tl_templates/cuda includes, directly
#    or not (nvcc -M over every template header, sm_80 and sm_90a: 41 of 797 files stay, plus
#    the top-level cutlass/*.h and cute/*.hpp);
#  - TileLang's C++ compiler sources (*.cc) and its ascend/metal/webgpu/cpu backends' sources;
#  - (2026-12-06: the tree had grown by 0.15 MB and a call was refused again) tvm_ffi's
#    libbacktrace sources and the wheels' RECORD files (pip's uninstall lists). Not its testing
#    library: tvm_ffi/core.abi3.so links it (NEEDED, symbol TVMFFITestingDummyTarget); without it
#    `import tilelang` failed on the device (2026-12-06). Also torch_c_dlpack_ext's prebuilt
#    libraries (torch 2.4-2.9 only; the device's torch 2.11 loads none of them) and the
#    ascend/hip/cpu kernel templates.
# Then recompressed with xz -9e. Run from the project root after prepare.sh:
#   bash bench/slim_tl.sh
set -euo pipefail
root=$(git rev-parse --show-toplevel); cd "$root"
[ -f .tl/tilelang.tar.xz ] || { echo "no .tl/tilelang.tar.xz: run ../shared/tools/tilelang-device/prepare.sh first" >&2; exit 2; }
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
tar xJf .tl/tilelang.tar.xz -C "$w"
strip --strip-unneeded "$w"/z3/lib/libz3.so 2>/dev/null || true
tl="$w/tilelang"; C="$tl/3rdparty/cutlass/include"
keep="$w/keep.txt"; : > "$keep"
for h in "$tl"/src/tl_templates/cuda/*.h "$tl"/src/tl_templates/cuda/*/*.h "$tl"/src/tl_templates/cuda/*.cuh; do
  [ -f "$h" ] || continue
  for a in sm_80 sm_90a; do
    printf '#include "%s"\n' "$h" > "$w/inc.cu"
    nvcc -M -x cu -arch=$a -std=c++17 -I "$tl/src" -I "$C" -I "$tl/src/tl_templates/cuda" "$w/inc.cu" 2>/dev/null |
      tr ' \\' '\n\n' | grep 'cutlass/include/' | sed 's|.*cutlass/include/||' >> "$keep" || true
  done
done
sort -u -o "$keep" "$keep"
[ "$(wc -l < "$keep")" -gt 10 ] || { echo "slim_tl: nvcc -M found too few headers; keeping the pack as it is" >&2; exit 1; }
(cd "$C" && find . -type f | sed 's|^\./||' | while read -r f; do
   case "$f" in cutlass/*/*|cute/*/*) grep -qxF "$f" "$keep" || rm -f "$f";; esac
 done; find . -type d -empty -delete)
find "$tl/src" -name '*.cc' -delete
rm -rf "$tl"/src/ascend "$tl"/src/metal "$tl"/src/webgpu "$tl"/src/cpu
rm -rf "$w"/tvm_ffi/3rdparty/libbacktrace "$tl"/src/tl_templates/ascend "$tl"/src/tl_templates/hip "$tl"/src/tl_templates/cpu
rm -f "$w"/torch_c_dlpack_ext/*.so
find "$w" -path '*.dist-info/RECORD' -delete
# (2026-12-07: the tree had grown by 0.6 MB of screenshots) relax's model importers (onnx, tflite,
# torch, stablehlo: subpackages that relax/frontend/__init__.py does not import), z3's C/C++ headers,
# and TVM's relax/topi C++ headers (no tl_templates/cuda header includes them).
rm -rf "$tl"/3rdparty/tvm/python/tvm/relax/frontend/{onnx,tflite,torch,stablehlo} "$w"/z3/include
rm -rf "$tl"/3rdparty/tvm/include/tvm/{relax,topi}
rm -f "$w/keep.txt" "$w/inc.cu"
before=$(stat -c %s .tl/tilelang.tar.xz)
(cd "$w" && tar cf - . | xz -9e -T2 > "$root/.tl/tilelang.tar.xz.new")
mv .tl/tilelang.tar.xz.new .tl/tilelang.tar.xz
echo "slim_tl: $before -> $(stat -c %s .tl/tilelang.tar.xz) bytes"
