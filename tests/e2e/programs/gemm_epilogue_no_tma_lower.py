# samples/gemm.py's kernel under TileLang's pass_configs={"tl.disable_tma_lower": True}: the file
# asks for no TMA, so stage-epilogue (compiler/transforms/StageEpilogue.cpp) keeps the direct
# stores from registers.
#   tilec compile tests/e2e/programs/gemm_epilogue_no_tma_lower.py --target cuda:sm_90a
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={"tl.disable_tma_lower": True})
def matmul(M=256, N=256, K=128, block_M=128, block_N=128, block_K=32, dtype="float16", num_stages=3, threads=128):

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A @ B
