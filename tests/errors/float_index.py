# A float expression used as an index.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        for i in T.Parallel(32):
            B[i] = A[i * 0.5]  # expect-error(col 20): index of 'A' is a float32 value
