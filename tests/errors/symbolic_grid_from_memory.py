import tilelang.language as T


@T.prim_func
def main(Lens: T.Tensor((4,), "int32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(Lens[0], threads=64) as bx:  # expect-error: grid extent 0 must be a positive compile-time constant
        for i in T.Parallel(64):
            B[i] = 0.0
