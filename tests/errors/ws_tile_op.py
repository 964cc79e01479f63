import tilelang.language as T


# Tile ops inside a warp role (T.ws, `if tx < 128`) are lowered for the role's threads; under a
# thread condition that is not a range of whole warps they are refused (per-thread code is fine).
@T.prim_func
def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1, threads=256) as bx:
        tx = T.get_thread_binding()
        s = T.alloc_shared((64, 64), "float32")
        with T.ws(1):
            T.copy(A, s)
        if tx < 48:
            T.copy(s, B)  # expect-error: T.copy under a condition on the thread index
