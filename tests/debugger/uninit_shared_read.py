# Seeded bug for the debugger's never-written check: only the first half of the shared tile is
# filled, then every thread reads its element. DebuggerCheckersTest expects the read line and
# the line declaring S (a float tile would otherwise just carry NaN into B).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def half(N=128, dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(1, threads=N) as bx:
            S = T.alloc_shared((N,), dtype)  # declared
            for i in T.Parallel(N // 2):
                S[i] = A[i]  # BUG: the second half is never written
            for i in T.Parallel(N):
                B[i] = S[i]  # read

    return main


def ref_program(A):
    return A
