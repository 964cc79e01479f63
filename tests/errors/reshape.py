import tilelang.language as T


# T.reshape views a buffer with another shape (the same memory): views of kernel tensors are
# supported, views of on-chip memory (shared, fragment, local) are not yet.
@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((4096,), "float32")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float32")
        T.copy(A, s)
        flat = T.reshape(s, (4096,))  # expect-error: T.reshape: a view of shared 's' is not supported yet (only of kernel tensors)
        T.copy(flat, B)
