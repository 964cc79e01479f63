# Block extents whose product is above 1024 threads, each below it.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=(64, 32)) as (bx,):  # expect-error(col 10): T.Kernel: threads=(64, 32) (2048 threads) is outside 1..1024 threads per block
        for i in T.Parallel(64):
            A[i] = 0.0
