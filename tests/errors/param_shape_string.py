# A tensor extent given as a string.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor(("64",), "float32")):  # expect-error(col 22): T.Tensor shape entry must be an integer, got str ('64')
    with T.Kernel(1, threads=128) as (bx,):
        for i in T.Parallel(64):
            A[i] = 0.0
