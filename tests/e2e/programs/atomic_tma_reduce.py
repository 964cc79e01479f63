# T.atomic_add(dst, shared_tile, use_tma=True): on sm_90a one TMA reduce-add of the tile
# (cp.reduce.async.bulk.tensor .add, compiler/ops/CopyTma.cpp lowerAtomicTmaReduce) instead of one
# atomic per element. Every z-block s adds 2 * X[s, r] for r < reps into the same Out tiles, so
# S * reps reductions meet on every element, issued from a loop (the tile is refilled after each
# reduce: its bulk group must have read it). M = 200 is not a multiple of block_M: the last row of
# blocks reduces a box that runs past the tensor (those elements are skipped).
#   Out = sum over s, r of 2 * X[s, r]                 (float32; Out starts at zero)
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def reduce_blocks(S=3, reps=2, M=200, N=96, block_M=64, block_N=32, use_tma=True):
    @T.prim_func
    def main(X: T.Tensor((S, reps, M, N), "float32"), Out: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), S, threads=128) as (bx, by, s):
            tile = T.alloc_shared((block_M, block_N), "float32")
            for r in T.serial(reps):
                T.copy(X[s, r, by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N], tile)
                for i, j in T.Parallel(block_M, block_N):
                    tile[i, j] = tile[i, j] * 2.0
                T.atomic_add(Out[by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N], tile, use_tma=use_tma)

    return main


def ref_program(X):
    return (2.0 * X.double()).sum(dim=(0, 1))
