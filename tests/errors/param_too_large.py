# params: M=99999999999999999999
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scale(M=256, block_M=128):  # expect-error(col 11): M = 99999999999999999999 (from --param M=99999999999999999999) is too large: TileScope's integers are 64-bit

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = A[bx * block_M + i] * 2.0

    return main
