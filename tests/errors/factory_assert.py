# params: block_M=48
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale(M=256, block_M=128):
    assert M % block_M == 0, "block_M must divide M"  # expect-error: assertion failed: block_M must divide M

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(M // block_M, threads=128) as (bx,):
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] * 2.0

    return main
