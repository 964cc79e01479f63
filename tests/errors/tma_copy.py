import tilelang.language as T


# T.tma_copy's barrier must be an mbarrier of T.alloc_barrier (TileLang's producer half of a TMA
# load: expect_tx on that barrier); a shared tile is not one.
@T.prim_func
def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16")):
    with T.Kernel(1, threads=128) as bx:
        s = T.alloc_shared((64, 64), "float16")
        ready = T.alloc_barrier(arrive_count=128)
        T.tma_copy(A, s, barrier=s)  # expect-error: T.tma_copy takes a barrier of T.alloc_barrier
        T.barrier_arrive(ready)
        T.copy(s, B)
