#!/usr/bin/env bash
# MHA backward with vector dQ atomics (red.global.add.v2.f32, compiler/codegen/VectorAccess.h) on
# the H200: the chain against float64 (ragged/causal/bf16), then the main kernel at B8 H32 S1024
# D64 fp16 with TILESCOPE_VECTOR_ATOMICS=0 (scalar) and =1 in the same call, at a few tile
# configurations. Payload: bash bench/tma_pipeline_payload.sh (stripped tilec in .devbin), then
#   run(command="bash bench/h200_mha_bwd_atomics.sh", carry=[".devbin"])
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT/bwd"; export TILESCOPE_CACHE_DIR=/tmp/tscache
T=${TILEC:-.devbin/tilec}; S=samples/mha_bwd.py; TGT="--target cuda:sm_90a"
BWD=mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess
echo "== tree $(git log -1 --oneline 2>/dev/null | cut -c1-70); $(cat .devbin/commit 2>/dev/null)"
pass=0; fail=0
check() { local l=$1; shift
  if timeout 120 $T run $S $TGT "$@" > "$OUT/bwd/last.txt" 2>&1; then pass=$((pass+1)); echo "PASS $l $(grep -o 'rel-L2 [^ ]*' $OUT/bwd/last.txt | tr '\n' ' ')"
  else fail=$((fail+1)); echo "FAIL $l"; tail -5 "$OUT/bwd/last.txt"; fi; }
if [ -z "${ONLY_BENCH:-}" ]; then
check "chain B1 H4 S1000" --chain $BWD --ref bwd_ref --param batch=1 --param heads=4 --param seq_len=1000 --param dim=64
check "chain causal B1 H4 S1000" --chain $BWD --ref bwd_ref --param batch=1 --param heads=4 --param seq_len=1000 --param dim=64 --param is_causal=True
check "chain bf16 causal B2 H2 S333" --chain $BWD --ref bwd_ref --param batch=2 --param heads=2 --param seq_len=333 --param dim=64 --param is_causal=True --param dtype=bfloat16
check "chain B2 H4 S1024 (aligned, vector path)" --chain $BWD --ref bwd_ref --param batch=2 --param heads=4 --param seq_len=1024 --param dim=64
TILESCOPE_VECTOR_ATOMICS=0 check "chain B2 H4 S1024 scalar atomics" --chain $BWD --ref bwd_ref --param batch=2 --param heads=4 --param seq_len=1024 --param dim=64
echo "correctness: $pass pass, $fail fail"
fi
BW="--param batch=8 --param heads=32 --param seq_len=1024 --param dim=64"
for cfg in "" "--param num_stages=1" "--param block_N=32" "--param block_M=128 --param threads=256"; do
  for v in 0 1; do
    tag="v$v$(echo "$cfg" | tr -d ' -' | sed 's/param/_/g')"
    TILESCOPE_VECTOR_ATOMICS=$v timeout 60 $T bench $S $TGT --kernel mha_bwd_main $BW $cfg --no-check --reps 50 --json "$OUT/bwd/$tag.json" > "$OUT/bwd/$tag.txt" 2>&1
    echo "main $tag: $(python3 -c "import json;d=json.load(open('$OUT/bwd/$tag.json'));print(round(d['median_ms'],4),'ms',round(d['tflops'],1),'TFLOP/s regs',d.get('registers'))" 2>/dev/null || tail -2 $OUT/bwd/$tag.txt)"
  done
done
