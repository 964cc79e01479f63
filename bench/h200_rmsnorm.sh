#!/usr/bin/env bash
# Issue 10, one device call (< 8 min): RMSNorm -> matmul (M=K=N=4096) and the RMSNorm MLP
# (M=4096 D=4096 N=11008), bf16, cuda:sm_90a, TileScope against torch eager and torch.compile in
# the same call.
#  1. correctness: `tilec run` of every kernel and chain timed below (each tile configuration of
#     the sweep) against the file's float64 reference on the host: fresh random inputs,
#     NaN-poisoned outputs, sizes that are and are not multiples of the tiles (small enough for a
#     float64 host reference);
#  2. speed at the issue's shapes: `tilec bench` (median of 50, inputs rotated past L2, --no-check)
#     of each kernel; a chain's time is the sum of its kernels' medians (back-to-back launches on
#     one stream add ~1-2 us each, not counted). Sweep: the fused one-kernel samples (file
#     defaults and block_K=64) and the chains rms_norm -> matmul_xn / rms_norm -> gate_up ->
#     down_proj at a few block/stage configurations (rms_norm: rows per block x threads); the best chain and the best fused kernel are
#     reported separately;
#  3. torch (bench/rmsnorm_torch.py): eager and torch.compile of the usual model code (fp32
#     statistics, rounded to bf16, times G, then the matmuls), CUDA events, median of 50 after 10
#     warm-up, 4 rotating input sets (> L2); writes $OUT/rmsnorm.json with vs_torch_compile.
# Before (dev box): build tilec at the commit the run uses, then  bash bench/rmsnorm_payload.sh
# Device tool: run(command="bash bench/h200_rmsnorm.sh", carry=[".rms"], timeout_s=560)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
T=.rms/tilec; S=samples
[ -x "$T" ] || { echo "no $T: run bench/rmsnorm_payload.sh on the dev box first"; exit 2; }
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
echo "== tree: $(git log -1 --oneline 2>/dev/null) payload: $(cat .rms/commit 2>/dev/null)"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
LOG=$OUT/log.txt; : > "$LOG"
TGT="--target cuda:sm_90a"
# Tile configurations (names shared by check and bench).
cfg() { case $1 in
  def) echo "";;
  k64) echo "--param block_K=64";;
  B) echo "--param block_N=256 --param block_K=64 --param num_stages=3 --param threads=256";;
  D) echo "--param block_N=256 --param block_K=64 --param num_stages=4 --param threads=256";;
  F) echo "--param block_N=128 --param block_K=64 --param num_stages=3 --param threads=256";;
  H) echo "--param block_N=256 --param block_K=32 --param num_stages=6 --param threads=256";;
  k64s4) echo "--param block_K=64 --param num_stages=4";;
  n256) echo "--param block_N=256 --param block_K=64 --param num_stages=3";;
  s3) echo "--param block_K=64 --param num_stages=3";;
  s4) echo "--param block_K=64 --param num_stages=4";;
  n64) echo "--param block_N=64 --param block_K=64 --param num_stages=4";;
  r1t128) echo "--param rows=1 --param norm_threads=128";;
  r1t256) echo "--param rows=1 --param norm_threads=256";;
  r2t256) echo "--param rows=2 --param norm_threads=256";;
esac; }
MM_CFGS=${RMS_MM_CFGS:-B D F H}      # matmul_xn and down_proj
GU_CFGS=${RMS_GU_CFGS:-s3 s4 n64}    # gate_up
FU_CFGS=${RMS_FU_CFGS:-def k64s4 n256}  # the fused rmsnorm_matmul
FM_CFGS=${RMS_FM_CFGS:-def k64s4}       # the fused norm_gate_up (two 128 x block_N accumulators)
RN_CFGS=${RMS_RN_CFGS:-r1t128 r1t256 r2t256}  # rms_norm (rows per block, threads)

echo "== 1. correctness (float64 reference, $(el) s)"
pass=0; fail=0
chk() {  # label, file, args...
  local l=$1 f=$2; shift 2
  echo "--- $l: $f $*" >> "$LOG"
  if timeout 120 $T run $S/$f $TGT "$@" >> "$LOG" 2>&1; then pass=$((pass+1)); echo "PASS $l"
  else fail=$((fail+1)); echo "FAIL $l"; tail -4 "$LOG"; fi
}
RM=rmsnorm_matmul.py; ML=rmsnorm_mlp.py
# The fused kernels keep one wgmma group in flight (InjectPipelineWgmmaGeneric.cpp): K of many
# tiles so that the in-flight copies alternate; also with it off (TILESCOPE_HOPPER_INFLIGHT=0).
for c in $FU_CFGS; do
  chk "fused matmul $c ragged" $RM --param M=300 --param K=1000 --param N=520 --param dtype=bfloat16 $(cfg $c)
  chk "fused matmul $c 512" $RM --param M=512 --param K=512 --param N=512 --param dtype=bfloat16 $(cfg $c)
