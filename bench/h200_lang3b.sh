#!/usr/bin/env bash
# H200 check of the hand-written mbarrier producer/consumer kernel and the sibling-module kernel
# (helper lane lang3b, issue 8): each case compiled for sm_90a and run on the GPU, its output
# compared with the tile interpreter at the same sizes (`--check interp`: neither program has a
# torch reference), every run under a 60 s watchdog (a wrong phase or a missing arrival hangs an
# mbarrier wait on the GPU; the interpreters report it as a deadlock instead).
# Producer/consumer: trip counts L = 1, 2, 3 (and 9) x stages 1, 2, 3; 132 blocks of 256 threads.
# Before (dev box): strip -o .devbin/tilec build/tilec. Device tool: carry [".devbin"],
# command: bash bench/h200_lang3b.sh. Writes $OUT/summary.txt and $OUT/logs/*.log.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/logs"
export TILESCOPE_CACHE_DIR=/tmp/tscache
T=${TILEC:-.devbin/tilec}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
git log -1 --format='%h %cI %s' > "$OUT/commit.txt" 2>/dev/null
PC=tests/e2e/programs/mbarrier_producer_consumer.py
: > "$OUT/summary.txt"
run_case() {  # name, tilec args...
    local name=$1; shift
    timeout 60 "$T" run "$@" --target cuda:sm_90a --seed 1 --check interp > "$OUT/logs/$name.log" 2>&1
    local rc=$?
    echo "$name rc=$rc $(grep -iE 'match|mismatch|error|rel' "$OUT/logs/$name.log" | head -2 | tr '\n' ' ')" | tee -a "$OUT/summary.txt"
}
for L in 1 2 3 9; do
    for S in 1 2 3; do
        run_case "pc_L${L}_S${S}" "$PC" --param R=132 --param L=$L --param stages=$S
    done
done
run_case sibling_M1000_b32 tests/e2e/programs/sibling_import.py --param M=1000 --param block=32
run_case sibling_M70_b64 tests/e2e/programs/sibling_import.py --param M=70 --param block=64
cd "$OUT" && tar czf all.tgz summary.txt gpu.txt commit.txt logs
