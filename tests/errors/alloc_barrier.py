import tilelang.language as T


# A hand-written producer/consumer schedule on mbarriers (TileLang's warp_specialize examples)
# compiles for sm_90a (tests/e2e/programs/mbarrier_producer_consumer.py); the default target,
# sm_80, has no mbarrier.try_wait.parity for its waits.
@T.prim_func
def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=256) as bx:
        tx = T.get_thread_binding()
        s = T.alloc_shared((128,), "float32")
        ready = T.alloc_barrier(arrive_count=128)  # expect-error(col 17): T.alloc_barrier: mbarrier phase waits (mbarrier.try_wait.parity) need sm_90
        with T.ws(1):
            s[tx % 128] = A[tx % 128]
            T.barrier_arrive(ready)
        with T.ws(0):
            T.barrier_wait(ready, 0)
            B[tx] = s[127 - tx]
