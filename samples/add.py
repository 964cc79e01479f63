# Element-wise C = A + B over a 2-D grid of tiles: tiles are copied into register fragments
# (out-of-bounds elements read 0 and are not written back, so any M, N works), added in a
# T.Parallel loop distributed over the block's threads, and copied out.
#   tilec run samples/add.py --param M=4096 --param N=4096
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def elementwise_add(M=1024, N=1024, block_M=32, block_N=128, dtype="float32", threads=256):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_local = T.alloc_fragment((block_M, block_N), dtype)
            B_local = T.alloc_fragment((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], A_local)
            T.copy(B[by * block_M, bx * block_N], B_local)
            for i, j in T.Parallel(block_M, block_N):
                C_local[i, j] = A_local[i, j] + B_local[i, j]
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A + B


# Work of one launch, as functions of the kernel's parameters (TileScope calls them with the
# kernel's values of the same names for TFLOP/s and GB/s; plain Python, so TileLang runs the file too).
def total_flops(M, N):
    return M * N


def total_bytes(M, N, dtype):
    return 3 * M * N * (2 if dtype in ("float16", "bfloat16") else 4)
