import tilelang.language as T


# T.Tensor(shape, dtype, A.data) views A's memory with another shape: the whole tensor.
@T.prim_func
def main(A: T.Tensor((64, 4), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
        flat = T.Tensor((128,), "float32", A.data)  # expect-error: T.Tensor(..., A.data): the view has 128 elements but 'A' has 256
        for i in T.Parallel(64):
            B[i] = flat[i]
