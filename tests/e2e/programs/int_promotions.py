# C's integer promotions and one-step int64 -> float32 conversion, where the interpreters and the
# generated CUDA once differed (helper-112): a uint16 times a uint16 is computed in int (65535 *
# 65535 wraps to -131071 on the GPU; the interpreters gave 4294836225), and int64 2^62 + 2^38 + 1
# converts to float32 once (2^62 + 2^39; through double it was rounded twice, to 2^62). No
# reference (torch would round through float64 too): tests/e2e/IntWidthE2ETest.cpp checks values
# by hand, bench/gpu_check_2026_12_06g.sh the GPU against the interpreter.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def int_promotions(M=128):
    @T.prim_func
    def main(B: T.Tensor((M, 2), "int64"), F: T.Tensor((M,), "float64")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(M):
                u = T.cast(i * 512 + 511, "uint16")
                s = T.cast(i - 64, "int8")
                B[i, 0] = T.cast(u * u, "int64")
                B[i, 1] = T.cast(s * s * s, "int64")
                big = (T.cast(1, "int64") << 62) + (T.cast(i, "int64") << 38) + 1
                F[i] = T.cast(T.cast(big, "float32"), "float64")

    return main
