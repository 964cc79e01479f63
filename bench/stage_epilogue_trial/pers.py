# persistent-style: each block computes 2 output tiles (rows by*2*bm and by*2*bm+bm), hand-staged epilogue inside the loop
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M=512, N=256, K=128, block_M=128, block_N=128, block_K=32, dtype="float16", num_stages=3, threads=128, hand=True):

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, 2 * block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_shared = T.alloc_shared((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float")
            for t in T.serial(2):
                row = (by * 2 + t) * block_M
                T.clear(C_local)
                for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                    T.copy(A[row, k * block_K], A_shared)
                    T.copy(B[k * block_K, bx * block_N], B_shared)
                    T.gemm(A_shared, B_shared, C_local)
                if hand:
                    T.copy(C_local, C_shared)
                    T.copy(C_shared, C[row, bx * block_N])
                else:
                    T.copy(C_local, C[row, bx * block_N])

    return main


def ref_program(A, B):
    return A.double() @ B.double()
