# T.alloc_barrier inside `with T.ws(1):` (found by fuzz_meta, 2026-12-04, from a mutated copy of
# the producer/consumer example): its initialisation ends with a block barrier that only the
# role's 128 threads reach. An `if tx < 128:` branch was already refused; T.ws is the same branch.
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=256) as bx:
        tx = T.get_thread_binding()
        s = T.alloc_shared((128,), "float32")
        with T.ws(1):
            ready = T.alloc_barrier(arrive_count=128)  # expect-error(col 21): T.alloc_barrier inside thread-dependent control flow
            s[tx % 128] = A[tx % 128]
            T.barrier_arrive(ready)
        B[tx % 128] = s[tx % 128]
