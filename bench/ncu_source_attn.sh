#!/usr/bin/env bash
# Per-instruction warp stall samples (Nsight Compute SourceCounters, SASS) of attention B
# (128x64, 2 stages, 256 threads, B1 H16 S4096 D128 fp16): which instructions the 1.05 "barrier"
# and 1.40 "wait" stalls per issue of bench/results/h100-2026-12-06c sit on.
#   run(command="OUT=$OUT bash .h200/ncu_source_attn.sh", carry=[".h200"])
A=.h200; T=$A/tilec; [ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
P="-p batch=1 -p heads=16 -p seq_len=4096 -p dim=128 -p block_M=128 -p block_N=64 -p num_stages=2 -p threads=256"
timeout 200 $NCU --section SourceCounters --section WarpStateStats --section SchedulerStats --import-source no \
  --target-processes all -k regex:flash_attn --launch-skip 3 -c 1 -o $OUT/attnB -f \
  $T bench $A/flash_attn_fwd.py --target cuda:sm_90a $P --no-check --reps 5 > $OUT/ncu-log.txt 2>&1
echo "ncu rc $?"; tail -3 $OUT/ncu-log.txt
$NCU -i $OUT/attnB.ncu-rep --page source --csv --print-source sass > $OUT/attnB-sass.csv 2>&1; echo "sass rc $? $(wc -l < $OUT/attnB-sass.csv)"
$NCU -i $OUT/attnB.ncu-rep --page details --csv > $OUT/attnB-details.csv 2>&1; echo "details rc $?"
xz -9 $OUT/attnB-sass.csv; rm -f $OUT/attnB.ncu-rep.xz; xz -k -9 $OUT/attnB.ncu-rep 2>/dev/null; rm -f $OUT/attnB.ncu-rep
ls -la $OUT
