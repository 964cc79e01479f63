# A typo in a dtype name.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        for i in T.Parallel(64):
            B[i] = T.cast(A[i], "float17")  # expect-error(col 33): unknown dtype 'float17'
