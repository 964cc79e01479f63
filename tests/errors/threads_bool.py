# A bool is int-like in Python but not a thread count: threads=True was taken as one thread.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=True) as (bx,):  # expect-error(col 10): T.Kernel threads= must be positive compile-time integers, got True
        for i in T.Parallel(64):
            A[i] = 0.0
