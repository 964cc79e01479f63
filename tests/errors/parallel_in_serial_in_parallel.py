import tilelang.language as T


# A T.Parallel under a serial loop inside a T.Parallel nest is not part of the nest's layout either.
@T.prim_func
def main(A: T.Tensor((48, 40), "float32"), B: T.Tensor((48, 40), "float32")):
    with T.Kernel(3, threads=64) as bx:
        for i in T.Parallel(16):
            for k in T.serial(2):
                for j in T.Parallel(20):  # expect-error(col 17): a T.Parallel loop inside the T.Parallel loop at line 8 must be the whole body of the loop around it
                    B[bx * 16 + i, k * 20 + j] = A[bx * 16 + i, k * 20 + j]
