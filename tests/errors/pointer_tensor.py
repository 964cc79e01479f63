import tilelang.language as T


# A tensor of pointers (grouped GEMM over separately allocated matrices).
@T.prim_func
def main(A_ptrs: T.Tensor((4,), T.ptr), B: T.Tensor((64,), "float32")):  # expect-error: T.ptr (a tensor of raw device pointers for T.make_tensor) is not supported
    with T.Kernel(1, threads=64) as bx:
        for i in T.Parallel(64):
            B[i] = 0.0
