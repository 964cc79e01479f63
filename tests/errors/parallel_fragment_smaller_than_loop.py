# A per-row broadcast into a fragment sized by another parameter: `vals` holds `heads` elements
# but T.Parallel(block_M) writes and reads block_M of them. With heads < block_M this is out of
# bounds (TileLang does not check it, and its register layout happens to hide it when every
# element holds the same value); TileScope reports it at the access. Sizing the fragment by the
# loop (block_M) is the fix.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def add_head_bias(M=128, N=64, heads=8, block_M=32):

    @T.prim_func
    def main(A: T.Tensor((heads, M, N), "float32"), Bias: T.Tensor((heads,), "float32"),
             B: T.Tensor((heads, M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), heads, threads=128) as (bx, by):
            vals = T.alloc_fragment((heads,), "float32")
            for i in T.Parallel(block_M):
                vals[i] = Bias[by]  # expect-error: index i of 'vals' ranges over [0, 31], outside dimension 0
            for i, j in T.Parallel(block_M, N):
                B[by, bx * block_M + i, j] = A[by, bx * block_M + i, j] + vals[i]  # expect-error: index i of 'vals' ranges over [0, 31]

    return main
