import tilelang.language as T


# T.make_tensor takes one pointer, not the whole table.
@T.prim_func
def main(P: T.Tensor((4,), T.ptr), B: T.Tensor((64,), "float32")):
    with T.Kernel(4, threads=64) as bx:
        A = T.make_tensor(P, (64,), "float32")  # expect-error: T.make_tensor: the pointer must be one element of pointer table 'P', got the whole buffer 'P'
        for i in T.Parallel(64):
            B[i] = A[i]
