import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as (bx,)  # expect-error: expected ':'
        T.clear(A)
