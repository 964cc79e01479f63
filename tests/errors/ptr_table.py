import tilelang.language as T


@T.prim_func
def main(A_ptrs: T.Tensor((4,), T.ptr), C: T.Tensor((64,), "float16")):  # expect-error: T.ptr (a tensor of raw device pointers for T.make_tensor) is not supported
    with T.Kernel(1, threads=64) as (bx,):
        tx = T.get_thread_binding()
        C[tx] = 0
