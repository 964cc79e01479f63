import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((32, 32), "float32"), B: T.Tensor((32, 32), "float32")):
    with T.Kernel(1, threads=32) as (bx,):
        X = T.alloc_fragment((32, 32), "float32")
        T.annotate_layout({X: T.Fragment((32, 32), forward_thread_fn=lambda i, j: j ^ i, forward_index_fn=lambda i, j: i)})  # expect-error(col 31): this layout cannot be lowered
        T.copy(A, X)
        T.copy(X, B)
