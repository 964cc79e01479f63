# TMA stores (issue 9): every block computes Out = 2 * A on one block_M x block_N tile in a shared
# tile and writes it with a plain T.copy shared -> global, which on cuda:sm_90a is one TMA store
# where legal (compiler/ops/CopyTma.cpp) and plain stores elsewhere, with a note saying which.
# The tiles start at (off_m, off_n), zero or negative (the first row/column of tiles starts before
# the tensor), and M, N need not be multiples of the tile, so boxes run past every edge: TMA
# writes no out-of-bounds element, as T.copy's guarded store does not.
#   kind=0: the gemm epilogue's shape, fragment -> shared tile -> global;
#   kind=1: a T.Parallel nest writes the shared tile;
#   kind=2: kind 1 inside a T.serial loop over the column tiles (the tile is rewritten every
#           iteration: the store's wait and the barrier before the next write are exercised).
# Legal (TMA) when N * bytes is a multiple of 16 (row pitch) and off_n * bytes is (box start), and
# the start is not negative (a TMA store whose box starts before the tensor faulted on the H200).
#   tilec run tests/e2e/programs/tma_store.py --target cuda:sm_90a --param M=100 --param N=88 --param off_n=-8
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def tma_store(M=100, N=88, off_m=0, off_n=0, dtype="float16", kind=0, block_M=32, block_N=64):
    col_tiles = T.ceildiv(N - off_n, block_N)

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), Out: T.Tensor((M, N), dtype)):
        with T.Kernel(1 if kind == 2 else col_tiles, T.ceildiv(M - off_m, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), dtype)
            C_shared = T.alloc_shared((block_M, block_N), dtype)
            if kind == 0:
                acc = T.alloc_fragment((block_M, block_N), "float32")
                T.copy(A[by * block_M + off_m, bx * block_N + off_n], A_shared)
                for i, j in T.Parallel(block_M, block_N):
                    acc[i, j] = T.cast(A_shared[i, j], "float32") * 2
                T.copy(acc, C_shared)
                T.copy(C_shared, Out[by * block_M + off_m, bx * block_N + off_n])
            elif kind == 1:
                T.copy(A[by * block_M + off_m, bx * block_N + off_n], A_shared)
                for i, j in T.Parallel(block_M, block_N):
                    C_shared[i, j] = A_shared[i, j] * 2
                T.copy(C_shared, Out[by * block_M + off_m, bx * block_N + off_n])
            else:
                for k in T.serial(col_tiles):
                    T.copy(A[by * block_M + off_m, k * block_N + off_n], A_shared)
                    for i, j in T.Parallel(block_M, block_N):
                        C_shared[i, j] = A_shared[i, j] * 2
                    T.copy(C_shared, Out[by * block_M + off_m, k * block_N + off_n])

    return main


def ref_program(A):
    return A * 2
