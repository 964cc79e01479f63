import tilelang.language as T


@T.prim_func
def main(X: T.Tensor((256,), "float32"), Y: T.Tensor((256,), "float32")):
    with T.Kernel(1, threads=128) as bx:
        x = T.alloc_fragment((256,), "float32")
        T.copy(X, x)
        for i in T.Parallel(256):
            Y[i] = x[i] - x[0]  # expect-error: fragment 'x' is read at a fixed index inside a T.Parallel loop, but not every thread running the loop holds a copy of it
