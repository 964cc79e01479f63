# Element-wise C = A + B over a 2-D grid of tiles; each T.Parallel iteration is one element,
# distributed over the block's threads (global accesses are bounds-guarded).
#   tilec run samples/add.py --param M=4096 --param N=4096
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def elementwise_add(M=1024, N=1024, block_M=32, block_N=128, dtype="float32", threads=256):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            for i, j in T.Parallel(block_M, block_N):
                C[by * block_M + i, bx * block_N + j] = A[by * block_M + i, bx * block_N + j] + B[by * block_M + i, bx * block_N + j]

    return main


def ref_program(A, B):
    return A + B


flops = M * N
bytes = 3 * M * N * 4
