# A grid barrier that block 0 skips: the other blocks would wait for it forever on the GPU. The
# condition is on the block index, uniform inside each block, so it compiles; both interpreters
# report the deadlock instead of hanging.
import tilelang
import tilelang.language as T


@tilelang.jit
def skipped_barrier(N=256, width=64):
    @T.prim_func
    def main(X: T.Tensor((N,), "float32"), Y: T.Tensor((N,), "float32")):
        with T.Kernel(N // width, threads=64) as b:
            for i in T.Parallel(width):
                Y[b * width + i] = X[b * width + i]
            if b > 0:
                T.sync_grid()
            for i in T.Parallel(width):
                Y[b * width + i] = Y[b * width + i] + X[N - 1 - b * width - i]

    return main
