import tilelang.language as T


# T.view of a kernel tensor as another dtype covers the tensor's bytes: 64 x 64 float32 is twice
# the bytes of 64 x 64 float16 (the last extent scales by the ratio of the element sizes).
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        w = T.view(A, (64, 64), "float32")  # expect-error: T.view: the view has 16384 bytes (4096 float32) but 'A' has 8192 (4096 float16)
        T.copy(w, B)
