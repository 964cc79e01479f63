import tilelang.language as T


# T.thread_binding used as a value must span the whole block dimension: TileScope launches the
# T.Kernel's threads, not a sub-range of them.
@T.prim_func
def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=64) as bx:
        tx = T.thread_binding(0, 32, thread="threadIdx.x")  # expect-error: T.thread_binding over 32 threads of threadIdx.x, but the T.Kernel has 64 along x
        B[tx] = A[tx]
