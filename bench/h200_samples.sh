#!/usr/bin/env bash
# Issue 10's seed workloads on the H200 (samples/rmsnorm.py, swiglu.py, rmsnorm_matmul.py,
# rmsnorm_mlp.py, flash_decode.py, dequant_gemm.py, mha_bwd.py), one device call, under 8 minutes:
#  1. correctness, compiled for cuda:sm_90a, each case by `tilec run` (multi-kernel samples as
#     `tilec run --chain`) against the file's float64 reference on the host, fresh random inputs,
#     NaN-poisoned outputs, under a watchdog; sizes that are and are not multiples of the tiles,
#     kept small enough for a float64 host reference (a few GFLOP);
#  2. speed, same call, at issue 10's shapes (bf16 M=4096 D=4096 N=11008; RMSNorm 4096x4096; MHA
#     backward B8 H32 S1024 D64 fp16; decode B8 H32 GQA8 S8192 D128; int4 GEMM 16 and 4096 rows):
#     `tilec bench` (median of 50, --no-check) of every kernel, a chain's time = the sum of its
#     kernels; TileLang 0.1.15 (.tl) compiling the same file where it can; torch eager and
#     torch.compile (bench/samples_torch.py: CUDA events, median of 50, cuDNN/flash SDPA for
#     attention). Writes $OUT/samples-<workload>.json with vs_torch_eager, vs_torch_compile,
#     vs_tilelang (their median / ours, same run) and $OUT/samples-log.txt.
# Before (dev box, in the checkout the device tool sends, e.g. /work/main, with build/tilec built
# from the same commit):  bash bench/samples_payload.sh      (-> .samp/tilec, git-ignored)
#                         bash ../shared/tools/tilelang-device/prepare.sh   (-> .tl/, if missing)
# Device tool: run(command="bash bench/h200_samples.sh", carry=[".samp", ".tl"], timeout_s=540)
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=/tmp/tscache
T=.samp/tilec; S=samples
[ -x "$T" ] || { echo "no $T: run bench/samples_payload.sh on the dev box first"; exit 2; }
t0=$(date +%s)
echo "== tree: $(git log -1 --oneline 2>/dev/null) payload: $(cat .samp/commit 2>/dev/null)"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
[ -f .tl/setup.sh ] && source .tl/setup.sh > /dev/null 2>&1
LOG=$OUT/samples-log.txt; : > "$LOG"
TGT="--target cuda:sm_90a"
BWD=mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess

echo "== 1. correctness (float64 reference)"
pass=0; fail=0
check() {  # label, file, args...
  local l=$1 f=$2; shift 2
  echo "--- $l: $f $*" >> "$LOG"
  if timeout 100 $T run $S/$f $TGT "$@" >> "$LOG" 2>&1; then pass=$((pass+1)); echo "PASS $l"
  else fail=$((fail+1)); echo "FAIL $l (rc $?)"; tail -4 "$LOG"; fi
}
check "rmsnorm bf16 4096x4096" rmsnorm.py --param M=4096 --param N=4096 --param dtype=bfloat16
check "rmsnorm fp16 1000x1000" rmsnorm.py --param M=1000 --param N=1000
check "rmsnorm bf16 333x11008 2 rows/block" rmsnorm.py --param M=333 --param N=11008 --param dtype=bfloat16 --param block_M=2 --param threads=256
check "swiglu bf16 256x1000x520" swiglu.py --param M=256 --param N=1000 --param K=520 --param dtype=bfloat16
check "swiglu fp16 200x136x72" swiglu.py --param M=200 --param N=136 --param K=72
check "swiglu bf16 128x128 tiles 8 warps" swiglu.py --param M=300 --param N=500 --param K=256 --param dtype=bfloat16 --param block_N=128 --param threads=256
check "rmsnorm_matmul bf16 256x1000x520" rmsnorm_matmul.py --param M=256 --param N=1000 --param K=520 --param dtype=bfloat16
check "rmsnorm_matmul fp16 64x64 tiles" rmsnorm_matmul.py --param M=130 --param N=100 --param K=200 --param block_M=64 --param block_N=64 --param threads=128
check "rmsnorm_mlp chain bf16 256x520x1000" rmsnorm_mlp.py --chain norm_gate_up,down_proj --ref mlp_ref --param M=256 --param D=520 --param N=1000 --param dtype=bfloat16
check "flash_decode chain S8191 GQA8 D128" flash_decode.py --chain flash_decode_split,flash_decode_combine --ref decode_ref --param batch=2 --param heads=32 --param groups=8 --param seqlen_kv=8191 --param dim=128 --param num_split=8
check "flash_decode chain S100 empty split" flash_decode.py --chain flash_decode_split,flash_decode_combine --ref decode_ref --param seqlen_kv=100 --param num_split=4
check "flash_decode chain MHA S1000 bf16" flash_decode.py --chain flash_decode_split,flash_decode_combine --ref decode_ref --param groups=1 --param seqlen_kv=1000 --param dtype=bfloat16
check "dequant_gemm 16x4096x4096" dequant_gemm.py --param M=16 --param N=4096 --param K=4096 --input B=int:0:255
check "dequant_gemm 100x200x256 g64" dequant_gemm.py --param M=100 --param N=200 --param K=256 --param group_size=64 --input B=int:0:255
check "dequant_gemm bf16 300x500x512" dequant_gemm.py --param M=300 --param N=500 --param K=512 --param dtype=bfloat16 --input B=int:0:255
check "mha_bwd chain B1 H4 S1000 D64" mha_bwd.py --chain $BWD --ref bwd_ref --param batch=1 --param heads=4 --param seq_len=1000 --param dim=64
check "mha_bwd chain causal B1 H4 S1000 D64" mha_bwd.py --chain $BWD --ref bwd_ref --param batch=1 --param heads=4 --param seq_len=1000 --param dim=64 --param is_causal=True
check "mha_bwd chain bf16 causal B2 H2 S333" mha_bwd.py --chain $BWD --ref bwd_ref --param batch=2 --param heads=2 --param seq_len=333 --param dim=64 --param is_causal=True --param dtype=bfloat16
echo "correctness: $pass pass, $fail fail ($(( $(date +%s) - t0 )) s)"

