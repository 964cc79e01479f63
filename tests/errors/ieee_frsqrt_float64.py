import tilelang.language as T


# __frsqrt_rn is float32's: a float64 T.ieee_frsqrt would round twice (TileLang refuses it too).
@T.prim_func
def main(A: T.Tensor((128,), "float64"), B: T.Tensor((128,), "float64")):
    with T.Kernel(1, threads=128) as bx:
        for i in T.Parallel(128):
            B[i] = T.ieee_frsqrt(A[i])  # expect-error(col 20): T.ieee_frsqrt: float64 has no correctly rounded reciprocal square root (CUDA has __frsqrt_rn for float32 only; TileLang refuses it too)
            # expect-hint: use 1.0 / T.sqrt(x) (two roundings), or cast x to float32
