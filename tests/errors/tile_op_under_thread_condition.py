import tilelang.language as T


# Tile ops inside a warp role (an `if` on the thread index selecting a range of whole warps, as
# `T.get_thread_binding() < 32`) are lowered for the role's threads; under any other condition on
# the thread index only part of a warp would run them, which TileScope refuses.
@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float32")
        if T.get_thread_binding() < 48:
            T.copy(A, s)  # expect-error: T.copy under a condition on the thread index (the 'if' at line 11)
        T.copy(s, B)
