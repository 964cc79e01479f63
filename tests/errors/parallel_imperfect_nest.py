import tilelang.language as T


# One T.Parallel nest is one layout over all its axes: an inner T.Parallel with statements beside
# it (found by the pipeline fuzzer, 2026-12-03, as an internal error after lower-tile-ops) has no
# layout of its own. A perfect nest (the inner loop is the whole body) compiles.
@T.prim_func
def main(A: T.Tensor((48, 40), "float32"), B: T.Tensor((48, 40), "float32")):
    with T.Kernel(3, threads=64) as bx:
        for i, j in T.Parallel(16, 40):
            for p, q in T.Parallel(16, 40):  # expect-error(col 13): a T.Parallel loop inside the T.Parallel loop at line 10 must be the whole body of the loop around it
                B[bx * 16 + p, q] = A[bx * 16 + p, q] * 2.0
            B[bx * 16 + i, j] = A[bx * 16 + i, j] * 3.0
