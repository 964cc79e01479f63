# A statement after the `with T.Kernel` block: there is no thread to run it.
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        for i in T.Parallel(64):
            A[i] = 0.0
    A[bx] = 1.0  # expect-error(col 5): a store to 'A' must be inside 'with T.Kernel(...)'
