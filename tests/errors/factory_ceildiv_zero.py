# A block size of zero reaches T.ceildiv in the grid.
import tilelang
import tilelang.language as T


def k(N=64, block=0):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=128) as (bx,):  # expect-error(col 36): T.ceildiv() by zero
        # expect-hint: the divisor is a tile size or count that came out 0
            for i in T.Parallel(N):
                A[i] = 0.0
    return main