done
for c in $FM_CFGS; do
  chk "fused norm_gate_up $c ragged" $ML --kernel norm_gate_up --param M=300 --param D=1000 --param N=520 --param dtype=bfloat16 $(cfg $c)
  chk "fused mlp chain $c ragged" $ML --chain norm_gate_up,down_proj --ref mlp_ref --param M=300 --param D=200 --param N=520 --param dtype=bfloat16 $(cfg $c)
done
export TILESCOPE_HOPPER_INFLIGHT=0
chk "fused matmul k64s4 ragged, in-flight off" $RM --param M=300 --param K=1000 --param N=520 --param dtype=bfloat16 $(cfg k64s4)
chk "fused norm_gate_up k64s4 ragged, in-flight off" $ML --kernel norm_gate_up --param M=300 --param D=1000 --param N=520 --param dtype=bfloat16 $(cfg k64s4)
unset TILESCOPE_HOPPER_INFLIGHT
for c in $MM_CFGS; do
  chk "chain matmul $c ragged" $RM --chain rms_norm,matmul_xn --ref ref_program --param M=1000 --param K=520 --param N=1000 --param dtype=bfloat16 $(cfg $c)
  chk "chain matmul $c 512" $RM --chain rms_norm,matmul_xn --ref ref_program --param M=512 --param K=512 --param N=512 --param dtype=bfloat16 $(cfg $c)
  chk "down_proj $c ragged" $ML --kernel down_proj --ref down_ref --param M=1000 --param D=520 --param N=1000 --param dtype=bfloat16 $(cfg $c)
done
for c in $GU_CFGS; do
  chk "chain mlp gate_up=$c ragged" $ML --chain rms_norm,gate_up,down_proj --ref mlp_ref --param M=300 --param D=200 --param N=520 --param dtype=bfloat16 $(cfg $c)
done
chk "chain mlp 4096-wide rows" $ML --chain rms_norm,gate_up,down_proj --ref mlp_ref --param M=256 --param D=4096 --param N=512 --param dtype=bfloat16
for c in $RN_CFGS; do
  chk "rms_norm $c 4096x4096" $RM --kernel rms_norm --ref rmsnorm_ref --param M=4096 --param K=4096 --param dtype=bfloat16 $(cfg $c)
  chk "rms_norm $c 1001x1000" $RM --kernel rms_norm --ref rmsnorm_ref --param M=1001 --param K=1000 --param dtype=bfloat16 $(cfg $c)
done
echo "correctness: $pass pass, $fail fail ($(el) s)"

echo "== 2. speed (tilec bench, $(el) s)"
MMSZ="--param M=4096 --param K=4096 --param N=4096 --param dtype=bfloat16"
MLSZ="--param M=4096 --param D=4096 --param N=11008 --param dtype=bfloat16"
bn() {  # json-name, file, args...
  local n=$1 f=$2; shift 2
  echo "--- bench $n: $f $*" >> "$LOG"
  timeout 90 $T bench $S/$f $TGT "$@" --no-check --json "$OUT/ts-$n.json" >> "$LOG" 2>&1 || echo "bench $n failed"
}
for c in $RN_CFGS; do bn mm-rms_norm-$c $RM --kernel rms_norm $MMSZ $(cfg $c); done
for c in $MM_CFGS; do bn mm-matmul_xn-$c $RM --kernel matmul_xn $MMSZ $(cfg $c); done
for c in $FU_CFGS; do bn mm-fused-$c $RM $MMSZ $(cfg $c); done
for c in $RN_CFGS; do bn mlp-rms_norm-$c $ML --kernel rms_norm $MLSZ $(cfg $c); done
for c in $GU_CFGS; do bn mlp-gate_up-$c $ML --kernel gate_up $MLSZ $(cfg $c); done
for c in $MM_CFGS def; do bn mlp-down_proj-$c $ML --kernel down_proj $MLSZ $(cfg $c); done
for c in $FM_CFGS; do bn mlp-fused-$c $ML --kernel norm_gate_up $MLSZ $(cfg $c); done
export TILESCOPE_HOPPER_INFLIGHT=0   # the fused kernels as before the in-flight schedule
for c in def k64s4; do bn mm-fusedoff-$c $RM $MMSZ $(cfg $c); bn mlp-fusedoff-$c $ML --kernel norm_gate_up $MLSZ $(cfg $c); done
unset TILESCOPE_HOPPER_INFLIGHT
echo "tilescope done ($(el) s)"

echo "== 3. torch ($(el) s)"
python3 bench/rmsnorm_torch.py "$OUT" "$pass" "$fail" "$MM_CFGS" "$GU_CFGS" "$FU_CFGS" "$RN_CFGS" "$FM_CFGS" "$(cat .rms/commit 2>/dev/null)" || echo "torch part failed"
echo "all done ($(el) s)"
cd "$OUT" && tar czf all.tgz ts-*.json && rm -f ts-*.json && ls
