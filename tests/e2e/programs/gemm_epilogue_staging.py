# A GEMM whose accumulator goes straight to global memory (samples/gemm.py's epilogue), with the
# switches the stage-epilogue pass (compiler/transforms/StageEpilogue.cpp) reads: `direct` sets
# disable_tma on the final T.copy (keeps the stores from registers), `after` adds a use of a
# shared tile after it (D_shared) (no bytes free for a staged tile then), `barrier` a hand-written
# mbarrier (T.alloc_barrier: the lowering takes no TMA store in such kernels, so nothing is staged),
# `before` a 16 KiB shared tile used before the loop only (E_shared: plan-smem gives the pipeline's tiles
# its bytes, so they do not add up to a free 32 KiB with it), `out_dtype` C's dtype (float32: 8-byte
# pairs are not conflict-free in the swizzled tile, so nothing is staged).
#   tilec compile tests/e2e/programs/gemm_epilogue_staging.py --target cuda:sm_90a
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M=256, N=256, K=128, block_M=128, block_N=128, block_K=32, dtype="float16", num_stages=3, threads=128,
           direct=False, after=False, barrier=False, before=False, out_dtype=None):
    c_dtype = out_dtype or dtype

    @T.prim_func
    def main(
            A: T.Tensor((M, K), dtype),
            B: T.Tensor((K, N), dtype),
            C: T.Tensor((M, N), c_dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            D_shared = T.alloc_shared((block_M, block_K), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float")
            if before:
                E_shared = T.alloc_shared((block_M, block_N), "int8")
                T.fill(E_shared, 0)
                for i, j in T.Parallel(block_M, block_N):
                    C_local[i, j] = E_shared[i, j]
            else:
                T.clear(C_local)
            if barrier:
                bar = T.alloc_barrier(arrive_count=threads)
                T.mbarrier_arrive(bar)
                T.mbarrier_wait_parity(bar, 0)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N], disable_tma=direct)
            if after:
                T.copy(A[by * block_M, 0], D_shared)

    return main


def ref_program(A, B):
    return A @ B
