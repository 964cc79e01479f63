import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((32, 32), "float32"), B: T.Tensor((32, 32), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        x = T.alloc_fragment((32, 32), "float32")
        T.copy(A, x)
        for i, j in T.Parallel(32, 32):
            x[j, i] = x[i, j] * 2.0  # expect-error: fragment 'x' must be indexed by the T.Parallel loop variables in order
        T.copy(x, B)
