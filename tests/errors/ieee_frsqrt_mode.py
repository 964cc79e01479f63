import tilelang.language as T


# T.ieee_frsqrt rounds to nearest only; a mode given to it says so (not "takes 1 positional argument").
@T.prim_func
def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128) as bx:
        for i in T.Parallel(128):
            B[i] = T.ieee_frsqrt(A[i], "rz")  # expect-error(col 40): T.ieee_frsqrt takes no rounding mode: it rounds to nearest (CUDA's __frsqrt_rn)
            # expect-hint: drop the mode, or use T.ieee_frcp(T.ieee_fsqrt(x, mode), mode) (two roundings)
