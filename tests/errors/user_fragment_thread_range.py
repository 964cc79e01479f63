import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        X = T.alloc_fragment((64, 64), "float32")
        layout = T.Fragment((64, 64), forward_thread_fn=lambda i, j: j * 4, forward_index_fn=lambda i, j: i)  # expect-error(col 18): element (0, 32) is mapped to thread 128, outside the kernel's 128 threads
        T.annotate_layout({X: layout})
        T.copy(A, X)
        T.copy(X, B)
