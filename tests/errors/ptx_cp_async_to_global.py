import tilelang.language as T


# cp.async writes shared memory: the destination pointer of T.ptx_cp_async must point into a
# T.alloc_shared buffer (TileLang's MLA kernels: T.access_ptr(KV_shared[...], "w", 8)).
@T.prim_func
def main(A: T.Tensor((128, 8), "float16"), B: T.Tensor((128, 8), "float16")):
    with T.Kernel(1, threads=128) as bx:
        tx = T.get_thread_binding()
        T.ptx_cp_async(T.access_ptr(B[tx, 0], "w", 8), T.access_ptr(A[tx, 0], "r", 8), 8)  # expect-error: T.ptx_cp_async: the destination 'B' is global memory; cp.async writes shared memory
