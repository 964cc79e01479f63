import tilelang.language as T


# A loop bound to a thread index (per-thread code): TileScope programs distribute work with
# T.Parallel over the block's threads instead.
@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
        for tx in T.thread_binding(0, 64, thread="threadIdx.x"):  # expect-error: T.thread_binding is not supported by TileScope yet
            B[tx] = A[tx]
