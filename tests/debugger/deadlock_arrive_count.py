# Seeded bug for the debugger's deadlock checker: a named barrier (bar.sync 1, count) whose
# arrival count is one warp too many for the 128-thread block, so the phase never completes
# and every thread waits forever. DebuggerCheckersTest expects the report within 1 s, naming
# barrier 1, its line, 160 expected and 128 arrived.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_DISABLE_THREAD_STORAGE_SYNC: True})
def reverse(N=128, dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(1, threads=N) as bx:
            S = T.alloc_shared((N,), dtype)
            for i in T.Parallel(N):
                S[i] = A[i]
            T.sync_threads(0, N)  # a full barrier spelled as a named one: completes
            for i in T.Parallel(N):
                B[i] = S[N - 1 - i]
            T.sync_threads(1, N + 32)  # BUG: 160 arrivals expected, 128 threads arrive
            for i in T.Parallel(N):
                S[i] = B[i]

    return main


def ref_program(A):
    return A.flip(0)
