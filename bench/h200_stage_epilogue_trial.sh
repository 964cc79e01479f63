#!/usr/bin/env bash
# GPU checks for the stage-epilogue pass (2c7e686, 9ca75d6 and the trial's fixes) on cases the H200
# calls of 2026-12-04 did not cover (written by the fresh-user trial, helper-87; its part 6, the
# fp32-output staging benchmark, is dropped: 4-byte outputs are no longer staged). The trial's
# programs are bench/stage_epilogue_trial/*.py. Before (dev box): bench/conformance/prepare_device.sh
# (.corpus, .devbin), then
#   run(command="bash bench/h200_stage_epilogue_trial.sh", carry=[".corpus", ".devbin"])
# H200 2026-12-04 (tilec 80d0923 + the trial's B3/B4/B8 fixes): 43/43 correct, sanitizer clean on 7
# kernels x 4 tools, 24 corpus kernels compile, 21 GPU = float64/interp, 1 explained, 2 harness
# limits (bench/results/h200-epilogue-2026-12-04/call-e-trial/).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"/{chk,san,bench}; export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
T=${T:-.devbin/tilec}; D=${TRIAL:-bench/stage_epilogue_trial}; TGT="--target cuda:sm_90a"
np=0; nf=0
chk() { local name=$1; shift; timeout 150 $T run "$@" $TGT --timeout 60 > "$OUT/chk/$name.log" 2>&1; local rc=$?
  local st=$(grep -c "goes through a shared tile" "$OUT/chk/$name.log")
  if [ $rc = 0 ] && grep -q "^PASS" "$OUT/chk/$name.log"; then np=$((np+1)); echo "PASS $name staged=$st"; else nf=$((nf+1)); echo "FAIL $name rc=$rc staged=$st"; tail -3 "$OUT/chk/$name.log"; fi; }
p() { for x in "$@"; do printf -- '--param %s ' "$x"; done; }
# 1. output dtypes (fp32/int32 panels of 32 elements, fp8/int8 panels of 128)
chk fp32-ragged   $D/g.py $(p M=1000 N=1004 K=512 out_dtype='"float32"' block_K=64)
chk fp32-direct   $D/g.py $(p M=1000 N=1004 K=512 out_dtype='"float32"' block_K=64 direct=True)
chk fp32-128x256  $D/g.py $(p M=1000 N=1000 K=512 out_dtype='"float32"' block_N=256 threads=256 block_K=64 num_stages=3)
chk tf32          $D/g.py $(p M=1000 N=1000 K=512 in_dtype='"float32"' out_dtype='"float32"' accum_dtype='"float32"')
chk i8-i32        $D/g.py $(p M=1000 N=1000 K=512 in_dtype='"int8"' out_dtype='"int32"' accum_dtype='"int32"' block_K=128)
chk i8-i8wrap     $D/g8.py $(p M=1000 N=1008 K=512 in_dtype='"int8"' out_dtype='"int8"' accum_dtype='"int32"' block_K=64)
chk e4m3-f16      $D/g.py $(p M=1000 N=1000 K=512 in_dtype='"float8_e4m3"' block_K=64)
chk e4m3-e4m3     $D/g.py $(p M=1000 N=1008 K=512 in_dtype='"float8_e4m3"' out_dtype='"float8_e4m3"' block_K=64)
chk e5m2-bf16-tB  $D/g.py $(p M=1000 N=1000 K=512 in_dtype='"float8_e5m2"' out_dtype='"bfloat16"' block_K=64 trans_B=True)
chk bf16-f32      $D/g.py $(p M=1000 N=1000 K=512 in_dtype='"bfloat16"' out_dtype='"float32"' block_K=64)
chk f16acc        $D/g.py $(p M=1000 N=1000 K=512 accum_dtype='"float16"')
# 2. tile shapes / threads / stages
for c in "block_M=64 block_N=64" "block_M=64 block_N=256" "block_M=64 block_N=256 threads=256" "block_M=64 block_N=128 threads=256" \
         "block_M=128 block_N=64 threads=256" "block_M=256 block_N=128 threads=256" "block_M=128 block_N=192 threads=256 block_K=64" \
         "num_stages=1 block_K=64" "num_stages=2 block_K=64" "num_stages=4 block_K=64" "trans_A=True trans_B=True" "swz=True"; do
  chk "tile-$(echo $c | tr -d ' =_')" $D/g.py $(p M=1000 N=1000 K=512 $c)
