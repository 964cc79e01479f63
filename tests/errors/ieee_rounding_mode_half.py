import tilelang.language as T


# 16-bit floats have round to nearest only (CUDA has no __hadd_rz); float32 has all four modes.
@T.prim_func
def main(A: T.Tensor((128,), "float16"), B: T.Tensor((128,), "float16")):
    with T.Kernel(1, threads=128) as bx:
        for i in T.Parallel(128):
            B[i] = T.ieee_mul(A[i], A[i], rounding_mode="rz")  # expect-error(col 43): T.ieee_mul: rounding mode 'rz' needs float32 or float64 operands (these are float16)
            # expect-hint: 16-bit floats have round to nearest ("rn") only: cast the operands to float32 for another mode
