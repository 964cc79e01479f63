import tilelang.language as T


# A float16 view of twice the bytes of its float16 tensor at every n: with symbolic extents the
# bytes are otherwise checked at launch, but this one could never launch, so it is an error now.
@T.prim_func
def main(A: T.Tensor((T.dynamic("n"),), "float16"), B: T.Tensor((8,), "float32")):
    n = A.shape[0]
    with T.Kernel(1, threads=32) as bx:
        V = T.view(A, (n, 2), dtype="float32")  # expect-error: T.view: the view's extents give it a fixed multiple of the bytes of 'A' at every size, never the same (at n = 1 the view has 2 float32 (8 bytes), 'A' 1 float16 (2 bytes))
        # expect-hint: scale the last extent by the ratio of the element sizes
        for i in T.serial(8):
            B[i] = V[i, 0]

