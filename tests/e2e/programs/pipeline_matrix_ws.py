# Issue 9's pipeline matrix, warp-specialized variant, written as TileLang users write it: a
# producer warp group (T.ws(1)) fills a ring of `stages` shared slots with T.tma_copy, each slot
# guarded by a "full" and an "empty" mbarrier; the consumer warp group (T.ws(0)) waits for a
# full slot, accumulates with T.gemm and frees the slot. Slot s = k % stages is used for the
# (k // stages)-th time in iteration k: the consumer waits on full parity (k // stages) % 2, the
# producer on empty parity (k // stages + 1) % 2 (a fresh barrier's "previous phase" counts as
# complete, so each slot starts free). Trip counts 1..3 x stages 1..3.
#   C = A @ B  (K = trips * block_K)
#   tilec run tests/e2e/programs/pipeline_matrix_ws.py --param trips=3 --param stages=2 --target cuda:sm_90a
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2])
def pipeline_ws(trips=2, stages=2, M=128, N=64, block_M=64, block_N=64, block_K=32):
    K = trips * block_K

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_s = T.alloc_shared((stages, block_M, block_K), "float16")
            B_s = T.alloc_shared((stages, block_K, block_N), "float16")
            acc = T.alloc_fragment((block_M, block_N), "float32")
            full = T.alloc_barrier([128] * stages)
            empty = T.alloc_barrier([128] * stages)
            with T.ws(0):
                T.clear(acc)
            for k in T.Pipelined(trips, num_stages=stages):
                with T.ws(1):
                    T.barrier_wait(empty[k % stages], (k // stages + 1) % 2)
                    T.tma_copy(A[by * block_M, k * block_K], A_s[k % stages, :, :], barrier=full[k % stages])
                    T.tma_copy(B[k * block_K, bx * block_N], B_s[k % stages, :, :], barrier=full[k % stages])
                    T.barrier_arrive(full[k % stages])
                with T.ws(0):
                    T.barrier_wait(full[k % stages], (k // stages) % 2)
                    T.gemm(A_s[k % stages, :, :], B_s[k % stages, :, :], acc)
                    T.barrier_arrive(empty[k % stages])
            with T.ws(0):
                T.copy(acc, C[by * block_M, bx * block_N])

    return main


def ref_program(A, B):
    return A.float() @ B.float()
