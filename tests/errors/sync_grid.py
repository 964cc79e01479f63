# T.sync_grid, the grid-wide barrier of persistent kernels (TileLang launches them
# cooperatively): TileScope does not do cooperative launches and says so at the call, with the
# rewrite it supports (two T.Kernel blocks launched in order).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def two_phase(N=1024, blocks=8):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), Tmp: T.Tensor((N,), "float32"),
             B: T.Tensor((N,), "float32")):
        with T.Kernel(blocks, threads=128) as bid:
            for i in T.Parallel(N // blocks):
                Tmp[bid * (N // blocks) + i] = A[bid * (N // blocks) + i] * 2.0
            T.sync_grid()  # expect-error: T.sync_grid (a grid-wide barrier) is not supported by TileScope
            for i in T.Parallel(N // blocks):
                B[i * blocks + bid] = Tmp[i * blocks + bid]

    return main
