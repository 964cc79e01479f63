#!/usr/bin/env bash
# Pointer tables on the GPU (T.ptr + T.make_tensor; README "Pointer tables"): every pointer kernel
# runs through `tilec run` on the device, sm_80 and sm_90a code paths, checked against the
# tile-level interpreter (--check interp; the interpreter's gemm sums in float64, so the grouped
# GEMMs are compared with a float64-accumulated reference rounded once). The runner allocates one
# pointee tensor per table entry and writes their device addresses into the table before the
# launch (rt::PointerFill); a wrong address shows up as a fault or a mismatch here.
# Expected: every run prints PASS and exits 0 (about 1 minute in all; the interpreter dominates).
#   bench/h200_ptr.sh [TILEC] [CORPUS]   (defaults: $TILEC, else build/tilec; $CORPUS, else .corpus
#   when present (bench/conformance/prepare_device.sh), else ../shared/tilelang-corpus). Part "ptr"
#   of bench/h200_session_checks.sh.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tilec=${1:-${TILEC:-build/tilec}}
corpus=${2:-${CORPUS:-}}
[ -n "$corpus" ] || { [ -d .corpus ] && corpus=.corpus || corpus=$root/../shared/tilelang-corpus; }
gg="$corpus/examples/grouped_gemm/example_grouped_gemm_fwd_ptr.py"
fails=0
log=$(mktemp)
run() {
    echo "== tilec run $*"
    timeout 300 "$tilec" run "$@" --check interp 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    # A run that fell back to the CPU (no GPU) checks nothing here: count it as a failure.
    if grep -q "running on the CPU interpreter" "$log" || ! grep -qx "PASS" "$log"; then
        [ $rc -eq 0 ] && rc=3
    fi
    echo "rc=$rc"
    [ $rc -eq 0 ] || fails=$((fails + 1))
}
for t in cuda:sm_80 cuda:sm_90a; do
    run tests/e2e/programs/ptr_table.py --target $t
    run tests/e2e/programs/ptr_grouped_gemm.py --target $t --input tile_starts=values:0,2
    if [ -f "$gg" ]; then
        # The file's test sizes (test_grouped_gemm_ptr) ...
        run "$gg" --target $t --param 'batch_sizes_list=[16, 33, 64]' --param K=128 --param N=96 \
            --param block_M=32 --param block_N=32 --param block_K=32 --input batch_tile_offsets=values:0,1,3
        # ... and its __main__ tiles (64 x 128 x 64, 256 threads) at a size the interpreter affords.
        run "$gg" --target $t --param 'batch_sizes_list=[64, 100, 256]' --param K=256 --param N=256 \
            --param block_M=64 --param block_N=128 --param block_K=64 --param threads=256 --param num_stages=1 \
            --input batch_tile_offsets=values:0,1,3
    else
        echo "no corpus at $corpus: the corpus file's runs are skipped"
    fi
done
rm -f "$log"
echo "h200_ptr: $fails failing run(s)"
[ $fails -eq 0 ]
