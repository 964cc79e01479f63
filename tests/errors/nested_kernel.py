# A T.Kernel inside another T.Kernel.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        with T.Kernel(1, threads=128) as (by,):  # expect-error(col 14): T.Kernel cannot be nested
            for i in T.Parallel(64):
                A[i] = 0.0
