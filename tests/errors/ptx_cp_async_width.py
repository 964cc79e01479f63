import tilelang.language as T


# cp.async copies 4, 8 or 16 bytes per thread: 3 float16 elements are 6 bytes.
@T.prim_func
def main(A: T.Tensor((128, 8), "float16"), B: T.Tensor((128, 8), "float16")):
    with T.Kernel(1, threads=128) as bx:
        tx = T.get_thread_binding()
        s = T.alloc_shared((128, 8), "float16")
        T.ptx_cp_async(T.access_ptr(s[tx, 0], "w", 8), T.access_ptr(A[tx, 0], "r", 8), 3)  # expect-error: T.ptx_cp_async: 3 float16 elements are 48 bits; cp.async copies 4, 8 or 16 bytes
        T.ptx_commit_group()
        T.ptx_wait_group(0)
        B[tx, 0] = s[tx, 0]
