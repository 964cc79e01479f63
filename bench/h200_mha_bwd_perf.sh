#!/usr/bin/env bash
# MHA backward B8 H32 S1024 D64 fp16 on the H200 (issue 10: <= 0.5 ms, >= 1.5x TileLang's
# example), one device call of about 200-250 s:
#  1. correctness: the chain mha_fwd -> preprocess -> main -> postprocess of samples/mha_bwd.py
#     compiled for cuda:sm_90a against the float64 bwd_ref (dQ, dK, dV; `tilec run --chain`) at
#     B8 H32 S1024 D64 (causal and not) and ragged S=1000 (causal and not), default tiles, plus
#     other tiles / switches at S=1000;
#  2. speed (tilec bench, median of 50 after warm-up): the main kernel at several variants (tile
#     configurations and the measurement switches of the new lowering: TILESCOPE_VECTOR_ATOMICS=2
#     = the v2 dQ atomics instead of the lane-pair v4 ones (codegen/VectorAccess.h);
#     TILESCOPE_WGMMA_FENCE_EVERY=1 = a proxy fence + block barrier before every fragment-path
#     wgmma; TILESCOPE_WGMMA_PAIRS=0 = every wgmma waited (transforms/InjectPipeline.cpp);
#     TILESCOPE_MIN_BLOCKS=3 = __launch_bounds__(threads, 3)); preprocess and postprocess once;
#  3. TileLang 0.1.15 on its own example_mha_bwd_bshd.py (flashattn_bwd 64x64, 128 threads, and
#     its preprocess/postprocess), torch SDPA backward with the cuDNN and flash backends (CUDA
#     events, median of 50) -> $OUT/mha-bwd-perf.json (vs_cudnn, vs_flash, vs_tilelang: their
#     median / ours, default configuration and fastest variant; vs_torch_compile not measured).
# Payload (the device tool sends /work/main's tree): from a worktree with build/tilec built,
#   bash bench/mha_bwd_payload.sh             -> /work/main/.mhab (tilec, sample, scripts, TileLang example)
#   run(command="bash .mhab/h200_mha_bwd_perf.sh", carry=[".mhab", ".tl"], timeout_s=600)
# MHAB_QUICK=1 skips the correctness section; MHAB_VARIANTS (names) limits the timed variants.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export TILESCOPE_CACHE_DIR=${TILESCOPE_CACHE_DIR:-/tmp/tscache}
export TILESCOPE_WORKER_TIMEOUT=${TILESCOPE_WORKER_TIMEOUT:-90}
A=${MHAB_DIR:-.mhab}; T=$A/tilec; S=${MHAB_SAMPLE:-$A/mha_bwd.py}; TGT="--target cuda:sm_90a"
[ -x "$T" ] || { [ -f "$T.xz" ] && xz -dk "$T.xz" && chmod +x "$T"; }
[ -x "$T" ] || { echo "no $T: run bench/mha_bwd_payload.sh on the dev box first"; exit 2; }
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
LOG=$OUT/mha-bwd-log.txt; : > "$LOG"
echo "== payload $(cat $A/commit 2>/dev/null)"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>&1 | head -1
BWD=mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess
BIG="--param batch=8 --param heads=32 --param seq_len=1024 --param dim=64"
RAG="--param batch=2 --param heads=8 --param seq_len=1000 --param dim=64"
$T compile $S $TGT --kernel mha_bwd_main $BIG --emit cuda > "$OUT/mha_bwd_main_sm90a.cu" 2>> "$LOG"
echo "main kernel: __syncthreads $(grep -c __syncthreads "$OUT/mha_bwd_main_sm90a.cu"), fence.proxy.async $(grep -c fence_proxy_async "$OUT/mha_bwd_main_sm90a.cu"), wgmma $(grep -c 'ts::wgmma_gemm_' "$OUT/mha_bwd_main_sm90a.cu"), pair-v4 atomics $(grep -c atomic_add_pair_v4 "$OUT/mha_bwd_main_sm90a.cu")"
pass=0; fail=0
check() {  # label, params...
  local l=$1; shift
  echo "--- $l: $*" >> "$LOG"
  timeout 150 $T run $S $TGT --chain ${MHAB_CHAIN:-$BWD} --ref bwd_ref "$@" > "$OUT/last.txt" 2>&1; local rc=$?
  if [ $rc -eq 0 ]; then
    pass=$((pass+1)); echo "PASS $l $(grep -o 'rel-L2 [^ ]*' "$OUT/last.txt" | tr '\n' ' ')($(el) s)"
  else fail=$((fail+1)); echo "FAIL $l (rc $rc)"; tail -6 "$OUT/last.txt"; fi
  cat "$OUT/last.txt" >> "$LOG"
}
if [ -z "${MHAB_QUICK:-}" ]; then
  echo "== 1. correctness vs float64"
  check "B8 H32 S1024 D64" $BIG
  check "B8 H32 S1024 D64 causal" $BIG --param is_causal=True
  check "B2 H8 S1000 (ragged)" $RAG
  check "B2 H8 S1000 causal" $RAG --param is_causal=True
  check "B2 H8 S1000 causal 128x64/256 threads" $RAG --param is_causal=True --param block_M=128 --param threads=256
  check "B2 H8 S1000 causal block_N=32" $RAG --param is_causal=True --param block_N=32
  check "B2 H8 S1000 causal, dQ by TMA reduce-add" $RAG --param is_causal=True --param dq_tma=True
  check "B8 H32 S1024 128x64/256 threads, dQ by TMA reduce-add" $BIG --param block_M=128 --param threads=256 --param dq_tma=True
  check "B2 H8 S1000 causal, dS in registers (dK rs in flight)" $RAG --param is_causal=True --param ds_regs=True
  check "B8 H32 S1024 128x64/256 threads, dS in registers" $BIG --param block_M=128 --param threads=256 --param ds_regs=True
  # 2026-12-05c: the written-operand TMA schedule (dS^T two copies, one barrier per iteration,
  # lse/Delta TMA rows) and its warp-specialized form (producer warpgroup, setmaxnreg 24/240).
  TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 check "B8 H32 S1024 128x64/256, written-operand TMA schedule" $BIG --param block_M=128 --param threads=256
  TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 check "B2 H8 S1000 causal 128x64/256, written-operand TMA schedule" $RAG --param is_causal=True --param block_M=128 --param threads=256
  TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_WS=1 check "B8 H32 S1024 128x64/256, written operands + producer warpgroup" $BIG --param block_M=128 --param threads=256
  TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_WS=1 check "B2 H8 S1000 causal 128x64/256 ds_regs, written operands + producer warpgroup" $RAG --param is_causal=True --param block_M=128 --param threads=256 --param ds_regs=True
  TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_WS=1 check "B2 H8 S1000 64x64, written operands + producer warpgroup (no setmaxnreg: 1 consumer warpgroup)" $RAG
  # 2026-12-05d: the fastest form measured (128 keys x 128 queries, dS in registers, 255 registers).
  check "B8 H32 S1024 128x128/256 threads, dS in registers" $BIG --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True
  check "B2 H8 S1000 causal 128x128/256 threads, dS in registers" $RAG --param is_causal=True --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True
  # 2026-12-07: dp_first (dP^T's wgmma in flight while P^T is computed), v2 and lane-pair v4 dQ.
  MHAB_CHAIN=mha_fwd,mha_bwd_preprocess,mha_bwd_main check "B8 H32 S1024 128x128/256 ds_regs dp_first dq_convert" $BIG --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True --param dp_first=True --param dq_convert=True
  MHAB_CHAIN=mha_fwd,mha_bwd_preprocess,mha_bwd_main check "B2 H8 S1000 causal bf16 128x128/256 ds_regs dp_first dq_convert" $RAG --param is_causal=True --param dtype=bfloat16 --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True --param dp_first=True --param dq_convert=True
  check "B8 H32 S1024 128x128/256 ds_regs dp_first" $BIG --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True --param dp_first=True
  TILESCOPE_VECTOR_ATOMICS=4 check "B2 H8 S1000 causal 128x128/256 ds_regs dp_first, lane-pair v4 dQ" $RAG --param is_causal=True --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True --param dp_first=True
  TILESCOPE_MIN_BLOCKS=3 check "B2 H8 S1000 causal, 3 blocks/SM (spills)" $RAG --param is_causal=True
  TILESCOPE_VECTOR_ATOMICS=2 TILESCOPE_WGMMA_FENCE_EVERY=1 check "B2 H8 S1000, the code before" $RAG
  echo "correctness: $pass pass, $fail fail ($(el) s)"
