import tilelang.language as T


# The barrier of T.tma_copy indexes the barriers T.alloc_barrier made: bars holds 2, so bars[2]
# names no barrier.
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float16")
        bars = T.alloc_barrier([128, 128])
        T.tma_copy(A, s, barrier=bars[2])  # expect-error: T.tma_copy: barrier index 2 is out of range: 'bars' holds 2 barriers (indices 0..1)
        T.barrier_arrive(bars[0])
        T.barrier_wait(bars[0], 0)
        T.copy(s, B)
