import tilelang
import tilelang.language as T


# A 0-d tensor (`T.Tensor[()]`, TileLang's scalar buffer) reached codegen as an internal error.
@tilelang.jit
def k(M=64):
    @T.prim_func
    def main(A: T.Tensor[()], B: T.Tensor[(M,)]):  # expect-error(col 17): T.Tensor with an empty shape (a 0-d tensor) is not supported by TileScope
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(M):
                B[i] = A[()]

    return main
