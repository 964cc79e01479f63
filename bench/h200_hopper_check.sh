#!/usr/bin/env bash
# Short check of the landed sm_90a GEMM path on the H200 (after bench/h200_hopper_gemm.sh): the
# float64 checks that matter most, compute-sanitizer (memcheck, racecheck, synccheck) on the
# TMA/mbarrier/wgmma kernel, and two timing points. Payload as for h200_hopper_gemm.sh
# (bash bench/hopper_payload.sh), then run(command="bash .hopper/h200_hopper_check.sh",
# carry=[".hopper"]).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=/tmp/tscache
H=.hopper; T=$H/tilec; G=$H/gemm.py
echo "== payload $(cat $H/commit 2>/dev/null)"
pass=0; fail=0
check() {
  local l=$1; shift
  if timeout 120 $T run $G --target cuda:sm_90a "$@" > "$OUT/last.txt" 2>&1; then pass=$((pass+1)); echo "PASS $l: $(grep rel-L2 $OUT/last.txt)"
  else fail=$((fail+1)); echo "FAIL $l"; tail -5 "$OUT/last.txt"; fi
}
check "fp16 1000^3 128x256x64/3/256" --param M=1000 --param N=1000 --param K=1000 --param block_N=256 --param block_K=64 --param threads=256 --param num_stages=3
check "bf16 4000^3 defaults" --param M=4000 --param N=4000 --param K=4000 --param dtype=bfloat16
check "fp16 4096^3 128x256x64/4/256" --param M=4096 --param N=4096 --param K=4096 --param block_N=256 --param block_K=64 --param threads=256 --param num_stages=4
check "trips=1 stages=3" --param M=256 --param N=264 --param K=32 --param num_stages=3
echo "correctness: $pass pass, $fail fail"
# tilec export of the Hopper kernel: the standalone launcher encodes the tensor maps itself.
rm -rf /tmp/exp && $T export $G --target cuda:sm_90a --out /tmp/exp --name gemm > /dev/null 2>&1 &&
  (cd /tmp/exp && timeout 200 make > "$OUT/export-make.txt" 2>&1 && ./gemm 5 2>&1 | tail -2) || echo "export: FAIL (see export-make.txt)"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -n "$CS" ]; then
  for tool in memcheck racecheck synccheck; do
    timeout 150 $CS --tool $tool --print-limit 5 $T run $G --target cuda:sm_90a --param M=256 --param N=256 --param K=256 --param block_N=256 --param block_K=64 --param threads=256 --param num_stages=3 > "$OUT/cs-$tool.txt" 2>&1
    echo "compute-sanitizer $tool: rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/cs-$tool.txt | head -2 | tr '\n' ' ')"
  done
else
  echo "compute-sanitizer: not on this machine"
fi
for dt in float16 bfloat16; do
  timeout 120 $T bench $G --target cuda:sm_90a --param M=8192 --param N=8192 --param K=8192 --param dtype=$dt --param block_N=256 --param block_K=64 --param threads=256 --param num_stages=4 --no-check 2>&1 | grep -E "median|TFLOP"
done
