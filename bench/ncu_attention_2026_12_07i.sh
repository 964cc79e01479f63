#!/usr/bin/env bash
# 2026-12-07 (twelfth session): Nsight Compute profile (full set, with per-instruction SASS stall
# samples) of the attention forward (B1 H16 S4096 D128 fp16, 128x64 / 2 stages / 256 threads) and
# the MHA backward main kernel (B8 H32 S1024 D64 fp16, 128x128 ds_regs), to see where the
# tensor pipe idles. Payload: bash bench/h200_payload.sh; cp bench/ncu_attention_2026_12_07i.sh .h200/
#   run(command="bash .h200/ncu_attention_2026_12_07i.sh", carry=[".h200", ".tl"])
set -u
A=.h200; T=$A/tilec; [ -x $T ] || { xz -dkc $A/tilec.xz > $T && chmod +x $T; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
W=/tmp/ncu; mkdir -p $W
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1); echo "ncu: $NCU"
prof() { local name=$1 k=$2; shift 2
  timeout 240 $NCU --target-processes all -k regex:$k -c 1 --set full --import-source no -f -o $W/$name "$@" > $W/$name-log.txt 2>&1 || { echo "ncu $name rc $?"; tail -5 $W/$name-log.txt; }
  $NCU --import $W/$name.ncu-rep --page details > $W/$name-details.txt 2>&1
  $NCU --import $W/$name.ncu-rep --page source --csv --print-source sass > $W/$name-sass.csv 2>&1
  echo "$name: $(wc -l < $W/$name-details.txt) detail lines, $(wc -l < $W/$name-sass.csv) sass lines"
}
prof bwd mha_bwd_main $T bench $A/mha_bwd.py -k mha_bwd_main --target cuda:sm_90a -p batch=8 -p heads=32 -p seq_len=1024 -p dim=64 \
  -p block_M=128 -p block_N=128 -p threads=256 -p ds_regs=True --no-check --reps 1 --warmup 0
prof fwd flash_attn_fwd $T bench $A/flash_attn_fwd.py --target cuda:sm_90a -p batch=1 -p heads=16 -p seq_len=4096 -p dim=128 \
  -p block_M=128 -p block_N=64 -p num_stages=2 -p threads=256 --no-check --reps 1 --warmup 0
cd $W && tar czf $OUT/ncu.tgz *.txt *.csv && ls -la $OUT
