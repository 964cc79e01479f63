import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as (bx,):
        s = T.alloc_shared((64,), "float32")
        T.fill(s, 0.0)
        s[70] = 1.0  # expect-error: index 70 is out of bounds for dimension 0 of 's'
        T.copy(s, A)
