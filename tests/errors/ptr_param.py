import tilelang.language as T


# A tensor of raw pointers (TileLang's grouped GEMM over pointer arrays).
@T.prim_func
def main(P: T.Tensor((4,), T.ptr), A: T.Tensor((128,), "float32")):  # expect-error: T.ptr (a tensor of raw device pointers for T.make_tensor) is not supported
    with T.Kernel(1, threads=128) as bx:
        A[0] = 1.0
