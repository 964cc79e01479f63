import tilelang.language as T


# T.reinterpret reads a value's bits as another dtype.
@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "int32")):
    with T.Kernel(1, threads=64) as bx:
        for i in T.Parallel(64):
            B[i] = T.reinterpret(A[i], "int32")  # expect-error: T.reinterpret is not supported by TileScope yet
