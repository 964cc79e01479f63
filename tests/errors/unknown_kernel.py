# tilescope: @kernel=scael  # expect-error(col 14): no kernel named 'scael' in this file
# A file with several kernels whose pragma (or tilec --kernel) names none of them: the error is
# at the pragma's @kernel, and the hint lists the kernels and suggests 'scale'.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale(M=256, block_M=128):
    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] * 2.0

    return main


@tilelang.jit(out_idx=[-1])
def shift(M=256, block_M=128, offset=1.0):
    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] + offset

    return main
