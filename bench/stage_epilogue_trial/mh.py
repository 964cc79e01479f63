# output (M, H, N): rows along dim 0, head fixed, cols along dim 2; also (H, N, M)^T-like cases
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M=200, N=136, K=96, H=3, block_M=128, block_N=128, block_K=32, dtype="float16", num_stages=3, threads=128, direct=False):

    @T.prim_func
    def main(
            A: T.Tensor((H, M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, H, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), H, threads=threads) as (bx, by, h):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[h, by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M:(by + 1) * block_M, h, bx * block_N:(bx + 1) * block_N], disable_tma=direct)

    return main


def ref_program(A, B):
    return (A.double() @ B.double()).permute(1, 0, 2)
