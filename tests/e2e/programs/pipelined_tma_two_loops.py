# Two T.Pipelined copy loops in one kernel, the second inside an outer T.serial loop: on sm_90a
# each loop's copies are TMA loads on a per-stage mbarrier array of its own
# (compiler/transforms/InjectPipelineTmaLoads.cpp), and the nested one is initialized again on
# every outer iteration, after a block barrier (every wait on the previous phases is over).
# K = 136: the last 64-column tile runs past the rows (TMA reads zeros there, never stored).
#   OutA = A, OutB = B
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3])
def pipelined_tma_two_loops(M=64, K=136, block_M=16, block_K=64, stages=2, reps=3, dtype="float16"):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((M, K), dtype), OutA: T.Tensor((M, K), dtype),
             OutB: T.Tensor((M, K), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (by,):
            As = T.alloc_shared((block_M, block_K), dtype)
            Bs = T.alloc_shared((block_M, block_K), dtype)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=stages):
                T.copy(A[by * block_M, k * block_K], As)
                T.copy(As, OutA[by * block_M, k * block_K])
            for r in T.serial(reps):
                for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=stages):
                    T.copy(B[by * block_M, k * block_K], Bs)
                    T.copy(Bs, OutB[by * block_M, k * block_K])

    return main


def ref_program(A, B):
    return A, B
