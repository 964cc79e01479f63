# T.Kernel without grid extents (TileLang's autodd example minimizes a buggy kernel to this).
import tilelang
import tilelang.language as T


@tilelang.jit
def k(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(threads=128) as bx:  # expect-error(col 14): T.Kernel takes 1 to 3 grid extents, got 0
            A[0] = 1.0

    return main
