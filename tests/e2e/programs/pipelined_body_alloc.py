# Shared tiles allocated inside a T.Pipelined body (as TileLang's mHC pre sqrsum kernel does):
# the pipeline prologue loads the first tiles before the loop, so the allocations must be
# declared before it (inject-pipeline hoists them; on sm_90a the TMA schedule does the same).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def pipelined_body_alloc(M=64, N=64, K=256, block_M=32, block_N=32, block_K=32, num_stages=2):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((N, K), "float16"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            acc = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(acc)
            for kk in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                a_s = T.alloc_shared((block_M, block_K), "float16")
                b_s = T.alloc_shared((block_N, block_K), "float16")
                T.copy(A[by * block_M, kk * block_K], a_s)
                T.copy(B[bx * block_N, kk * block_K], b_s)
                T.gemm(a_s, b_s, acc, transpose_B=True)
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A.float() @ B.float().T
