# T.sync_grid inside a warp role (T.ws): only that warp group's threads reach the grid barrier.
import tilelang
import tilelang.language as T


@tilelang.jit
def role_barrier(N=1024, blocks=8):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(blocks, threads=256) as bid:
            for i in T.Parallel(N // blocks):
                B[bid * (N // blocks) + i] = A[bid * (N // blocks) + i]
            with T.ws(1):
                T.sync_grid()  # expect-error: T.sync_grid inside thread-dependent control flow
            for i in T.Parallel(N // blocks):
                B[i * blocks + bid] = B[i * blocks + bid] + 1.0

    return main
