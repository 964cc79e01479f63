# A shifted index inside T.Parallel leaves the shared tile for the last iteration: check-bounds
# reports it from the loop range (i + 1 reaches 128 for i = 127). The same shift under a guard,
# and a reversed index that stays inside, are fine.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def shift(M=256, block_M=128):

    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            s = T.alloc_shared((block_M,), "float32")
            for i in T.Parallel(block_M):
                s[i + 1] = A[bx * block_M + i]  # expect-error(col 17): index i + 1 of 's' ranges over [1, 128]
            for i in T.Parallel(block_M):
                if i + 1 < block_M:
                    s[i + 1] = A[bx * block_M + i]
            for i in T.Parallel(block_M):
                B[bx * block_M + i] = s[block_M - 1 - i]

    return main
