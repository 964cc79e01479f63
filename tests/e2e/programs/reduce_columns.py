# Column reductions (dim=0) of block fragments, the form real TileLang kernels use for mean
# pooling over a block of rows: every row tile of X is reduced into the column sums and maxima
# with clear=False (accumulating across the serial loop), then the column sums themselves are
# reduced whole (1-D, dim=0) into a one-element fragment read as a scalar. N = 40 is not a power
# of two and M = 72 is not a multiple of the 32-row tile: the last tile's rows past M read 0 and
# are masked out of the maximum. These reductions go through a shared scratch tile
# (compiler/ops/ReduceSharedLowering.cpp).
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[1, 2, 3])
def column_stats(M=72, N=40, block_M=32, threads=128):
    @T.prim_func
    def main(
        X: T.Tensor((M, N), "float32"),
        ColSum: T.Tensor((N,), "float32"),
        ColMax: T.Tensor((N,), "float32"),
        AbsMax: T.Tensor((1,), "float32"),
    ):
        with T.Kernel(1, threads=threads) as (bx,):
            x = T.alloc_fragment((block_M, N), "float32")
            xm = T.alloc_fragment((block_M, N), "float32")
            colsum = T.alloc_fragment((N,), "float32")
            colmax = T.alloc_fragment((N,), "float32")
            amax = T.alloc_fragment((1,), "float32")
            T.clear(colsum)
            T.fill(colmax, -T.infinity("float32"))
            for t in T.serial(T.ceildiv(M, block_M)):
                T.copy(X[t * block_M, 0], x)
                for i, j in T.Parallel(block_M, N):
                    xm[i, j] = T.if_then_else(t * block_M + i < M, x[i, j], -T.infinity("float32"))
                T.reduce_sum(x, colsum, dim=0, clear=False)
                T.reduce_max(xm, colmax, dim=0, clear=False)
            T.copy(colsum, ColSum)
            T.copy(colmax, ColMax)
            T.reduce_absmax(colsum, amax, dim=0)
            AbsMax[0] = amax[0]

    return main


def ref_program(X):
    s = X.sum(dim=0)
    return s, X.amax(dim=0), torch.abs(s).amax(dim=0, keepdim=True)
