# A list lookup past the end in the factory.
import tilelang
import tilelang.language as T


def k(N=64):
    sizes = [16, 32]
    block = sizes[5]  # expect-error(col 13): list index 5 is out of range (length 2)
    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as (bx,):
            for i in T.Parallel(block):
                A[i] = 0.0
    return main
