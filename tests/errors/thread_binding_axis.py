import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
        tx = T.thread_binding(0, 64, thread="blockIdx.x")  # expect-error: T.thread_binding: 'blockIdx.x' is not a thread index
        B[tx] = A[tx]
