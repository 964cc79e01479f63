#!/usr/bin/env bash
# GPU check of TileLang's sparse MLA backward kernels (deepseek_v32 and dsa_sparse_finetune, whose
# float32 scratch view of the bfloat16 KV tile is placed through the tile's layout): the GPU's
# outputs against the tile-level interpreter's (--check interp) on inputs whose indices stay in
# bounds (random indices read outside KV in the interpreter, as TileLang's would on the GPU).
# Payload: bash bench/h200_payload.sh; copy the corpus files (examples/deepseek_v32/{sparse_mla_bwd,utils}.py to .h200/c/v32/,
# examples/dsa_sparse_finetune/{sparse_mla_bwd,index,utils}.py to .h200/c/dsa/); run(command="OUT=$OUT bash .h200/smla.sh", carry=[".h200"]).
A=.h200; T=$A/tilec; [ -x "$T" ] || { xz -dk "$T.xz" && chmod +x "$T"; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off TILESCOPE_WORKER_TIMEOUT=120
nvidia-smi --query-gpu=name --format=csv,noheader
ok=0; bad=0
r() { if timeout 200 $T run "$@" --check interp -q > /tmp/o.txt 2>&1; then ok=$((ok+1)); echo "PASS $*"; else bad=$((bad+1)); echo "FAIL $*"; tail -6 /tmp/o.txt; fi; { echo "-- $*"; cat /tmp/o.txt; } >> $OUT/smla-log.txt; }
V=$A/c/v32/sparse_mla_bwd.py; D=$A/c/dsa/sparse_mla_bwd.py
for t in cuda:sm_90a cuda:sm_80; do
  r $V --kernel bwd --target $t -p H=64 -p D=512 -p D_tail=64 -p topk=64 -p B=1 -p S=4 -p S_kv=64 --input Indices=int:0:63
  r $V --kernel bwd --target $t -p H=64 -p D=512 -p D_tail=64 -p topk=128 -p B=2 -p S=16 -p S_kv=128 --input Indices=int:0:127
  r $D --kernel bwd --target $t -p H=64 -p D=512 -p D_tail=64 -p topk=64 -p S=4 -p B_plus_one=2 --input Offsets=values:0,4 --input TokenIndices=values:0,0,0,1,0,2,0,3 --input Indices=int:0:3
  r $D --kernel bwd --target $t -p H=16 -p D=64 -p D_tail=64 -p topk=64 -p S=4 -p B_plus_one=2 --input Offsets=values:0,4 --input TokenIndices=values:0,0,0,1,0,2,0,3 --input Indices=int:0:3
done
echo "sparse_mla_bwd gpu checks: $ok pass, $bad fail"
