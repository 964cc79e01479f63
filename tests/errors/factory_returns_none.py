# A factory that forgets `return main`.
import tilelang
import tilelang.language as T


def k(N=64):  # expect-error(col 5): 'k' must return its @T.prim_func, but it returned NoneType
    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            for i in T.Parallel(N):
                A[i] = 0.0
