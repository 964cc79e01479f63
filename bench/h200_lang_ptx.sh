#!/usr/bin/env bash
# Device check of the lang-ptx work (issue 8: T.access_ptr / T.ptx_cp_async /
# T.cp_async_barrier_noinc, T.view of shared buffers), under 400 s; carry [".devbin", ".corpus"]
# (.devbin/tilec built from this tree, .corpus = ../shared/tilelang-corpus):
#  1. the e2e programs of tests/e2e/PtxCpAsyncE2ETest.cpp, SharedViewE2ETest.cpp and
#     FragmentShiftReadE2ETest.cpp on the H200,
#     GPU output against the lowered interpreter (tilec run --check interp; the interpreters are
#     checked against float64 by those ctest tests):
#       cp_async_noinc_ring (sm_90a: cp.async + cp.async.mbarrier.arrive.noinc ring, zero-fill
#         predicate, 1..3 stages), cp_async_groups (sm_90a and sm_80 code: commit/wait groups),
#       shared_view_scratch (sm_90a and sm_80 code: float32 scratch view on a float16 tile),
#       fragment_shift_read (sm_90a and sm_80 code: gemm accumulator read at i + s * 16);
#  2. the corpus kernels of the lang-ptx brief through bench/conformance/run.py --gpu
#     (deepseek_mla example_mla_decode_ws, deepseek_v32 sparse_mla_fwd_pipelined / _seesaw,
#     dsa_sparse_finetune sparse_mla_bwd:bwd, grouped_gemm example_grouped_gemm_fwd_ptr); at the
#     time of writing all but sparse_mla_bwd:bwd still stop at a compile diagnostic (see the
#     lang-ptx report), so this records where each one stops on the device build; bwd also runs
#     in step 1 with valid structured inputs (GPU vs lowered interpreter).
# Everything is tarred to $OUT/all.tgz (the device tool returns at most 8 files).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/e2e" "$OUT/conf"; export TILESCOPE_CACHE_DIR=/tmp/tscache
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
TC=${TILEC:-.devbin/tilec}
echo "== tree $(git log -1 --oneline 2>/dev/null | cut -c1-60); tilec $TC"
pass=0; fail=0
run() {  # name target params...
  local name=$1 t=$2; shift 2
  local tag="$name-${t#cuda:}-$(echo "$*" | tr ' =' '_-')"
  echo "-- $name $t $*"
  local ps=(); for p in "$@"; do ps+=(--param "$p"); done
  timeout 90 "$TC" run tests/e2e/programs/$name.py --target $t --seed 1 --check interp "${ps[@]}" > "$OUT/e2e/$tag.txt" 2>&1
  local rc=$?; echo "rc=$rc"; grep -E "PASS|FAIL|rel-L2|error" "$OUT/e2e/$tag.txt" | tail -4
  if [ $rc -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}
run cp_async_noinc_ring cuda:sm_90a
run cp_async_noinc_ring cuda:sm_90a R=4 L=7 V=3000 stages=3
run cp_async_noinc_ring cuda:sm_90a R=3 L=5 V=100000 stages=1
for t in cuda:sm_90a cuda:sm_80; do
  run cp_async_groups $t
  run cp_async_groups $t R=8 L=5
  run shared_view_scratch $t
  run shared_view_scratch $t B=6 L=5
  run fragment_shift_read $t
  run fragment_shift_read $t K=256
done
# dsa_sparse_finetune sparse_mla_bwd:bwd (compiles since lang-ptx: T.view of shared, shifted
# fragment reads) with valid structured inputs (one sequence, token i of it, indices <= i), GPU
# output against the lowered interpreter; the random inputs of the conformance run are not valid.
bwd() {  # H S topk
  local tag="corpus-sparse_mla_bwd-H$1-S$2-topk$3"
  echo "-- $tag"
  timeout 200 "$TC" run .corpus/examples/dsa_sparse_finetune/sparse_mla_bwd.py --kernel bwd --target cuda:sm_90a \
    --seed 1 --check interp --param H=$1 --param D=512 --param D_tail=64 --param topk=$3 --param S=$2 \
    --param B_plus_one=2 --input Offsets=offsets:$2 --input TokenIndices=fill:0 --input Indices=int:0:1 \
    > "$OUT/e2e/$tag.txt" 2>&1
  local rc=$?; echo "rc=$rc"; grep -E "PASS|FAIL|rel-L2|error" "$OUT/e2e/$tag.txt" | tail -4
  if [ $rc -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}
bwd 16 2 32
bwd 64 4 64
echo "== e2e: $pass passed, $fail failed, at $(el) s"
timeout 300 python3 bench/conformance/run.py --tilec "$TC" --corpus .corpus --gpu -j 2 \
  --timeout 100 --interp-timeout 120 --gpu-timeout 120 --label h200-lang-ptx \
  --only 'example_mla_decode_ws|sparse_mla_fwd_pipelined|sparse_mla_fwd_seesaw|dsa_sparse_finetune/sparse_mla_bwd.py:bwd|grouped_gemm_fwd_ptr' \
  --out "$OUT/conf/conformance-h200-lang-ptx.json" > "$OUT/conf/log.txt" 2>&1; echo "conformance rc=$?"
tail -12 "$OUT/conf/log.txt"
echo "== total $(el) s"
tar czf "$OUT/all.tgz" -C "$OUT" e2e conf 2>/dev/null
