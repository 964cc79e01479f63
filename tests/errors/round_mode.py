import tilelang.language as T


# T.round rounds ties to even (TVM's round) or, asked, away from zero; nothing else.
@T.prim_func
def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128) as bx:
        for i in T.Parallel(128):
            B[i] = T.round(A[i], "ties-to-odd")  # expect-error(col 34): T.round: rounding mode 'ties-to-odd' is not one TileLang has
            # expect-hint: use "ties-to-even" (the default, CUDA's nearbyint) or "ties-away-from-zero" (C's round)
