import tilelang.language as T


# Tile ops are lowered for all the block's threads: under an `if` on the thread index only a
# subset would run them (TileLang lowers such code for the subset; TileScope refuses it).
@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float32")
        if T.get_thread_binding() < 32:
            T.copy(A, s)  # expect-error: T.copy under a condition on the thread index (the 'if' at line 10)
        T.copy(s, B)
