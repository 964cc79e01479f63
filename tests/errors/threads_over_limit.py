# More threads per block than CUDA allows.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=2048) as (bx,):  # expect-error(col 10): T.Kernel: threads=2048 is outside 1..1024 threads per block
        for i in T.Parallel(64):
            A[i] = 0.0
