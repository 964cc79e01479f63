# Input of the seeded mbarrier-count bug (sm_90a): a gemm whose T.Pipelined loop the sm_90a
# lowering turns into TMA loads completing on one mbarrier per stage (expect_tx + the loads'
# transaction bytes) and wgmma. The program is correct; DebuggerCheckersTest raises the arrival
# count of the stage-0 mbarrier's tl.mbarrier_init by one in the lowered IR (a broken pipeline
# pass: hand-written mbarrier schedules are not in the language yet) and expects the deadlock
# reported within 1 s, naming the mbarrier, the wait's line and the init's line, with 1 of 2
# arrivals and 8192 of 8192 transaction bytes.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M=64, N=64, K=128, block_K=32, dtype="float16", num_stages=2):

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            A_shared = T.alloc_shared((M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, N), dtype)
            C_local = T.alloc_fragment((M, N), "float")
            T.clear(C_local)
            for k in T.Pipelined(K // block_K, num_stages=num_stages):  # pipelined loop
                T.copy(A[0, k * block_K], A_shared)  # copy A
                T.copy(B[k * block_K, 0], B_shared)  # copy B
                T.gemm(A_shared, B_shared, C_local)  # gemm
            T.copy(C_local, C)

    return main


def ref_program(A, B):
    return A @ B
