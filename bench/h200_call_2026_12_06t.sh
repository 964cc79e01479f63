#!/usr/bin/env bash
# 2026-12-06, eighth session: the issue-10 acceptance figures with every baseline in the same call,
# on whatever card the device tool gives (the script prints it), plus the GPU check the seventh
# session could not run.
#   bash bench/h200_payload.sh; cp bench/h200_call_2026_12_06{r,t}.sh bench/gpu_check_lib.sh \
#     tests/e2e/programs/{inplace_int_add,inplace_int_via_shared,bool_scalar_arg,reduce_nan_propagate,float_class,grid_loops}.py \
#     ../shared/tilelang-corpus/testing/python/language/test_tilelang_language_clamp.py .h200/
#   run(command="bash .h200/h200_call_2026_12_06t.sh 0", carry=[".h200", ".tl"])   (then 1, 2, 3; q = a quick part 0)
# Part 0: GPU check of inplace_int_add.py / inplace_int_via_shared.py (--inout B),
#   bool_scalar_arg.py and TileLang's clamp test (the check section of call 06r), sm_80 and sm_90a,
#   reduce_nan_propagate.py (nan_propagate on/off, five shapes) float_class.py (T.isnan/isinf/isfinite) and grid_loops.py (T.grid);
# Part 1: 1. attention correctness against float64 (attn_checks: 9 shapes); 2. attention speed at the
#   default form (128x64, 2 stages, 256 threads: fwd fp16, bf16, causal B4 H32) with TileLang 0.1.15
#   on its own example and torch SDPA cuDNN / flash (bench/h200_attention.sh quick);
#   3. A/B of TILESCOPE_HOPPER_LATE_REFILL (one interleaved round) when time is left.
# Part 2: MHA backward (the chain's default and 128x128 ds_regs forms, TileLang's example, cuDNN,
#   flash, torch eager / compile) and SwiGLU (configs g, e; torch eager / compile).
# Part 3: RMSNorm -> matmul and RMSNorm-MLP (best forms of 2026-12-03) against torch.compile.
# Results: $OUT/part<N>.tgz (+ $OUT/check.txt for part 1).
set -u
PART=${1:-1}
. "$(dirname "$0")/attn_switch_ab_lib.sh"
echo "== part $PART"
if [ "$PART" = q ]; then
  # Quick form of part 0 for a short device budget: sm_90a and sm_80, this session's programs
  # against float64, one --check interp each.
  cat > /tmp/chkq.sh <<'CHKQ'
. .h200/gpu_check_lib.sh
for tgt in cuda:sm_90a cuda:sm_80; do
  r 0 $A/reduce_nan_propagate.py --target $tgt -p nan_propagate=True
  r 0 $A/reduce_nan_propagate.py --target $tgt -p nan_propagate=False -p rows=8 -p cols=512 -p threads=256
  r 0 $A/reduce_nan_propagate.py --target $tgt -p nan_propagate=True -p shared=True --check interp
  r 0 $A/float_class.py --target $tgt -p dtype=bfloat16 -p N=77 -p block=64
  r 0 $A/float_class.py --target $tgt --check interp
  r 0 $A/grid_loops.py --target $tgt -p M=50 -p N=70 -p K=9 -p dtype=float16
  r 0 $A/inplace_int_add.py --target $tgt --inout B
  r 0 $A/bool_scalar_arg.py --target $tgt -p flag=1
done
gpu_check_summary
CHKQ
  OUT=$RES/check bash /tmp/chkq.sh > $RES/check.txt 2>&1; grep -A3 ^BAD $RES/check.txt; tail -3 $RES/check.txt
elif [ "$PART" = 0 ]; then
  echo "== 0. gpu check ($(el) s)"
  sed -n '/^cat > \/tmp\/chk.sh/,/^CHK$/p' $A/h200_call_2026_12_06r.sh | sed '1d;$d' | grep -v gpu_check_summary > /tmp/chk.sh
  # This session's program: T.reduce_max/min/absmax(..., nan_propagate=...) on the GPU against
  # float64 and the interpreter, on each lowering path (tests/e2e/ReduceNanPropagateE2ETest.cpp).
  cat >> /tmp/chk.sh <<'CHK2'
