import tilelang.language as T


# Offsetting a raw device pointer (an element of a pointer table) is not supported.
@T.prim_func
def main(A_ptrs: T.Tensor((4,), T.ptr), B: T.Tensor((64,), "float32")):
    with T.Kernel(4, threads=64) as bx:
        A = T.make_tensor(A_ptrs[bx] + 128, (64,), "float32")  # expect-error: arithmetic or a comparison of a raw device pointer (an element of pointer table 'A_ptrs') is not supported
        for i in T.Parallel(64):
            B[i] = A[i]
