# A kernel whose meta code and element expressions use helpers of a sibling module
# (sibling_lib.py): an argument check, a tile count, a constant and a mask expression.
#   B = A * SCALE * (row >= col)
import tilelang
import tilelang.language as T

from sibling_lib import SCALE, check_block, lower_mask, tiles


@tilelang.jit(out_idx=[1])
def masked_scale(M=100, N=64, block=32):
    check_block(block)

    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(tiles(M, block), threads=128) as bx:
            for i, j in T.Parallel(block, N):
                if bx * block + i < M:
                    B[bx * block + i, j] = A[bx * block + i, j] * SCALE * lower_mask(bx * block + i, j)

    return main
