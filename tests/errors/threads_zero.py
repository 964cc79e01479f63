# threads=0.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=0) as (bx,):  # expect-error(col 10): T.Kernel threads= must be positive compile-time integers, got 0
        for i in T.Parallel(64):
            A[i] = 0.0
