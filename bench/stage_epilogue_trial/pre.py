# a shared scratch used before the pipeline (dead by then): its bytes are counted as free, though plan-smem already gave them to the pipeline tiles
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M=256, N=256, K=128, block_M=128, block_N=128, block_K=16, dtype="float16", num_stages=2, threads=128, direct=False, sk=64, out_dtype="float16"):

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            Bias: T.Tensor((M, N), "int8"),
            C: T.Tensor((M, N), out_dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            S = T.alloc_shared((block_M, block_N), "int8")
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float")
            T.clear(C_local)
            T.copy(Bias[by * block_M, bx * block_N], S)
            for i, j in T.Parallel(block_M, block_N):
                C_local[i, j] = S[i, j]
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N], disable_tma=direct)

    return main


def ref_program(A, B, Bias):
    return A.double() @ B.double() + Bias.double()
