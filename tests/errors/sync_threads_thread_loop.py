# T.sync_threads() in a loop whose trip count is the thread index: threads run it different times.
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        tx = T.get_thread_binding()
        s = T.alloc_shared((128,), "float32")
        s[tx] = A[tx]
        for it in T.serial(tx):
            T.sync_threads()  # expect-error(col 13): T.sync_threads() inside thread-dependent control flow
            # expect-hint: T.sync_threads(barrier_id, thread_count)
        B[tx] = s[127 - tx]
