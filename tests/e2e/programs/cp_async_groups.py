# Hand-written cp.async with commit/wait groups (no mbarrier; sm_80 and sm_90a): every thread
# copies 8 halves (16 bytes) of chunk k of a row into a shared tile with T.ptx_cp_async (the
# destination pointer from the buffer method tile.access_ptr, the source from T.access_ptr),
# commits the group, waits for it, and after a block barrier reads an element another thread
# copied. The next chunk's copy is issued after a second barrier.
#   Y[r, t] = sum_k (k + 1) * X[r, k * 1024 + (8 * t + 5 + 3 * k) % 1024]
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def cp_async_groups(R=2, L=3):
    @T.prim_func
    def main(X: T.Tensor((R, L * 1024), "float16"), Y: T.Tensor((R, 128), "float32")):
        with T.Kernel(R, threads=128) as bx:
            tx = T.get_thread_binding()
            tile = T.alloc_shared((1024,), "float16")
            acc = T.alloc_var("float32")
            acc = 0.0
            for k in T.serial(L):
                T.ptx_cp_async(tile.access_ptr("w", offset=tx * 8, extent=8), T.access_ptr(X[bx, k * 1024 + tx * 8], "r", 8), 8)
                T.ptx_commit_group()
                T.ptx_wait_group(0)
                T.sync_threads()
                acc += T.cast(tile[(8 * tx + 5 + 3 * k) % 1024], "float32") * (k + 1)
                T.sync_threads()
            Y[bx, tx] = acc

    return main
