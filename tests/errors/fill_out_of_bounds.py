import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as (bx,):
        buf = T.alloc_shared((64,), "float32")
        T.fill(buf[48:80], 1.0)  # expect-error: T.fill: region of 'buf' is out of bounds in dimension 0
        T.copy(buf, A)
