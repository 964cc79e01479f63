# A negative tensor extent.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((-4,), "float32")):  # expect-error(col 22): T.Tensor shape: extent -4 of dimension 0 must be positive
    with T.Kernel(1, threads=128) as (bx,):
        for i in T.Parallel(4):
            A[i] = 0.0
