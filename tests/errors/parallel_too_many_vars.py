# Unpacking two loop variables from a one-dimensional T.Parallel.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        for i, j in T.Parallel(64):  # expect-error(col 13): T.Parallel yields 1 loop variable, but the loop binds 2
            A[i] = 0.0
