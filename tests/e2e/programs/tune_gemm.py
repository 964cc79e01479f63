# A GEMM with @autotune configs for `tilec tune` (issue 12): 12 tile/stage variants plus one
# deliberately wrong one (skip_k=1 drops the last K tile), which the tuner must reject as a wrong
# result. Also a valid TileLang program (tilelang.autotune reads the same configs).
#   tilec tune tests/e2e/programs/tune_gemm.py --param M=2048 --param N=2048 --param K=2048
import itertools

import tilelang
import tilelang.language as T


def get_configs():
    configs = [
        {"block_M": bm, "block_N": bn, "num_stages": s, "skip_k": 0}
        for bm, bn, s in itertools.product([64, 128], [64, 128], [2, 3, 4])
    ]
    configs.append({"block_M": 128, "block_N": 128, "num_stages": 3, "skip_k": 1})
    return configs


@tilelang.autotune(configs=get_configs())
@tilelang.jit(out_idx=[-1])
def matmul(M=256, N=256, K=256, block_M=128, block_N=128, block_K=32, num_stages=3, threads=128,
           skip_k=0, dtype="float16", accum_dtype="float"):

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K) - skip_k, num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A @ B


def total_flops(M, N, K):
    return 2 * M * N * K
