import tilelang.language as T


# A TMA reduce-add returns nothing: use_tma=True with return_prev=True is an error, not ignored.
@T.prim_func
def main(A: T.Tensor((64,), "int32"), B: T.Tensor((64,), "int32")):
    with T.Kernel(1, threads=64) as bx:
        for i in T.Parallel(64):
            B[i] = T.atomic_add(A[0], 1, return_prev=True, use_tma=True)  # expect-error(col 60): T.atomic_add: use_tma=True with return_prev=True: a TMA reduce-add returns no previous value
            # expect-hint: drop use_tma (one atomic per element returns the value it replaced)
