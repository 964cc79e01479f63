# A hand-written producer/consumer schedule on mbarriers, as TileLang's warp-specialized examples
# write it: warp group 1 (threads 128..255) fills a ring of `stages` shared slots with 2 * X,
# warp group 0 reads each slot -- at another thread's element, so only the barrier makes the
# producer's store visible -- and frees it. `full[s]` completes when the 128 producers stored
# slot s, `empty[s]` when the 128 consumers read it; the producer's first `stages` waits on
# `empty` use parity 1, which a fresh barrier counts as completed. T.set_max_nreg moves
# registers from the producer to the consumers (setmaxnreg, sm_90a).
#   Y[r, c] = sum_k (k + 1) * 2 * X[r, k * 128 + (c + k) % 128]
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def producer_consumer(R=3, L=5, stages=2):
    @T.prim_func
    def main(X: T.Tensor((R, L * 128), "float32"), Y: T.Tensor((R, 128), "float32")):
        with T.Kernel(R, threads=256) as bx:
            tx = T.get_thread_binding()
            ring = T.alloc_shared((stages, 128), "float32")
            full = T.alloc_barrier([128] * stages)
            empty = T.alloc_barrier(arrive_count=[128] * stages)
            acc = T.alloc_var("float32")
            acc = 0.0
            with T.ws(1):
                T.set_max_nreg(40, 0)
            with T.ws(0):
                T.set_max_nreg(232, 1)
            for k in T.serial(L):
                with T.ws(1):
                    T.barrier_wait(empty[k % stages], (k // stages + 1) % 2)
                    ring[k % stages, tx % 128] = X[bx, k * 128 + tx % 128] * 2.0
                    T.barrier_arrive(full[k % stages])
                with T.ws(0):
                    T.mbarrier_wait_parity(full[k % stages], (k // stages) % 2)
                    acc += ring[k % stages, (tx + k) % 128] * (k + 1)
                    T.fence_proxy_async()
                    T.mbarrier_arrive(empty[k % stages])
            with T.ws(0):
                Y[bx, tx] = acc

    return main
