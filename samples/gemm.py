# Tiled GEMM C = A @ B (fp16 or bf16 in, fp32 accumulate), software-pipelined. sm_80: cp.async + ldmatrix
# + mma.sync m16n8k16 over swizzled tiles; sm_90a: TMA + mbarriers + wgmma, and the epilogue staged through
# a swizzled shared tile + TMA store (README: 128x256x64/4 stages/256 threads is the fast H200 configuration).
#   tilec run samples/gemm.py --param M=4096 --param N=4096 --param K=4096
#   tilec run samples/gemm.py --param dtype=bfloat16 --param M=1000 --param N=1000 --param K=1000
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M=512, N=512, K=512, block_M=128, block_N=128, block_K=32, dtype="float16", accum_dtype="float",
           num_stages=4, threads=128):

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
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A @ B


# Work of one launch, as functions of the kernel's parameters (TileScope calls them with the
# kernel's values of the same names for TFLOP/s and GB/s; plain Python, so TileLang runs the file too).
def total_flops(M, N, K):
    return 2 * M * N * K


def total_bytes(M, N, K, dtype):
    return (M * K + K * N + M * N) * (2 if dtype in ("float16", "bfloat16") else 4)
