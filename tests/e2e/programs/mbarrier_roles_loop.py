# The producer/consumer schedule of mbarrier_producer_consumer.py written the way minference's
# vertical-slash kernel writes it: the warp roles are the two sides of one `if tx >= 128:` /
# `else:`, each looping over all L tiles on its own (no T.ws inside a shared loop). Warp group 1
# fills a ring of `stages` shared slots with 2 * X, warp group 0 reads each slot at another
# thread's element and frees it; the producer's first `stages` waits on `empty` use parity 1.
#   Y[r, c] = sum_k (k + 1) * 2 * X[r, k * 128 + (c + k) % 128]
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def roles_loop(R=3, L=5, stages=2):
    @T.prim_func
    def main(X: T.Tensor((R, L * 128), "float32"), Y: T.Tensor((R, 128), "float32")):
        with T.Kernel(R, threads=256) as bx:
            tx = T.get_thread_binding()
            ring = T.alloc_shared((stages, 128), "float32")
            full = T.alloc_barrier([128] * stages)
            empty = T.alloc_barrier([128] * stages)
            acc = T.alloc_var("float32")
            acc = 0.0
            if tx >= 128:
                for k in T.serial(L):
                    T.mbarrier_wait_parity(empty[k % stages], (k // stages + 1) % 2)
                    ring[k % stages, tx - 128] = X[bx, k * 128 + tx - 128] * 2.0
                    T.mbarrier_arrive(full[k % stages])
            else:
                for k in T.serial(L):
                    T.mbarrier_wait_parity(full[k % stages], (k // stages) % 2)
                    acc += ring[k % stages, (tx + k) % 128] * (k + 1)
                    T.mbarrier_arrive(empty[k % stages])
                Y[bx, tx] = acc

    return main
