import tilelang.language as T


@T.macro
def double(buf, n):
    for i in T.Parallel(n):
        buf[i] = buf[i] * 2.0


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as (bx,):
        s = T.alloc_fragment((64,), "float32")
        T.copy(A, s)
        double(s, 64, 2)  # expect-error(col 23): double() takes 2 positional arguments but 3 were given
        T.copy(s, A)
