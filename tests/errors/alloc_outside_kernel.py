import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    s = T.alloc_shared((64,), "float32")  # expect-error: T.alloc_shared must be inside 'with T.Kernel(...)'
    with T.Kernel(1, threads=64) as (bx,):
        T.copy(A, s)
