# T.sync_threads() (the block barrier) under an `if` on the thread index: not every thread of the
# block reaches it. A user error at the barrier (it was an "internal compiler error: pass
# 'infer-layouts' produced invalid IR"; the fuzzer's seed from this file found the elaborator
# gap). sync_threads_value_condition.py and sync_threads_thread_loop.py: the other two forms.
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        tx = T.get_thread_binding()
        s = T.alloc_shared((128,), "float32")
        s[tx] = A[tx]
        if tx < 64:
            T.sync_threads()  # expect-error(col 13): T.sync_threads() inside thread-dependent control flow
            # expect-hint: T.sync_threads(barrier_id, thread_count)
        B[tx] = s[127 - tx]
