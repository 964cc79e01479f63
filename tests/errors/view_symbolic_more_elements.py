import tilelang.language as T


# A view of the same dtype with more elements than its tensor at every m (twice as many): refused
# when it compiles (symbolic extents are otherwise checked at launch).
@T.prim_func
def main(A: T.Tensor((T.dynamic("m"), 4), "float32"), B: T.Tensor((8,), "float32")):
    m = A.shape[0]
    with T.Kernel(1, threads=32) as bx:
        V = T.view(A, (m, 8))  # expect-error: T.view: the view's extents give it more elements than 'A' at every size, a fixed multiple (at m = 1 the view has 8 float32 (32 bytes), 'A' 4 float32 (16 bytes))
        for i in T.serial(8):
            B[i] = V[0, i]
