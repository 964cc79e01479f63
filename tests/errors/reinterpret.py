import tilelang.language as T


# T.reinterpret is a bit cast: the value and the dtype must have the same width.
@T.prim_func
def main(A: T.Tensor((64,), "float16"), B: T.Tensor((64,), "int32")):
    with T.Kernel(1, threads=64) as bx:
        for i in T.Parallel(64):
            B[i] = T.reinterpret(A[i], "int32")  # expect-error: T.reinterpret keeps the width: the value is float16 (16 bits) but int32 has 32 bits
