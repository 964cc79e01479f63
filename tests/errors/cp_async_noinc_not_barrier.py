import tilelang.language as T


# T.cp_async_barrier_noinc arrives on an mbarrier of T.alloc_barrier, not on a data buffer.
@T.prim_func
def main(A: T.Tensor((128, 8), "float16"), B: T.Tensor((128, 8), "float16")):
    with T.Kernel(1, threads=128) as bx:
        tx = T.get_thread_binding()
        s = T.alloc_shared((128, 8), "float16")
        T.ptx_cp_async(T.access_ptr(s[tx, 0], "w", 8), T.access_ptr(A[tx, 0], "r", 8), 8)
        T.cp_async_barrier_noinc(s[tx, 0])  # expect-error: T.cp_async_barrier_noinc takes a barrier of T.alloc_barrier
        B[tx, 0] = s[tx, 0]
