#!/usr/bin/env bash
# Device check of the lang-ws work (issues 8/9: tile ops inside warp roles, T.tma_copy,
# T.mbarrier_expect_tx, T.wgmma_gemm), under 500 s; carry [".devbin", ".corpus"]
# (.devbin/tilec built from this tree, .corpus = ../shared/tilelang-corpus):
#  1. the e2e programs of tests/e2e/WarpRolesE2ETest.cpp on the H200, GPU output against their
#     float64 ref_program (tilec run): ws_tma_gemm (sm_90a: loader role with T.tma_copy on an
#     mbarrier, gemm role in warp group 0 or 1) and ws_role_reduce (sm_90a and sm_80 code, role
#     0 or 1, a row over one or two warps);
#  2. the same programs' GPU output against the lowered interpreter (--check interp);
#  3. the corpus kernels that compile since lang-ws (warp_specialize gemm copy_0_gemm_1 /
#     copy_1_gemm_0, minference vertical_slash) through bench/conformance/run.py --gpu (no
#     callable reference: small sizes, GPU checked against the interpreter).
# Everything is tarred to $OUT/all.tgz (the device tool returns at most 8 files).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/e2e" "$OUT/conf"; export TILESCOPE_CACHE_DIR=/tmp/tscache
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
TC=${TILEC:-.devbin/tilec}
echo "== tree $(git log -1 --oneline 2>/dev/null | cut -c1-60); tilec $TC"
run() {  # name target check params...
  local name=$1 t=$2 chk=$3; shift 3
  local tag="$name-${t#cuda:}-$chk-$(echo "$*" | tr ' =' '_-')"
  echo "-- $name $t --check $chk $*"
  local ps=(); for p in "$@"; do ps+=(--param "$p"); done
  timeout 90 "$TC" run tests/e2e/programs/$name.py --target $t --seed 1 --check $chk "${ps[@]}" > "$OUT/e2e/$tag.txt" 2>&1
  echo "rc=$?"; grep -E "PASS|FAIL|rel-L2|error" "$OUT/e2e/$tag.txt" | tail -4
}
for chk in ref interp; do
  for m in 0 1; do
    run ws_tma_gemm cuda:sm_90a $chk math=$m
    run ws_tma_gemm cuda:sm_90a $chk math=$m M=512 N=256 K=400
  done
  for t in cuda:sm_90a cuda:sm_80; do
    for r in 0 1; do
      run ws_role_reduce $t $chk role=$r
      run ws_role_reduce $t $chk role=$r M=2 N=512
    done
  done
done
echo "== e2e done at $(el) s"
timeout 300 python3 bench/conformance/run.py --tilec "$TC" --corpus .corpus --gpu -j 2 \
  --timeout 100 --interp-timeout 120 --gpu-timeout 120 --label h200-lang-ws \
  --only 'warp_specialize_gemm_copy|vertical_slash_sparse_attn' \
  --out "$OUT/conf/conformance-h200-lang-ws.json" > "$OUT/conf/log.txt" 2>&1; echo "conformance rc=$?"
tail -12 "$OUT/conf/log.txt"
echo "== total $(el) s"
tar czf "$OUT/all.tgz" -C "$OUT" e2e conf 2>/dev/null
