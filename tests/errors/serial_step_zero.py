# A loop step of zero.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        for i in T.serial(0, 64, 0):  # expect-error(col 34): T.serial() step must be a positive compile-time integer
            A[i] = 0.0
