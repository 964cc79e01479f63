# T.sync_grid under a condition on the thread index: the grid barrier waits for every thread of
# every block, so only some threads reaching it would hang the GPU. Reported at the call.
import tilelang
import tilelang.language as T


@tilelang.jit
def half_block(N=1024, blocks=8):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(blocks, threads=128) as bid:
            tx = T.get_thread_binding()
            for i in T.Parallel(N // blocks):
                B[bid * (N // blocks) + i] = A[bid * (N // blocks) + i] * 2.0
            if tx < 64:
                T.sync_grid()  # expect-error: T.sync_grid inside thread-dependent control flow
            for i in T.Parallel(N // blocks):
                B[i * blocks + bid] = B[i * blocks + bid] + 1.0

    return main
