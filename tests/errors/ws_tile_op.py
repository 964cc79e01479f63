import tilelang.language as T


# Tile ops inside a warp role (T.ws): TileLang lowers them for the role's threads; TileScope
# lowers a tile op for the whole block and refuses it there (per-thread code is fine).
@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=256) as bx:
        s = T.alloc_shared((64, 64), "float32")
        with T.ws(1):
            T.copy(A, s)  # expect-error: T.copy under a condition on the thread index
        T.copy(s, B)
