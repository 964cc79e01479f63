# params: M=65536 N=65536
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale(M=256, N=256, block=128):

    @T.prim_func
    def main(A: T.Tensor((M, N), "float16"), B: T.Tensor((M, N), "float16")):  # expect-error(col 14): has 4294967296 elements, more than 2^31-1
        with T.Kernel(M, T.ceildiv(N, block), threads=128) as (by, bx):
            for j in T.Parallel(block):
                B[by, bx * block + j] = A[by, bx * block + j] * 2.0

    return main
