# An endless module-level loop is reported where it is, not as a later division by zero.
import tilelang
import tilelang.language as T

BM = 0
while True:  # expect-error(col 7): compile-time evaluation exceeded
    BM += 1


@tilelang.jit(out_idx=[-1])
def scale(M=256, block_M=128):

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, BM), threads=128) as (bx,):
            for i in T.Parallel(block_M):
                                B[bx * block_M + i] = A[bx * block_M + i] * 2.0

    return main
