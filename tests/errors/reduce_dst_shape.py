import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((32, 64), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        x = T.alloc_fragment((32, 64), "float32")
        s = T.alloc_fragment((64,), "float32")
        T.copy(A, x)
        T.reduce_sum(x, s, dim=1)  # expect-error: the destination 's' has shape (64,) but reducing 'x' (32, 64) over dim 1 gives (32,)
        T.copy(s, B)
