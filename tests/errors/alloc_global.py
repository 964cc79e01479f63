import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    scratch = T.alloc_global((64,), "float32")  # expect-error: T.alloc_global is not supported by TileScope yet
    # expect-hint: pass the scratch tensor as a kernel parameter instead
    with T.Kernel(1, threads=64) as (bx,):
        for i in T.Parallel(64):
            B[i] = A[i]