echo "== 2. speed"
tsbench() {  # out-name, file, args...
  local o=$1 f=$2; shift 2
  timeout 90 $T bench $S/$f $TGT "$@" --no-check --reps 50 --json "$OUT/ts-$o.json" >> "$LOG" 2>&1 || echo "tilec bench $o failed"
}
tlrun() {  # out-name, file, args...
  local o=$1 f=$2; shift 2
  [ -f .tl/run_tilelang.py ] || return 0
  timeout 100 python3 .tl/run_tilelang.py $S/$f "$@" --reps 50 --json "$OUT/tl-$o.json" >> "$LOG" 2>&1 || echo "tilelang $o failed (see log)"
}
MLP="--param M=4096 --param D=4096 --param N=11008 --param dtype=bfloat16"
DEC="--param batch=8 --param heads=32 --param groups=8 --param seqlen_kv=8192 --param dim=128 --param num_split=8"
DECC="--param batch=8 --param heads=32 --param dim=128 --param num_split=8"  # the combine kernel's
BW="--param batch=8 --param heads=32 --param seq_len=1024 --param dim=64"
tsbench rmsnorm rmsnorm.py --param M=4096 --param N=4096 --param dtype=bfloat16
tsbench swiglu swiglu.py --param M=4096 --param K=4096 --param N=11008 --param dtype=bfloat16
tsbench swiglu-n64 swiglu.py --param M=4096 --param K=4096 --param N=11008 --param dtype=bfloat16 --param block_N=64
tsbench rmsnorm_matmul rmsnorm_matmul.py --param M=4096 --param K=4096 --param N=4096 --param dtype=bfloat16
tsbench mlp-norm_gate_up rmsnorm_mlp.py --kernel norm_gate_up $MLP
tsbench mlp-down_proj rmsnorm_mlp.py --kernel down_proj $MLP
tsbench decode-split flash_decode.py --kernel flash_decode_split $DEC
tsbench decode-combine flash_decode.py --kernel flash_decode_combine $DECC
tsbench dequant-m16 dequant_gemm.py --param M=16 --param N=4096 --param K=4096 --input B=int:0:255
tsbench dequant-m4096 dequant_gemm.py --param M=4096 --param N=4096 --param K=4096 --input B=int:0:255
tsbench bwd-preprocess mha_bwd.py --kernel mha_bwd_preprocess $BW
tsbench bwd-main mha_bwd.py --kernel mha_bwd_main $BW
tsbench bwd-postprocess mha_bwd.py --kernel mha_bwd_postprocess $BW
echo "tilescope timed ($(( $(date +%s) - t0 )) s)"
tlrun rmsnorm rmsnorm.py --param M=4096 --param N=4096 --param dtype=bfloat16
tlrun swiglu swiglu.py --param M=4096 --param K=4096 --param N=11008 --param dtype=bfloat16
tlrun rmsnorm_matmul rmsnorm_matmul.py --param M=4096 --param K=4096 --param N=4096 --param dtype=bfloat16
tlrun mlp-norm_gate_up rmsnorm_mlp.py --kernel norm_gate_up $MLP
tlrun mlp-down_proj rmsnorm_mlp.py --kernel down_proj $MLP
tlrun decode-split flash_decode.py --kernel flash_decode_split $DEC
tlrun decode-combine flash_decode.py --kernel flash_decode_combine $DECC
tlrun dequant-m16 dequant_gemm.py --param M=16 --param N=4096 --param K=4096
tlrun dequant-m4096 dequant_gemm.py --param M=4096 --param N=4096 --param K=4096
tlrun bwd-preprocess mha_bwd.py --kernel mha_bwd_preprocess $BW
tlrun bwd-main mha_bwd.py --kernel mha_bwd_main $BW
tlrun bwd-postprocess mha_bwd.py --kernel mha_bwd_postprocess $BW
echo "tilelang timed ($(( $(date +%s) - t0 )) s)"
left=$(( 465 - ($(date +%s) - t0) )); [ $left -lt 30 ] && left=30  # the whole call stays under 8 minutes
SAMPLES_TORCH_BUDGET_S=$(( left - 60 )) timeout $left python3 bench/samples_torch.py "$OUT" "$pass" "$fail" || echo "samples_torch.py stopped (rc $?)"
grep -h "TFLOP\|GB/s\|registers" "$LOG" | head -30
echo "done in $(( $(date +%s) - t0 )) s"
