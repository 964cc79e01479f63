# Compile-time Python that would build a 2 GB string.
import tilelang
import tilelang.language as T


def k(N=64):
    s = "ab" * 1000000000  # expect-error(col 9): sequence repetition is too large (2 * 1000000000)
    # expect-hint: the compile-time interpreter builds the whole list in memory
    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            for i in T.Parallel(N):
                A[i] = 0.0
    return main
