# A GEMM whose K loop is T.serial, not T.Pipelined: each iteration copies its A and B tiles
# global -> shared (plain T.copy: one TMA load each on sm_90a, waited on its own mbarrier) and
# multiplies them. The static timeline (tilec timeline, compiler/analysis/HopperTimeline.cpp)
# shows one occupancy row per shared tile (A_shared, B_shared), each tile held from its copy's
# issue to the gemm that last reads it (HopperTimelineStores.PlainCopyOccupancyRowsPerBuffer).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def plain_copy_gemm(M=64, N=64, K=96, block_M=64, block_N=64, block_K=32, dtype="float16", threads=128):

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(C_local)
            for k in T.serial(T.ceildiv(K, block_K)):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A.float() @ B.float()
