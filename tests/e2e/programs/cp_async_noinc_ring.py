# Hand-written cp.async into a shared ring completed on mbarriers, as TileLang's warp-specialized
# MLA kernels write it: warp group 1 (threads 128..255) copies 16 bytes each (4 float32) of row
# chunk k into ring slot k % stages with T.ptx_cp_async(T.access_ptr(...), T.access_ptr(...), 4),
# zero-filling past the V valid columns (the predicate), then arrives on full[slot] once its
# copies landed (T.cp_async_barrier_noinc: cp.async.mbarrier.arrive.noinc, one of the 128
# arrivals). Warp group 0 waits on full[slot], reads another producer's element and frees the
# slot on empty[slot].
#   Y[r, c] = sum_k (k + 1) * Xz[r, k * 512 + (4 * c + 3 + k) % 512],  Xz = X with columns >= V zero
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def cp_async_noinc_ring(R=2, L=3, V=1400, stages=2):
    @T.prim_func
    def main(X: T.Tensor((R, L * 512), "float32"), Y: T.Tensor((R, 128), "float32")):
        with T.Kernel(R, threads=256) as bx:
            tx = T.get_thread_binding()
            ring = T.alloc_shared((stages, 512), "float32")
            full = T.alloc_barrier([128] * stages)
            empty = T.alloc_barrier(arrive_count=[128] * stages)
            acc = T.alloc_var("float32")
            acc = 0.0
            for k in T.serial(L):
                with T.ws(1):
                    T.barrier_wait(empty[k % stages], (k // stages + 1) % 2)
                    T.ptx_cp_async(
                        T.access_ptr(ring[k % stages, (tx - 128) * 4], "w", 4),
                        T.access_ptr(X[bx, k * 512 + (tx - 128) * 4], "r", 4),
                        4,
                        predicate=k * 512 + (tx - 128) * 4 < V,
                    )
                    T.cp_async_barrier_noinc(full[k % stages])
                with T.ws(0):
                    T.barrier_wait(full[k % stages], (k // stages) % 2)
                    acc += ring[k % stages, (4 * tx + 3 + k) % 512] * (k + 1)
                    T.barrier_arrive(empty[k % stages])
            with T.ws(0):
                Y[bx, tx] = acc

    return main
