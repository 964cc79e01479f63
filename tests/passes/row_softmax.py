# Golden: row reductions (reduce_max / reduce_sum over 2 rows x 96 columns with 64 threads): the
# block fragment with its row-reduced companion, shuffles + shared scratch with its barriers,
# and what simplify-final folds.
# golden: infer-layouts lower-tile-ops simplify-final
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def softmax(M=8, N=96, block_M=2, threads=64):

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bx,):
            x = T.alloc_fragment((block_M, N), "float32")
            m = T.alloc_fragment((block_M,), "float32")
            s = T.alloc_fragment((block_M,), "float32")
            T.copy(X[bx * block_M, 0], x)
            T.reduce_max(x, m, dim=1)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = T.exp2(x[i, j] - m[i])
            T.reduce_sum(x, s, dim=1)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = x[i, j] / s[i]
            T.copy(x, Y[bx * block_M, 0])

    return main
