import tilelang.language as T


# A single raw pointer as a scalar kernel parameter (TileLang's `a_ptr: T.ptr`).
@T.prim_func
def main(a_ptr: T.ptr, B: T.Tensor((64,), "float32")):  # expect-error: a single raw device pointer (T.ptr) is not supported by TileScope yet
    with T.Kernel(1, threads=64) as bx:
        for i in T.Parallel(64):
            B[i] = 0.0
