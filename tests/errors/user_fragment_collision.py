import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        X = T.alloc_fragment((64, 64), "float32")
        # Only 64 columns pick the thread and i % 32 the register: rows 0 and 32 collide.
        layout = T.Fragment((64, 64), forward_thread_fn=lambda i, j: j, forward_index_fn=lambda i, j: i % 32)  # expect-error(col 18): elements (0, 0) and (32, 0) are both mapped to thread 0, local index 0
        T.annotate_layout({X: layout})
        T.copy(A, X)
        T.copy(X, B)
