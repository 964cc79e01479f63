import tilelang.language as T


# T.reshape views a buffer with another shape (the same memory): views of kernel tensors and of
# shared buffers are supported, views of a thread's local array are not yet.
@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((4096,), "float32")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_local((4, 4), "float32")
        flat = T.reshape(s, (16,))  # expect-error: T.reshape: a view of local 's' is not supported yet
        T.copy(A, B[0:4096])
