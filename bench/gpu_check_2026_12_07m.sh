#!/usr/bin/env bash
# 2026-12-07 (fourteenth session, no device that session): GPU agreement of its new test programs,
# interpreter vs GPU and float64 reference on both targets -- two gemms with mixed engines on one
# accumulator (both orders), TVM's math library (float32 and float64: the fast-math forms against
# float64 with the usual tolerance), the IEEE rounding modes bit for bit against the hand-derived
# float32 values (MathLibraryE2ETest's), partial fragment fills, the PDL two-kernel program, and a
# uint64 T.print (%llu). Then the thirteenth session's pending A/B (bench/mhab_stages_ab_2026_12_07l.sh).
# Payload: bash bench/h200_payload.sh; cp bench/gpu_check_2026_12_07m.sh bench/mhab_stages_ab_2026_12_07l.sh \
#   tests/e2e/programs/{gemm_mixed_engines_one_accumulator,math_library,fragment_partial_fill,pdl_two_kernels,print_buffers}.py .h200/
set -u
A=.h200; T=$A/tilec; [ -x $T ] || { xz -dkc $A/tilec.xz > $T && chmod +x $T; }
export TILESCOPE_CACHE_DIR=/tmp/tscache TILESCOPE_RESULTS=off
W=/tmp/agree; mkdir -p $W
nvidia-smi --query-gpu=name --format=csv,noheader | tee $W/device.txt
ok=0; bad=0
check() {  # name, then tilec run arguments
  local n=$1; shift
  if timeout 120 $T run "$@" -q > $W/$n.txt 2>&1; then ok=$((ok + 1)); echo "ok   $n"; else bad=$((bad + 1)); echo "FAIL $n"; tail -5 $W/$n.txt; fi
}
for tgt in cuda:sm_80 cuda:sm_90a; do
  t=${tgt#cuda:}
  for wf in True False; do
    check mixed-$wf-$t $A/gemm_mixed_engines_one_accumulator.py --target $tgt -p wgmma_first=$wf -p M=100 -p K=96
    check mixed-$wf-$t-interp $A/gemm_mixed_engines_one_accumulator.py --target $tgt -p wgmma_first=$wf -p M=100 -p K=96 --check interp
  done
  for dt in float32 float64; do
    check math-$dt-$t $A/math_library.py -k math_library --target $tgt -p dtype=$dt
  done
  check partial-fill-$t $A/fragment_partial_fill.py --target $tgt
  check partial-fill-256-$t $A/fragment_partial_fill.py --target $tgt -p threads=256
  check pdl-$t $A/pdl_two_kernels.py --target $tgt
  # IEEE modes: the GPU's values bit for bit (X = [1, 2^-30, 3, 2]).
  timeout 60 $T run $A/math_library.py -k ieee_modes --target $tgt --input X=values:1,9.313225746154785e-10,3,2 --check interp \
    --dump-outputs $W/ieee-$t -q > $W/ieee-$t.txt 2>&1
  python3 - $W/ieee-$t <<'PY' && ok=$((ok + 1)) || bad=$((bad + 1))
import struct, sys, glob
f = glob.glob(sys.argv[1] + "/Y.f32")[0]
got = struct.unpack("16f", open(f, "rb").read())
u1, l3, h3, l2, h2 = float.fromhex("0x1.000002p+0"), float.fromhex("0x1.555554p-2"), float.fromhex("0x1.555556p-2"), float.fromhex("0x1.6a09e6p+0"), float.fromhex("0x1.6a09e8p+0")
want = [1.0, h3, l2, -1.0, 1.0, l3, l2, -1.0, u1, h3, h2, -1.0, 1.0, l3, l2, -u1]
bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
print("ieee", sys.argv[1], "exact" if not bad else "DIFFERS %s" % bad)
sys.exit(1 if bad else 0)
PY
done
# uint64 T.print on the GPU: %llu (3 * 2^62 wraps to 13835058055282163712).
cat > $W/u64.py <<'PY'
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def u64():
    @T.prim_func
    def main(A: T.Tensor((4,), "uint64"), B: T.Tensor((4,), "uint64")):
        with T.Kernel(1, threads=32) as bx:
            u = T.alloc_local((1,), "uint64")
            u[0] = A[0] * 4611686018427387904
            T.print(u[0], msg="u")
            for i in T.Parallel(4):
                B[i] = A[i]

    return main
PY
timeout 60 $T run $W/u64.py --target cuda:sm_90a --input A=values:3,1,2,3 --check interp > $W/u64.txt 2>&1
echo "u64 print: $(grep -c 'u 13835058055282163712' $W/u64.txt) of 32 threads"
# T.print of whole buffers (thirteenth session) on the GPU.
timeout 60 $T run $A/print_buffers.py --target cuda:sm_90a --check interp -q > $W/print.txt 2>&1 && echo "print ok" || echo "print FAIL"
echo "agreement: $ok ok, $bad failed"
cd $W && tar czf $OUT/agree.tgz . && cd - > /dev/null
AB_ROUNDS=${AB_ROUNDS:-1} bash $A/mhab_stages_ab_2026_12_07l.sh
