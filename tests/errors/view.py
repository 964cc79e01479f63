import tilelang.language as T


# T.view reinterprets a buffer with another shape or dtype: TileScope has no buffer views.
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 32), "float32")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float16")
        T.copy(A, s)
        w = T.view(s, (64, 32), "float32")  # expect-error: T.view is not supported by TileScope yet
        T.copy(w, B)
