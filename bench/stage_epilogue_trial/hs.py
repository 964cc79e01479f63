# hand-staged epilogue tile: variants touching C_shared with T.Parallel
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def matmul(M=256, N=256, K=128, block_M=128, block_N=128, block_K=32, dtype="float16", out_dtype="float16", num_stages=3,
           threads=128, mode="plain", direct=False):

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            bias: T.Tensor((N,), out_dtype),
            C: T.Tensor((M, N), out_dtype),
            D: T.Tensor((M, N), out_dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_shared = T.alloc_shared((block_M, block_N), out_dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C_shared)
            if mode == "bias":
                for i, j in T.Parallel(block_M, block_N):
                    C_shared[i, j] = C_shared[i, j] + bias[bx * block_N + j]
            T.copy(C_shared, C[by * block_M, bx * block_N], disable_tma=direct)
            if mode == "readback":
                for i, j in T.Parallel(block_M, block_N):
                    D[by * block_M + i, bx * block_N + j] = C_shared[i, j] * 2
            else:
                T.copy(C_local, D[by * block_M, bx * block_N])

    return main


def ref_program(A, B, bias):
    c = A.double() @ B.double()
    if mode == "bias":
        c = c + bias.double()
        return c, A.double() @ B.double()
    if mode == "readback":
        return c, 2 * c
    return c, c
