import tilelang.language as T


# A split-K style function with a second launch (e.g. a combine step) in the same prim_func:
# TileScope compiles one launch per kernel function; split it into two kernels of the file.
@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
        for i in T.Parallel(64):
            B[i] = A[i]
    with T.Kernel(1, threads=64) as bx:  # expect-error: only one T.Kernel per kernel function is supported
        for i in T.Parallel(64):
            B[i] = B[i] * 2.0
