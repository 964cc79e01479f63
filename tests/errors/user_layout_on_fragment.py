import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        X = T.alloc_fragment((64, 64), "float32")
        T.annotate_layout({X: T.Layout((64, 64), lambda i, j: [i, j])})  # expect-error(col 27): T.Layout applies to shared buffers
        T.copy(A, X)
        T.copy(X, B)
