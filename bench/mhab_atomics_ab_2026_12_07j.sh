#!/usr/bin/env bash
# 2026-12-07 (twelfth session): the Nsight Compute profile of the MHA backward main kernel
# (bench/ncu_attention_2026_12_07i.sh, 128x128 ds_regs, 255 registers) puts 27% of the warp stall
# samples in the dQ atomics (lane-pair red.global.add.v4: activemask vote, two shuffles and
# register copies per v4, each REDG waiting for the previous one to release R24-R27). A/B of the
# forms (TILESCOPE_VECTOR_ATOMICS: default lane-pair v4, 2 = v2 straight from the accumulator
# registers), medians of 50, two interleaved rounds, B8 H32 S1024 D64 fp16; then the v2 chain
# against float64. Payload: bash bench/h200_payload.sh; cp bench/mhab_atomics_ab_2026_12_07j.sh .h200/
set -u
A=.h200; T=$A/tilec; [ -x $T ] || { xz -dkc $A/tilec.xz > $T && chmod +x $T; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
W=/tmp/ab; mkdir -p $W
P="-p batch=8 -p heads=32 -p seq_len=1024 -p dim=64 -p block_M=128 -p block_N=128 -p threads=256 -p ds_regs=True"
for r in 1 2; do
  for v in 1 2; do
    env TILESCOPE_VECTOR_ATOMICS=$v timeout 120 $T bench $A/mha_bwd.py -k mha_bwd_main --target cuda:sm_90a $P --no-check --reps 50 --json $W/va$v-r$r.json >> $W/bench.txt 2>&1 || echo "bench va$v failed"
    echo "va$v r$r $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['median_ms'], d.get('registers', ''))" $W/va$v-r$r.json)"
  done
done
TILESCOPE_VECTOR_ATOMICS=2 timeout 200 $T run $A/mha_bwd.py --target cuda:sm_90a --chain mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess \
  --ref bwd_ref $P -q > $W/check-v2.txt 2>&1 && echo "v2 chain ok" || { echo "v2 chain FAIL"; tail -5 $W/check-v2.txt; }
nvidia-smi --query-gpu=name --format=csv,noheader > $W/device.txt
cd $W && tar czf $OUT/ab.tgz .
