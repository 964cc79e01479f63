# T.sync_grid inside an `if` inside T.Parallel: the loop can only be split at a barrier directly
# in its body (its iterations are the block's threads; under the if only some would reach it).
import tilelang
import tilelang.language as T


@tilelang.jit
def nested(N=1024, blocks=8):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(blocks, threads=128) as bid:
            for i in T.Parallel(N // blocks):
                B[bid * (N // blocks) + i] = A[bid * (N // blocks) + i]
                if i < 4:
                    T.sync_grid()  # expect-error: T.sync_grid nested inside a statement of a T.Parallel loop
                B[bid * (N // blocks) + i] = B[bid * (N // blocks) + i] + 1.0

    return main
