# Issue 9's pipeline matrix, plain variant: a GEMM-like T.Pipelined loop at trip counts 1..3 and
# num_stages 1..3 (also stages above the trip count). Each iteration loads a K-slice of A and B
# and accumulates A_slice @ B_slice. On sm_90a the loop takes the TMA + mbarrier + wgmma schedule
# (the accumulator only cleared, accumulated and copied out), on sm_80 cp.async + mma.sync.
#   C = A @ B  (K = trips * block_K)
#   tilec run tests/e2e/programs/pipeline_matrix_plain.py --param trips=3 --param stages=2
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def pipeline_plain(trips=2, stages=2, M=128, N=64, block_M=64, block_N=64, block_K=32):
    K = trips * block_K

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), "float16")
            B_s = T.alloc_shared((block_K, block_N), "float16")
            acc = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(acc)
            for k in T.Pipelined(trips, num_stages=stages):
                T.copy(A[by * block_M, k * block_K], A_s)
                T.copy(B[k * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc)
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A.float() @ B.float()
