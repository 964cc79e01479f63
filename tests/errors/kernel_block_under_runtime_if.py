import tilelang.language as T


# Two T.Kernel blocks run one after the other; a block under a run-time condition would need
# host code between the launches, which TileScope does not generate.
@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32"), n: T.int32):
    with T.Kernel(1, threads=64) as bx:
        for i in T.Parallel(64):
            B[i] = A[i]
    if n > 0:  # expect-error: may contain only the blocks at its top level
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                B[i] = B[i] * 2.0
