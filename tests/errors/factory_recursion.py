# Unbounded recursion in compile-time Python.
import tilelang
import tilelang.language as T


def depth(n):
    return depth(n + 1)  # expect-error(col 12): maximum compile-time recursion depth (200) exceeded calling 'depth'

def k(N=64):
    d = depth(0)
    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            for i in T.Parallel(N):
                A[i] = 0.0
    return main
