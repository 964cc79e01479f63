import tilelang.language as T


# T.reduce_sum of a shared buffer: TileScope reduces fragments (copy the tile into one first).
@T.prim_func
def main(A: T.Tensor((32, 64), "float32"), B: T.Tensor((32,), "float32")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((32, 64), "float32")
        r = T.alloc_fragment((32,), "float32")
        T.copy(A, s)
        T.reduce_sum(s, r, dim=1)  # expect-error: T.reduce: source and destination must be fragments
        T.copy(r, B)