done
chk tiny-1x8      $D/g.py $(p M=1 N=8 K=8)
chk tiny-16x64    $D/g.py $(p M=16 N=64 K=32)
# 3. output ranks: 3-D, 4-D, rows along dim 0 with a middle index
chk bmm-3d        $D/b.py $(p Bt=3 H=2 M=1000 N=1000 K=256)
chk bmm-4d        $D/b.py $(p Bt=3 H=2 M=1000 N=1000 K=256 four=True)
chk mhn           $D/mh.py $(p M=1000 N=1000 K=256 H=3)
# 4. mma.sync-layout accumulators (fragment path) and epilogue variants
for m in plain relu ifcopy twogemm readback; do chk "e-$m" $D/e.py $(p M=1000 N=1000 K=256 mode="\"$m\""); done
chk reduce-after  $D/gr.py $(p M=1000 N=1000 K=256)
for kl in 0 32 512; do chk "runtime-trips-$kl" $D/gk.py $(p M=1000 N=1000 K=512 klen=$kl); done
for m in plain bias readback; do chk "hand-$m" $D/hs.py $(p M=1000 N=1000 K=256 mode="\"$m\""); done
chk persistent    $D/pers.py $(p M=1024 N=1024 K=256)
chk pre-scratch   $D/pre.py $(p M=1000 N=1000 K=256)
chk hand-mbar     $D/gbar.py $(p M=1000 N=1000 K=256 block_K=64)
echo "correctness: $np pass, $nf fail"
# 5. sanitizer on the new shapes (fp32 panels, 4-D map, mma.sync staging)
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
for k in "fa|samples/flash_attn_fwd.py|$(p seq_len=256)" "swiglu|samples/swiglu.py|$(p M=256 K=128 N=264)" "gateup|samples/rmsnorm_mlp.py|--kernel gate_up $(p M=256 D=128 N=264) --ref gate_up_ref" "fp32|$D/g.py|$(p M=200 N=136 K=96 out_dtype='"float32"' block_K=64)" "bmm4d|$D/b.py|$(p four=True)" "relu|$D/e.py|$(p mode='"relu"')" "i8|$D/g.py|$(p M=200 N=144 K=128 in_dtype='"int8"' out_dtype='"int32"' accum_dtype='"int32"' block_K=128)"; do
  IFS='|' read -r id f pp <<< "$k"
  for tool in memcheck racecheck synccheck initcheck; do
    extra=(); [ $tool = racecheck ] && extra=(--racecheck-report all)
    timeout 200 "$CS" --tool $tool --target-processes all "${extra[@]}" --print-limit 20 --error-exitcode 99 $T run $f $TGT $pp --seed 1 > "$OUT/san/$id-$tool.log" 2>&1
    echo "san $id $tool rc=$? $(grep -oE 'ERROR SUMMARY: [0-9]+ errors|RACECHECK SUMMARY: [0-9]+ hazards[^)]*\)' "$OUT/san/$id-$tool.log" | tail -1)"
  done
done
# 7. the corpus kernels now staged (21; compile+interp matched on the dev box, never run staged on the GPU)
RE='attention_sink/example_(gqa|mha)_sink_bwd_bhsd.py:flashattn_fwd|example_dequant_gemm_fine_grained.py:matmul$|example_gqa_bwd_tma_reduce.py:flashattn_(fwd|bwd_split_novarlen)|example_mha_bwd_bshd.py:flashattn_fwd|example_fusedmoe_tilelang.py:moe_forward_tilelang_shared|gdn/example_chunk_delta_bwd|gdn/example_chunk_delta_h|gdn/example_chunk_o_bwd|gdn/example_wy_fast_bwd_split|example_gemm_autotune_early_stop|example_gemm_autotune_pass_configs|example_grouped_gemm_bwd|kda/chunk_bwd_gla_dA|kda/chunk_bwd_intra|kda/chunk_delta_bwd|kda/chunk_delta_h_fwd|kda/wy_fast_bwd|quickstart'
timeout 580 python3 bench/conformance/run.py --gpu --no-interp --tilec $T --corpus .corpus --only "$RE" --label staged-gpu --out "$OUT/conf-staged.json" 2>&1 | tail -30
echo "corpus staged rc=$?"
cd "$OUT" && tar czf all.tgz chk san conf-staged.json 2>/dev/null; echo "== done"
