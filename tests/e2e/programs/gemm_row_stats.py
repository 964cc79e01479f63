# Row maximum and row sum of a gemm result, reduced straight from the mma accumulator: with
# policy Square the 4 warps of a 64 x 64 tile form a 2 x 2 grid, so every row is split over two
# warps and the reduction needs the quad shuffles and the shared-memory exchange between warp
# columns. M = 100 leaves the second block's last 28 rows outside the tensors. The last loop reads
# the row maxima over 5 columns, a width the accumulator layout cannot take: its iterations are
# spread over the 8 threads that hold each row.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2, 3, 4])
def row_stats(M=100, N=64, K=48, block_M=64):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), "float16"),
        B: T.Tensor((K, N), "float16"),
        RowMax: T.Tensor((M,), "float32"),
        RowSum: T.Tensor((M,), "float32"),
        Scaled: T.Tensor((M, 5), "float32"),
    ):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx,):
            a = T.alloc_shared((block_M, K), "float16")
            b = T.alloc_shared((K, N), "float16")
            c = T.alloc_fragment((block_M, N), "float32")
            mx = T.alloc_fragment((block_M,), "float32")
            sm = T.alloc_fragment((block_M,), "float32")
            T.copy(A[bx * block_M, 0], a)
            T.copy(B[0, 0], b)
            T.clear(c)
            T.gemm(a, b, c, policy=T.GemmWarpPolicy.Square)
            T.reduce_max(c, mx, dim=1)
            T.reduce_sum(c, sm, dim=1)
            T.copy(mx, RowMax[bx * block_M])
            T.copy(sm, RowSum[bx * block_M])
            for i, j in T.Parallel(block_M, 5):
                if bx * block_M + i < M:
                    Scaled[bx * block_M + i, j] = mx[i] * (j + 1)

    return main


def ref_program(A, B):
    C = A.float() @ B.float()
    return C.amax(dim=1), C.sum(dim=1), C.amax(dim=1, keepdim=True) * torch.arange(1, 6)
