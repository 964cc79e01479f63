# T.sync_threads() (the block barrier) where not every thread of the block reaches it: under an
# `if` on the thread index, on a value read at the thread's index, and in a loop whose trip count
# is the thread index. Each is a user error at the barrier naming the guard's line (it was an
# "internal compiler error: pass 'infer-layouts' produced invalid IR").
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        tx = T.get_thread_binding()
        s = T.alloc_shared((128,), "float32")
        s[tx] = A[tx]
        if tx < 64:
            T.sync_threads()  # expect-error(col 13): T.sync_threads() inside an 'if' whose condition reads the thread index (line 14)
            # expect-hint: T.sync_threads(barrier_id, thread_count)
        if A[tx] > 0:
            T.sync_threads()  # expect-error(col 13): T.sync_threads() inside an 'if' whose condition reads the thread index (line 17)
        for it in T.serial(tx):
            T.sync_threads()  # expect-error(col 13): T.sync_threads() inside a loop whose bounds read the thread index (line 19)
        B[tx] = s[127 - tx]
