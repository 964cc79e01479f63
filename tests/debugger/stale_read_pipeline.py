# Input of the seeded missing-cp.async-wait bug: a pipelined loop that copies a tile into shared
# memory (cp.async) and consumes it. The program is correct; DebuggerCheckersTest removes every
# tl.cp_async_wait from its lowered IR (a broken pipeline pass) and expects the stale read
# reported with the consuming line and the copy line.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def rowsum(M=128, K=128, block_K=32, dtype="float16", num_stages=2):

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=M) as bx:
            A_shared = T.alloc_shared((M, block_K), dtype)
            acc = T.alloc_fragment((M,), "float32")
            T.clear(acc)
            for k in T.Pipelined(K // block_K, num_stages=num_stages):
                T.copy(A[0, k * block_K], A_shared)  # copy
                for i in T.Parallel(M):
                    for j in T.serial(block_K):
                        acc[i] += A_shared[i, j]  # consume
            T.copy(acc, B)

    return main


def ref_program(A):
    return A.float().sum(1)
