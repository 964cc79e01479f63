# An empty grid.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(0, threads=128) as (bx,):  # expect-error(col 5): grid extent 0 must be a positive compile-time constant (got 0)
        for i in T.Parallel(64):
            A[i] = 0.0
