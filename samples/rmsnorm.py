# Row-wise RMSNorm with a learned weight: Y[i, :] = X[i, :] / sqrt(mean(X[i, :]^2) + eps) * W.
# fp16 or bf16 in and out, fp32 accumulation. One block normalises block_M whole rows: the row is
# read once into registers (kept in the input dtype, half the registers of fp32), its squares
# are summed in fp32 (T.reduce_sum: warp shuffles, then shared memory across warps), and the
# scaled row is written straight from registers. Memory-bound: X is read once, Y written once.
#   tilec run samples/rmsnorm.py --param M=4096 --param N=4096 --param dtype=bfloat16
#   tilec run samples/rmsnorm.py --param M=1000 --param N=1000
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[-1])
def rmsnorm(M=256, N=1024, block_M=1, eps=1e-6, dtype="float16", threads=128):
    acc = "float32"

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), W: T.Tensor((N,), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=threads) as (bx,):
            x = T.alloc_fragment((block_M, N), dtype)
            sq = T.alloc_fragment((block_M, N), acc)
            sum_sq = T.alloc_fragment((block_M,), acc)
            T.copy(X[bx * block_M, 0], x)  # rows past M read as 0 and are never stored
            for i, j in T.Parallel(block_M, N):
                sq[i, j] = T.cast(x[i, j], acc) * T.cast(x[i, j], acc)
            T.reduce_sum(sq, sum_sq, dim=1)
            for i in T.Parallel(block_M):
                sum_sq[i] = T.rsqrt(sum_sq[i] / N + eps)  # now the row's 1 / rms
            for i, j in T.Parallel(block_M, N):
                x[i, j] = T.cast(T.cast(x[i, j], acc) * sum_sq[i] * T.cast(W[j], acc), dtype)
            T.copy(x, Y[bx * block_M, 0])

    return main


def ref_program(X, W, eps):
    x = X.float()
    return x * torch.rsqrt((x * x).mean(dim=-1, keepdim=True) + eps) * W.float()


# Work of one launch, as functions of the kernel's parameters (TileScope calls them with the
# kernel's values of the same names for TFLOP/s and GB/s; plain Python, so TileLang runs the file too).
def total_flops(M, N):
    # Per element: square, add into the row sum, scale by 1/rms, scale by the weight.
    return 4 * M * N


def total_bytes(M, N, dtype):
    # X read once, Y written once, the weight once.
    return (2 * M * N + N) * (2 if dtype in ("float16", "bfloat16") else 4)
