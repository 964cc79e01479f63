import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float16"), B: T.Tensor((64,), "float16"), s: T.float16):  # expect-error: scalar kernel parameter 's' cannot be float16 yet
    with T.Kernel(1, threads=64) as (bx,):
        for i in T.Parallel(64):
            B[i] = A[i] * s
