# Seeded bug for the debugger's race checker: the kernel places its own barriers
# (TL_DISABLE_THREAD_STORAGE_SYNC turns TileLang's automatic ones off) and forgets the one
# between writing the shared tile and reading it reversed. Thread i reads S[127 - i], which
# thread 127 - i wrote: a race. DebuggerCheckersTest expects the read line and the write line.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_DISABLE_THREAD_STORAGE_SYNC: True})
def reverse(N=128, dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(1, threads=N) as bx:
            S = T.alloc_shared((N,), dtype)
            for i in T.Parallel(N):
                S[i] = A[i]  # write
            # BUG: missing T.sync_threads()
            for i in T.Parallel(N):
                B[i] = S[N - 1 - i]  # read

    return main


def ref_program(A):
    return A.flip(0)
