# A GEMM whose epilogue goes through shared memory (TileLang's common shape): the float32
# accumulator is converted into a shared tile, which one T.copy writes to C. On cuda:sm_90a the
# main loop takes the TMA + mbarrier + wgmma schedule and the epilogue's T.copy(C_shared, C[...])
# is one TMA store (compiler/ops/CopyTma.cpp) where the rule allows it: N * 2 bytes a multiple
# of 16 (N = 1000 is; N = 1001 keeps plain stores). M, N, K need not be multiples of the tiles.
#   tilec run tests/e2e/programs/gemm_smem_epilogue.py --target cuda:sm_90a --param M=1000 --param N=1000 --param K=1000
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M=256, N=256, K=256, block_M=128, block_N=128, block_K=32, dtype="float16", accum_dtype="float",
           num_stages=3, threads=128):

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_shared = T.alloc_shared((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C_shared)
            T.copy(C_shared, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A @ B
