# epilogue variants around the final fragment store
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-2, -1])
def matmul(M=200, N=136, K=96, block_M=128, block_N=128, block_K=32, dtype="float16", num_stages=3, threads=128,
           mode="plain", direct=False):

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, N), dtype),
            D: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float")
            D_local = T.alloc_fragment((block_M, block_N), "float")
            S_shared = T.alloc_shared((block_M, block_N), dtype)
            T.clear(C_local)
            T.clear(D_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
                if mode == "twogemm":
                    T.gemm(A_shared, B_shared, D_local)
            if mode == "relu":
                for i, j in T.Parallel(block_M, block_N):
                    C_local[i, j] = T.max(C_local[i, j], 0.0)
            if mode == "ifcopy":
                if bx < 1:
                    T.copy(C_local, C[by * block_M, bx * block_N], disable_tma=direct)
                else:
                    T.copy(C_local, C[by * block_M, bx * block_N], disable_tma=True)
            else:
                T.copy(C_local, C[by * block_M, bx * block_N], disable_tma=direct)
            if mode == "plain" or mode == "relu" or mode == "ifcopy":
                for i, j in T.Parallel(block_M, block_N):
                    D_local[i, j] = C_local[i, j] * 2.0
                T.copy(D_local, D[by * block_M, bx * block_N])
            if mode == "twogemm":
                T.copy(D_local, D[by * block_M, bx * block_N])
            if mode == "readback":
                for i, j in T.Parallel(block_M, block_N):
                    D_local[i, j] = C_local[i, j] + 1.0
                T.copy(D_local, D[by * block_M, bx * block_N])
            if mode == "readC":
                T.copy(C[by * block_M, bx * block_N], D_local)
                T.copy(D_local, D[by * block_M, bx * block_N])
            if mode == "smem_after":
                T.copy(C_local, S_shared)
                T.copy(S_shared, D[by * block_M, bx * block_N])
            if mode == "parallel_store":
                for i, j in T.Parallel(block_M, block_N):
                    D[by * block_M + i, bx * block_N + j] = C_local[i, j]

    return main


def ref_program(A, B):
    c = A.double() @ B.double()
    if mode == "relu":
        c = c.clamp(min=0)
    if mode == "twogemm" or mode == "readC" or mode == "smem_after" or mode == "parallel_store":
        return c, c
    if mode == "readback":
        return c, c + 1.0
    return c, c * 2.0