for tgt in cuda:sm_80 cuda:sm_90a; do
  for np in True False; do
    r2 $A/reduce_nan_propagate.py --target $tgt -p nan_propagate=$np
    r2 $A/reduce_nan_propagate.py --target $tgt -p nan_propagate=$np -p rows=8 -p cols=512 -p threads=256
    r 0 $A/reduce_nan_propagate.py --target $tgt -p nan_propagate=$np -p rows=16 -p cols=64 -p threads=32 -p dtype=bfloat16
    r2 $A/reduce_nan_propagate.py --target $tgt -p nan_propagate=$np -p shared=True
    r 0 $A/reduce_nan_propagate.py --target $tgt -p nan_propagate=$np -p shared=True -p rows=8 -p cols=512 -p threads=256 -p dtype=float32
  done
  r2 $A/float_class.py --target $tgt
  r 0 $A/float_class.py --target $tgt -p dtype=float32
  r2 $A/float_class.py --target $tgt -p dtype=bfloat16 -p N=77 -p block=64
  r2 $A/grid_loops.py --target $tgt
  r 0 $A/grid_loops.py --target $tgt -p M=50 -p N=70 -p K=9 -p dtype=float16
done
gpu_check_summary
CHK2
  OUT=$RES/check bash /tmp/chk.sh > $RES/check.txt 2>&1; grep -A3 ^BAD $RES/check.txt; tail -2 $RES/check.txt
elif [ "$PART" = 1 ]; then
  attn_checks
  echo "== 2. attention speed with baselines ($(el) s)"
  ATTN_DIR=$A ATTN_QUICK=1 ATTN_CFGS="B" ATTN_BF16_CFGS="B" ATTN_BUDGET_S=200 TILESCOPE_HOPPER_PINGPONG=0 \
    OUT=$OUT/attn timeout 330 bash $A/h200_attention.sh 2>&1 | tail -14
  if [ "$(el)" -lt 450 ]; then
    echo "== 3. A/B late refill ($(el) s)"
    FWD="-p batch=1 -p heads=16 -p seq_len=4096 -p dim=128"; CAU="-p batch=4 -p heads=32 -p seq_len=4096 -p dim=128 -p is_causal=True"
    tb() { local o=$1 sw=$2; shift 2; env TILESCOPE_HOPPER_LATE_REFILL=$sw timeout 60 $T bench $A/flash_attn_fwd.py --target cuda:sm_90a "$@" --no-check --reps 50 --json "$OUT/lr/$o.json" >> "$OUT/lr/bench-log.txt" 2>&1 || echo "bench $o failed"; }
    mkdir -p $OUT/lr
    for sw in 1 0; do tb fwd16-s$sw $sw $FWD $B; tb causal-s$sw $sw $CAU $B; done
    for f in $OUT/lr/*-s?.json; do echo "$(basename $f) $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['median_ms'])" $f)"; done
  fi
  cd "$OUT" && tar czf "$RES/part1.tgz" .
elif [ "$PART" = 2 ]; then
  echo "== 2a. MHA backward ($(el) s)"
  MHAB_DIR=$A MHAB_QUICK=1 MHAB_BUDGET_S=0 MHAB_VARIANTS="${MHAB_VARIANTS:-m128n128ds default}" OUT=$OUT/mhab timeout 260 bash $A/h200_mha_bwd_perf.sh 2>&1 | tail -16
  echo "== 2b. swiglu ($(el) s)"
  # SKIP_SWIGLU=1: a call for the backward's figures alone (2026-12-07k).
  [ -z "${SKIP_SWIGLU:-}" ] && SW_DIR=$A SW_CFGS="g e" SW_INF=1 OUT=$OUT/sw timeout 250 bash $A/h200_swiglu.sh 2>&1 | tail -16
  mkdir -p "$OUT/sw" && cd "$OUT" && tar czf "$RES/part2.tgz" mhab sw
else
  echo "== 3. rmsnorm ($(el) s)"
  mkdir -p .rms && cp $T .rms/tilec && cp $A/commit .rms/commit
  RMS_MM_CFGS="D" RMS_GU_CFGS="s4" RMS_FU_CFGS="n256" RMS_FM_CFGS="k64s4" RMS_RN_CFGS="r1t256" OUT=$OUT/rms timeout 500 bash bench/h200_rmsnorm.sh 2>&1 | tail -14
  cd "$OUT" && tar czf "$RES/part3.tgz" rms
fi
echo "done part $PART in $(el) s"
