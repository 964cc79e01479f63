# T.Parallel nests that write one element past the end of a global tensor (issue 14). Lowering
# guards every global element store inside T.Parallel, so the GPU skips the store, but the program
# writes outside the tensor: the tile-level interpreter reports it, and the thread-level one
# reports it too at the store, "out-of-bounds store B[256]: global buffer 'B' has shape (256)"
# (the guard carries the store's logical element, ir::StoreCheck). ParallelStoreOobE2ETest.
#   shift_right:   B[i + 1] for i up to M - 1 in a 1-D tensor: the last store is B[M].
#   shift_columns: B[i, j + 1] for j up to N - 1 in a 2-D tensor: B[i, N] is a valid flat offset
#                  (the next row's first element), so the flat store alone would not tell.
import tilelang
import tilelang.language as T


@tilelang.jit
def shift_right(M=256, block_M=128):
    @T.prim_func
    def main(A: T.Tensor((M,), "float32"), B: T.Tensor((M,), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            for i in T.Parallel(block_M):
                B[bx * block_M + i + 1] = A[bx * block_M + i] * 2.0

    return main


@tilelang.jit
def shift_columns(M=32, N=64, block_M=16):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (by,):
            for i, j in T.Parallel(block_M, N):
                B[by * block_M + i, j + 1] = A[by * block_M + i, j]

    return main
