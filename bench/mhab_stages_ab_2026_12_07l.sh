#!/usr/bin/env bash
# 2026-12-07 (thirteenth session): MHA backward main kernel, B8 H32 S1024 D64 fp16, 128x128 / 256
# threads / ds_regs / dp_first with v2 dQ atomics (the defaults since 2026-12-07j): 2 against 3
# pipeline stages, and block_N=64 (twice the dQ atomics, half the registers per tile), two
# interleaved rounds of medians of 30; 3 stages checked against float64 first (B2 H8 S1000 causal bf16).
# Payload: bash bench/h200_payload.sh; cp bench/mhab_stages_ab_2026_12_07l.sh tests/e2e/programs/print_buffers.py .h200/
set -u
A=.h200; T=$A/tilec; [ -x $T ] || { xz -dkc $A/tilec.xz > $T && chmod +x $T; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
W=/tmp/ab; mkdir -p $W
nvidia-smi --query-gpu=name --format=csv,noheader | tee $W/device.txt
BWD=mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess
MB="-p block_M=128 -p threads=256 -p ds_regs=True -p dp_first=True"
timeout 150 $T run $A/mha_bwd.py --target cuda:sm_90a --chain $BWD --ref bwd_ref -p batch=2 -p heads=8 -p seq_len=1000 -p dim=64 -p is_causal=True -p dtype=bfloat16 $MB -p block_N=128 -p num_stages=3 -q > $W/checks.txt 2>&1 \
  && echo "ok 3 stages" || { echo "FAIL 3 stages"; tail -4 $W/checks.txt; }
# T.print of whole buffers (tests/e2e/programs/print_buffers.py) on the GPU: output vs the
# tile interpreter, and the printf lines (each of the 16 fragment elements once, 32 x 2 locals).
for tgt in cuda:sm_80 cuda:sm_90a; do
  timeout 60 $T run $A/print_buffers.py --target $tgt --check interp -q > $W/print-$tgt.txt 2>&1 && echo "print ok $tgt" || { echo "print FAIL $tgt"; tail -4 $W/print-$tgt.txt; }
  echo "print $tgt: f lines $(grep -c '^f f\[' $W/print-$tgt.txt), distinct $(grep '^f f\[' $W/print-$tgt.txt | sort -u | wc -l), loc lines $(grep -c '^loc\[' $W/print-$tgt.txt), s lines $(grep -c '^s 100% s\[' $W/print-$tgt.txt)"
done
grep '^f f\[1, 2\]' $W/print-cuda:sm_90a.txt
P="-p batch=8 -p heads=32 -p seq_len=1024 -p dim=64 $MB"
for r in $(seq 1 ${AB_ROUNDS:-2}); do
  for v in "n128s2 -p block_N=128 -p num_stages=2" "n128s3 -p block_N=128 -p num_stages=3" "n64s2 -p block_N=64 -p num_stages=2"; do
    set -- $v; o=$1-r$r; shift
    timeout 120 $T bench $A/mha_bwd.py -k mha_bwd_main --target cuda:sm_90a $P "$@" --no-check --reps 30 --json $W/$o.json >> $W/bench.txt 2>&1 || echo "bench $o failed"
    echo "$o $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['median_ms'], d.get('registers', ''))" $W/$o.json)"
  done
done
cd $W && tar czf $OUT/ab.tgz .
