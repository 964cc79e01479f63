# A gemm whose B operand is a register fragment (KDA's chunk_bwd_intra: T.gemm(dA, kg_fragment,
# ...) after an element-wise T.Parallel): lowering stages B through a shared tile (as stored,
# N x K when transposed) and runs the shared-memory gemm.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[3, 4])
def gemm_fragment_b(M=64, N=64, K=32, threads=128):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), "float16"),
        B: T.Tensor((K, N), "float16"),
        Bt: T.Tensor((N, K), "float16"),
        C1: T.Tensor((M, N), "float32"),
        C2: T.Tensor((M, N), "float32"),
    ):
        with T.Kernel(1, threads=threads) as (bx,):
            a = T.alloc_shared((M, K), "float16")
            w = T.alloc_fragment((K, N), "float16")
            wt = T.alloc_fragment((N, K), "float16")
            acc1 = T.alloc_fragment((M, N), "float32")
            acc2 = T.alloc_fragment((M, N), "float32")
            T.copy(A, a)
            for k, n in T.Parallel(K, N):
                w[k, n] = B[k, n] * 2.0
            for n, k in T.Parallel(N, K):
                wt[n, k] = Bt[n, k] + 1.0
            T.gemm(a, w, acc1, clear_accum=True)
            T.gemm(a, wt, acc2, transpose_B=True, clear_accum=True)
            T.copy(acc1, C1)
            T.copy(acc2, C2)

    return main


def ref_program(A, B, Bt):
    A = A.float()
    return A @ (B.float() * 2.0), A @ (Bt.float() + 1.0).t()
