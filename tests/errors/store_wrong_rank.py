# Two indices for a one-dimensional tensor.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        for i, j in T.Parallel(8, 8):
            A[i, j] = 0.0  # expect-error(col 13): too many indices for 'A': 2 given, rank 1
