# T.Kernel without grid extents is one block (TileLang's debug tests write `with T.Kernel(threads=16):`),
# but has no block index to bind (TileLang's autodd example minimizes a buggy kernel to this).
import tilelang
import tilelang.language as T


@tilelang.jit
def k(N=64):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32")):
        with T.Kernel(threads=128) as bx:  # expect-error(col 39): T.Kernel without grid extents has no block index to bind
            A[0] = 1.0

    return main
