import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "int32"), B: T.Tensor((64,), "int32")):
    with T.Kernel(1, threads=64) as (bx,):
        T.atomic_max(A[0:64], B, return_prev=True)  # expect-error: T.atomic_max(return_prev=True) needs one element of a global tensor or a shared buffer
