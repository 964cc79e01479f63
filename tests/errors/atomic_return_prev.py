import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float16"), B: T.Tensor((64,), "float16")):
    with T.Kernel(1, threads=64) as (bx,):
        for i in T.Parallel(64):
            B[i] = T.atomic_add(A[0], 1, return_prev=True)  # expect-error: T.atomic_add(return_prev=True) on float16 'A' is not supported yet
