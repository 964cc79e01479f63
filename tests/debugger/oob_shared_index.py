# Seeded bug for the debugger's bounds checker: the shared index is shifted by a scalar
# argument that no pass can bound (shift = 1 at run time), so thread 127 stores S[128] into a
# 128-element tile. DebuggerCheckersTest expects the store line and the line declaring S.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def shifted(N=128, dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype), shift: T.int32):
        with T.Kernel(1, threads=N) as bx:
            S = T.alloc_shared((N,), dtype)  # declared
            for i in T.Parallel(N):
                S[i + shift] = A[i]  # BUG: out of bounds for i + shift >= N
            for i in T.Parallel(N):
                B[i] = S[i]

    return main


def ref_program(A, shift):
    return A
