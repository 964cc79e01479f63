#!/usr/bin/env bash
# Checks the bank model's ptxas-merging assumption (compiler/analysis/Banks.h) on the SASS itself:
# compiles the transposes and reductions of bench/h200_banks.sh with nvcc for sm_90a and counts the
# shared-memory instructions by width with nvdisasm. No GPU needed; needs nvcc and nvdisasm on PATH
# (NVDISASM=... to point elsewhere). Usage: bench/banks_sass_check.sh [TILEC]  (default build/tilec)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
T=${1:-$root/build/tilec}
DIS=${NVDISASM:-nvdisasm}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() {  # name file params...
    local name=$1 file=$2
    shift 2
    "$T" compile "$root/$file" "$@" --emit cuda --no-nvrtc > "$tmp/$name.cu" 2>/dev/null
    nvcc -std=c++17 -arch=sm_90a -cubin -I"$root/resources" -o "$tmp/$name.cubin" "$tmp/$name.cu" 2>/dev/null
    printf '%-22s %s\n' "$name" "$("$DIS" "$tmp/$name.cubin" | grep -oE '(@!PT )?\b(LDS|STS|LDSM)(\.[A-Z0-9]+)*' | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"
}
check transpose-f32       bench/banks/transpose.py --param pad=0
check transpose-f32-pad1  bench/banks/transpose.py --param pad=1
check transpose-f16       bench/banks/transpose.py --param dtype=float16
check transpose-f16-pad2  bench/banks/transpose.py --param dtype=float16 --param pad=2
check rowsum-4096x1024    bench/banks/rowsum.py
check softmax-1024        samples/softmax.py --param M=1024 --param N=1024
check gemm-swz-f16        samples/gemm.py --param M=1024 --param N=1024 --param K=1024
