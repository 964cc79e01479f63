#!/usr/bin/env bash
# 2026-12-07 (thirteenth session): the MHA backward figures of the issue-10 table after two
# measured wins (bench/results/h100-2026-12-07j, H100): dQ atomics as red.global.add.v2.f32 by
# default (the lane-pair v4 form is opt-in, TILESCOPE_VECTOR_ATOMICS=4) and dp_first=True
# (dP^T's wgmma in flight while the warps compute P^T). Checks dQ/dK/dV of the chain against
# float64 (B8 H32 S1024, and B2 H8 S1000 causal bf16) with dp_first on sm_90a and at the sample's
# defaults on sm_80, then times m128n128dsdp, m128n128ds and the 64x64 default with TileLang's
# example and torch SDPA cuDNN/flash in the same call. Attention forward, SwiGLU and RMSNorm do
# not change with this commit (no atomics, no mha_bwd): their figures stay those of 2026-12-07h.
#   bash bench/h200_payload.sh; cp bench/h200_call_2026_12_06{r,t}.sh bench/h200_call_2026_12_07{a,k}.sh bench/gpu_check_lib.sh .h200/
#   run(command="bash .h200/h200_call_2026_12_07k.sh", carry=[".h200", ".tl"])
set -u
D=$(dirname "$0")
T=$D/tilec; [ -x $T ] || { xz -dkc $D/tilec.xz > $T && chmod +x $T; }
M=$D/mha_bwd.py; BWD=mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess
MB="-p block_M=128 -p block_N=128 -p threads=256 -p ds_regs=True -p dp_first=True"
for shape in "-p batch=2 -p heads=8 -p seq_len=1000 -p dim=64 -p is_causal=True -p dtype=bfloat16" "-p batch=8 -p heads=32 -p seq_len=1024 -p dim=64"; do
  echo "-- mha chain $shape" >> $OUT/mha-checks.txt
  timeout 150 $T run $M --target cuda:sm_90a --chain $BWD --ref bwd_ref $shape $MB -q >> $OUT/mha-checks.txt 2>&1 \
    && echo "mha chain ok: $shape" || { echo "FAIL mha chain $shape"; tail -4 $OUT/mha-checks.txt; }
done
S80="-p batch=2 -p heads=4 -p seq_len=1000 -p dim=64 -p is_causal=True"
timeout 150 $T run $M --target cuda:sm_80 --chain $BWD --ref bwd_ref $S80 -p dp_first=True -q >> $OUT/mha-checks.txt 2>&1 \
  && echo "mha chain ok sm_80 dp_first: $S80" || { echo "FAIL mha chain sm_80 $S80"; tail -4 $OUT/mha-checks.txt; }
SKIP_SWIGLU=${SKIP_SWIGLU:-1} MHAB_VARIANTS="${MHAB_VARIANTS:-m128n128dsdp m128n128ds default}" exec bash $D/h200_call_2026_12_07a.sh 2
