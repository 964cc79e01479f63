import tilelang.language as T


# Casting a pointer to an integer (to offset it by hand) is not supported.
@T.prim_func
def main(P: T.Tensor((4,), T.ptr), B: T.Tensor((4,), "int64")):
    with T.Kernel(1, threads=4) as bx:
        for i in T.serial(4):
            B[i] = T.cast(P[i], "int64")  # expect-error: T.cast of a raw device pointer
