import tilelang.language as T


# T.ieee_* take the PTX rounding modes rn, rz, ru, rd (TileLang raises "Invalid rounding mode").
@T.prim_func
def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128) as bx:
        for i in T.Parallel(128):
            B[i] = T.ieee_add(A[i], 1.0, "xy")  # expect-error(col 42): T.ieee_add: invalid rounding mode 'xy'
            # expect-hint: use "rn" (to nearest even), "rz" (toward zero), "ru" (toward +inf) or "rd" (toward -inf)
