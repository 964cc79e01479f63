# A float extent for T.Parallel.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        for i in T.Parallel(64.0):  # expect-error(col 29): T.Parallel extent must be an integer, got float (64.0)
            A[i] = 0.0
