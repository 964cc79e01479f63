import tilelang.language as T


# T.ptr is only the element type of a pointer table parameter, not of an on-chip buffer.
@T.prim_func
def main(P: T.Tensor((4,), T.ptr), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
        S = T.alloc_shared((4,), T.ptr)  # expect-error: T.ptr (a raw device pointer) is only supported as the element type of a kernel tensor parameter
        for i in T.Parallel(64):
            B[i] = 0.0
