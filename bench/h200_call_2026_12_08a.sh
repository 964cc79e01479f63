#!/usr/bin/env bash
# 2026-12-08 (fifteenth session). Part 1: the fourteenth session's pending GPU agreement
# (bench/gpu_check_2026_12_07m.sh, then the stages A/B of 2026-12-07l), then this session's
# ordered atomics on the GPU -- tests/e2e/programs/atomic_memory_order.py (the last block to take
# an acq_rel / seq_cst ticket converts the column sums) against the tile interpreter and float64
# on sm_80 and sm_90a (the counter output must be back at zero, so the next launch starts right) -- and
# samples/mha_bwd.py with dq_convert=True (the head's last key block converts dQ; the chain
# has no postprocess kernel) against float64, then an interleaved A/B of the main kernel with
# and without dq_convert beside the postprocess it replaces (two rounds, medians of 50).
# Part 2: the issue-10 MHA backward table with TileLang's example and torch SDPA in the same
# call (bench/h200_mha_bwd_perf.sh, variants m128n128dsdp and m128n128dsdpcv).
#   bash bench/h200_payload.sh; cp bench/h200_call_2026_12_08a.sh bench/gpu_check_2026_12_07m.sh bench/mhab_stages_ab_2026_12_07l.sh \
#     tests/e2e/programs/{gemm_mixed_engines_one_accumulator,math_library,fragment_partial_fill,pdl_two_kernels,print_buffers,atomic_memory_order}.py .h200/
#   run(command="bash .h200/h200_call_2026_12_08a.sh 1", carry=[".h200"]); then "... 2" with carry [".h200", ".tl"]
set -u
A=.h200; T=$A/tilec; [ -x $T ] || { xz -dkc $A/tilec.xz > $T && chmod +x $T; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
M=$A/mha_bwd.py
MB="-p block_M=128 -p block_N=128 -p threads=256 -p ds_regs=True -p dp_first=True"
BIG="-p batch=8 -p heads=32 -p seq_len=1024 -p dim=64"
if [ "${1:-1}" = 1 ]; then
  timeout 330 bash $A/gpu_check_2026_12_07m.sh 2>&1 | tail -40
  W=/tmp/ord; mkdir -p $W
  echo "== ordered atomics"
  for tgt in cuda:sm_80 cuda:sm_90a; do
    for o in acq_rel seq_cst; do
      timeout 60 $T run $A/atomic_memory_order.py --target $tgt -p order=\"$o\" -q > $W/ord-$o-$tgt.txt 2>&1 && echo "ok ref $o $tgt" || { echo "FAIL ref $o $tgt"; tail -4 $W/ord-$o-$tgt.txt; }
      timeout 60 $T run $A/atomic_memory_order.py --target $tgt -p order=\"$o\" -p rows=3000 --check interp -q > $W/ordi-$o-$tgt.txt 2>&1 && echo "ok interp $o $tgt rows=3000" || { echo "FAIL interp $o $tgt"; tail -4 $W/ordi-$o-$tgt.txt; }
    done
  done
  echo "== mha_bwd dq_convert chains vs float64"
  CH=mha_fwd,mha_bwd_preprocess,mha_bwd_main
  for shape in "-p batch=2 -p heads=8 -p seq_len=1000 -p dim=64 -p is_causal=True -p dtype=bfloat16" "$BIG" "-p batch=2 -p heads=4 -p seq_len=4097 -p dim=64 -p is_causal=True"; do
    timeout 150 $T run $M --target cuda:sm_90a --chain $CH --ref bwd_ref $shape $MB -p dq_convert=True > $W/mhacv.txt 2>&1 \
      && echo "ok dq_convert chain: $shape $(grep -o 'dQ: rel-L2 [^ ]*' $W/mhacv.txt)" || { echo "FAIL dq_convert chain $shape"; tail -8 $W/mhacv.txt; }
  done
  timeout 150 $T run $M --target cuda:sm_80 --chain $CH --ref bwd_ref -p batch=2 -p heads=4 -p seq_len=1000 -p dim=64 -p is_causal=True -p dq_convert=True -q > $W/mhacv80.txt 2>&1 \
    && echo "ok dq_convert chain sm_80 defaults" || { echo "FAIL dq_convert chain sm_80"; tail -6 $W/mhacv80.txt; }
  echo "== A/B main with and without dq_convert (B8 H32 S1024 fp16, 128x128 ds_regs dp_first)"
  for r in 1 2; do
    for v in "plain" "cv -p dq_convert=True"; do
      set -- $v; o=$1-r$r; shift
      timeout 120 $T bench $M -k mha_bwd_main --target cuda:sm_90a $BIG $MB "$@" --no-check --warmup 10 --reps 50 --json $W/$o.json > /dev/null 2>&1 || echo "bench $o failed"
      echo "$o $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['median_ms'], d.get('registers', ''))" $W/$o.json 2>/dev/null)"
    done
    timeout 120 $T bench $M -k mha_bwd_postprocess --target cuda:sm_90a $BIG -p block_M=128 -p threads=256 --no-check --warmup 10 --reps 50 --json $W/post-r$r.json > /dev/null 2>&1
    timeout 120 $T bench $M -k mha_bwd_preprocess --target cuda:sm_90a $BIG -p block_M=128 -p threads=256 --no-check --warmup 10 --reps 50 --json $W/pre-r$r.json > /dev/null 2>&1
    echo "post-r$r $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['median_ms'])" $W/post-r$r.json 2>/dev/null) pre-r$r $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['median_ms'])" $W/pre-r$r.json 2>/dev/null)"
  done
  cd $W && tar czf $OUT/ordered.tgz . && cd - > /dev/null
else
  MHAB_QUICK=1 MHAB_DIR=$A MHAB_VARIANTS="${MHAB_VARIANTS:-m128n128dsdp m128n128dsdpcv}" bash $A/h200_mha_bwd_perf.sh
fi
