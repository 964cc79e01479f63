import tilelang.language as T


# T.make_tensor needs a pointer-table element; an int64 tensor's element is not a pointer.
@T.prim_func
def main(Offs: T.Tensor((4,), "int64"), B: T.Tensor((64,), "float32")):
    with T.Kernel(4, threads=64) as bx:
        A = T.make_tensor(Offs[bx], (64,), "float32")  # expect-error: T.make_tensor: the pointer must be an element of a pointer table, got an element of 'Offs' (int64, not a T.ptr tensor)
        for i in T.Parallel(64):
            B[i] = A[i]