fi
echo "== 2. speed"
tsbench() {  # out-name, kernel, params...
  local o=$1 kern=$2; shift 2
  timeout 120 $T bench $S $TGT --kernel $kern $BIG "$@" --no-check --warmup 10 --reps 50 --json "$OUT/$o.json" >> "$LOG" 2>&1 || echo "tilec bench $o failed"
  python3 -c "import json;d=json.load(open('$OUT/$o.json'));print('$o', round(d['median_ms'],4),'ms', round(d.get('tflops') or 0,1),'TFLOP/s regs',d.get('registers'))" 2>/dev/null
}
: > "$OUT/variants.txt"
variant() {  # name, description, env (k=v or -), params...
  local n=$1 d=$2 e=$3; shift 3
  # MHAB_VARIANTS="default m128n128ds3 ..." times only those (a short call); unset: all of them.
  if [ -n "${MHAB_VARIANTS:-}" ]; then case " $MHAB_VARIANTS " in *" $n "*) ;; *) return 0;; esac; fi
  # A variant with dq_convert=True converts dQ in the main kernel: its chain has no postprocess.
  case " $* " in *"dq_convert=True"*) printf '%s\t%s\tnopost\n' "$n" "$d" >> "$OUT/variants.txt";; *) printf '%s\t%s\n' "$n" "$d" >> "$OUT/variants.txt";; esac
  if [ "$e" = "-" ]; then tsbench ts-$n-main mha_bwd_main "$@"; else ( export $e; tsbench ts-$n-main mha_bwd_main "$@" ); fi
}
tsbench ts-pre mha_bwd_preprocess
tsbench ts-post mha_bwd_postprocess
# 2026-12-06: the bandwidth-bound pre/postprocess at 128 rows x 256 threads per block (the
# default 64 x 128 moves 16 KB per block; 75-80% of DRAM bandwidth on the H100).
tsbench ts-pre-m128 mha_bwd_preprocess --param block_M=128 --param threads=256
tsbench ts-post-m128 mha_bwd_postprocess --param block_M=128 --param threads=256
variant default "64x64, 2 stages, 128 threads (all new lowering on)" -
variant before "the code of the last measurement: v2 atomics, fence+barrier before every wgmma, no pairs" "TILESCOPE_VECTOR_ATOMICS=2 TILESCOPE_WGMMA_FENCE_EVERY=1"
variant pairv4 "default but dQ as lane-pair red.v4 (the default before 2026-12-07j; opt-in since)" TILESCOPE_VECTOR_ATOMICS=4
variant nopairs "default but every wgmma waited (no in-flight pairs)" TILESCOPE_WGMMA_PAIRS=0
variant fenceevery "default but fence+barrier before every wgmma (no pairs either)" TILESCOPE_WGMMA_FENCE_EVERY=1
variant mb3 "default + __launch_bounds__(128, 3): 168 regs, ~80 B spills, 3 blocks/SM" TILESCOPE_MIN_BLOCKS=3
variant n32 "block_N=32 (166 regs: 3 blocks/SM)" - --param block_N=32
variant m128 "block_M=128, 256 threads (half the dQ atomics; since 2026-12-05 all five gemms on wgmma)" - --param block_M=128 --param threads=256
variant tma "default + dQ by TMA reduce-add (dq_tma=True)" - --param dq_tma=True
variant m128tma "block_M=128, 256 threads, dQ by TMA reduce-add" - --param block_M=128 --param threads=256 --param dq_tma=True
variant dsregs "default + dS in registers: dK += dS Q (rs) in flight across the dS store and barrier" - --param ds_regs=True
variant m128dsregs "block_M=128, 256 threads, dS in registers" - --param block_M=128 --param threads=256 --param ds_regs=True
variant m128wo "block_M=128, 256 threads, written-operand TMA schedule: dS two copies, 1 barrier/iteration, lse/Delta TMA rows" TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 --param block_M=128 --param threads=256
variant m128wows "m128wo + producer warpgroup (384 threads), setmaxnreg 24/240" "TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_WS=1" --param block_M=128 --param threads=256
variant m128wowsds "m128wows + dS in registers" "TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_WS=1" --param block_M=128 --param threads=256 --param ds_regs=True
variant m128wowsnr "m128wows without setmaxnreg (all threads at 168 registers)" "TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_WS=1 TILESCOPE_HOPPER_WS_MAXNREG=0" --param block_M=128 --param threads=256
variant wo "64x64 default + written-operand TMA schedule" TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1
variant m128n128ds "block_M=128, block_N=128, 256 threads, dS in registers (fastest on H100, 2026-12-05d)" - --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True
# 2026-12-06: around the fastest form: 3 stages, dQ by TMA reduce-add, the written-operand
# schedule (dS two copies, one block barrier per iteration; 64 B spills), both 255 registers.
variant m128n128dsdp "m128n128ds + dp_first=True: dP^T's wgmma in flight while P^T is computed (chained wgmma groups)" - --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True --param dp_first=True
# 2026-12-08: dq_convert=True -- the head's last key block converts dQ_acc into dQ (an acq_rel
# ticket per head), so the chain is preprocess + main without the postprocess kernel.
variant m128n128dsdpcv "m128n128dsdp + dq_convert=True: the last key block of each head converts dQ (no postprocess kernel)" - --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True --param dp_first=True --param dq_convert=True
variant m128n128dsdpv4 "m128n128dsdp with the lane-pair v4 dQ atomics" TILESCOPE_VECTOR_ATOMICS=4 --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True --param dp_first=True
variant m128n128ds3 "m128n128ds + 3 stages" - --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True --param num_stages=3
variant m128n128dstma "m128n128ds + dQ by TMA reduce-add (52 B spills)" - --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True --param dq_tma=True
variant m128n128dswo "m128n128ds + written-operand TMA schedule (64 B spills)" TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True
# 2026-12-06 (sixth session): late tiles (InjectPipelineTmaFragment.cpp) -- lse, dO and Delta on
# their own full barrier, waited after K Q^T; m128n128dswo has them, this is the code before.
variant m128n128dswonolate "m128n128dswo with one full barrier per stage (TILESCOPE_HOPPER_LATE_WAIT=0)" "TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_LATE_WAIT=0" --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True
# 2026-12-06: sink-tma-waits (SinkTmaWaits.cpp): the K and V copies' waits move to the loop,
# so K, V and the first Q/dO stage are one round trip, not three; =0 is the code before.
variant m128n128dsnosink "m128n128ds with the plain copies' waits in place (TILESCOPE_SINK_TMA_WAITS=0)" TILESCOPE_SINK_TMA_WAITS=0 --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True
variant nosink "64x64 default with the plain copies' waits in place (TILESCOPE_SINK_TMA_WAITS=0)" TILESCOPE_SINK_TMA_WAITS=0
variant topfence "64x64 default with the top-of-iteration proxy fence of the code before e13ff61" TILESCOPE_WGMMA_TOP_FENCE=1
# 2026-12-06d: with dS^T from the fp16 P^T (MHAB_SAMPLE=mha_bwd_p.py: qkT dies at the copy into pT,
# 202 registers and no spills at 128x128), the producer warpgroup form fits its 240-register consumers.
variant m128n128wsds "m128n128ds + written operands + producer warpgroup (384 threads, setmaxnreg 24/240)" "TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_WS=1" --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True
variant m128n128wsds3 "m128n128wsds + 3 stages" "TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 TILESCOPE_HOPPER_WS=1" --param block_M=128 --param block_N=128 --param threads=256 --param ds_regs=True --param num_stages=3
opt() { [ "$(el)" -lt "${MHAB_BUDGET_S:-240}" ] || { echo "skipped (budget): $1"; return 1; }; }
opt s3 && variant s3 "3 stages" - --param num_stages=3
opt s3mb3 && variant s3mb3 "3 stages + __launch_bounds__(128, 3)" TILESCOPE_MIN_BLOCKS=3 --param num_stages=3
opt m128n32 && variant m128n32 "block_M=128, block_N=32, 256 threads" - --param block_M=128 --param block_N=32 --param threads=256
echo "tilescope timed ($(el) s)"
[ -n "${MHAB_NO_BASELINES:-}" ] && { echo "baselines skipped"; exit 0; }
echo "== 3. TileLang on its own example, torch SDPA"
EX=$A/tl/example_mha_bwd_bshd.py
if [ -f "$EX" ] && [ -f .tl/setup.sh ]; then
  ( source .tl/setup.sh >/dev/null 2>&1
    P="--param batch=8 --param heads=32 --param seq_len=1024 --param dim=64"
    timeout 120 python3 .tl/run_tilelang.py "$EX" --kernel flashattn_bwd $P --param is_causal=False --param block_M=64 --param block_N=64 --reps 50 --json "$OUT/tl-main.json" >> "$LOG" 2>&1 || echo "tilelang main failed"
    timeout 60 python3 .tl/run_tilelang.py "$EX" --kernel flashattn_bwd_preprocess $P --reps 50 --json "$OUT/tl-pre.json" >> "$LOG" 2>&1 || echo "tilelang pre failed"
    timeout 60 python3 .tl/run_tilelang.py "$EX" --kernel flashattn_bwd_postprocess $P --reps 50 --json "$OUT/tl-post.json" >> "$LOG" 2>&1 || echo "tilelang post failed" )
  for p in main pre post; do python3 -c "import json;print('tilelang $p', json.load(open('$OUT/tl-$p.json')).get('median_ms'))" 2>/dev/null; done
else echo "no TileLang example or .tl: TileLang not timed"; fi
echo "tilelang timed ($(el) s)"
timeout 120 python3 $A/mha_bwd_torch.py "$OUT" "$pass" "$fail" || echo "torch part failed (rc $?)"
echo "done in $(el) s"
