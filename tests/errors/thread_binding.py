import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as (bx,):
        tx = T.get_thread_binding()  # expect-error: T.get_thread_binding is not supported by TileScope yet
        B[tx] = A[tx]
