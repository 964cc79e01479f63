# Float -> int casts out of the target's range (helper-112, section D). The interpreters wrapped
# (int32(1e10) = 1410065408); the GPU (H100, 2026-12-06) truncates, saturates to 32 bits, then
# keeps the low bits of an 8/16-bit type: int8(-236.8) = 20, int16(-4e8) = 31744, int16(3.6e9) = -1.
# The interpreters now do the same (tests/e2e/IntWidthE2ETest.cpp checks values the GPU gave;
# bench/gpu_check_2026_12_06f.sh compares all 512 with --check interp). No reference: torch's
# .to(int8) of an out-of-range float is not defined either.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def float_to_int(M=128):
    @T.prim_func
    def main(B: T.Tensor((M, 4), "int32")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(M):
                f = T.cast(i - 64, "float32") * 3.7
                g = T.cast(i - 64, "float32") * 1e8
                B[i, 0] = T.cast(T.cast(f, "int8"), "int32")
                B[i, 1] = T.cast(T.cast(f, "uint8"), "int32")
                B[i, 2] = T.cast(g, "int32")
                B[i, 3] = T.cast(T.cast(g, "int16"), "int32")

    return main
