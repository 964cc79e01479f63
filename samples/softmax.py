# Row softmax Y = softmax(X, dim=-1): one block per block_M rows, reductions with
# T.reduce_max / T.reduce_sum (warp shuffles, then shared memory across warps) and exp2.
#   tilec run samples/softmax.py --param M=4096 --param N=8192
# Any N works in TileScope (a ragged row is masked); TileLang 0.1.15 returned NaN on the H200 for
# N = 1000 with 256 threads (bench/results/samples-tilelang-*), so the default N is 1024.
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def softmax(M=256, N=1024, block_M=1, dtype="float32", threads=256):
    log2e = 1.4426950408889634

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bx,):
            x = T.alloc_fragment((block_M, N), dtype)
            row_max = T.alloc_fragment((block_M,), dtype)
            row_sum = T.alloc_fragment((block_M,), dtype)
            T.copy(X[bx * block_M, 0], x)
            T.reduce_max(x, row_max, dim=1)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = T.exp2((x[i, j] - row_max[i]) * log2e)
            T.reduce_sum(x, row_sum, dim=1)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = x[i, j] / row_sum[i]
            T.copy(x, Y[bx * block_M, 0])

    return main


def ref_program(X):
    return torch.softmax(X, dim=-1)


# Work of one launch, as functions of the kernel's parameters (TileScope calls them with the
# kernel's values of the same names for TFLOP/s and GB/s; plain Python, so TileLang runs the file too).
def total_flops(M, N):
    return 5 * M * N


def total_bytes(M, N, dtype):
    return 2 * M * N * (2 if dtype in ("float16", "bfloat16") else 4)
