import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "int32"), B: T.Tensor((64,), "int32")):
    with T.Kernel(1, threads=64) as (bx,):
        for i in T.Parallel(64):
            B[i] = T.atomic_add(A[0], 1, return_prev=True)  # expect-error: return_prev=True) is not supported yet
