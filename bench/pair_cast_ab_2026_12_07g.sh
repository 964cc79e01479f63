#!/usr/bin/env bash
# 2026-12-07 (eleventh session): A/B of the paired register conversion (ts::cast_pair: a float32 ->
# f16/bf16 register loop `P[r] = cast(S[r])` as one cvt.rn.f16x2.f32 per pair instead of two
# scalar cvt.rn.f16.f32; codegen/VectorAccess.h planPairCast). old = the tilec of e524af2 (.h200/tilec_old.xz),
# new = this payload's tilec; the same sample file. Correctness first with the new tilec
# (attention 9 shapes, MHA backward chain 2 shapes, against float64), then medians of 50, two
# rounds interleaved: attention fwd fp16 / bf16 / causal, MHA backward main (128x128, dS in registers).
#   bash bench/h200_payload.sh; cp bench/pair_cast_ab_2026_12_07g.sh bench/attn_switch_ab_lib.sh bench/ab_cudnn_summary.py .h200/;
#   cp <e524af2 payload>/tilec.xz .h200/tilec_old.xz
#   run(command="bash .h200/pair_cast_ab_2026_12_07g.sh", carry=[".h200", ".tl"])
set -u
. "$(dirname "$0")/attn_switch_ab_lib.sh"
W=$OUT
[ -x $A/tilec_old ] || { xz -dkc $A/tilec_old.xz > $A/tilec_old && chmod +x $A/tilec_old; }
attn_checks
M=$A/mha_bwd.py; BWD=mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess
MB="-p block_M=128 -p block_N=128 -p threads=256 -p ds_regs=True"
for shape in "-p batch=2 -p heads=8 -p seq_len=1000 -p dim=64 -p is_causal=True -p dtype=bfloat16" "-p batch=8 -p heads=32 -p seq_len=1024 -p dim=64"; do
  echo "-- mha chain $shape" >> $W/checks.txt
  timeout 150 $T run $M --target cuda:sm_90a --chain $BWD --ref bwd_ref $shape $MB -q >> $W/checks.txt 2>&1 && echo "mha chain ok: $shape" || { echo "FAIL mha chain $shape"; tail -4 $W/checks.txt; }
done
echo "== 2. timing ($(el) s)"
FWD="-p batch=1 -p heads=16 -p seq_len=4096 -p dim=128"; CAU="-p batch=4 -p heads=32 -p seq_len=4096 -p dim=128 -p is_causal=True"
ab() { local o=$1 t=$2 f=$3; shift 3; TILESCOPE_CACHE_DIR=/tmp/tscache-$t timeout 120 $A/$t bench $f --target cuda:sm_90a "$@" --no-check --reps 50 --json $W/$o.json >> $W/bench.txt 2>&1 || echo "bench $o failed"; }
for r in 1 2; do
  for v in old new; do t=tilec; [ $v = old ] && t=tilec_old
    ab fwd16-$v-r$r $t $A/flash_attn_fwd.py $FWD $B; ab fwdbf-$v-r$r $t $A/flash_attn_fwd.py $FWD $B -p dtype=bfloat16
    ab causal-$v-r$r $t $A/flash_attn_fwd.py $CAU $B
    ab mhab-$v-r$r $t $M -k mha_bwd_main -p batch=8 -p heads=32 -p seq_len=1024 -p dim=64 $MB
  done
done
echo "timed ($(el) s)"
python3 "$(dirname "$0")/ab_cudnn_summary.py" "$W"
cd $W && tar czf /tmp/pair-ab.tgz *.json *.txt 2>/dev/null; mkdir -p "$RES" && cp /tmp/pair-ab.tgz $W/ab.json "$RES/" 2>/dev/null
echo "done ($(el) s)"
