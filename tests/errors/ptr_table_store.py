import tilelang.language as T


# Pointer tables are read-only inside the kernel (the host fills them).
@T.prim_func
def main(P: T.Tensor((4,), T.ptr), Q: T.Tensor((4,), T.ptr)):
    with T.Kernel(1, threads=4) as bx:
        for i in T.serial(4):
            P[i] = Q[i]  # expect-error: a store to pointer table 'P' is not supported
