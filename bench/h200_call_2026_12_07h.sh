#!/usr/bin/env bash
# 2026-12-07, twelfth session: the issue-10 acceptance figures (bench/h200_call_2026_12_07a.sh:
# parts 1 attention, 2 MHA backward + SwiGLU, 3 RMSNorm) for the code with the paired register
# casts (ts::cast_pair, 09accf3), which had not run on a GPU: part 2 first checks two MHA backward
# chains (dK/dV/dQ against float64; the main kernel's P^T, dK and dV casts are pairs) -- part 1's
# attention checks cover the forward's P cast.
#   bash bench/h200_payload.sh; cp bench/h200_call_2026_12_06{r,t}.sh bench/h200_call_2026_12_07{a,h}.sh bench/gpu_check_lib.sh \
#     tests/e2e/programs/{inplace_int_add,inplace_int_via_shared,bool_scalar_arg,reduce_nan_propagate,float_class,grid_loops}.py \
#     ../shared/tilelang-corpus/testing/python/language/test_tilelang_language_clamp.py .h200/
#   run(command="bash .h200/h200_call_2026_12_07h.sh 1", carry=[".h200", ".tl"])   (then 2, 3)
set -u
D=$(dirname "$0")
if [ "${1:-1}" = 2 ]; then
  T=$D/tilec; [ -x $T ] || { xz -dkc $D/tilec.xz > $T && chmod +x $T; }
  M=$D/mha_bwd.py; BWD=mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess
  MB="-p block_M=128 -p block_N=128 -p threads=256 -p ds_regs=True"
  for shape in "-p batch=2 -p heads=8 -p seq_len=1000 -p dim=64 -p is_causal=True -p dtype=bfloat16" "-p batch=8 -p heads=32 -p seq_len=1024 -p dim=64"; do
    echo "-- mha chain $shape" >> $OUT/mha-checks.txt
    timeout 150 $T run $M --target cuda:sm_90a --chain $BWD --ref bwd_ref $shape $MB -q >> $OUT/mha-checks.txt 2>&1 \
      && echo "mha chain ok: $shape" || { echo "FAIL mha chain $shape"; tail -4 $OUT/mha-checks.txt; }
  done
fi
exec bash $D/h200_call_2026_12_07a.sh "$@"
