# A barrier inside T.Parallel: the iterations are spread over the threads, so the barrier is not
# reached by every thread of the block (a deadlock or undefined behaviour on the GPU).
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((64,), "float32")):
    with T.Kernel(1, threads=128) as (bx,):
        s = T.alloc_shared((64,), "float32")
        for i in T.Parallel(64):
            s[i] = 1.0
            T.sync_threads()  # expect-error(col 13): T.sync_threads() inside T.Parallel
            A[i] = s[63 - i]
