#!/usr/bin/env bash
# 2026-12-07 (twelfth session): the Nsight Compute profile of the MHA backward main kernel
# (bench/ncu_attention_2026_12_07i.sh, 128x128 ds_regs, 255 registers) puts 27% of the warp stall
# samples in the dQ atomics (lane-pair red.global.add.v4: activemask vote, two shuffles and
# register copies per v4, each REDG waiting for the previous one to release R24-R27) and 21% in
# the exp2 of P^T with the tensor cores idle. A/B of: the dQ atomic forms (TILESCOPE_VECTOR_ATOMICS:
# default lane-pair v4, 2 = v2 straight from the accumulator registers) and dp_first=True (dP^T's
# wgmma in flight while P^T is computed: chained wgmma groups, TILESCOPE_WGMMA_CHAIN); medians of
# 30, two interleaved rounds, B8 H32 S1024 D64 fp16; first every variant's chain against float64.
# Payload: bash bench/h200_payload.sh; cp bench/mhab_atomics_ab_2026_12_07j.sh tests/e2e/programs/oob_index_from_arguments.py .h200/
set -u
A=.h200; T=$A/tilec; [ -x $T ] || { xz -dkc $A/tilec.xz > $T && chmod +x $T; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
W=/tmp/ab; mkdir -p $W
nvidia-smi --query-gpu=name --format=csv,noheader | tee $W/device.txt
# GPU agreement for the twelfth session's new test programs (interpreter vs GPU, both targets).
cat > $W/rowdot.py <<'PY'
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def rowdot(M=16, N=24, threads=64):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), W: T.Tensor((N,), "float32"), Y: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            x = T.alloc_fragment((M, N), "float32")
            w = T.alloc_shared((N,), "float32")
            y = T.alloc_fragment((M,), "float32")
            T.copy(X[0, 0], x)
            T.copy(W[0], w)
            for i in T.Parallel(M):
                y[i] = 0.0
                for k in T.serial(N):
                    y[i] += x[i, k] * w[k]
            T.copy(y, Y[0])

    return main
PY
for tgt in cuda:sm_80 cuda:sm_90a; do
  for c in "$A/oob_index_from_arguments.py -k shifted_read -p off=0" "$A/oob_index_from_arguments.py -k gather --input idx=int:0:63" \
           "$W/rowdot.py -p threads=64" "$W/rowdot.py -p threads=256"; do
    timeout 60 $T run $c --target $tgt --check interp -q > $W/agree.txt 2>&1 && echo "agree ok $tgt: $c" || { echo "agree FAIL $tgt: $c"; tail -5 $W/agree.txt; }
  done
done
MB="-p block_M=128 -p block_N=128 -p threads=256 -p ds_regs=True"
P="-p batch=8 -p heads=32 -p seq_len=1024 -p dim=64 $MB"
BWD=mha_fwd,mha_bwd_preprocess,mha_bwd_main,mha_bwd_postprocess
for va in 1 2; do for dp in True; do
  for shape in "-p batch=2 -p heads=8 -p seq_len=1000 -p dim=64 -p is_causal=True -p dtype=bfloat16"; do
    echo "-- va$va dp_first=$dp $shape" >> $W/checks.txt
    TILESCOPE_VECTOR_ATOMICS=$va timeout 150 $T run $A/mha_bwd.py --target cuda:sm_90a --chain $BWD --ref bwd_ref $shape $MB -p dp_first=$dp -q >> $W/checks.txt 2>&1 \
      && echo "ok va$va dp$dp: $shape" || { echo "FAIL va$va dp$dp: $shape"; tail -4 $W/checks.txt; }
  done
done; done
for r in $(seq 1 ${MHAB_AB_ROUNDS:-2}); do
  for va in 1 2; do for dp in False True; do
    o=va$va-dp$dp-r$r
    env TILESCOPE_VECTOR_ATOMICS=$va timeout 120 $T bench $A/mha_bwd.py -k mha_bwd_main --target cuda:sm_90a $P -p dp_first=$dp --no-check --reps 30 --json $W/$o.json >> $W/bench.txt 2>&1 || echo "bench $o failed"
    echo "$o $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['median_ms'], d.get('registers', ''))" $W/$o.json)"
  done; done
done
cd $W && tar czf $OUT/ab.tgz .
